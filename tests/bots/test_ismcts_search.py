"""ISMCTS on tiny scripted games whose best move and search statistics can be worked out by hand: visit and
availability counts, what a rollout plays and how it is valued, the clock, and the parsing of the bot's
parameters (defaults, bounds, exact messages).

A scripted game is a table from the history so far to who acts and what is legal, and from a finished
history to the scores; it is registered in-process for one test (with its own search hooks) and removed
afterwards.
"""

from __future__ import annotations

import math
import random
import re
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any, ClassVar

import numpy as np
import pytest

from floe.bots.hooks import SearchHooks
from floe.bots.ismcts import ISMCTSBot, Node, _visits, terminal_values, win_values
from floe.core import registry
from floe.core.entry import GameEntry
from floe.core.errors import OptionError
from floe.core.game import CHANCE, TERMINAL, Game, GameSpec, State

History = tuple[int, ...]


class ScriptState(State):
    """A position of a ``ScriptGame``: the actions so far."""

    __slots__ = ("game", "moves")

    def __init__(self, game: ScriptGame, moves: list[int] | None = None) -> None:
        self.game = game
        self.moves = moves or []

    def current_player(self) -> int:
        return self.game.turn(tuple(self.moves))[0]

    def legal_actions(self) -> list[int]:
        return list(self.game.turn(tuple(self.moves))[1])

    def apply_unchecked(self, action: int) -> None:
        self.moves.append(action)

    def action_to_string(self, action: int) -> str:
        return str(action)

    def string_to_action(self, text: str) -> int:
        return int(text)

    def observation(self, seat: int | None) -> History:
        return tuple(self.moves)

    def observation_vector(self, seat: int) -> Any:
        return np.zeros(1, dtype=np.float32)

    def scores(self) -> list[int]:
        return list(self.game.result(tuple(self.moves)))

    def clone(self) -> ScriptState:
        return ScriptState(self.game, list(self.moves))

    @property
    def history(self) -> list[int]:
        return self.moves

    def to_json(self) -> dict[str, Any]:
        return {"moves": list(self.moves)}


class ScriptGame(Game):
    """A game given by ``turn`` (history -> (player, legal actions)) and ``result`` (history -> scores)."""

    name: ClassVar[str] = "script"
    information: ClassVar[str] = "perfect"
    max_players: ClassVar[int] = 3

    def turn(self, history: History) -> tuple[int, list[int]]:
        raise NotImplementedError

    def result(self, history: History) -> list[int]:
        raise NotImplementedError

    @property
    def spec(self) -> GameSpec:
        return GameSpec(self.name, self.players, 2, 3, 100, 100, -1.0, 1.0, 1000, "perfect", 1, "1")

    def new_initial_state(self) -> ScriptState:
        return ScriptState(self)

    def determinize(self, observation: Any, rng: random.Random) -> ScriptState:
        return ScriptState(self, list(observation))

    def state_from_json(self, data: Mapping[str, Any]) -> ScriptState:
        return ScriptState(self, list(data["moves"]))


END: tuple[int, list[int]] = (TERMINAL, [])


class Pick(ScriptGame):
    """Seat 0 picks 0, 1 or 2 and the game ends: 1 wins for seat 0, 0 and 2 lose."""

    name = "script-pick"

    def turn(self, history: History) -> tuple[int, list[int]]:
        return (0, [0, 1, 2]) if not history else END

    def result(self, history: History) -> list[int]:
        return [1, 0] if history[0] == 1 else [0, 1]


class PickTwo(ScriptGame):
    """Seat 0 picks 0 or 1 and the game ends: 1 wins for seat 0."""

    name = "script-pick-two"

    def turn(self, history: History) -> tuple[int, list[int]]:
        return (0, [0, 1]) if not history else END

    def result(self, history: History) -> list[int]:
        return [1, 0] if history[0] == 1 else [0, 1]


@pytest.fixture
def register() -> Iterator[Callable[..., ScriptGame]]:
    """Register scripted games (with optional search hooks) for one test; remove them afterwards."""
    added: list[str] = []

    def add(game: type[ScriptGame], players: int = 2, hooks: SearchHooks | None = None) -> ScriptGame:
        ref = None
        if hooks is not None:
            HOOKS[game.name] = hooks
            ref = f"{__name__}:HOOKS.{game.name}"
        registry.register(GameEntry(game=game, search=ref))
        added.append(game.name)
        return game(players)

    yield add
    for name in added:
        registry._ENTRIES.pop(name, None)
        HOOKS.pop(name, None)


class _Hooks(dict[str, SearchHooks]):
    """Hooks by game name, reachable as attributes for an entry's ``module:HOOKS.name`` reference."""

    def __getattr__(self, name: str) -> SearchHooks:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


HOOKS = _Hooks()


def record_finals(bot: ISMCTSBot, finals: list[History]) -> None:
    """Make ``bot`` note the history of every finished game its rollouts value."""
    ending = bot.final

    def final(state: State) -> list[float]:
        assert isinstance(state, ScriptState)
        finals.append(tuple(state.moves))
        return ending(state)

    bot.final = final


def bot_for(game: ScriptGame, seat: int = 0, seed: int = 1, **params: str) -> ISMCTSBot:
    return ISMCTSBot(game, seat, seed, **params)


# --- parameters ------------------------------------------------------------------------------------------


def test_defaults(register: Callable[..., ScriptGame]) -> None:
    game = register(Pick)
    bot = bot_for(game)
    assert (bot.ms, bot.iterations, bot.c, bot.depth) == (None, 1000, 0.7, 24)
    assert bot.reward == "rank" and bot.final is terminal_values
    assert bot.evaluator is None and bot.policy is None and bot.world_params == {}
    assert bot.opponents_by_policy is False
    assert bot.last_iterations == 0 and bot._deadline == math.inf and bot._expired is False
    # With more than two players, opponents are played by the rollout policy unless told otherwise.
    assert bot_for(register(PickTwo, 3)).opponents_by_policy is True
    assert bot_for(game, opponents="policy").opponents_by_policy is True
    assert bot_for(game.__class__(3), opponents="tree").opponents_by_policy is False


def test_hooks_are_used_as_the_parameters_say(register: Callable[..., ScriptGame]) -> None:
    def rank_eval(state: Any) -> list[float]:
        return [0.25, 0.75]

    def win_eval(state: Any) -> list[float]:
        return [0.0, 1.0]

    def policy(state: Any, legal: list[int], rng: random.Random) -> int:
        return legal[0]

    def sampler(game: Game, obs: Any, rng: random.Random, params: Mapping[str, str]) -> State:
        return game.determinize(obs, rng)

    hooks = SearchHooks(
        evaluate=rank_eval,
        evaluate_win=win_eval,
        rollout=policy,
        sample_world=sampler,
        world_parameters={"worlds": ("fair", "odd"), "luck": ("none", "some", "all")},
    )
    game = register(Pick, hooks=hooks)
    bot = bot_for(game)
    assert bot.evaluator is rank_eval and bot.policy is policy and bot.final is terminal_values
    assert bot.world_params == {"luck": "none", "worlds": "fair"}
    bot = bot_for(game, reward="win", rollout="random", worlds="odd", luck="all")
    assert bot.evaluator is win_eval and bot.policy is None and bot.final is win_values
    assert bot.world_params == {"luck": "all", "worlds": "odd"}
    assert bot_for(game, rollout="heuristic", reward="rank").policy is policy
    # Without a win evaluation, reward=win falls back to the game's evaluation.
    game2 = register(PickTwo, hooks=SearchHooks(evaluate=rank_eval))
    assert bot_for(game2, reward="win").evaluator is rank_eval


@pytest.mark.parametrize(
    ("params", "message"),
    [
        (
            {"speed": "9"},
            "ismcts has no parameter 'speed'; parameters: c, depth, it, iterations, luck, ms, net, "
            "opponents, reward, rollout, worlds",
        ),
        ({"c": "0"}, "ismcts: c must be a positive number up to 100, not '0'"),
        ({"c": "100.5"}, "ismcts: c must be a positive number up to 100, not '100.5'"),
        ({"depth": "1.5"}, "ismcts: depth must be a whole number, not '1.5'"),
        ({"depth": "10001"}, "ismcts: depth must be between 1 and 10000, not '10001'"),
        ({"worlds": "even"}, "ismcts: worlds must be one of fair, odd, not 'even'"),
        ({"luck": "any"}, "ismcts: luck must be one of none, some, all, not 'any'"),
        ({"reward": "cash"}, "ismcts: reward must be one of rank, win, not 'cash'"),
        ({"opponents": "psychic"}, "ismcts: opponents must be one of tree, policy, not 'psychic'"),
        ({"rollout": "smart"}, "ismcts: rollout must be one of heuristic, random, not 'smart'"),
        ({"ms": "0"}, "ismcts: ms must be a positive number up to 3600000, not '0'"),
        ({"it": "0"}, "ismcts: it must be between 1 and 10000000, not '0'"),
    ],
)
def test_bad_parameters_are_refused_with_one_clear_line(
    register: Callable[..., ScriptGame], params: dict[str, str], message: str
) -> None:
    hooks = SearchHooks(world_parameters={"worlds": ("fair", "odd"), "luck": ("none", "some", "all")})
    game = register(Pick, hooks=hooks)
    with pytest.raises(OptionError, match=f"^{re.escape(message)}$"):
        ISMCTSBot(game, 0, 1, **params)


def test_the_bounds_are_accepted(register: Callable[..., ScriptGame]) -> None:
    game = register(Pick)
    bot = bot_for(game, c="100", depth="10000", ms="20", it="7")
    assert (bot.c, bot.depth, bot.ms, bot.iterations) == (100.0, 10000, 20.0, 7)
    assert isinstance(bot.depth, int) and isinstance(bot.c, float)
    assert bot_for(game, c="0.01", depth="1").depth == 1
    # The unknown-parameter message of a game without world parameters lists only the bot's own.
    with pytest.raises(
        OptionError, match=r"parameters: c, depth, it, iterations, ms, net, opponents, reward, rollout$"
    ):
        bot_for(game, luck="all")


# --- the tree's statistics on positions with a known best move -------------------------------------------


def test_visits_concentrate_on_the_winning_move(register: Callable[..., ScriptGame]) -> None:
    game = register(Pick)
    for seed in range(4):
        bot = bot_for(game, seed=seed, it="6")
        root = bot.search((), [0, 1, 2])
        # Three iterations expand one action each (the game ends at once: each is worth its final value,
        # 1 for the win, 0 for a loss). Then UCB1 with c = 0.7: a loss is worth 0.7·√ln(avail) ≤ 0.7·√ln 6
        # < 1, below the win's 1 + exploration, so iterations 4 to 6 all go to the win.
        assert {a: (n.visits, n.reward) for a, n in root.children.items()} == {
            0: (1, 0.0),
            1: (4, 4.0),
            2: (1, 0.0),
        }
        assert root.visits == 6 and bot.last_iterations == 6
        # Each child was available in every iteration from the one that added it: 6, 5 and 4 times.
        assert sorted(n.avail for n in root.children.values()) == [4, 5, 6]
        assert all(n.player == 0 and n.children == {} for n in root.children.values())
        assert bot.analyse((), [0, 1, 2]) == [(1, 4, 1.0), (0, 1, 0.0), (2, 1, 0.0)]
        assert bot.choose((), [0, 1, 2]) == 1


def test_exploration_follows_ucb1_by_hand(register: Callable[..., ScriptGame]) -> None:
    game = register(PickTwo)
    orders = set()
    for seed in range(8):
        for iterations, if_win_first, if_loss_first in ((5, (4, 1), (3, 2)), (6, (4, 2), (4, 2))):
            bot = bot_for(game, seed=seed, it=str(iterations), c="2")
            root = bot.search((), [0, 1])
            win, loss = root.children[1], root.children[0]
            win_first = win.avail > loss.avail
            orders.add(win_first)
            # UCB1 value: reward/visits + 2·√(ln(avail)/visits). After two iterations both have one visit.
            # Win added first (its avail 3, 4, 5, 6 in iterations 3 to 6; the loss's 2, 3, 4, 5):
            #   it. 3: 1 + 2√(ln3/1) = 3.10 > 2√ln2 = 1.67;  it. 4: 1 + 2√(ln4/2) = 2.67 > 2√ln3 = 2.10;
            #   it. 5: 1 + 2√(ln5/3) = 2.46 > 2√ln4 = 2.35;  it. 6: 1 + 2√(ln6/4) = 2.34 < 2√ln5 = 2.54.
            # Loss added first (the loss's avail 3 to 6, the win's 2 to 5):
            #   it. 3: 1 + 2√ln2 = 2.67 > 2√ln3 = 2.10;  it. 4: 1 + 2√(ln3/2) = 2.48 > 2√ln4 = 2.35;
            #   it. 5: 1 + 2√(ln4/3) = 2.36 < 2√ln5 = 2.54;  it. 6: 1 + 2√(ln5/3) = 2.46 > 2√(ln6/2) = 1.89.
            assert (win.visits, loss.visits) == (if_win_first if win_first else if_loss_first)
            assert sorted((win.avail, loss.avail)) == [iterations - 1, iterations]
            assert (win.reward, loss.reward) == (win.visits, 0.0)
    assert orders == {True, False}  # both orders of expansion were met


class Worlds(ScriptGame):
    """A hidden coin (10 or 11) the seat never sees, then seat 0 moves: after 10 only 1 is legal, after 11
    both 0 and 1 are; 0 wins, 1 loses. The worlds come from the game's sampler, 10 and 11 in turn."""

    name = "script-worlds"

    def turn(self, history: History) -> tuple[int, list[int]]:
        if not history:
            return CHANCE, [10, 11]
        if len(history) == 1:
            return 0, [1] if history[0] == 10 else [0, 1]
        return END

    def result(self, history: History) -> list[int]:
        return [1, 0] if history[1] == 0 else [0, 1]


def alternating_worlds() -> SearchHooks:
    coins = iter([10, 11] * 1000)
    return SearchHooks(sample_world=lambda game, obs, rng, params: ScriptState(game, [next(coins)]))  # type: ignore[arg-type]


def test_an_action_is_counted_available_only_in_the_worlds_where_it_is_legal(
    register: Callable[..., ScriptGame],
) -> None:
    game = register(Worlds, hooks=alternating_worlds())
    bot = bot_for(game, it="8")
    root = bot.search((), [0, 1])
    win, loss = root.children[0], root.children[1]
    # Iteration 1 (coin 10) adds the loss, iteration 2 (coin 11) the win; after that every coin-10 world
    # must play the loss and every coin-11 world prefers the win (1 + exploration against ≤ 0.7·√(ln 8/2)).
    assert (win.visits, loss.visits) == (4, 4)
    assert (win.avail, loss.avail) == (4, 8)  # the win is legal in coin-11 worlds only, from iteration 2
    assert (win.reward, loss.reward) == (4.0, 0.0)
    assert bot.choose((), [0, 1]) in (0, 1)


class CoinPick(Pick):
    """``Pick`` after a coin (10 or 11) that changes nothing."""

    name = "script-coin-pick"

    def turn(self, history: History) -> tuple[int, list[int]]:
        return (CHANCE, [10, 11]) if not history else super().turn(history[1:])

    def result(self, history: History) -> list[int]:
        return super().result(history[1:])


def test_chance_on_the_way_down_is_drawn_and_not_part_of_the_tree(
    register: Callable[..., ScriptGame],
) -> None:
    game = register(CoinPick)
    bot = bot_for(game, it="6")
    root = bot.search((), [0, 1, 2])
    assert {a: n.visits for a, n in root.children.items()} == {0: 1, 1: 4, 2: 1}
    assert sorted(n.avail for n in root.children.values()) == [4, 5, 6]


class Pick3(ScriptGame):
    """Three seats; seat 0 picks 0, 1 or 2 and finishes first, second or third."""

    name = "script-pick-3"

    def turn(self, history: History) -> tuple[int, list[int]]:
        return (0, [0, 1, 2]) if not history else END

    def result(self, history: History) -> list[int]:
        return {0: [3, 2, 1], 1: [2, 3, 1], 2: [1, 2, 3]}[history[0]]


def test_rank_and_win_rewards(register: Callable[..., ScriptGame]) -> None:
    game = register(Pick3, 3)
    final = ScriptState(game, [1])
    assert terminal_values(final) == [0.5, 1.0, 0.0] and win_values(final) == [0.0, 1.0, 0.0]
    assert terminal_values(ScriptState(game, [2])) == [0.0, 0.5, 1.0]
    for reward, second in (("rank", 0.5), ("win", 0.0)):
        root = bot_for(game, it="3", reward=reward).search((), [0, 1, 2])
        assert {a: n.reward for a, n in root.children.items()} == {0: 1.0, 1: second, 2: 0.0}


class Duel(ScriptGame):
    """Seat 0 picks 0 or 1, then seat 1 answers: forced (0) after a 0, free (0 or 1) after a 1.
    Seat 0 wins with 1 then 0; otherwise seat 1 wins."""

    name = "script-duel"

    def turn(self, history: History) -> tuple[int, list[int]]:
        if not history:
            return 0, [0, 1]
        if len(history) == 1:
            return 1, [0] if history[0] == 0 else [0, 1]
        return END

    def result(self, history: History) -> list[int]:
        return [1, 0] if history == (1, 0) else [0, 1]


def test_each_node_backs_up_the_value_of_the_seat_that_chose_it(register: Callable[..., ScriptGame]) -> None:
    game = register(Duel)
    bot = bot_for(game, it="40")
    root = bot.search((), [0, 1])
    assert root.visits == 40 and sum(n.visits for n in root.children.values()) == 40
    after_win_try = root.children[1]
    answers = after_win_try.children
    assert set(answers) == {0, 1} and all(n.player == 1 for n in answers.values())
    # Seat 1's answer 1 wins for it (value 1 for seat 1), its answer 0 loses: seat 1 learns to answer 1.
    assert answers[1].reward == answers[1].visits and answers[0].reward == 0.0
    assert answers[1].visits > answers[0].visits
    # Seat 0 gets 1 only when seat 1 answered 0: in the tree, or in the rollout of the iteration that
    # added the node (seat 1's answer was then no node yet).
    assert after_win_try.visits == answers[0].visits + answers[1].visits + 1
    assert after_win_try.reward - answers[0].visits in (0.0, 1.0)
    forced = root.children[0].children
    assert set(forced) == {0} and forced[0].player == 1 and forced[0].reward == forced[0].visits
    # A forced answer is a node too, and its only action is chosen without a UCB1 contest.
    assert root.children[0].visits == forced[0].visits + 1


def test_back_up_adds_each_node_s_seat_value() -> None:
    root, mine, theirs = Node(0), Node(0), Node(1)
    assert (mine.player, mine.children, mine.visits, mine.reward, mine.avail) == (0, {}, 0, 0.0, 1)
    ISMCTSBot._back_up(root, [root, mine, theirs], [0.25, 0.75])
    ISMCTSBot._back_up(root, [root, mine], [0.5, 0.5])
    assert (root.visits, root.reward) == (2, 0.0)
    assert (mine.visits, mine.reward, theirs.visits, theirs.reward) == (2, 0.75, 1, 0.75)
    root.children[3] = mine
    assert _visits(root, 3) == 2 and _visits(root, 4) == -1


def test_opponents_played_by_the_policy_stay_out_of_the_tree(register: Callable[..., ScriptGame]) -> None:
    calls: list[list[int]] = []

    def policy(state: Any, legal: list[int], rng: random.Random) -> int:
        calls.append(list(legal))
        return legal[-1]

    game = register(Duel, hooks=SearchHooks(rollout=policy))
    bot = bot_for(game, it="30", opponents="policy")
    root = bot.search((), [0, 1])
    assert root.visits == 30 and all(n.children == {} for n in root.children.values())
    # The policy answers seat 1's free choice (always 1, a loss for seat 0) in rollouts and in the walk;
    # the forced answer is played without asking it.
    assert calls and all(legal == [0, 1] for legal in calls)
    assert len(calls) == root.children[1].visits
    assert root.children[1].reward == 0.0 and root.children[0].reward == 0.0
    # Without a policy (random rollouts), the walk answers at random: both answers are met.
    finals: list[History] = []
    bot = bot_for(game, it="60", opponents="policy", rollout="random")
    record_finals(bot, finals)
    root = bot.search((), [0, 1])
    assert {(1, 0), (1, 1), (0, 0)} == set(finals)
    assert root.children[1].reward == finals.count((1, 0))


CHAIN = 12


class Chain(ScriptGame):
    """Seat 0 picks 0 or 1 (1 wins), then ``CHAIN`` steps that decide nothing: a coin (50 or 51) at steps
    1, 4 and 10, a forced move (0) at steps 3 and 11, two options (0 or 1) otherwise, seats in turn."""

    name = "script-chain"

    def turn(self, history: History) -> tuple[int, list[int]]:
        if not history:
            return 0, [0, 1]
        step = len(history) - 1
        if step == CHAIN:
            return END
        if step % 3 == 1:
            return CHANCE, [50, 51]
        return step % 2, [0] if step % 4 == 3 else [0, 1]

    def result(self, history: History) -> list[int]:
        return [1, 0] if history[0] == 1 else [0, 1]


def decisions(game: ScriptGame, history: History, start: int = 1) -> list[list[int]]:
    """The legal actions of each decision (not chance) from ``history[:start]`` on, before the end."""
    out = []
    for k in range(start, len(history)):
        player, legal = game.turn(history[:k])
        if player >= 0:
            out.append(legal)
    return out


class Spy:
    """A rollout policy and an evaluation that record what they are asked."""

    def __init__(self) -> None:
        self.evaluated: list[History] = []
        self.asked: list[tuple[History, list[int]]] = []

    def evaluate(self, state: Any) -> list[float]:
        self.evaluated.append(tuple(state.moves))
        return [0.875, 0.125]

    def rollout(self, state: Any, legal: list[int], rng: random.Random) -> int:
        self.asked.append((tuple(state.moves), list(legal)))
        return legal[-1]


@pytest.mark.parametrize("depth", [1, 2, 3, 5])
def test_a_rollout_is_evaluated_after_depth_decisions(
    register: Callable[..., ScriptGame], depth: int
) -> None:
    spy = Spy()
    game = register(Chain, hooks=SearchHooks(evaluate=spy.evaluate, rollout=spy.rollout))
    bot = bot_for(game, it="1", depth=str(depth))
    root = bot.search((), [0, 1])
    # One iteration: the walk adds one of seat 0's actions, the rollout plays ``depth`` decisions (chance
    # steps do not count) and the evaluation values the position at the next decision.
    [history] = spy.evaluated
    assert game.turn(history)[0] >= 0 and len(decisions(game, history)) == depth
    [child] = root.children.values()
    assert (child.visits, child.reward) == (1, 0.875)
    # The policy chose every decision with more than one option, and only those.
    assert [legal for _, legal in spy.asked] == [d for d in decisions(game, history) if len(d) > 1]


def test_a_rollout_without_an_evaluation_plays_to_the_end(register: Callable[..., ScriptGame]) -> None:
    spy = Spy()
    game = register(Chain, hooks=SearchHooks(rollout=spy.rollout))
    bot = bot_for(game, it="2", depth="1")
    root = bot.search((), [0, 1])
    assert root.children[1].reward == 1.0 and root.children[0].reward == 0.0
    # The policy chose every free decision of both rollouts (each to the end of the game).
    assert len(spy.asked) == 2 * sum(len(d) > 1 for d in decisions(game, (0,) * (CHAIN + 1)))
    assert not spy.evaluated


def test_an_evaluation_is_not_used_at_the_end_of_the_game(register: Callable[..., ScriptGame]) -> None:
    spy = Spy()
    game = register(Chain, hooks=SearchHooks(evaluate=spy.evaluate, rollout=spy.rollout))
    root = bot_for(game, it="2", depth=str(CHAIN + 5)).search((), [0, 1])
    assert not spy.evaluated
    assert root.children[1].reward == 1.0 and root.children[0].reward == 0.0


def test_random_rollouts_draw_every_option(register: Callable[..., ScriptGame]) -> None:
    spy = Spy()
    game = register(Chain, hooks=SearchHooks(rollout=spy.rollout))
    finals: list[History] = []
    bot = bot_for(game, it="60", rollout="random")
    record_finals(bot, finals)
    bot.search((), [0, 1])
    assert not spy.asked
    assert len(finals) == 60 and all(len(h) == CHAIN + 1 for h in finals)
    # Every step with two options (a decision or a coin) came out both ways in some rollout.
    for k in range(2, CHAIN + 1):
        if len(game.turn(finals[0][:k])[1]) == 2:
            assert {h[k] for h in finals} == set(game.turn(finals[0][:k])[1]), k


COINS = 70  # more steps than the search takes between two readings of the clock (64)


class Long(ScriptGame):
    """``COINS`` coins (50 or 51), then seat 0 picks 0 or 1 (1 wins), then 100 free decisions in turn."""

    name = "script-long"

    def turn(self, history: History) -> tuple[int, list[int]]:
        if len(history) < COINS:
            return CHANCE, [50, 51]
        if len(history) < COINS + 101:
            return (len(history) - COINS) % 2, [0, 1]
        return END

    def result(self, history: History) -> list[int]:
        return [1, 0] if history[COINS] == 1 else [0, 1]


class LongPlain(Long):
    """``Long`` with no search hooks."""

    name = "script-long-plain"


def test_a_walk_past_the_deadline_stops_at_the_next_clock_reading(
    register: Callable[..., ScriptGame],
) -> None:
    spy = Spy()
    game = register(Long, 3, hooks=SearchHooks(evaluate=spy.evaluate))
    bot = bot_for(game, depth="10000")
    root = Node(0)
    bot._deadline = -math.inf  # long past
    # The 64th step of the walk is still a coin: the walk stops there, valued as even chances (the
    # evaluation is for decisions), and the search is marked expired.
    bot._iterate(root, game.new_initial_state())
    assert (root.visits, root.children, bot._expired) == (1, {}, True)
    assert not spy.evaluated
    assert bot._cut(game.new_initial_state()) == [0.5, 0.5, 0.5]


def test_a_rollout_past_the_deadline_is_cut_and_evaluated(register: Callable[..., ScriptGame]) -> None:
    spy = Spy()
    game = register(Long, hooks=SearchHooks(evaluate=spy.evaluate))
    bot = bot_for(game, depth="10000")
    start = ScriptState(game, [50] * COINS)
    root = Node(0)
    bot._deadline = -math.inf
    bot._iterate(root, start.clone())
    # The walk adds seat 0's pick (step 1); the rollout's 64th step is a decision: evaluated there.
    [child] = root.children.values()
    [history] = spy.evaluated
    assert len(history) == COINS + 1 + 63 and bot._expired
    assert (child.visits, child.reward) == (1, 0.875)
    # Without an evaluation, a cut rollout is worth even chances.
    plain = bot_for(register(LongPlain))
    plain._deadline = -math.inf
    root = Node(0)
    plain._iterate(root, ScriptState(plain.game, [50] * COINS))  # type: ignore[arg-type]
    assert [n.reward for n in root.children.values()] == [0.5]


def test_the_clock_is_not_read_before_64_steps(register: Callable[..., ScriptGame]) -> None:
    game = register(Chain)
    bot = bot_for(game)
    bot._deadline = -math.inf
    root = Node(0)
    for _ in range(3):
        bot._iterate(root, game.new_initial_state())
    assert root.visits == 3 and not bot._expired
    assert sum(n.reward for n in root.children.values()) == root.children[1].visits


def test_cut_values(register: Callable[..., ScriptGame]) -> None:
    spy = Spy()
    game = register(Long, hooks=SearchHooks(evaluate=spy.evaluate))
    bot = bot_for(game)
    assert bot._cut(ScriptState(game, [50] * COINS)) == [0.875, 0.125]  # a decision: evaluated
    assert bot._cut(ScriptState(game, [50])) == [0.5, 0.5]  # a coin: even chances
    assert bot._cut(ScriptState(game, [50] * COINS + [0] * 101)) == [0.5, 0.5]  # the end: even chances
    assert len(spy.evaluated) == 1


def test_out_of_time() -> None:
    game = Pick(2)
    registry.register(GameEntry(game=Pick))
    try:
        bot = bot_for(game)
        assert bot._out_of_time() is False and bot._expired is False
        bot._deadline = time.perf_counter() + 100
        assert bot._out_of_time() is False and bot._expired is False
        bot._deadline = time.perf_counter() - 0.001
        assert bot._out_of_time() is True and bot._expired is True
        bot._deadline = math.inf  # once expired, the search stays stopped
        assert bot._out_of_time() is True
    finally:
        registry._ENTRIES.pop(Pick.name, None)


def test_the_search_budget(register: Callable[..., ScriptGame], monkeypatch: pytest.MonkeyPatch) -> None:
    game = register(Pick)
    bot = bot_for(game, it="5")
    bot._expired = True  # left over from an earlier search: a new search starts afresh
    assert bot.search((), [0, 1, 2]).visits == 5 and bot.last_iterations == 5 and not bot._expired
    assert bot._deadline == math.inf
    # A time budget is checked every 8 iterations: one of a microsecond stops at the first check.
    bot = bot_for(game, ms="0.001")
    assert bot.iterations is None and bot.search((), [0, 1, 2]).visits == 8 and bot.last_iterations == 8
    # So does a time cap, whatever the iterations.
    bot = bot_for(game, it="1000")
    bot.time_cap = 1e-6
    assert bot.search((), [0, 1, 2]).visits == 8
    # Both budgets: the iterations end it, and the deadline is the time budget after the start. On a clock
    # that stands still (the machine's speed cannot move it), that is exactly start + 100 s.
    monkeypatch.setattr(time, "perf_counter", lambda: 5000.0)
    bot = bot_for(game, ms="100000", it="20")
    bot.search((), [0, 1, 2])
    assert bot._deadline == 5000.0 + 100
    assert bot.last_iterations == 20


def test_choose(register: Callable[..., ScriptGame]) -> None:
    game = register(Pick)
    bot = bot_for(game, it="3")
    assert bot.choose((), [2]) == 2 and bot.last_iterations == 0  # one option: no search
    chosen = set()
    for seed in range(12):
        # One iteration adds one action (at random): the one with a visit, not one never tried.
        [tried] = bot_for(game, seed=seed, it="1").search((), [0, 1, 2]).children
        bot = bot_for(game, seed=seed, it="1")
        assert bot.choose((), [0, 1, 2]) == tried and bot.last_iterations == 1
        chosen.add(tried)
    assert chosen == {0, 1, 2}


class Coins63(Long):
    """63 coins, then seat 0 picks 0 or 1 (1 wins) and the game ends."""

    name = "script-coins-63"

    def turn(self, history: History) -> tuple[int, list[int]]:
        if len(history) < 63:
            return CHANCE, [50, 51]
        return (0, [0, 1]) if len(history) == 63 else END

    def result(self, history: History) -> list[int]:
        return [1, 0] if history[63] == 1 else [0, 1]


def test_the_walk_reads_the_clock_at_its_64th_step(register: Callable[..., ScriptGame]) -> None:
    spy = Spy()
    game = register(Coins63, hooks=SearchHooks(evaluate=spy.evaluate))
    bot = bot_for(game)
    bot._deadline = -math.inf
    root = Node(0)
    bot._iterate(root, game.new_initial_state())
    # Steps 1 to 63 are the coins; the 64th finds the deadline passed at seat 0's decision: evaluated.
    [history] = spy.evaluated
    assert len(history) == 63 and set(history) <= {50, 51}
    assert root.children == {} and root.visits == 1


class PickThenCoins(ScriptGame):
    """Seat 0 picks 0 or 1 (1 wins), then ``COINS`` coins, then the end."""

    name = "script-pick-then-coins"

    def turn(self, history: History) -> tuple[int, list[int]]:
        if not history:
            return 0, [0, 1]
        return (CHANCE, [50, 51]) if len(history) <= COINS else END

    def result(self, history: History) -> list[int]:
        return [1, 0] if history[0] == 1 else [0, 1]


def test_a_walk_cut_inside_the_tree_backs_up_even_chances(register: Callable[..., ScriptGame]) -> None:
    game = register(PickThenCoins)
    bot = bot_for(game)
    root = Node(0)
    for _ in range(2):  # both picks added, each valued by a rollout to the end
        bot._iterate(root, game.new_initial_state())
    assert {a: n.reward for a, n in root.children.items()} == {0: 0.0, 1: 1.0}
    bot._deadline = -math.inf
    bot._iterate(root, game.new_initial_state())
    # The third walk goes down to the win (UCB1) and is cut among the coins: the win gets a half.
    assert (root.visits, root.children[1].visits, root.children[1].reward) == (3, 2, 1.5)
    assert bot._expired


class Triple(ScriptGame):
    """Seat 0, seat 1, then seat 0 again each pick 0 or 1; seat 0 wins with two 1s of its own."""

    name = "script-triple"

    def turn(self, history: History) -> tuple[int, list[int]]:
        return ([0, 1, 0][len(history)], [0, 1]) if len(history) < 3 else END

    def result(self, history: History) -> list[int]:
        return [1, 0] if history[0] == history[2] == 1 else [0, 1]


def test_the_walk_goes_on_past_an_opponent_played_by_the_policy(register: Callable[..., ScriptGame]) -> None:
    game = register(Triple)
    root = bot_for(game, it="40", opponents="policy").search((), [0, 1])
    # The tree holds seat 0's second decision too, below its first (the opponent's move between them is
    # played by the policy, not stored).
    second = root.children[1].children
    assert set(second) == {0, 1} and all(n.player == 0 and n.children == {} for n in second.values())
    assert second[1].reward == second[1].visits and second[0].reward == 0.0

"""The greedy and ismcts bots: they see only observations, are reproducible, and validate their options."""

from __future__ import annotations

import random
from functools import partial

import pytest

from floe.bots.ismcts import ISMCTSBot
from floe.bots.registry import make_bot
from floe.core.errors import OptionError
from floe.core.match import Match
from floe.core.registry import make_game
from floe.games.arctic import actions as act
from floe.games.arctic.belief import TotemBelief
from floe.games.arctic.game import ArcticState
from floe.lab.runner import play_game
from floe.testing import midgame as shared_midgame

SEARCH_BOTS = ["greedy", "ismcts:it=60", "ismcts:it=60,totems=uniform"]


# An Arctic match advanced by seeded random decisions, at a decision of some seat (``floe.testing.midgame``).
midgame = partial(shared_midgame, "arctic")


def swap_hidden(state: ArcticState, seat: int) -> ArcticState:
    """A copy in which an opponent's unknown hand card and the stock trade places and totems change."""
    other = state.clone()
    opponent = next(q for q in range(other.players) if q != seat and other.hands[q])
    # A card the seat has not seen enter that hand (not publicly known there).
    hidden = [c for c in other.hands[opponent] if other.known[c] == 0]
    assert hidden and other.deck
    card, replacement = hidden[0], other.deck[0]
    other.hands[opponent].remove(card)
    other.hands[opponent].append(replacement)
    other.hands[opponent].sort()
    other.deck.remove(replacement)
    other.deck.append(card)
    other.deck.sort()
    free = [a for a in range(6) if a not in other.totems]
    other.totems[opponent] = free[0]
    other.forget_derived()
    return other


def find_hidden_position(players: int) -> tuple[ArcticState, int]:
    for seed in range(50):
        match = midgame(players, seed, 30 + seed % 7)
        state = match.state
        assert isinstance(state, ArcticState)
        seat = state.current_player()
        opponents = [q for q in range(players) if q != seat]
        if len(state.legal_actions()) > 1 and any(
            c for q in opponents for c in state.hands[q] if state.known[c] == 0
        ):
            return state, seat
    raise AssertionError("no suitable position")


@pytest.mark.parametrize("spec", SEARCH_BOTS)
@pytest.mark.parametrize("players", [2, 4])
def test_bot_inputs_identical_when_only_hidden_cards_differ(spec: str, players: int) -> None:
    state, seat = find_hidden_position(players)
    twin = swap_hidden(state, seat)
    assert twin.to_json() != state.to_json()
    game = make_game("arctic", players)
    obs_a, obs_b = state.observation(seat), twin.observation(seat)
    assert obs_a == obs_b
    assert state.legal_actions() == twin.legal_actions()
    choice_a = make_bot(spec, game, seat, 5).choose(obs_a, state.legal_actions())
    choice_b = make_bot(spec, game, seat, 5).choose(obs_b, twin.legal_actions())
    assert choice_a == choice_b
    assert choice_a in state.legal_actions()


@pytest.mark.slow  # whole games: left out of ./floe-test --quick
@pytest.mark.parametrize("spec", SEARCH_BOTS)
def test_seeded_bots_reproduce_whole_games(spec: str) -> None:
    game = make_game("arctic", 2)
    first, _ = play_game(game, [spec, "baseline"], 3)
    second, _ = play_game(game, [spec, "baseline"], 3)
    assert first == second


def test_ismcts_statistics_cover_every_legal_action() -> None:
    match = midgame(2, 8, 40)
    state = match.state
    seat = state.current_player()
    bot = make_bot("ismcts:it=400", match.game, seat, 1)
    assert isinstance(bot, ISMCTSBot)
    rows = bot.analyse(state.observation(seat), state.legal_actions())
    assert sorted(a for a, _, _ in rows) == sorted(state.legal_actions())
    assert bot.last_iterations == 400
    assert sum(v for _, v, _ in rows) == 400
    assert all(0.0 <= rate <= 1.0 for _, _, rate in rows)
    assert rows[0][1] == max(v for _, v, _ in rows)


def test_ismcts_time_budget_is_respected() -> None:
    match = midgame(2, 9, 20)
    state = match.state
    seat = state.current_player()
    bot = make_bot("ismcts:ms=50", match.game, seat, 1)
    assert isinstance(bot, ISMCTSBot)
    bot.search(state.observation(seat), state.legal_actions())
    assert 8 <= bot.last_iterations < 100_000


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("ismcts:ms=abc", "ms must be a positive number"),
        ("ismcts:ms=0", "ms must be a positive number"),
        ("ismcts:it=-3", "it must be between 1 and 10000000"),
        ("ismcts:ms=nan", "ms must be a positive number"),
        ("random:seed=3", "takes no parameter 'seed'"),
        ("ismcts:depth=x", "depth must be a whole number"),
        ("ismcts:totems=psychic", "totems must be one of moves, uniform"),
        ("ismcts:speed=9", "no parameter 'speed'"),
        ("ismcts:reward=cash", "reward must be one of rank, win"),
        ("greedy:worlds=0", "worlds must be between 1 and 1000"),
        ("greedy:depth=2", "no parameter 'depth'"),
        ("ismcts:ms", "must look like key=value"),
        ("wizard", "unknown bot 'wizard'"),
    ],
)
def test_bad_bot_specs_are_refused(spec: str, message: str) -> None:
    with pytest.raises(OptionError, match=message):
        make_bot(spec, make_game("arctic", 2), 0, 1)


def test_totem_belief_follows_the_moves() -> None:
    # Seat 1 pushed the orca forward three times and the fox back twice; seat 0 (the observer) is a moose.
    pushes = [0] * 18
    pushes[6 + 3] = 3
    pushes[6 + 0] = -2
    belief = TotemBelief(pushes, seat=0, totems=[1, -1, -1], n=3)
    marginals = belief.marginals()
    assert marginals[1][1] == 0.0  # the observer's own totem is never sampled for others
    assert marginals[1][3] == max(marginals[1])
    assert marginals[1][0] == min(m for a, m in enumerate(marginals[1]) if a != 1)
    for q in (1, 2):
        assert sum(marginals[q]) == pytest.approx(1.0)
    rng = random.Random(0)
    draws = [belief.sample(rng) for _ in range(4000)]
    assert all(d[1] != d[2] and 1 not in d.values() for d in draws)
    share = sum(d[1] == 3 for d in draws) / len(draws)
    assert share == pytest.approx(marginals[1][3], abs=0.03)


def test_totem_belief_uniform_without_evidence() -> None:
    marginals = TotemBelief([0] * 12, seat=0, totems=[2, -1], n=2).marginals()
    assert marginals[1] == pytest.approx([0.2, 0.2, 0.0, 0.2, 0.2, 0.2])


def test_voluntary_moves_are_counted_as_pushes() -> None:
    for seed in range(40):
        match = midgame(2, seed, 5)
        state = match.state
        while not state.is_terminal():
            legal = state.legal_actions()
            if act.MOVE_RIGHT in legal and len(legal) == 2:
                seat = state.current_player()
                before = list(state.pushes)
                match.apply(act.MOVE_RIGHT)
                changed = [i for i in range(len(before)) if state.pushes[i] != before[i]]
                assert len(changed) == 2 and all(i // 6 == seat for i in changed)
                assert sorted(state.pushes[i] - before[i] for i in changed) == [-1, 1]
                return
            match.apply(legal[0])
    raise AssertionError("no voluntary move found")


def test_determinized_totems_use_the_belief() -> None:
    match = midgame(2, 4, 10)
    state = match.state
    assert isinstance(state, ArcticState)
    seat = state.current_player()
    opponent = 1 - seat
    state.pushes[6 * opponent + 5] = 8  # overwhelming evidence for the bear
    if state.totems[seat] == 5:
        state.pushes[6 * opponent + 5] = 0
        state.pushes[6 * opponent + 4] = 8
    obs = state.observation(seat)
    rng = random.Random(1)
    favourite = 5 if state.totems[seat] != 5 else 4
    counts = sum(
        match.game.determinize(obs, rng, totem_belief="moves").totems[opponent] == favourite
        for _ in range(300)
    )
    uniform = sum(match.game.determinize(obs, rng).totems[opponent] == favourite for _ in range(300))
    assert counts > 250
    assert uniform < 120


def test_win_reward_counts_only_first_place_and_matches_rank_reward_for_two_players() -> None:
    from floe.bots.ismcts import terminal_values
    from floe.bots.ismcts import win_values as final_win_values
    from floe.games.arctic.evaluation import values, win_values
    from floe.lab.runner import play_game

    for players in (2, 4):
        _, final = play_game(make_game("arctic", players), ["random"] * players, seed=players)
        won = final_win_values(final)
        assert won[final.ranking()[0]] == 1.0 and sum(won) == 1.0
        if players == 2:
            assert won == terminal_values(final)
            assert win_values(final) == pytest.approx(values(final))  # type: ignore[arg-type]
        else:
            ranked = terminal_values(final)
            assert sorted(ranked) == [0.0, 1 / 3, 2 / 3, 1.0] and sum(win_values(final)) <= 1.0  # type: ignore[arg-type]


def test_opponents_by_policy_keeps_only_own_decisions_in_the_tree() -> None:
    game = make_game("arctic", 4)
    match = Match(game, 11)
    seat = match.state.current_player()
    bot = ISMCTSBot(game, seat, 3, it="200", opponents="policy")
    assert bot.opponents_by_policy and ISMCTSBot(make_game("arctic", 2), 0, 3).opponents_by_policy is False
    root = bot.search(match.state.observation(seat), match.state.legal_actions())
    stack, players = [root], set()
    while stack:
        node = stack.pop()
        players.add(node.player)
        stack.extend(node.children.values())
    assert players == {seat} and root.visits == 200
    with pytest.raises(OptionError, match="opponents must be one of tree, policy"):
        ISMCTSBot(game, seat, 3, opponents="psychic")

"""Arktia's bots (random, greedy, mcts): observation only, legal and reproducible choices, option checks,
and a short seeded tournament that shows the search and the evaluation are worth something."""

from __future__ import annotations

import random
from functools import partial
from pathlib import Path

import pytest

from floe.bots.mcts import MCTSBot
from floe.bots.registry import bot_names, make_bot
from floe.core.errors import OptionError
from floe.core.registry import make_game
from floe.games.arktia.actions import STOP
from floe.games.arktia.codec import observation_from_dict, observation_to_dict
from floe.games.arktia.evaluation import estimates, plain_action, rollout_action, values, values_with_mobility
from floe.games.arktia.game import ArktiaState
from floe.lab.runner import play_game
from floe.lab.stats import summarize
from floe.lab.tournament import make_tournament, run_tournament
from floe.testing import midgame as shared_midgame

BOTS = ["random", "greedy", "mcts:it=60", "mcts:it=40,rollout=random,depth=end", "mcts:it=40,depth=0"]


# An Arktia match advanced by seeded random decisions that never stop voluntarily, at some seat's decision
# (``floe.testing.midgame``).
midgame = partial(shared_midgame, "arktia", avoid=("stop",))


def test_bots_are_registered_for_arktia_only_where_they_fit() -> None:
    assert {"random", "greedy", "mcts", "ismcts"} <= set(bot_names("arktia"))
    assert "mcts" not in bot_names("arctic")
    assert type(make_bot("greedy", make_game("arktia", 2), 0, 1)).__module__ == "floe.games.arktia.greedy"
    assert type(make_bot("greedy", make_game("arctic", 2), 0, 1)).__module__ == "floe.games.arctic.greedy"


@pytest.mark.parametrize("spec", BOTS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_bots_choose_legal_actions_from_the_observation(spec: str, players: int) -> None:
    match = midgame(players, 7 + players, 6 * players)
    state = match.state
    seat = state.current_player()
    observation = state.observation(seat)
    before = state.to_json()
    legal = list(state.legal_actions())
    # The bot gets a copy of the observation (a JSON round trip) and the legal list, nothing else.
    copy = observation_from_dict(observation_to_dict(observation), observation.names)
    choice = make_bot(spec, match.game, seat, 5).choose(copy, legal)
    assert choice in legal
    assert state.to_json() == before  # the game's state is untouched


def test_mcts_refuses_imperfect_information() -> None:
    with pytest.raises(OptionError, match="unknown bot 'mcts'"):
        make_bot("mcts", make_game("arctic", 2), 0, 1)
    with pytest.raises(OptionError, match="perfect-information"):
        MCTSBot(make_game("arctic", 2), 0, 1)


@pytest.mark.parametrize("spec", ["greedy", "mcts:it=50", "mcts:it=30,reuse=0"])
def test_seeded_bots_reproduce_whole_games(spec: str) -> None:
    game = make_game("arktia", 2)
    first, end_a = play_game(game, [spec, "random"], 3)
    second, end_b = play_game(game, [spec, "random"], 3)
    assert first == second
    assert end_a.history == end_b.history


def test_mcts_statistics_cover_the_legal_actions() -> None:
    match = midgame(2, 4, 14)
    state = match.state
    seat = state.current_player()
    bot = make_bot("mcts:it=300,reuse=0", match.game, seat, 1)
    assert isinstance(bot, MCTSBot)
    legal = state.legal_actions()
    rows = bot.analyse(state.observation(seat), legal)
    assert sorted(a for a, _, _ in rows) == sorted(legal)
    assert bot.last_iterations == 300
    assert sum(v for _, v, _ in rows) == 300
    assert all(0.0 <= value <= 1.0 for _, _, value in rows)
    assert rows[0][1] == max(v for _, v, _ in rows)


def test_mcts_keeps_its_tree_between_decisions() -> None:
    match = midgame(2, 5, 12)
    game = match.game
    bots = [make_bot("mcts:it=200", game, seat, 9) for seat in range(2)]
    searched = reused = 0
    while not match.is_over() and searched < 8:
        state = match.state
        seat = state.current_player()
        bot = bots[seat]
        assert isinstance(bot, MCTSBot)
        legal = state.legal_actions()
        action = legal[0]
        if len(legal) > 1:
            root = bot.search(state.observation(seat), legal)
            assert root.visits >= 200
            assert root.state.to_json() == state.to_json()  # the kept subtree is the very position
            assert set(root.children) <= set(legal)
            reused += root.visits > 200  # statistics from an earlier search carried over
            searched += 1
            action = max(root.children, key=lambda a: root.children[a].visits)
        match.apply(action)
    assert searched >= 4 and reused >= 1


@pytest.mark.parametrize("repeat", ["1", "0"])
def test_mcts_answers_a_position_met_twice_before_without_searching(repeat: str) -> None:
    match = midgame(2, 6, 14)
    state = match.state
    seat = state.current_player()
    bot = make_bot(f"mcts:it=50,repeat={repeat}", match.game, seat, 3)
    assert isinstance(bot, MCTSBot)
    legal = state.legal_actions()
    first = bot.choose(state.observation(seat), legal)
    bot.choose(state.observation(seat), legal)
    bot.last_iterations = 0
    third = bot.choose(state.observation(seat), legal)
    if repeat == "1":
        assert bot.last_iterations == 0 and third in legal
    else:
        assert bot.last_iterations == 50
    # Another position (the turn counters aside) is searched as usual.
    match.apply(first)
    while not match.is_over() and len(match.legal_actions()) == 1:
        match.apply(match.legal_actions()[0])
    if not match.is_over() and match.state.current_player() == seat:
        bot.choose(match.state.observation(seat), match.state.legal_actions())
        assert bot.last_iterations == 50


def test_mcts_time_budget_is_respected() -> None:
    match = midgame(2, 9, 12)
    state = match.state
    seat = state.current_player()
    bot = make_bot("mcts:ms=50", match.game, seat, 1)
    assert isinstance(bot, MCTSBot)
    bot.search(state.observation(seat), state.legal_actions())
    assert 5 <= bot.last_iterations < 100_000


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("mcts:ms=abc", "mcts: ms must be a positive number up to 3600000, not 'abc'"),
        ("mcts:ms=0", "mcts: ms must be a positive number"),
        ("mcts:ms=nan", "mcts: ms must be a positive number"),
        ("mcts:ms=inf", "mcts: ms must be a positive number"),
        ("mcts:it=-3", "mcts: it must be between 1 and 10000000"),
        ("mcts:it=1.5", "mcts: it must be a whole number"),
        ("mcts:c=0", "mcts: c must be a positive number"),
        ("mcts:depth=x", "mcts: depth must be a whole number"),
        ("mcts:rollout=smart", "mcts: rollout must be one of heuristic, random"),
        ("mcts:reuse=yes", "mcts: reuse must be one of 1, 0"),
        ("mcts:repeat=2", "mcts: repeat must be one of 1, 0"),
        ("mcts:speed=9", "mcts has no parameter 'speed'"),
        ("mcts:seed=3", "takes no parameter 'seed'"),
        ("greedy:worlds=3", "takes no parameter 'worlds'"),
        ("mcts:ms", "must look like key=value"),
    ],
)
def test_bad_specs_are_refused_in_one_line(spec: str, message: str) -> None:
    with pytest.raises(OptionError, match=message.replace(".", r"\.")) as info:
        make_bot(spec, make_game("arktia", 2), 0, 1)
    assert "\n" not in str(info.value)


def test_evaluation_counts_points_and_prefers_the_leader() -> None:
    match = midgame(2, 2, 16)
    state = match.state
    assert isinstance(state, ArktiaState)
    est = estimates(state)
    for chances in (values(state), values_with_mobility(state)):
        assert len(chances) == 2 and all(0.0 < v < 1.0 for v in chances)
        assert sum(chances) == pytest.approx(1.0)
        assert (chances[0] > chances[1]) == (est[0] > est[1]) or est[0] == est[1]
    # A finished game is judged by its points alone.
    end, final = play_game(match.game, ["greedy", "random"], 1)
    assert isinstance(final, ArktiaState)
    assert estimates(final) == pytest.approx([float(s) for s in end.scores])


def test_rollout_policies_never_stop_while_they_can_act() -> None:
    rng = random.Random(0)
    for seed in range(20):
        match = midgame(2, seed, 12)
        state = match.state
        assert isinstance(state, ArktiaState)
        legal = state.legal_actions()
        for _ in range(30):
            for policy in (rollout_action, plain_action):
                action = policy(state, legal, rng)
                assert action in legal
                assert action != STOP or legal == [STOP]


@pytest.mark.slow  # whole games: left out of ./floe-test --quick
def test_search_and_evaluation_beat_random_play(tmp_path: Path) -> None:
    # 12 deals × 2 seatings = 24 games each; Arktia is deterministic, so a deal's seed varies the bots only.
    for lineup, least in (("mcts:it=150,random", 0.9), ("greedy,random", 0.8)):
        t = make_tournament("arktia", 2, lineup, 2026, {})
        outcome = run_tournament(t, 12, 1, tmp_path / f"{lineup}.jsonl", progress=False)
        stats = summarize(outcome.results, order=t.bots).bots
        strong, weak = stats
        assert strong.games == weak.games == 24
        assert strong.win_rate >= least, f"{strong.bot} won {strong.wins} of 24 against random"
        assert strong.elo > weak.elo + 150
        assert strong.mean_score > weak.mean_score

"""Arche's bots and its terminal: the greedy bot, the search hooks ISMCTS uses, the evaluation, the
presenter's choices, and ``floe play arche`` with ``hint`` and ``floe simulate`` for 3–5 players."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from floe.bots.hooks import hooks_for
from floe.bots.registry import bot_names, make_bot
from floe.core.errors import OptionError
from floe.core.match import Match
from floe.core.present import deciding, legal_choices, log_line, presenter_for
from floe.games.arche.cards import USEFUL
from floe.games.arche.evaluation import estimate_all, gains, hard_points, rollout_action, values
from floe.games.arche.game import ArcheGame, ArcheState
from floe.games.arche.state import ENDGAME
from floe.lab.runner import play_game
from floe.lab.stats import summarize
from floe.lab.tournament import make_tournament, run_tournament

from .arche_helpers import notations, position


def test_the_bots_of_arche() -> None:
    assert {"random", "greedy", "ismcts"} <= set(bot_names("arche"))
    game = ArcheGame(4)
    with pytest.raises(OptionError, match="greedy has no parameter"):
        make_bot("greedy:depth=2", game, 0, 1)
    with pytest.raises(OptionError, match="worlds must be"):
        make_bot("greedy:worlds=0", game, 0, 1)
    hooks = hooks_for(game)
    assert hooks.evaluate is not None and hooks.rollout is not None


@pytest.mark.parametrize("players", [3, 5])
def test_greedy_and_ismcts_play_whole_games(players: int) -> None:
    game = ArcheGame(players)
    specs = ["greedy", "ismcts:it=20,depth=4"] + ["random"] * (players - 2)
    result, state = play_game(game, specs, seed=7)
    assert state.is_terminal() and sorted(result.ranking) == list(range(players))


def test_greedy_pays_a_chip_for_a_majority_in_the_end_game() -> None:
    """Tied on useful (8 points each), a figure more wins it (10 against 6): worth the chip it costs."""
    st = position(left=[["cow"]], right=[["horse"]], hands={0: ["goat"]}, rain_out=5, chips=[2, 2, 2, 2])
    st.figures[USEFUL] = st.figures[5 + USEFUL] = 1
    st.figures_left[0] = st.figures_left[1] = 16
    st.phase = ENDGAME
    st._legal = None
    bot = make_bot("greedy:worlds=4", ArcheGame(4, {"first_player": 0}), 0, 3)
    action = bot.choose(st.observation(0), st.legal_actions())
    assert st.action_to_string(action) in ("play goat l1", "play goat r1")


def test_evaluation_and_rollout_policy_on_random_positions() -> None:
    game = ArcheGame(4)
    for seed in range(5):
        match = Match(game, seed)
        rng = random.Random(seed)
        while not match.is_over():
            state = match.state
            assert isinstance(state, ArcheState)
            chances = values(state)
            assert len(chances) == 4 and all(0.0 <= v <= 1.0 for v in chances)
            assert len(estimate_all(state)) == 4
            legal = state.legal_actions()
            assert rollout_action(state, legal, rng) in legal
            match.apply(rng.choice(legal))


def test_hard_points_share_tied_places() -> None:
    # The KSR's examples: two tied first share 8, two tied second 4, three tied first 6; none there: 0.
    assert hard_points([3.0, 3.0, 1.0, 0.0]) == [8.0, 8.0, 2.0, 0.0]
    assert hard_points([3.0, 1.0, 1.0, 0.5]) == [10.0, 4.0, 4.0, 2.0]
    assert hard_points([2.0, 2.0, 2.0]) == [6.0, 6.0, 6.0]


def test_gains_agree_with_scoring_each_card_twice() -> None:
    """``gains`` skips the second scoring of the others; it must equal the plain definition."""

    def plain(st: ArcheState, seat: int, step: float) -> list[float]:
        n = st.players
        out = []
        for k in range(5):
            s = [st.figures[5 * q + k] + 0.5 * st.halves[5 * q + k] for q in range(n)]
            before = hard_points(s)
            s[seat] += step
            after = hard_points(s)
            others = sum(after[q] - before[q] for q in range(n) if q != seat) / (n - 1)
            out.append(after[seat] - before[seat] - others)
        return out

    checked = 0
    for players in (3, 5):
        match = Match(ArcheGame(players), players)
        rng = random.Random(players)
        while not match.is_over():
            state = match.state
            assert isinstance(state, ArcheState)
            for seat in range(players):
                for step in (0.5, 1.0):
                    assert gains(state, seat, step) == pytest.approx(plain(state, seat, step))
                    checked += 1
            match.apply(rng.choice(state.legal_actions()))
    assert checked > 200


def test_greedy_beats_random_play(tmp_path: Path) -> None:
    """A short seeded duplicate tournament (8 deals × 4 seatings): greedy wins far more than its fair
    quarter against three random players (the long run is in docs/strength.md)."""
    t = make_tournament("arche", 4, "greedy,random", 2026, {})
    outcome = run_tournament(t, 8, 1, tmp_path / "greedy.jsonl", progress=False)
    greedy, rand = summarize(outcome.results, order=t.bots).bots
    assert greedy.games == 32
    assert greedy.win_rate >= 0.5, f"greedy won {greedy.wins} of 32 against random"
    assert greedy.mean_score > rand.mean_score + 3


def test_presenter_choices_carry_card_cabin_and_side() -> None:
    st = position(left=[["cow"]], right=[["horse"]], hands={0: ["goat", "skunk"]}, display=["camel"])
    presenter = presenter_for("arche")
    choices = {c["notation"]: c for c in legal_choices(presenter, st, 0)}
    assert set(choices) == set(notations(st))
    goat = choices["play goat new-r"]
    assert (goat["card"], goat["cabin"], goat["side"], goat["index"], goat["new_cabin"]) == (
        "goat",
        "new-r",
        "right",
        1,
        True,
    )
    into = choices["play goat l1"]
    assert (into["cabin"], into["side"], into["index"], into["new_cabin"]) == ("l1", "left", 0, False)
    evict = choices["play skunk evict cow"]
    assert (evict["card"], evict["target"], evict["cabin"], evict["side"]) == ("skunk", "cow", "l1", "left")
    assert choices["draw camel"]["card"] == "camel"
    assert "draw" in deciding(presenter, st)


def test_log_lines_never_name_a_hidden_card() -> None:
    game = ArcheGame(3)
    presenter = presenter_for("arche")
    match = Match(game, 4)
    rng = random.Random(4)
    for _ in range(400):
        if match.is_over():
            break
        state = match.state
        action = state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions())
        for viewer in (None, 0, 1, 2):
            line = log_line(presenter, state, action, viewer)
            seen = state.observe_action(action, viewer)
            if seen is not None and "?" in seen:
                hidden = state.action_to_string(action).split()[1]
                assert line is None or game.config.deck.names[game.config.deck.card_id(hidden)] not in line
        state.apply(action)
        match.resolve_chance()


def floe(*args: str, stdin: str = "", timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "floe", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={"COLUMNS": "120", "PATH": "/usr/bin:/bin"},
    )


def test_floe_play_arche_in_the_terminal_with_a_hint() -> None:
    answers = "hint\n" + "1\n" * 300
    done = floe("play", "arche", "--players", "4", "--seed", "5", "--bots", "random", stdin=answers)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "placeholder cards, not the printed ones" in out
    assert "scale" in out and "Display:" in out and "Your hand:" in out
    assert "ismcts hint" in out and "win rate" in out
    assert "Final scores" in out and "Ranking:" in out


@pytest.mark.parametrize("players", [3, 4, 5])
def test_floe_simulate(players: int) -> None:
    done = floe("simulate", "arche", "--players", str(players), "--games", "3", "--json")
    assert done.returncode == 0, done.stderr
    (summary,) = json.loads(done.stdout)
    assert summary["bot"] == "random" and summary["seat_games"] == 3 * players

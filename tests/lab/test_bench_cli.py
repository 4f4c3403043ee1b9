"""``floe bench`` as sub-commands: ``engine`` and ``search`` run for every registered game at its own
player range (Arche seats 3 to 5) and print the documented fields (docs/performance.md); counts checked by
hand on ``fixed_game``; bad input is one line with status 2. Tiny budgets: the figures' values are the
benchmarks' business, not a test's."""

from __future__ import annotations

import json
from typing import Any

import pytest
from typer.testing import CliRunner

from floe.bench.engine import has_mcts
from floe.cli import app
from floe.core.registry import entry, game_names

from .fixed_game import fixed_game

__all__ = ["fixed_game"]

# The fields docs/performance.md documents for `floe bench engine --json`.
ENGINE = {
    "game", "players", "engine", "games", "seconds", "decisions", "actions", "decisions_per_sec",
    "actions_per_sec", "games_per_sec", "decisions_per_game", "clone_us", "legal_us", "apply_us", "python",
    "machine",
}  # fmt: skip


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["bench", *args])
    return result.exit_code, result.stdout, result.stderr


def figures(*args: str) -> dict[str, Any]:
    code, out, err = run(*args, "--json")
    assert code == 0, err
    parsed: dict[str, Any] = json.loads(out)
    return parsed


def counts(game: str) -> list[int]:
    spec = entry(game)
    return sorted({spec.min_players, spec.max_players})


@pytest.mark.parametrize("game", game_names())
def test_bench_engine_runs_at_the_games_most_players(game: str) -> None:
    got = figures("engine", game, "--games", "2", "--iterations", "5")
    # The game's own UCT figures, when it has the mcts bot, at its fewest and most players.
    mcts = {"mcts_iterations_per_search"} | {
        f"mcts_{what}_{n}p" for n in counts(game) for what in ("iterations_per_sec", "positions")
    }
    assert set(got) == ENGINE | (mcts if has_mcts(game) else set())
    assert (got["game"], got["players"], got["games"]) == (game, entry(game).max_players, 2)
    assert got["decisions"] > 0 and got["actions"] >= got["decisions"]


@pytest.mark.parametrize("game", game_names())
def test_bench_search_runs_at_the_games_fewest_and_most_players(game: str) -> None:
    got = figures("search", game, "--positions", "1", "--iterations", "5")
    per_count = {f"{what}_{n}p" for n in counts(game) for what in ("iterations_per_sec", "positions")}
    assert set(got) == {"game", "bot", "iterations_per_search", "python"} | per_count
    assert (got["game"], got["bot"], got["iterations_per_search"]) == (game, "ismcts", 5)
    # One position per player count, searched even where the game is shorter than the range of steps (a
    # position past the end is the game's last decision): every search ran its 5 iterations.
    for n in counts(game):
        assert got[f"positions_{n}p"] == 1 and got[f"iterations_per_sec_{n}p"] > 0


def test_a_three_player_minimum_game_is_searched_at_three_and_its_most() -> None:
    arche = entry("arche")
    assert arche.min_players == 3  # the case the old `--ismcts` (2 and 4 players, hard-coded) failed on
    got = figures("search", "arche", "--players", "3", "--positions", "1", "--iterations", "5")
    assert {k for k in got if k.startswith("positions_")} == {"positions_3p"}


def test_bench_engine_counts_every_decision(fixed_game: str) -> None:
    got = figures("engine", fixed_game, "--players", "4", "--games", "20")
    assert (got["games"], got["decisions"], got["actions"]) == (20, 80, 80)
    assert got["decisions_per_game"] == 4.0
    assert got["decisions_per_sec"] > 0 and got["clone_us"] > 0


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["engine", "fixed", "--games", "0"], "--games must be 1 to 1,000,000, not 0"),
        (["engine", "fixed", "--iterations", "0"], "--iterations must be 1 to 10,000,000, not 0"),
        (["engine", "fixed", "--players", "5"], "--players must be 2 to 4 for fixed, not 5"),
        (["engine", "chess"], "unknown game 'chess'"),
        (["search", "fixed", "--bot", "greedy"], "--bot must be one of ismcts, mcts, not 'greedy'"),
        (["search", "arctic", "--bot", "mcts"], "--bot mcts needs a game with the mcts bot"),
        (["search", "fixed", "--positions", "0"], "--positions must be 1 to 100,000, not 0"),
        (["search", "fixed", "--players", "1"], "--players must be 2 to 4 for fixed, not 1"),
        (["lab", "fixed", "--games", "0"], "--games must be 1 to 10,000,000, not 0"),
        (["server", "--tables", "0"], "--tables must be 1 to 100,000, not 0"),
        (["startup", "--tables", "100001"], "--tables must be 1 to 100,000, not 100,001"),
    ],
)
def test_bad_input_is_one_line_with_status_2(fixed_game: str, args: list[str], words: str) -> None:
    code, out, err = run(*args)
    assert code == 2, (out, err)
    assert words in err and len(err.strip().splitlines()) == 1 and "Traceback" not in out + err


def test_the_old_forms_are_gone() -> None:
    # No reserved game names any more: a game is an argument of a sub-command, never the sub-command.
    code, _, err = run("arctic")
    assert code == 2 and "No such command 'arctic'" in err


def test_bench_lab_refuses_an_unknown_bot_before_starting() -> None:
    pytest.importorskip("ray")  # floe bench lab needs the extra first
    code, out, err = run("lab", "--bots", "random,nosuchbot", "--games", "5")
    assert code == 2 and "unknown bot 'nosuchbot'" in err and "Traceback" not in out + err

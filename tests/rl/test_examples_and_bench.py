"""The worked examples run end to end, and ``floe bench rl`` prints its figures."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pyspiel")  # a guard only: CI installs the extra "rl"

from typer.testing import CliRunner

from floe.cli import app

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _run(script: str, *args: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / script), *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()


@pytest.mark.slow  # whole games: left out of ./floe-test --quick
def test_train_example_learns_on_a_small_fixed_budget() -> None:
    """1,000 training games (about 20 s; the example plays penalties=seen): the greedy policy's win rate
    against ``random`` on 200 fixed evaluation deals rises from the untrained ~0.5 (seed 0: 0.50 -> 0.67;
    seed 1: 0.51 -> 0.64). The run is seeded, so this is the same run every time; a learner whose gradient
    points the wrong way drops to 0.36 here, and one that does not move stays at 0.50."""
    lines = _run("train_arctic_policy.py", "--episodes", "1000", "--blocks", "1", "--eval-games", "200")
    summary = json.loads(lines[-1])
    assert summary["episodes"] == 1000 and summary["eval_games"] == 200
    assert summary["final_win_rate"] >= summary["initial_win_rate"] + 0.1, summary
    assert summary["final_win_rate"] >= 0.6, summary


def test_train_example_quick() -> None:
    lines = _run("train_arctic_policy.py", "--quick")
    progress, summary = lines[:-1], json.loads(lines[-1])
    assert progress and all(
        line.startswith("episodes ") and "win rate vs random" in line for line in progress
    )
    assert 0.0 <= summary["initial_win_rate"] <= 1.0
    assert 0.0 <= summary["final_win_rate"] <= 1.0
    assert all(0.0 <= rate <= 1.0 for rate in summary["win_rates"])
    assert len(summary["win_rates"]) == len(progress)


def test_versus_example_tiny() -> None:
    lines = _run("ismcts_vs_openspiel.py", "--deals", "1", "--iterations", "2", "--seed", "3")
    text = "\n".join(lines)
    games = [json.loads(line) for line in lines if line.startswith('{"seed"')]
    assert [g["floe_seat"] for g in games] == [0, 1]
    summary = json.loads(text[text.index("{\n") :])
    assert summary["games"] == 2 and summary["iterations"] == 2
    assert 0.0 <= summary["floe_win_rate"] <= 1.0


def test_versus_example_any_game() -> None:
    lines = _run(
        "ismcts_vs_openspiel.py", "--game", "arktia", "--deals", "1", "--iterations", "2", "--seed", "3"
    )
    text = "\n".join(lines)
    summary = json.loads(text[text.index("{\n") :])
    assert summary["game"] == "arktia" and summary["games"] == 2
    assert summary["openspiel_bot"].startswith("open_spiel MCTSBot(")  # perfect information: plain MCTS


@pytest.mark.parametrize("game", [None, "arktia"])
def test_bench_rl_cli(game: str | None) -> None:
    args = ["bench", "rl", *([] if game is None else [game]), "--games", "1", "--json"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.stderr
    figures = json.loads(result.stdout)
    assert figures["game"] == (game or "arctic")
    for name in ("engine", "engine_vector", "engine_obs", "pettingzoo", "gymnasium", "openspiel"):
        assert figures[f"{name}_decisions_per_sec"] > 0
        if name != "engine":
            assert figures[f"{name}_overhead"] > 0
    # Every pass plays the same random games' worth of decisions (the counts differ with the choices).
    assert figures["engine_decisions"] == figures["engine_vector_decisions"]


def test_bench_rl_bad_input() -> None:
    result = CliRunner().invoke(app, ["bench", "rl", "--games", "0"])
    assert result.exit_code == 2
    result = CliRunner().invoke(app, ["bench", "rl", "chess", "--games", "1"])
    assert result.exit_code == 2 and "unknown game" in result.stderr
    result = CliRunner().invoke(app, ["bench", "rl", "arktia", "--players", "5", "--games", "1"])
    assert result.exit_code == 2 and "2 to 4" in result.stderr

"""``floe tournament`` through the CLI: JSON output, bad input, reproducibility, resume and the plot."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from floe.cli import app

KEYS = ["bot", "seat_games", "seat_games_won", "win_rate", "ci95", "mean_score", "mean_rank", "elo"]


def _invoke(tmp_path: Path, *args: str, out: str = "r.jsonl") -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["tournament", "arctic", "--out", str(tmp_path / out), *args])
    return result.exit_code, result.stdout, result.stderr


def test_json_output(tmp_path: Path) -> None:
    code, stdout, stderr = _invoke(
        tmp_path, "--players", "4", "--bots", "baseline,random", "--games", "8", "--json"
    )
    assert code == 0, stderr
    rows = json.loads(stdout)
    assert [list(row) for row in rows] == [KEYS, KEYS]
    baseline, rand = rows
    assert (baseline["bot"], baseline["seat_games"], rand["bot"], rand["seat_games"]) == (
        "baseline",
        8,
        "random",
        24,
    )
    assert baseline["elo"] > rand["elo"]
    assert 0 <= baseline["ci95"][0] <= baseline["win_rate"] <= baseline["ci95"][1] <= 1
    assert "results:" in stderr  # notes go to stderr, so stdout stays one JSON array


def test_games_round_up_to_whole_deals(tmp_path: Path) -> None:
    code, stdout, stderr = _invoke(tmp_path, "--players", "3", "--bots", "random", "--games", "4", "--json")
    assert code == 0
    assert "playing 6 (2 deals × 3 seatings)" in stderr
    assert json.loads(stdout)[0]["seat_games"] == 18  # one bot in all three seats of six games


def test_fixed_seed_gives_identical_json(tmp_path: Path) -> None:
    args = ["--players", "2", "--bots", "baseline,random", "--games", "6", "--seed", "9", "--json"]
    first = _invoke(tmp_path, *args, out="a.jsonl")
    second = _invoke(tmp_path, *args, "--workers", "2", out="b.jsonl")
    assert first[0] == second[0] == 0
    assert first[1] == second[1]
    other_seed = _invoke(tmp_path, *args[:-3], "--seed", "10", "--json", out="c.jsonl")
    assert other_seed[1] != first[1]


def test_resume_through_the_cli(tmp_path: Path) -> None:
    args = ["--players", "2", "--bots", "baseline,random", "--seed", "3", "--json"]
    full = _invoke(tmp_path, *args, "--games", "8", out="full.jsonl")
    _invoke(tmp_path, *args, "--games", "4", out="part.jsonl")
    again = _invoke(tmp_path, *args, "--games", "8", out="part.jsonl")
    assert again[0] == 2 and "--resume" in again[2]
    resumed = _invoke(tmp_path, *args, "--games", "8", "--resume", out="part.jsonl")
    assert resumed[0] == 0 and resumed[1] == full[1]
    assert "4 games played, 4 from before" in resumed[2]
    other = _invoke(tmp_path, "--players", "2", "--bots", "random,baseline", "--resume", out="part.jsonl")
    assert other[0] == 2 and "another tournament" in other[2]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--bots", "nope"], "unknown bot 'nope'"),
        (["--bots", "ismcts:ms=abc"], "ms must be a positive number"),
        (["--bots", "random", "--games", "0"], "--games must be 1 to 1,000,000"),
        (["--bots", "random", "--games", "-3"], "--games must be 1 to 1,000,000"),
        (["--bots", "random", "--games", "4000000"], "--games must be 1 to 1,000,000, not 4,000,000"),
        (["--bots", "random", "--workers", "0"], "--workers must be positive"),
        (["--bots", "random,baseline,random", "--players", "2"], "3 bots for 2 seats"),
        (["--bots", "c=1,random"], "must follow a bot name"),
        (["--bots", "random", "--players", "9"], "2 to 4 players"),
        (["--bots", "random", "-o", "nope=1"], "unknown option 'nope'"),
    ],
)
def test_bad_input_is_one_line_with_status_2(tmp_path: Path, args: list[str], words: str) -> None:
    code, stdout, stderr = _invoke(tmp_path, "--games", "2", *args)
    assert code == 2
    assert words in stderr
    assert len(stderr.strip().splitlines()) == 1
    assert "Traceback" not in stdout + stderr
    assert not (tmp_path / "r.jsonl").exists()  # nothing is started before the input is known good


def test_table_output(tmp_path: Path) -> None:
    code, stdout, _ = _invoke(tmp_path, "--players", "2", "--bots", "baseline,random", "--games", "2")
    assert code == 0
    for words in ("win rate", "95% CI", "Elo", "head-to-head", "results:"):
        assert words in stdout


def test_plot_writes_a_png(tmp_path: Path) -> None:
    png = tmp_path / "plots" / "scores.png"
    code, stdout, stderr = _invoke(
        tmp_path, "--players", "3", "--bots", "baseline,random", "--games", "6", "--plot", str(png), "--json"
    )
    assert code == 0, stderr
    assert png.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    assert str(png) in stderr
    json.loads(stdout)


def test_ctrl_c_says_where_the_games_are_and_how_to_resume(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Ctrl-C names the results file and the command that continues it (also without --out), and that
    command plays only the games missing."""
    import shlex

    import floe.lab.tournament as tm

    real = tm.play_one
    calls = 0

    def interrupted(*args: object) -> object:
        nonlocal calls
        calls += 1
        if calls == 3:
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))  # the default results file goes under the cache
    monkeypatch.setattr(tm, "play_one", interrupted)
    args = ["tournament", "arctic", "--players", "2", "--bots", "baseline,random", "--games", "4"]
    result = CliRunner().invoke(app, [*args, "--workers", "1", "--json"])
    assert result.exit_code == 130  # interrupted, as a Ctrl-C exits
    assert "interrupted: the games played so far are in" in result.stderr
    command = result.stderr.split("to continue: ", 1)[1].strip()
    words = shlex.split(command)
    assert words[:2] == ["floe", "tournament"] and words[-1] == "--resume" and "--out" in words
    monkeypatch.setattr(tm, "play_one", real)
    resumed = CliRunner().invoke(app, words[1:])
    assert resumed.exit_code == 0, resumed.stderr
    assert "2 games played, 2 from before" in resumed.stderr

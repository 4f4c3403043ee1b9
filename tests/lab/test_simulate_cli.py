"""``floe simulate`` from the command line: figures checked against a game whose results
are known in advance (``fixed_game``: the first seat always wins), and bad input as one line, exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from floe.cli import app

from .fixed_game import fixed_game

__all__ = ["fixed_game"]


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_simulate_counts_wins_ranks_and_scores_by_hand(fixed_game: str) -> None:
    # 3 players, bots random and mcts: the lineup is [random, mcts, mcts] (the last bot fills the seats left),
    # rotated each game, so random sits in seats 0, 1, 2 over three games (scores 3, 2, 1: one win) and mcts
    # in the other six seat-games (seats 1+2, 2+0, 0+1: scores 2+1+1+3+3+2 = 12, two wins).
    code, out, err = run(
        "simulate", "fixed", "--players", "3", "--games", "3", "--bots", "random,mcts:it=3", "--json"
    )
    assert code == 0, err
    rows = {row["bot"]: row for row in json.loads(out)}
    assert rows["random"] == {
        "bot": "random", "seat_games": 3, "seat_games_won": 1, "win_rate": 0.3333, "mean_score": 2.0,
        "mean_rank": 2.0,
    }  # fmt: skip
    assert rows["mcts:it=3"] == {
        "bot": "mcts:it=3", "seat_games": 6, "seat_games_won": 2, "win_rate": 0.3333, "mean_score": 2.0,
        "mean_rank": 2.0,
    }  # fmt: skip


def test_simulate_prints_a_table(fixed_game: str) -> None:
    code, out, _ = run("simulate", "fixed", "--players", "2", "--games", "4", "--bots", "random")
    assert code == 0
    assert "fixed: 4 games, 2 players" in out and "50.0%" in out and "1.50" in out


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["simulate", "fixed", "--games", "0"], "--games must be 1 to 1,000,000"),
        (["simulate", "fixed", "--games", "-3"], "--games must be 1 to 1,000,000"),
        (["simulate", "fixed", "--games", "1000001"], "--games must be 1 to 1,000,000, not 1,000,001"),
        (["simulate", "fixed", "--players", "5"], "Fixed is for 2 to 4 players, not 5"),
        (["simulate", "fixed", "--players", "2", "--bots", "wizard"], "unknown bot 'wizard'"),
        (["simulate", "fixed", "--players", "2", "--bots", "random,random,random"], "3 bots for 2 seats"),
        (["simulate", "fixed", "--option", "speed=1"], "unknown option 'speed'"),
        (["simulate", "chess"], "unknown game 'chess'"),
    ],
)
def test_bad_input_is_one_line_with_status_2(fixed_game: str, args: list[str], words: str) -> None:
    code, out, err = run(*args)
    assert code == 2, (out, err)
    assert words in err and len(err.strip().splitlines()) == 1 and "Traceback" not in out + err


def test_simulate_table_has_one_row_per_bot_with_its_figures(fixed_game: str) -> None:
    # 2 players, 3 games, lineup [random, mcts] rotated each game: random sits in seats 0, 1, 0 (scores 2, 1,
    # 2; ranks 1, 2, 1), mcts in seats 1, 0, 1 (scores 1, 2, 1; ranks 2, 1, 2).
    code, out, err = run("simulate", "fixed", "--players", "2", "--games", "3", "--bots", "random,mcts:it=3")
    assert code == 0, err
    lines = [line.rstrip() for line in out.splitlines()]
    assert lines[0].strip() == "fixed: 3 games, 2 players, seats rotated"
    assert lines[2] == "┃ bot       ┃ seat-games ┃ wins ┃ win rate ┃ mean score ┃ mean rank ┃"
    # The bot's name to the left, the figures to the right of their columns.
    assert lines[4] == "│ random    │          3 │    2 │    66.7% │       1.67 │      1.33 │"
    assert lines[5] == "│ mcts:it=3 │          3 │    1 │    33.3% │       1.33 │      1.67 │"
    assert len(lines) == 7


def test_simulate_keeps_its_games_and_a_resume_extends_them_to_a_fresh_runs_summary(tmp_path: Path) -> None:
    # The lab's one results file (floe.lab.results), as a tournament's: a header, then a line per game.
    path = tmp_path / "s.jsonl"
    words = ["simulate", "arctic", "--players", "3", "--bots", "baseline,random", "--seed", "7", "--json"]
    code, _, err = run(*words, "--games", "3", "--out", str(path))
    assert code == 0, err
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert lines[0] == {
        "type": "header", "format": "floe-simulate/1", "game": "arctic", "players": 3,
        "bots": ["baseline", "random", "random"], "seed": 7, "options": {},
    }  # fmt: skip
    assert [(x["index"], x["seed"], x["seats"]) for x in lines[1:]] == [
        (0, 7, ["baseline", "random", "random"]),
        (1, 8, ["random", "baseline", "random"]),
        (2, 9, ["random", "random", "baseline"]),
    ]
    # An interrupted write: the cut last line is dropped, the games already kept are not played again.
    with path.open("a") as f:
        f.write('{"type": "game", "ind')
    code, resumed, err = run(*words, "--games", "5", "--out", str(path), "--resume")
    assert code == 0, err
    _, fresh, _ = run(*words, "--games", "5")
    assert json.loads(resumed) == json.loads(fresh)
    assert [json.loads(line)["index"] for line in path.read_text().splitlines()[1:]] == [0, 1, 2, 3, 4]
    # Another lineup's file is refused, and left as it was.
    before = path.read_text()
    other = ["simulate", "arctic", "--players", "3", "--bots", "random", "--seed", "7", "--games", "5"]
    code, _, err = run(*other, "--out", str(path), "--resume")
    assert code == 2 and "holds another simulation (bots" in err and path.read_text() == before
    code, _, err = run(*words, "--games", "5", "--out", str(path))
    assert code == 2 and "already exists: add --resume" in err
    code, _, err = run(*words, "--resume")
    assert code == 2 and "--resume continues the results file named by --out" in err

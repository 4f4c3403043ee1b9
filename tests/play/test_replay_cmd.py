"""``floe replay``: a saved record replays and prints the final table and scores; a corrupt one fails
cleanly."""

from __future__ import annotations

import json
import random
from pathlib import Path

from typer.testing import CliRunner

from floe.cli import app
from floe.core.match import Match


def _saved_game(tmp_path: Path, seed: int = 21, players: int = 3) -> tuple[Path, Match]:
    match = Match.new("arctic", players=players, seed=seed)
    rng = random.Random(seed)
    while not match.is_over():
        match.apply(rng.choice(match.legal_actions()))
    path = tmp_path / "game.json"
    match.record().save(path)
    return path, match


def test_replay_prints_final_table_and_scores(tmp_path: Path) -> None:
    path, match = _saved_game(tmp_path)
    result = CliRunner().invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Final scores" in out and "seed 21" in out
    scores, ordinals = match.state.scores(), ("1st", "2nd", "3rd", "4th")
    ranking = ", ".join(
        f"{ordinals[place]} P{q + 1} ({scores[q]})" for place, q in enumerate(match.state.ranking())
    )
    assert f"Ranking: {ranking}" in out
    result = CliRunner().invoke(app, ["replay", str(path), "--seat", "2"])
    assert result.exit_code == 0 and "P2 (you)" in result.stdout


def test_replay_json(tmp_path: Path) -> None:
    path, match = _saved_game(tmp_path)
    result = CliRunner().invoke(app, ["replay", str(path), "--json"])
    data = json.loads(result.stdout)
    assert data["scores"] == match.state.scores() and data["over"] is True


def test_corrupt_record_names_the_bad_action(tmp_path: Path) -> None:
    path, _ = _saved_game(tmp_path)
    data = json.loads(path.read_text())
    index = next(i for i, a in enumerate(data["actions"]) if a.startswith("place "))
    data["actions"][index] = "place zebra-fox-9"
    path.write_text(json.dumps(data))
    result = CliRunner().invoke(app, ["replay", str(path)])
    assert result.exit_code == 2
    assert f"action {index + 1}" in result.stderr and "zebra-fox-9" in result.stderr
    assert "Traceback" not in result.output


def test_illegal_action_in_record(tmp_path: Path) -> None:
    path, _ = _saved_game(tmp_path)
    data = json.loads(path.read_text())
    index = next(i for i, a in enumerate(data["actions"]) if a.startswith("place "))
    # "stop" before the first card of the first turn: a real action, not legal there.
    data["actions"][index] = "stop"
    path.write_text(json.dumps(data))
    result = CliRunner().invoke(app, ["replay", str(path)])
    assert result.exit_code == 2, result.output
    assert f"action {index + 1} ('stop')" in result.stderr and "not legal" in result.stderr


def test_unreadable_record(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text("{not json")
    result = CliRunner().invoke(app, ["replay", str(path)])
    # The CLI's error console may wrap a long path, so compare with the whitespace folded.
    assert result.exit_code == 2 and "not valid JSON" in " ".join(result.stderr.split())
    result = CliRunner().invoke(app, ["replay", str(tmp_path / "missing.json")])
    assert result.exit_code == 2 and "cannot read" in result.stderr

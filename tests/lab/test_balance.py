"""``floe balance``: the plan, the figures against games played here, bad input, resume, --compare-option,
--from and the HTML report."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from floe.cli import app
from floe.core.registry import make_game
from floe.lab.balance.plan import make_run
from floe.lab.runner import play_game
from floe.lab.stats import wilson_interval


def _invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["balance", *args])
    return result.exit_code, result.stdout, result.stderr


def _run(tmp_path: Path, *args: str, out: str = "r.jsonl") -> dict[str, Any]:
    code, stdout, stderr = _invoke("arctic", "--out", str(tmp_path / out), "--json", *args)
    assert code == 0, stderr
    doc: dict[str, Any] = json.loads(stdout)
    return doc


def _figure(doc: dict[str, Any], fact: str, group: str, metric: str, variant: int = 0) -> dict[str, Any]:
    rows = doc["variants"][variant]["figures"]
    return next(r for r in rows if (r["fact"], r["group"], r["metric"]) == (fact, group, metric))


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_only_distinct_seatings_are_played() -> None:
    # One bot everywhere: every rotation is the same game (same seeds), so a deal is one game.
    assert make_run("arctic", 4, "random", 0, {}).rotations == (0,)
    assert make_run("arctic", 4, "greedy,random", 0, {}).rotations == (0, 1, 2, 3)
    assert make_run("arctic", 4, "greedy,random,greedy,random", 0, {}).rotations == (0, 1)


def test_figures_agree_with_games_played_here(tmp_path: Path) -> None:
    doc = _run(tmp_path, "--players", "2", "--bots", "random", "--games", "40", "--seed", "5")
    assert (doc["deals"], doc["games"]) == (40, 40)
    # The closing note speaks of the rules' choices in general, not of one game's (Arctic's powers).
    assert "(random)" in doc["bots_note"] and "power" not in doc["bots_note"]
    game = make_game("arctic", 2, {})
    wins = [0, 0]
    scores: list[list[int]] = [[], []]
    for deal in range(40):
        result, _ = play_game(game, ["random", "random"], 5 + deal)
        wins[result.ranking[0]] += 1
        for seat in (0, 1):
            scores[seat].append(result.scores[seat])
    for seat in (0, 1):
        rate = _figure(doc, "seat", f"P{seat + 1}", "win rate")
        assert (rate["n"], rate["value"]) == (40, round(wins[seat] / 40, 5))
        assert rate["ci95"] == [round(x, 5) for x in wilson_interval(wins[seat], 40)]
        assert rate["reference"] == 0.5
        mean = _figure(doc, "seat", f"P{seat + 1}", "mean score")
        assert mean["value"] == round(sum(scores[seat]) / 40, 5)
        assert mean["reference"] == round(sum(scores[1 - seat]) / 40, 5)  # every other seat-game
    assert doc["correction"] == {"method": "Holm–Bonferroni", "alpha": 0.05}
    # The game's own facts come through: every seat has a totem, so the totem groups cover 80 seat-games.
    totems = [r for r in doc["variants"][0]["figures"] if r["fact"] == "totem" and r["metric"] == "win rate"]
    assert sum(r["n"] for r in totems) == 80


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nogame", "--bots", "random"], "nogame"),
        (["arctic", "--bots", "random", "--option", "nosuch=1"], "nosuch"),
        (["arctic", "--bots", "random", "--option", "end_trigger=never"], "never"),
        (["arctic", "--bots", "random", "--compare-option", "end_trigger=never"], "never"),
        (["arctic", "--bots", "random", "--compare-option", "nosuch=1"], "nosuch"),
        (["arctic", "--bots", "random", "--compare-option", "justaword"], "key=value"),
        (["arctic", "--bots", "random", "--games", "0"], "--games"),
        (["arctic", "--bots", "random", "--games", "10000001"], "--games"),
        (["arctic", "--bots", "random", "--players", "9"], "player"),
        (["arctic", "--bots", "random", "--workers", "0"], "workers"),
        (["arctic", "--bots", "random", "--batch", "4"], "--batch"),
        (["arctic", "--bots", "random", "--ray-address", "a b:1"], "address"),
        (["arctic", "--bots", "nosuchbot"], "nosuchbot"),
        (["arctic"], "--bots"),
        (["arctic", "--bots", "random", "--resume"], "--out"),
        (["arctic", "--from", "x.jsonl"], "--from"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, args: list[str], message: str) -> None:
    out = [] if "--from" in args or "--resume" in args else ["--out", str(tmp_path / "r.jsonl")]
    code, _, stderr = _invoke(*args, *out)
    assert code == 2
    assert len(stderr.strip().splitlines()) == 1 and message in stderr and "Traceback" not in stderr
    assert not (tmp_path / "r.jsonl").exists()  # nothing written


def test_from_a_file_that_is_not_a_balance_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type": "header", "format": "floe-tournament/1"}\n')
    code, _, stderr = _invoke("--from", str(bad))
    assert code == 2 and "not a balance results file" in stderr
    code, _, stderr = _invoke("--from", str(tmp_path / "missing.jsonl"))
    assert code == 2 and len(stderr.strip().splitlines()) == 1


@pytest.mark.slow  # whole games: left out of ./floe-test --quick
def test_resume_gives_the_output_of_an_uninterrupted_run(tmp_path: Path) -> None:
    args = ["--players", "3", "--bots", "greedy,random", "--seed", "3"]
    full = _run(tmp_path, *args, "--games", "12", out="full.jsonl")
    _run(tmp_path, *args, "--games", "6", out="part.jsonl")
    # An interrupt mid-write: the last line is cut in half.
    part = tmp_path / "part.jsonl"
    text = part.read_text()
    part.write_text(text + text.splitlines()[-1][:40])
    code, _, stderr = _invoke("arctic", "--out", str(part), "--json", *args, "--games", "12")
    assert code == 2 and "--resume" in stderr
    resumed = _run(tmp_path, *args, "--games", "12", "--resume", out="part.jsonl")
    assert resumed["variants"] == full["variants"]
    assert len(_lines(part)) == 1 + 12
    # Read back without playing: the same figures again, and the report names the command that played.
    report = tmp_path / "again.html"
    code, stdout, _ = _invoke("--from", str(part), "--json", "--report", str(report))
    assert code == 0 and json.loads(stdout)["variants"] == full["variants"]
    page = report.read_text()
    assert f"floe balance --from {part} --json --report {report}" in page
    assert "The games were played by:" in page and "--games 6" in page


def test_resume_refuses_another_runs_file(tmp_path: Path) -> None:
    _run(tmp_path, "--players", "2", "--bots", "random", "--games", "2")
    code, _, stderr = _invoke(
        "arctic",
        "--out",
        str(tmp_path / "r.jsonl"),
        "--players",
        "2",
        "--bots",
        "random",
        "--seed",
        "4",
        "--games",
        "2",
        "--resume",
    )
    assert code == 2 and "another balance run" in stderr and "seed" in stderr


def test_workers_do_not_change_the_figures(tmp_path: Path) -> None:
    args = ["--players", "2", "--bots", "greedy,random", "--games", "8", "--seed", "9"]
    one = _run(tmp_path, *args, out="a.jsonl")
    two = _run(tmp_path, *args, "--workers", "2", out="b.jsonl")
    assert one["variants"] == two["variants"]


def test_compare_option_plays_the_same_deals(tmp_path: Path) -> None:
    doc = _run(
        tmp_path,
        "--players",
        "2",
        "--bots",
        "random",
        "--games",
        "6",
        "--seed",
        "11",
        "--compare-option",
        "end_trigger=refill_fails",
    )
    lines = _lines(tmp_path / "r.jsonl")
    assert lines[0]["compare"] == {"end_trigger": "refill_fails"}
    base = {(g["deal"], g["rotation"]): g for g in lines[1:] if g["variant"] == 0}
    other = {(g["deal"], g["rotation"]): g for g in lines[1:] if g["variant"] == 1}
    assert base.keys() == other.keys() and len(base) == 6
    for key, game in base.items():
        assert (game["seed"], game["seats"]) == (other[key]["seed"], other[key]["seats"])
    assert [v["options"] for v in doc["variants"]] == [{}, {"end_trigger": "refill_fails"}]
    seat = next(
        d for d in doc["differences"] if (d["fact"], d["group"], d["metric"]) == ("seat", "P1", "win rate")
    )
    assert seat["paired"] is True
    assert seat["difference"] == pytest.approx(seat["compared"] - seat["base"], abs=1e-4)


def test_comparing_a_rule_with_itself_changes_nothing(tmp_path: Path) -> None:
    doc = _run(
        tmp_path,
        "--players",
        "3",
        "--bots",
        "random",
        "--games",
        "5",
        "--seed",
        "2",
        "--compare-option",
        "end_trigger=deck_emptied",  # the default: the same games again
    )
    assert doc["variants"][0]["figures"] == doc["variants"][1]["figures"]
    assert doc["differences"] and all(d["paired"] and d["difference"] == 0.0 for d in doc["differences"])


@pytest.mark.slow  # whole games: left out of ./floe-test --quick
def test_html_report_is_self_contained(tmp_path: Path) -> None:
    report = tmp_path / "report.html"
    code, stdout, stderr = _invoke(
        "arctic",
        "--players",
        "2",
        "--bots",
        "random",
        "--games",
        "4",
        "--seed",
        "1",
        "--out",
        str(tmp_path / "r.jsonl"),
        "--report",
        str(report),
        "--compare-option",
        "end_trigger=refill_fails",
    )
    assert code == 0, stderr
    page = report.read_text()
    assert page.startswith("<!DOCTYPE html>")
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", page, re.IGNORECASE)
    assert "<script" not in page and "<link" not in page
    assert len(re.findall(r'<img alt="[^"]*" src="data:image/png;base64,[A-Za-z0-9+/=]+">', page)) >= 8
    assert "floe balance" in page and "--compare-option end_trigger=refill_fails" in page
    assert "random play measures the rules" in page and "Holm–Bonferroni" in page
    for name in ("floe", "python", "numpy", "matplotlib", "arctic-"):
        assert name in page
    assert "report:" in stderr and "win rate" in stdout  # the tables still print


def test_without_out_a_new_file_in_the_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)
    code, _, stderr = _invoke("arctic", "--players", "2", "--bots", "random", "--games", "1", "--json")
    assert code == 0
    files = list((tmp_path / "cache" / "floe" / "balance").glob("balance-arctic-2p-seed0-*.jsonl"))
    assert len(files) == 1 and str(files[0]) in stderr.replace("\n", "")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cache"]

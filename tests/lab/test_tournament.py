"""The tournament runner: bot lists, the duplicate rotation, reproducibility and resuming a results file."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from floe.core.errors import OptionError
from floe.lab import tournament as tm
from floe.lab.stats import summarize
from floe.lab.tournament import (
    Tournament,
    TournamentError,
    make_tournament,
    parse_bot_list,
    run_tournament,
)


@pytest.mark.parametrize(
    ("text", "specs"),
    [
        ("baseline", ["baseline"]),
        ("ismcts:ms=200,c=0.7,baseline", ["ismcts:ms=200,c=0.7", "baseline"]),
        ("baseline,ismcts:it=20,depth=5", ["baseline", "ismcts:it=20,depth=5"]),
        (" ismcts:ms=200 , c = 0.7 , random ,", ["ismcts:ms=200,c=0.7", "random"]),
        ("ISMCTS: it=20", ["ismcts:it=20"]),
        ("ismcts,it=20,random", ["ismcts:it=20", "random"]),  # a bare key=value gives the last bot params
        ("ismcts:ms=200;c=0.7,random", ["ismcts:ms=200,c=0.7", "random"]),
        ("random,random", ["random", "random"]),
        ("greedy:worlds=2,ismcts:it=5", ["greedy:worlds=2", "ismcts:it=5"]),
    ],
)
def test_parse_bot_list(text: str, specs: list[str]) -> None:
    assert parse_bot_list(text) == specs


@pytest.mark.parametrize("text", ["", " , ,", "c=0.7,baseline", "=x", "ismcts:fast", ":it=3"])
def test_parse_bot_list_errors(text: str) -> None:
    with pytest.raises(OptionError):
        parse_bot_list(text)


@pytest.mark.parametrize(
    ("bots", "players", "words"),
    [
        ("nope", 2, "unknown bot 'nope'"),
        ("ismcts:ms=abc", 2, "ms must be a positive number"),
        ("baseline:x=1", 2, "no parameter"),
        ("random,random,random", 2, "3 bots for 2 seats"),
    ],
)
def test_make_tournament_checks_bots_up_front(bots: str, players: int, words: str) -> None:
    with pytest.raises(OptionError, match=words):
        make_tournament("arctic", players, bots, 0, {})


@pytest.mark.parametrize("lineup", [("a", "b", "c", "d"), ("a", "b", "b", "b"), ("a", "b"), ("a", "b", "c")])
def test_rotation_puts_every_bot_in_every_seat_on_every_deal(lineup: tuple[str, ...]) -> None:
    t = Tournament("arctic", len(lineup), lineup, seed=40)
    plan = t.plan(3)
    assert len(plan) == 3 * len(lineup) and len(set(plan)) == len(plan)
    copies = Counter(lineup)
    for deal in range(3):
        seatings = [t.seats(rotation) for d, rotation in plan if d == deal]
        assert {t.seed_of(d) for d, _ in plan if d == deal} == {40 + deal}
        for seat in range(len(lineup)):
            # Over a deal's rotations each bot holds each seat once per copy of it in the lineup.
            assert Counter(seating[seat] for seating in seatings) == copies


def _run(tmp_path: Path, name: str, deals: int, *, bots: str = "baseline,random,random", **kw: Any) -> Any:
    t = make_tournament("arctic", 3, bots, 11, {})
    outcome = run_tournament(t, deals, kw.pop("workers", 1), tmp_path / name, progress=False, **kw)
    stats = summarize(outcome.results, order=t.bots)
    return outcome, [b.to_dict() for b in stats.bots], stats.head_to_head


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_results_file_has_header_and_one_line_per_game(tmp_path: Path) -> None:
    outcome, _, _ = _run(tmp_path, "r.jsonl", 2)
    lines = _lines(tmp_path / "r.jsonl")
    assert lines[0]["type"] == "header" and lines[0]["bots"] == ["baseline", "random", "random"]
    games = lines[1:]
    assert sorted((g["deal"], g["rotation"]) for g in games) == [(d, r) for d in range(2) for r in range(3)]
    assert set(games[0]) == {
        "type", "deal", "rotation", "seed", "seats", "scores", "ranking", "decisions", "seconds"
    }  # fmt: skip
    assert all(g["seed"] == 11 + g["deal"] for g in games)
    # The file records who sat where: on each deal the baseline played all three seats.
    for deal in range(2):
        assert {g["seats"].index("baseline") for g in games if g["deal"] == deal} == {0, 1, 2}
    assert outcome.played == 6 and outcome.resumed == 0


def test_fixed_seed_gives_identical_results_sequential_or_parallel(tmp_path: Path) -> None:
    first, stats1, h2h1 = _run(tmp_path, "a.jsonl", 2)
    second, stats2, h2h2 = _run(tmp_path, "b.jsonl", 2, workers=2)
    assert stats1 == stats2 and h2h1 == h2h2
    assert first.results == second.results


def test_resume_extends_a_shorter_run_to_the_same_stats(tmp_path: Path) -> None:
    _, full, full_h2h = _run(tmp_path, "full.jsonl", 3)
    _run(tmp_path, "part.jsonl", 1)
    outcome, resumed, resumed_h2h = _run(tmp_path, "part.jsonl", 3, resume=True)
    assert (outcome.played, outcome.resumed) == (6, 3)
    assert resumed == full and resumed_h2h == full_h2h
    assert len(_lines(tmp_path / "part.jsonl")) == 1 + 9


def test_resume_after_an_interrupt_gives_the_same_stats(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, full, full_h2h = _run(tmp_path, "full.jsonl", 3)
    real = tm.play_one
    calls = 0

    def interrupted(*args: Any) -> dict[str, Any]:
        nonlocal calls
        calls += 1
        if calls == 5:
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(tm, "play_one", interrupted)
    with pytest.raises(KeyboardInterrupt):
        _run(tmp_path, "cut.jsonl", 3)
    monkeypatch.setattr(tm, "play_one", real)
    assert len(_lines(tmp_path / "cut.jsonl")) == 1 + 4
    # A line cut in half by the interrupt is dropped and its game played again.
    path = tmp_path / "cut.jsonl"
    path.write_bytes(path.read_bytes() + b'{"type": "game", "deal": 1, "rot')
    outcome, resumed, resumed_h2h = _run(tmp_path, "cut.jsonl", 3, resume=True)
    assert (outcome.played, outcome.resumed) == (5, 4)
    assert resumed == full and resumed_h2h == full_h2h
    assert len(_lines(path)) == 1 + 9


def test_resume_counts_only_the_games_asked_for(tmp_path: Path) -> None:
    _, two, _ = _run(tmp_path, "two.jsonl", 2)
    _run(tmp_path, "four.jsonl", 4)
    outcome, again, _ = _run(tmp_path, "four.jsonl", 2, resume=True)
    assert outcome.played == 0 and again == two


def test_resume_of_a_missing_file_starts_it(tmp_path: Path) -> None:
    outcome, _, _ = _run(tmp_path, "new.jsonl", 1, resume=True)
    assert outcome.played == 3


def test_resume_refuses_another_tournaments_file(tmp_path: Path) -> None:
    _run(tmp_path, "r.jsonl", 1)
    with pytest.raises(TournamentError, match=r"another tournament.*bots"):
        _run(tmp_path, "r.jsonl", 1, bots="random,baseline", resume=True)
    other_seed = make_tournament("arctic", 3, "baseline,random", 12, {})
    with pytest.raises(TournamentError, match="seed 11 here, 12 asked"):
        run_tournament(other_seed, 1, 1, tmp_path / "r.jsonl", resume=True, progress=False)
    bga = make_tournament("arctic", 3, "baseline,random", 11, {"preset": "bga"})
    with pytest.raises(TournamentError, match="options"):
        run_tournament(bga, 1, 1, tmp_path / "r.jsonl", resume=True, progress=False)


def test_existing_file_needs_resume(tmp_path: Path) -> None:
    _run(tmp_path, "r.jsonl", 1)
    with pytest.raises(TournamentError, match="--resume"):
        _run(tmp_path, "r.jsonl", 1)


def test_corrupt_or_foreign_lines_are_refused(tmp_path: Path) -> None:
    _run(tmp_path, "r.jsonl", 1)
    path = tmp_path / "r.jsonl"
    lines = path.read_text().splitlines()
    path.write_text("\n".join([lines[0], "{not json", *lines[1:]]) + "\n")
    with pytest.raises(TournamentError, match=r"r\.jsonl:2: not valid JSON"):
        _run(tmp_path, "r.jsonl", 1, resume=True)
    moved = json.loads(lines[1])
    moved["seats"] = moved["seats"][::-1]
    path.write_text("\n".join([lines[0], json.dumps(moved)]) + "\n")
    with pytest.raises(TournamentError, match="does not belong"):
        _run(tmp_path, "r.jsonl", 1, resume=True)
    path.write_text('{"hello": 1}\n')
    with pytest.raises(TournamentError, match="not a tournament results file"):
        _run(tmp_path, "r.jsonl", 1, resume=True)


def test_default_name_depends_on_the_configuration() -> None:
    a = make_tournament("arctic", 2, "baseline,random", 3, {})
    b = make_tournament("arctic", 2, "random,baseline", 3, {})
    same = make_tournament("arctic", 2, "baseline, random", 3, {})
    assert a.default_name() == same.default_name() != b.default_name()
    assert a.default_name().startswith("tournament-arctic-2p-seed3-")


def test_small_games_with_search_bots(tmp_path: Path) -> None:
    # The search bots run inside the tournament (a few tiny games only: they are slow).
    t = make_tournament("arctic", 2, "greedy:worlds=1,ismcts:it=20", 5, {})
    outcome = run_tournament(t, 1, 1, tmp_path / "s.jsonl", progress=False)
    assert [r.bots for r in outcome.results] == [
        ("greedy:worlds=1", "ismcts:it=20"),
        ("ismcts:it=20", "greedy:worlds=1"),
    ]
    assert all(r.decisions > 0 for r in outcome.results)

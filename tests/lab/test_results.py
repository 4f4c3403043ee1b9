"""``floe.lab.results``, the one results file of ``tournament`` and ``balance``: the header written and
checked, a resume that drops a half-written last line and truncates it away, a noted header field that a
resume does not compare, and the streamed read."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from floe.lab.results import ResultsError, ResultsFile, append, first_line

HEADER = {"type": "header", "format": "floe-test/1", "seed": 3}


def key_of(record: Any, where: str) -> int:
    if not isinstance(record, dict) or record.get("type") != "game":
        raise ResultsError(f"{where}: not a game line")
    return int(record["n"])


def results(path: Path, header: dict[str, Any] = HEADER, command: str = "first") -> ResultsFile[int]:
    return ResultsFile(path, header, key_of, "test run", noted={"command": command})


def game(n: int) -> dict[str, Any]:
    return {"type": "game", "n": n}


def test_a_new_file_gets_the_header_and_appended_games_read_back_in_order(tmp_path: Path) -> None:
    file = results(tmp_path / "r.jsonl")
    assert file.start(resume=False) == set()
    with file.appending() as out:
        for n in (2, 0, 1):
            append(out, game(n))
    assert first_line(file.path) == {**HEADER, "command": "first"}
    assert list(file.games()) == [(2, game(2)), (0, game(0)), (1, game(1))]


def test_resume_drops_a_half_written_last_line_and_keeps_the_rest(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    results(path).start(resume=False)
    with path.open("a") as f:
        f.write(json.dumps(game(0)) + "\n" + json.dumps(game(1)) + "\n" + '{"type": "ga')
    seen: list[int] = []
    # Another command line continues the same run: the noted field is not compared.
    file = results(path, command="second")
    assert file.start(resume=True, seen=lambda key, _: seen.append(key)) == {0, 1}
    assert seen == [0, 1]
    assert path.read_text().endswith(json.dumps(game(1)) + "\n")  # the cut line is gone
    with file.appending() as out:
        append(out, game(2))
    assert [key for key, _ in file.games()] == [0, 1, 2]


def test_resume_adds_the_newline_a_cut_left_out(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps({**HEADER, "command": "x"}) + "\n" + json.dumps(game(0)))  # no newline
    file = results(path)
    assert file.start(resume=True) == {0}
    with file.appending() as out:
        append(out, game(1))
    assert [key for key, _ in file.games()] == [0, 1]


def test_a_header_alone_resumes_with_nothing_played(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    results(path).start(resume=False)
    assert results(path).start(resume=True) == set()
    assert path.read_text().count("\n") == 1


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (
            json.dumps({**HEADER, "seed": 4}) + "\n",
            "holds another test run (seed 4 here, 3 asked); use another --out",
        ),
        (
            json.dumps({"type": "header", "format": "other/1"}) + "\n",
            "not a test run results file (no floe-test/1",
        ),
        (json.dumps(HEADER) + "\nnot json\n" + json.dumps(game(0)) + "\n", "r.jsonl:2: not valid JSON"),
        (json.dumps(HEADER) + '\n{"type": "note"}\n', "r.jsonl:2: not a game line"),
    ],
)
def test_a_file_of_another_run_or_corrupt_is_refused_and_left_alone(
    tmp_path: Path, text: str, words: str
) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text(text)
    with pytest.raises(ResultsError, match=r"already exists: add --resume"):
        results(path).start(resume=False)
    with pytest.raises(ResultsError) as refused:
        results(path).start(resume=True)
    assert words in str(refused.value)
    assert path.read_text() == text


def test_an_empty_file_is_started_afresh_but_not_read(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text("")
    with pytest.raises(ResultsError, match=r"r\.jsonl is empty"):
        list(results(path).games())
    assert results(path).start(resume=True) == set()  # an empty file holds no run yet: it gets the header
    assert first_line(path) == {**HEADER, "command": "first"}

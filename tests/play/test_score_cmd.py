"""``floe score``: parse a physical pile, score it, print a table or JSON; bad input is a one-line error."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from floe.cli import app
from floe.games.arctic.cards import BEAR, FOX, MOOSE, ORCA, PUFFIN, WALRUS
from floe.games.arctic.score_cmd import parse_pile, score_pile_command
from floe.games.arctic.scoring import FACE_DOWN

from .helpers import output_of, recording_console

RULEBOOK_PILE = (
    "walrus puffin puffin puffin orca orca "
    + "bear " * 6
    + "fox "
    + "orca " * 5
    + "puffin puffin "
    + ("moose " * 4)
)


def test_rulebook_example_scores_46_as_json() -> None:
    result = CliRunner().invoke(
        app, ["score", "arctic", "--pile", RULEBOOK_PILE, "--totem-value", "10", "--penalties", "4", "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["total"] == 46
    assert data["bonus"] == 6 and data["totem"] == 10 and data["penalties"] == 4
    assert data["run_points"] == {"fox": 0, "moose": 6, "walrus": 0, "orca": 10, "puffin": 3, "bear": 15}
    assert len(data["pile"]) == 24


def test_rulebook_example_as_a_table_with_short_forms() -> None:
    console = recording_console()
    pile = "walrus, puffins×3, orca*2, polar bears x6, fox, orcas*5, puffin puffin, moose*4"
    breakdown = score_pile_command(pile, 10, 4, "free_max", False, console)
    assert breakdown.total == 46
    out = output_of(console)
    assert "total" in out and "46" in out and "bonus" in out and "-4" in out


def test_parse_pile_words() -> None:
    assert parse_pile("fox Foxes MOOSE walruses orca puffins polar-bear bear ?") == [
        FOX, FOX, MOOSE, WALRUS, ORCA, PUFFIN, BEAR, BEAR, FACE_DOWN,
    ]  # fmt: skip
    assert parse_pile("fox,fox ? ,fox") == [FOX, FOX, FACE_DOWN, FOX]
    assert parse_pile("bear×3 ?*2") == [BEAR] * 3 + [FACE_DOWN] * 2
    assert parse_pile("") == []


@pytest.mark.parametrize(
    ("pile", "word"),
    [
        ("fox dog", "'dog' is not an animal"),
        ("fox 3", "'3' is not an animal"),
        ("fox*0", "'fox*0': a count must be 1 to 120"),
        ("x2 fox", "'x2' is not an animal"),
        ("fox*500", "'fox*500': a count must be 1 to 120"),
        ("moose, , zebra", "'zebra' is not an animal"),
    ],
)
def test_bad_pile_words_name_the_word(pile: str, word: str) -> None:
    with pytest.raises(ValueError) as info:
        parse_pile(pile)
    message = str(info.value)
    assert "\n" not in message
    assert word in message


def test_wildcards_are_reported() -> None:
    console = recording_console()
    breakdown = score_pile_command("fox fox ? fox fox", 0, 0, "free_max", False, console)
    assert breakdown.total == 10
    assert "counted as: fox" in output_of(console)
    breakdown = score_pile_command("fox fox ? moose moose", 0, 0, "bga_adjacent", True, console)
    assert breakdown.wildcards and json.loads(output_of(console).splitlines()[-1])["wildcards"]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--pile", "fox dog"], "'dog' is not an animal"),
        (["--pile", "fox", "--totem-value", "7"], "must be one of 0, 1, 3, 6, 10, 15"),
        (["--pile", "fox", "--penalties", "-1"], "cannot be negative"),
        (["--pile", "fox", "--mode", "best"], "free_max, bga_adjacent"),
    ],
)
def test_cli_errors_are_one_line_with_status_2(args: list[str], words: str) -> None:
    result = CliRunner().invoke(app, ["score", "arctic", *args])
    assert result.exit_code == 2
    assert words in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.output


def test_unknown_game_and_a_game_without_a_score_helper() -> None:
    result = CliRunner().invoke(app, ["score", "chess", "--pile", "fox"])
    assert result.exit_code == 2 and "unknown game 'chess'" in result.stderr and "arctic" in result.stderr
    result = CliRunner().invoke(app, ["score", "arktia", "--pile", "fox"])
    assert result.exit_code == 2 and "arktia has no score helper; games with one: arctic" in result.stderr


def test_a_missing_option_is_one_line_with_status_2() -> None:
    result = CliRunner().invoke(app, ["score", "arctic"])
    assert result.exit_code == 2 and "--pile" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1

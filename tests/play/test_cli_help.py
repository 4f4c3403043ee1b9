"""Every help text of the command line reads as plain text: no reStructuredText backticks (the docstrings'
``code`` markup) in ``floe --help`` nor in any command's or sub-command's ``--help``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from floe.cli import app
from floe.core.registry import entries


def command_paths(command: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    """``path`` and the path of every command under it."""
    yield path
    for name, sub in getattr(command, "commands", {}).items():
        yield from command_paths(sub, (*path, name))


# Every command and sub-command, and each game's own score command (``floe score GAME --help``).
PATHS = [
    *command_paths(typer.main.get_command(app)),
    *(("score", game.name) for game in entries() if game.score),
]


def test_every_command_is_walked() -> None:
    names = {path[0] for path in PATHS if path}
    assert {"games", "serve", "play", "simulate", "bench", "tournament", "score"} <= names
    assert ("score", "arctic") in PATHS


@pytest.mark.parametrize("path", PATHS, ids=lambda path: " ".join(("floe", *path)))
def test_help_has_no_backticks(path: tuple[str, ...]) -> None:
    for width in ("80", "200"):
        result = CliRunner().invoke(app, [*path, "--help"], env={"COLUMNS": width})
        assert result.exit_code == 0, result.output
        assert "Usage:" in result.output
        stray = [line.strip() for line in result.output.splitlines() if "`" in line]
        assert not stray, stray


@pytest.mark.parametrize("game", [e.name for e in entries()])
def test_floe_options_never_cuts_a_name_and_speaks_seats_as_people_do(game: str) -> None:
    """Each option's name and each choice's value (what a person types) appear whole at 80 columns; seats
    read ``P1, P2, …``; the specs' review markers stay in the docs."""
    schema = next(e for e in entries() if e.name == game).options
    result = CliRunner().invoke(app, ["options", game], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    words = set(result.output.replace(",", " ").split())
    for option in schema.options:
        assert option.name in words, option.name
        for choice in option.choices if option.kind == "choice" else ():
            assert str(choice.value) in words, (option.name, choice.value)
    assert "0-based" not in result.output
    assert "[GUESS]" not in result.output and "[CONFLICT]" not in result.output


def test_a_seat_option_takes_the_seat_people_read() -> None:
    """``first_player=P2`` is the second seat; a bare number stays the index records keep."""
    from floe.core.errors import OptionError
    from floe.core.registry import entry

    first = entry("arche").options.by_name["first_player"]
    assert first.parse("P2", 3) == 1 and first.parse("p3", 3) == 2 and first.parse(1, 3) == 1
    with pytest.raises(OptionError, match="P1 to P3"):
        first.parse("P4", 3)


@pytest.mark.parametrize("command", ["play", "simulate", "tournament", "balance"])
def test_the_shared_help_offers_no_one_games_options(command: str) -> None:
    """``--preset`` and ``--powers`` are shortcuts for options only some games have: the help every game
    shares does not offer them; ``floe options GAME`` lists what a game has."""
    result = CliRunner().invoke(app, [command, "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "--option" in result.output
    assert "--preset" not in result.output and "--powers" not in result.output
    assert "power" not in result.output.lower()


def test_a_shortcut_for_an_option_the_game_lacks_is_refused_as_the_option_would_be() -> None:
    for shortcut in ("--preset", "--powers"):
        result = CliRunner().invoke(app, ["play", "arktia", shortcut, "bga"])
        assert result.exit_code == 2
        assert f"unknown option '{shortcut[2:]}'" in result.stderr
        assert "Traceback" not in result.output + result.stderr

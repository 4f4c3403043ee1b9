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

"""The option tables in the docs are the option schemas, generated (``floe options GAME --markdown``).

Every game shipped inside Floe documents its options in ``docs/<name>-rules.md`` between the markers
``<!-- options:<name> ... -->`` and ``<!-- /options -->``; the block must equal the schema's table, so the
docs cannot drift from what the command line, the lobby and the server accept.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from floe.core.registry import entries

DOCS = Path(__file__).resolve().parents[2] / "docs"
SHIPPED = [e for e in entries() if e.game.__module__.startswith("floe.games.")]


@pytest.mark.parametrize("game", SHIPPED, ids=lambda e: e.name)
def test_the_docs_option_table_is_the_schema(game: object) -> None:
    from floe.core.entry import GameEntry

    assert isinstance(game, GameEntry)
    text = (DOCS / f"{game.name}-rules.md").read_text(encoding="utf-8")
    found = re.search(rf"<!-- options:{game.name}\b[^>]*-->\n(.*?)<!-- /options -->", text, re.DOTALL)
    assert found, f"docs/{game.name}-rules.md has no generated option table"
    assert found.group(1) == game.options.markdown(), f"regenerate it: floe options {game.name} --markdown"


def test_floe_ships_its_games() -> None:
    assert len(SHIPPED) >= 2

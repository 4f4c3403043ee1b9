"""``floe.rl`` is a generic layer: it names no game and imports nothing of one (issue 10, item 2).

Every game's adapters are built from the registry; the names users know for a game (``floe.rl.<name>_v0``,
``floe/<Title>-v0``, ``python_floe_<name>``) come from its entry, so this holds with the old ones working.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from floe.core.registry import entries

RL = Path(__file__).resolve().parents[2] / "src" / "floe" / "rl"


@pytest.mark.parametrize("path", sorted(RL.glob("*.py")), ids=lambda p: p.name)
def test_no_game_named_or_imported(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    for game in entries():
        for word in {game.name, game.title}:
            assert not re.search(re.escape(word), text, re.IGNORECASE), f"{path.name} names {word!r}"
    assert "floe.games" not in text, f"{path.name} reaches into a game package"

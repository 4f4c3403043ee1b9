"""Test cases over the installed games: (game, players) pairs, and a pytest ``parametrize`` of them."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from floe.core.registry import entries, entry


def cases(games: Iterable[str] | None = None) -> list[tuple[str, int]]:
    """``(game, players)`` for each player count of each game in ``games`` (default: every installed game)."""
    chosen = [entry(name) for name in games] if games is not None else entries()
    return [(e.name, n) for e in chosen for n in range(e.min_players, e.max_players + 1)]


def parametrize_games(games: Iterable[str] | None = None) -> Any:
    """``pytest.mark.parametrize(("game", "players"), cases(games))`` with readable ids (``mygame-3p``).

    pytest is imported here, not at the kit's import: the kit itself does not need it.
    """
    import pytest

    found = cases(games)
    return pytest.mark.parametrize(("game", "players"), found, ids=[f"{g}-{n}p" for g, n in found])

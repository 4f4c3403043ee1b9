"""Games are found by name through one registry (with aliases), never through an if/elif chain."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from floe.core.errors import UnknownGameError
from floe.core.game import Game

GameFactory = Callable[[int, Mapping[str, Any] | None], Game]
_GAMES: dict[str, GameFactory] = {}
_ALIASES: dict[str, str] = {}


def register(name: str, factory: GameFactory, *, aliases: tuple[str, ...] = ()) -> None:
    """Register a game factory under ``name`` and its aliases."""
    _GAMES[name] = factory
    for alias in aliases:
        _ALIASES[alias] = name


def _load_builtin_games() -> None:
    # Importing a game package registers it; done lazily so `floe.core` stays free of game imports.
    import floe.games.arctic
    import floe.games.arktia  # noqa: F401


def game_names() -> list[str]:
    """The registered game names."""
    _load_builtin_games()
    return sorted(_GAMES)


def make_game(name: str, players: int, options: Mapping[str, Any] | None = None) -> Game:
    """The game ``name`` for ``players`` seats with ``options``; ``UnknownGameError`` if no such game."""
    _load_builtin_games()
    key = name.strip().lower()
    key = _ALIASES.get(key, key)
    if key not in _GAMES:
        raise UnknownGameError(f"unknown game {name!r}; known games: {', '.join(sorted(_GAMES))}")
    return _GAMES[key](players, options)

"""Which games Floe knows: every ``GameEntry`` published under the ``floe.games`` entry-point group.

A game package declares its entry in its ``pyproject.toml``::

    [project.entry-points."floe.games"]
    mygame = "mygame.entry:ENTRY"

and once it is installed it shows up in ``floe``, the lobby and the learning adapters, with no edit to
Floe (the way pytest finds its plugins). Floe's own games are registered the same way. ``register`` adds
an entry in-process (for a script or a test that defines a game on the spot).
"""

from __future__ import annotations

import json
import sys
import threading
from collections import OrderedDict
from collections.abc import Mapping
from importlib.metadata import entry_points
from typing import Any

from floe.core.entry import GameEntry
from floe.core.errors import UnknownGameError
from floe.core.game import Game

GROUP = "floe.games"

_ENTRIES: dict[str, GameEntry] = {}
_ALIASES: dict[str, str] = {}
_discovered = False


def register(entry: GameEntry) -> None:
    """Add ``entry`` (and its aliases); ``ValueError`` if another game has that name already."""
    other = _ENTRIES.get(entry.name)
    if other is not None and other is not entry:
        raise ValueError(f"two games are registered as {entry.name!r}: {other.game} and {entry.game}")
    _ENTRIES[entry.name] = entry
    for alias in entry.aliases:
        _ALIASES[alias] = entry.name


def _discover() -> None:
    """Load every installed entry point of the group (once). A broken plug-in is reported on stderr and
    skipped: one bad package must not take every game away."""
    global _discovered
    if _discovered:
        return
    _discovered = True
    for point in entry_points(group=GROUP):
        try:
            entry = point.load()
        except Exception as exc:  # a third-party package may fail in any way while importing
            print(
                f"floe: the game plug-in {point.name!r} ({point.value}) failed to load: {exc}",
                file=sys.stderr,
            )
            continue
        if not isinstance(entry, GameEntry):
            print(f"floe: the game plug-in {point.name!r} is not a GameEntry; skipped", file=sys.stderr)
            continue
        register(entry)


def entries() -> list[GameEntry]:
    """Every registered game, in listing order (``order``, then name)."""
    _discover()
    return sorted(_ENTRIES.values(), key=lambda e: (e.order, e.name))


def game_names() -> list[str]:
    """The registered game names, in listing order."""
    return [e.name for e in entries()]


def entry(name: str) -> GameEntry:
    """The entry of game ``name`` (or an alias); ``UnknownGameError`` listing the known games if none."""
    _discover()
    key = str(name).strip().lower()
    key = _ALIASES.get(key, key)
    found = _ENTRIES.get(key)
    if found is None:
        shown = name if len(str(name)) <= 40 else str(name)[:37] + "…"
        known = ", ".join(game_names()) or "none (is Floe installed?)"
        raise UnknownGameError(f"unknown game {shown!r}; known games: {known}")
    return found


def default_game() -> str:
    """The game ``floe play`` starts when none is named: the first in listing order."""
    names = game_names()
    if not names:
        raise UnknownGameError("no game is installed")
    return names[0]


def make_game(name: str, players: int, options: Mapping[str, Any] | None = None) -> Game:
    """The game ``name`` for ``players`` seats with ``options``; ``UnknownGameError`` if no such game,
    ``OptionError`` for a bad player count or option."""
    return entry(name).new_game(players, options)


# Games one process keeps built: a lab worker plays the same one or two games thousands of times, a bot
# worker serves a few tables' option sets. Bounded, so a server seeing many option sets does not grow.
SHARED_GAMES = 64
_SHARED: OrderedDict[tuple[str, int, str], tuple[GameEntry, Game]] = OrderedDict()
_SHARED_LOCK = threading.Lock()  # the server's thread workers share it


def shared_game(name: str, players: int, options: Mapping[str, Any] | None = None) -> Game:
    """``make_game``, built once per process for each (name, players, options) and then reused: the one
    per-process game cache of the lab's workers and the server's bot workers. A game is never changed
    after it is built (every state keeps its own), so one object serves every caller."""
    found = entry(name)
    # Options compare by their JSON (sorted keys): a dict is not hashable, and a resumed run's options,
    # read back from a header, must find the game built from the command line's.
    key = (found.name, players, json.dumps(dict(options or {}), sort_keys=True))
    with _SHARED_LOCK:
        kept = _SHARED.get(key)
        # The entry is compared too: a game registered again under the same name (a test's) is built anew.
        if kept is not None and kept[0] is found:
            _SHARED.move_to_end(key)
            return kept[1]
    game = found.new_game(players, options)  # outside the lock: a slow build holds up no other game
    with _SHARED_LOCK:
        _SHARED[key] = (found, game)
        while len(_SHARED) > SHARED_GAMES:
            _SHARED.popitem(last=False)
    return game

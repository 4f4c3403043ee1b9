"""Where a conformance check is (game, seed, action number) and how it fails: ``ConformanceError``.

Every check runs inside ``Where.checking(name)``: an ``AssertionError`` or any other exception raised by
the game's code (a pickling error, a ``KeyError`` in ``state_from_json``…) becomes a ``ConformanceError``
whose message names the game, the player count, the seed, the options, the action number and the check,
and says how to replay just that game. A failure deep in a random game is only useful if it can be
reproduced on its own.
"""

from __future__ import annotations

import traceback
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_MAX_OPTIONS_TEXT = 300


class ConformanceError(AssertionError):
    """A conformance check failed. ``check`` names it; ``seed`` and ``action`` say where."""

    def __init__(self, message: str, *, game: str, players: int, seed: int, action: int, check: str) -> None:
        super().__init__(message)
        self.game = game
        self.players = players
        self.seed = seed
        self.action = action
        self.check = check


@dataclass
class Where:
    """The game being checked and how far it has got; builds the failure messages."""

    game: str
    players: int
    seed: int
    options: Mapping[str, Any]
    action: int = 0  # actions applied so far in this game (chance outcomes included)
    last: str = ""  # notation of the last action applied, for the message

    def failure(self, check: str, detail: str) -> ConformanceError:
        """The error for a failed ``check``; ``detail`` says what was wrong."""
        options = repr(dict(self.options))
        if len(options) > _MAX_OPTIONS_TEXT:
            options = options[: _MAX_OPTIONS_TEXT - 1] + "…"
        at = f"after action {self.action} ({self.last})" if self.action else "at the initial state"
        message = (
            f"{self.game}, {self.players} players, seed {self.seed}, {at}: {check}: {detail}\n"
            f"  options: {options}\n"
            f"  replay this game alone: check_game({self.game!r}, players={self.players}, seed={self.seed}, "
            f"games=1, ...)"
        )
        return ConformanceError(
            message, game=self.game, players=self.players, seed=self.seed, action=self.action, check=check
        )

    def expect(self, condition: bool, check: str, detail: str) -> None:
        """Fail ``check`` with ``detail`` unless ``condition`` holds."""
        if not condition:
            raise self.failure(check, detail)

    def same(self, expected: Any, got: Any, check: str, what: str) -> None:
        """Fail ``check`` unless ``got == expected``; the message says ``what`` and where they first differ
        (worked out only on failure: the comparison runs often, the message rarely)."""
        if got != expected:
            raise self.failure(check, f"{what}: {first_difference(expected, got)}")

    @contextmanager
    def checking(self, check: str) -> Iterator[None]:
        """Turn anything the game's code raises inside the block into a failure of ``check``."""
        try:
            yield
        except ConformanceError:
            raise
        except AssertionError as exc:
            raise self.failure(check, str(exc) or _where_asserted(exc)) from exc
        except Exception as exc:  # the game's code may fail in any way; report it where it happened
            raise self.failure(check, f"{type(exc).__name__}: {exc}") from exc


def _where_asserted(exc: BaseException) -> str:
    """A bare ``assert`` has no message: name the line that failed instead."""
    frames = traceback.extract_tb(exc.__traceback__)
    if not frames:
        return "assertion failed"
    last = frames[-1]
    return f"assertion failed at {Path(last.filename).name}:{last.lineno}: {(last.line or '').strip()}"


def short(value: Any, limit: int = 160) -> str:
    """``repr`` of a value cut to ``limit`` characters, for messages."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def first_difference(a: Any, b: Any, path: str = "") -> str:
    """Where two JSON-like values first differ (``hands[1][3]: 12 != 40``), for messages."""
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        for key in sorted(set(a) | set(b), key=str):
            if key not in a or key not in b:
                side = "first" if key not in a else "second"
                return f"{path}.{key}: missing in the {side}" if path else f"{key}: missing in the {side}"
            if a[key] != b[key]:
                return first_difference(a[key], b[key], f"{path}.{key}" if path else str(key))
        return path or "(equal)"
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        if len(a) != len(b):
            return f"{path or 'value'}: length {len(a)} != {len(b)}"
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return first_difference(x, y, f"{path}[{i}]")
        return path or "(equal)"
    return f"{path or 'value'}: {short(a, 60)} != {short(b, 60)}"

"""What the web table says about a game in words: per-viewer log lines, the decision at hand, the legal
choices. One small adapter per game (``GamePresenter``), named by the game's entry; the server itself stays
game-agnostic and reaches the adapter through the module functions (by game name).

Everything here starts from what a viewer may know: log lines come from the game's own per-viewer log (or,
for a perfect-information game, from the action and the public state before it), the decision text from
public facts, the legal choices only for the seat that holds them.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from functools import cache
from typing import Any

from floe.core.entry import resolve
from floe.core.game import State
from floe.core.registry import entry


class GamePresenter(ABC):
    """One game as the web table shows it: log lines, the decision at hand, legal choices."""

    @abstractmethod
    def log_line(self, before: State, action: int, viewer: int | None) -> str | None:
        """``action`` applied to ``before`` in words, as ``viewer`` may know it (None: nothing to say)."""

    @abstractmethod
    def deciding(self, state: State) -> str:
        """What the seat to act is deciding, in words (public)."""

    @abstractmethod
    def legal_choices(self, state: State, seat: int) -> list[dict[str, Any]]:
        """The legal choices of ``seat`` (which is to act): id, notation, words and what they touch."""


# --- the server's entry points -----------------------------------------------------------------------------
@cache
def presenter(game: str) -> GamePresenter:
    """The presenter the entry of ``game`` names."""
    ref = entry(game).presenter
    if ref is None:
        raise KeyError(f"{game} has no web presenter")
    found = resolve(ref)
    if not isinstance(found, GamePresenter):
        raise TypeError(f"{ref} is not a GamePresenter")
    return found


def log_line(game: str, before: State, action: int, viewer: int | None) -> str | None:
    """``action`` applied to ``before`` in words, as ``viewer`` may know it (None: nothing to say)."""
    return presenter(game).log_line(before, action, viewer)


def deciding(game: str, state: State) -> str:
    """What the seat to act is deciding, in words (public)."""
    if state.is_terminal():
        return "the game is over"
    return presenter(game).deciding(state)


def legal_choices(game: str, state: State, seat: int) -> list[dict[str, Any]]:
    """The legal choices of ``seat`` (empty unless it is to act): id, notation, words and what it touches."""
    if state.is_terminal() or state.current_player() != seat:
        return []
    return presenter(game).legal_choices(state, seat)

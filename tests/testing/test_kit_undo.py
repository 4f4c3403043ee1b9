"""Issue 13, item 9: the kit checks the undo contract (``floe.testing.undo``). A game that keeps the
default (never undoable) has nothing to check; one that calls a turn-ending decision undoable is caught,
with the seed that shows it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from floe.core import registry
from floe.core.entry import GameEntry
from floe.testing import ConformanceError, check_game

from .kit_toy import ToyGame, ToyState


class EveryAddUndoable(ToyState):
    """Calls every decision undoable, though each one passes the turn to the next seat."""

    def undoable(self, action: int) -> bool:
        return True


def _game(state: type[ToyState]) -> type[ToyGame]:
    name = f"kit-toy-undo-{state.__name__.lower()}"
    return type(f"{state.__name__}Game", (ToyGame,), {"name": name, "state_class": state})


@pytest.fixture
def register() -> Iterator[Any]:
    added: list[str] = []

    def add(game: type[ToyGame]) -> str:
        registry.register(GameEntry(game=game))
        added.append(game.name)
        return game.name

    yield add
    for name in added:
        registry._ENTRIES.pop(name, None)


def test_the_default_is_never_undoable(register: Any) -> None:
    name = register(_game(ToyState))
    report = check_game(name, games=10, sample=0.5)
    assert report.full_checks > 10 and report.undos == 0


def test_a_turn_ending_undoable_decision_is_caught(register: Any) -> None:
    name = register(_game(EveryAddUndoable))
    with pytest.raises(ConformanceError) as caught:
        check_game(name, games=10, sample=0.5)
    assert "undo of add" in str(caught.value) and "may be undone, but after it" in str(caught.value)

"""A game whose result is known in advance, for checking the lab's figures by hand.

Each of the 2–4 seats makes one decision (``go``); then the game ends and seat ``q`` scores ``n - q``
(the first seat wins, the last is last), whatever was played. Registered in-process as ``fixed``.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from floe.core import registry
from floe.core.entry import GameEntry
from floe.core.errors import InvalidActionError
from floe.core.game import TERMINAL, Game, GameSpec, State


class FixedState(State):
    """``moved`` seats have made their one decision."""

    def __init__(self, n: int) -> None:
        self.n, self.moved = n, 0
        self._history: list[int] = []

    def current_player(self) -> int:
        return self.moved if self.moved < self.n else TERMINAL

    def legal_actions(self) -> list[int]:
        return [] if self.moved >= self.n else [0]

    def apply_unchecked(self, action: int) -> None:
        self.moved += 1
        self._history.append(action)

    def action_to_string(self, action: int) -> str:
        if action != 0:
            raise InvalidActionError(f"no action {action}")
        return "go"

    def string_to_action(self, text: str) -> int:
        if text.strip() != "go":
            raise InvalidActionError(f"cannot read {text!r}")
        return 0

    def observation(self, seat: int | None) -> dict[str, Any]:
        return {"seat": seat, "moved": self.moved}

    def observation_vector(self, seat: int) -> np.ndarray:
        return np.array([self.moved / self.n], dtype=np.float32)

    def scores(self) -> list[int]:
        return [self.n - q for q in range(self.n)]

    def clone(self) -> FixedState:
        other = FixedState(self.n)
        other.moved, other._history = self.moved, self._history[:]
        return other

    @property
    def history(self) -> list[int]:
        return self._history

    def to_json(self) -> dict[str, Any]:
        return {"n": self.n, "moved": self.moved, "history": self._history[:]}


class FixedGame(Game):
    """The fixed game for 2–4 players, perfect information."""

    name, title, information = "fixed", "Fixed", "perfect"

    @property
    def spec(self) -> GameSpec:
        n = self.players
        return GameSpec(self.name, n, 2, 4, 1, 0, -1.0, 1.0, n, "perfect", 1, "fixed-1")

    def new_initial_state(self) -> FixedState:
        return FixedState(self.players)

    def determinize(self, observation: Any, rng: random.Random) -> FixedState:
        st = FixedState(self.players)
        st.moved = observation["moved"]
        st._history = [0] * st.moved
        return st

    def state_from_json(self, data: Any) -> FixedState:
        st = FixedState(data["n"])
        st.moved, st._history = data["moved"], list(data["history"])
        return st


@pytest.fixture
def fixed_game() -> Iterator[str]:
    """The ``fixed`` game registered for one test."""
    registry.register(GameEntry(game=FixedGame))
    yield "fixed"
    registry._ENTRIES.pop("fixed", None)

"""A match: one game being played from a seed. It owns the random generator that draws chance outcomes.

The generator lives here, outside the state, so no observation can read the future of the shuffle, and
the record keeps each outcome drawn, so it replays exactly whatever generator produced it.

>>> from floe.core.registry import default_game
>>> m = Match.new(default_game(), players=2, seed=7)
>>> m.state.current_player() in (0, 1)
True
>>> m.apply(m.legal_actions()[0]); len(m.record().actions) > 1
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from floe.core.game import Game, State
from floe.core.record import Record
from floe.core.registry import make_game


class Match:
    """A game in progress: the state, the seeded generator for chance, and the record."""

    def __init__(self, game: Game, seed: int) -> None:
        self.game = game
        self.seed = seed
        self.rng = random.Random(seed)
        self.state: State = game.new_initial_state()
        self.resolve_chance()

    @classmethod
    def new(
        cls, game: str, *, players: int, options: Mapping[str, Any] | None = None, seed: int | None = None
    ) -> Match:
        """A new match of ``game`` for ``players`` seats; a random seed if none is given."""
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        return cls(make_game(game, players, options), seed)

    def current_player(self) -> int:
        """The seat to act, or ``TERMINAL``; chance never waits here (it is resolved at once)."""
        return self.state.current_player()

    def legal_actions(self) -> list[int]:
        """The legal action ids of the seat to act."""
        return self.state.legal_actions()

    def apply(self, action: int) -> None:
        """Apply a player's action (validated: an illegal one raises and changes nothing), then chance."""
        self.state.apply(action)
        self.resolve_chance()

    def resolve_chance(self) -> None:
        """Draw every pending chance outcome with the match's generator."""
        state, rng = self.state, self.rng
        while state.is_chance_node():
            state.apply_unchecked(state.sample_chance(rng))

    def is_over(self) -> bool:
        """True once the game has ended."""
        return self.state.is_terminal()

    def record(self) -> Record:
        """The record so far: game, players, options, seed and every action in notation."""
        return Record.of(self.game, self.seed, self.state)

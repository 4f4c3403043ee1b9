"""Arktia's state: compact mutable data (ints and lists of ints) with an explicit, cheap copy.

Conventions:

- ``fields[c]`` is the code of field ``c`` (``towers.py``): ``HOLE`` (-1) once melted, 0 when empty;
- ``supply[3 * seat + size]`` counts the Muglus a seat has not placed yet; ``neutral_supply`` likewise the
  neutral Muglus a seat still has to place during set-up (one of each size per seat, docs/arktia-rules.md §5.2
  / §12);
- ``captured[seat]`` Muglus the seat removed (docs/arktia-rules.md §8), ``melted[seat]`` fields it melted
(docs/arktia-rules.md §9),
  ``lost[3 * colour + size]`` Muglus of a colour and size removed by someone, ``boxed[3 * colour + size]``
  Muglus that left the board with their player (option ``out_pieces="remove"``); so for every colour and
  size, board + supply + lost + boxed is constant;
- ``out[seat]`` is ``ACTIVE`` (0) or why the seat's game ended: the rules reference's (a)–(d) or the turn
limit;
- ``turns[seat]`` counts the seat's turns (0 and 1 are its opening rounds, docs/arktia-rules.md §5);
- ``pending_keep`` lists the colours whose largest groups tie after a move, in the order the mover
  chooses their survivors (docs/arktia-rules.md §8);
- ``melt_due`` is whether the seat in turn's supply was empty when its turn began (docs/arktia-rules.md §9
[GUESS]).

Derived, not part of the position: ``_legal`` caches the legal list, ``_bits`` holds bit sets of the fields
(``bitsets.py``) kept for the list ``_bits_of`` (``fields`` itself while they are in step).
"""

from __future__ import annotations

from typing import Any

from floe.games.arktia.actions import ActionSpace
from floe.games.arktia.config import ArktiaConfig
from floe.games.arktia.towers import ON_BOARD_COUNT

# Steps: which decisions are legal now.
NEUTRAL_SETUP, TURN, KEEP, MELT, OVER = range(5)
STEP_NAMES = ("neutral-setup", "turn", "keep", "melt", "over")

# Why a seat's game ended (docs/arktia-rules.md §10).
ACTIVE, OUT_STUCK, OUT_NO_MELT, OUT_ONE_PIECE, OUT_STOPPED, OUT_LIMIT = range(6)
OUT_NAMES = ("active", "(a) cannot act", "(b) cannot melt", "(c) one Muglu left", "(d) stopped", "turn limit")

_LIST_FIELDS = (
    "fields",
    "supply",
    "neutral_supply",
    "captured",
    "melted",
    "lost",
    "boxed",
    "out",
    "turns",
    "pending_keep",
    "history",
)
SCALAR_FIELDS = ("n", "player", "step", "turn", "melt_due")


class ArktiaStateData:
    """The raw fields of an Arktia position; ``ArktiaState`` adds the game API on top."""

    __slots__ = (*_LIST_FIELDS, *SCALAR_FIELDS, "config", "space", "_legal", "_bits", "_bits_of")

    config: ArktiaConfig
    space: ActionSpace
    n: int
    player: int
    step: int
    turn: int
    melt_due: bool
    fields: list[int]
    supply: list[int]
    neutral_supply: list[int]
    captured: list[int]
    melted: list[int]
    lost: list[int]
    boxed: list[int]
    out: list[int]
    turns: list[int]
    pending_keep: list[int]
    history: list[int]
    _legal: list[int] | None
    _bits: list[int]
    _bits_of: list[int] | None

    def copy_into(self, other: ArktiaStateData) -> None:
        """Copy every field into ``other`` (lists copied, so the two never share mutable data)."""
        other.config = self.config
        other.space = self.space
        other.n = self.n
        other.player = self.player
        other.step = self.step
        other.turn = self.turn
        other.melt_due = self.melt_due
        other.fields = self.fields[:]
        other.supply = self.supply[:]
        other.neutral_supply = self.neutral_supply[:]
        other.captured = self.captured[:]
        other.melted = self.melted[:]
        other.lost = self.lost[:]
        other.boxed = self.boxed[:]
        other.out = self.out[:]
        other.turns = self.turns[:]
        other.pending_keep = self.pending_keep[:]
        other.history = self.history[:]
        other._legal = self._legal  # never mutated in place, so sharing is safe
        other._bits = self._bits[:]
        other._bits_of = other.fields if self._bits_of is self.fields else None

    def fields_json(self) -> dict[str, Any]:
        """Every field as JSON-ready data (the config as its option mapping)."""
        data: dict[str, Any] = {"config": self.config.to_options()}
        for name in SCALAR_FIELDS:
            data[name] = getattr(self, name)
        for name in _LIST_FIELDS:
            data[name] = list(getattr(self, name))
        return data

    def load_fields(self, data: dict[str, Any]) -> None:
        """Inverse of ``fields_json`` (config and space are set by the caller)."""
        self.n = int(data["n"])
        self.player = int(data["player"])
        self.step = int(data["step"])
        self.turn = int(data["turn"])
        self.melt_due = bool(data["melt_due"])
        for name in _LIST_FIELDS:
            setattr(self, name, [int(x) for x in data[name]])
        self._legal = None
        self._bits = []
        self._bits_of = None  # rebuilt on first use

    def lost_by(self, colour: int) -> int:
        """How many Muglus of ``colour`` were removed (captured) so far."""
        return sum(self.lost[3 * colour : 3 * colour + 3])

    def on_board(self, colour: int) -> int:
        """How many Muglus of ``colour`` are on the board."""
        return sum(map(ON_BOARD_COUNT[colour].__getitem__, self.fields))

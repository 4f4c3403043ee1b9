"""Arche's state: compact mutable data (ints, bit masks and short lists of ints) with a cheap ``clone``.

Conventions:

- cards are ids ``0..n-1`` (the deck's order); a set of cards is a bit mask (bit ``c`` for card ``c``):
  hands, the display, the cards out of the game, each cabin. The stock is a sorted list of ids (its
  draws are chance outcomes, listed at every draw). The five rain cards have no id:
  ``top_left``, ``middle_rain``, ``lower_rain`` and ``rain_out`` count them (below);
- the ark is two rows of cabins from the bow, ``left`` and ``right`` (cabin masks, index 0 at the bow);
  ``tilt`` is the left rows' weight less the right row's, always within -2..+2;
- the stock is **unordered**: every draw is a chance outcome. Spec 4.4 puts rain 1 in the middle and rains
  2–5 in the lower half: with N cards left after the deal, the top ⌊N/2⌋ cards hold no rain, then rain 1,
  then the other ⌈N/2⌉ cards shuffled with four rains. Exchangeability lets counters say all of it:
  ``top_left`` non-rain draws remain before the middle rain (a draw there is uniform over the stock),
  ``middle_rain`` is 1 while rain 1 waits at the middle (the next draw once ``top_left`` is 0), and
  ``lower_rain`` rains are mixed with the rest (a draw is a rain with probability
  lower_rain / (lower_rain + cards)). No order exists anywhere, so no observation or log can read ahead;
- ``known[q]`` is the mask of cards publicly known to be in seat q's hand or pet (taken from the display
  and not seen since); ``pets[q]`` is q's pet card, or -1;
- ``figures[5 * q + k]`` and ``halves[5 * q + k]`` are seat q's figures on scoring card k and the chips
  under them (half points); ``chips`` are the seats' action chips, ``bank`` the discs left (it may go
  below zero only with ``bank=unlimited``);
- ``pending`` is the queue of work before the turn's own decision: chance events, decisions of another
  kind (a pet, a display card to take...), automatic steps (``Job``); ``phase`` is the turn's own
  decision when nothing is pending.
"""

from __future__ import annotations

from typing import Any

from floe.core.compiled import mypyc_attr
from floe.games.arche.config import RulesConfig

# The turn's own decision when nothing is pending (``phase``).
SETUP, START, SECOND, ENDGAME, OVER = range(5)
PHASE_NAMES = ("setup", "start", "second", "endgame", "over")

# Jobs: (kind, seat, argument). Chance jobs draw a card (or choose the first player); decision jobs wait
# for the seat's choice; automatic jobs run at once (``rules.settle``).
J_FIRST, J_OPEN, J_DEAL, J_RAIN_IN, J_SHOW, J_DRAW, J_REFILL = range(7)  # chance (J_RAIN_IN: automatic)
J_PET, J_TAKE, J_CHIMP, J_FIGURE, J_EVICT, J_DISCARD = range(7, 13)  # decisions
J_BEGIN, J_END_TURN, J_NEXT_END, J_PLACE = range(13, 17)  # automatic
JOB_NAMES = (
    "choose-first",
    "open-ark",
    "deal",
    "rain-into-deck",
    "lay-out-display",
    "draw",
    "refill",
    "pet",
    "take",
    "chimp",
    "figure",
    "evict",
    "discard",
    "begin",
    "end-turn",
    "next-endgame",
    "place-figure",
)
CHANCE_JOBS = frozenset((J_FIRST, J_OPEN, J_DEAL, J_SHOW, J_DRAW, J_REFILL))
DECISION_JOBS = frozenset((J_PET, J_TAKE, J_CHIMP, J_FIGURE, J_EVICT, J_DISCARD))
# The step a seat sees for each decision job (the phase names serve the rest).
STEP_OF_JOB = {
    J_PET: "pet",
    J_TAKE: "take",
    J_CHIMP: "chimp",
    J_FIGURE: "figure",
    J_EVICT: "evict",
    J_DISCARD: "discard",
}

_LIST_FIELDS = (
    "stock",
    "hands",
    "pets",
    "known",
    "chips",
    "figures",
    "halves",
    "figures_left",
    "left",
    "right",
)
# Every scalar is public (the observation copies them under these names).
SCALAR_FIELDS = (
    "players",
    "first_player",
    "turn_player",
    "to_act",
    "phase",
    "turn",
    "tilt",
    "tilt_start",
    "played",
    "first_slot",
    "display",
    "out",
    "top_left",
    "middle_rain",
    "lower_rain",
    "rain_out",
    "rain_placed",
    "bank",
    "passed",
    "pets_due",
    "endgame_from",
)


@mypyc_attr(allow_interpreted_subclasses=True)  # ArcheState (game.py) stays a Python class
class ArcheStateData:
    """The raw fields of an Arche position; ``ArcheState`` adds the game API on top."""

    __slots__ = (
        *SCALAR_FIELDS,
        *_LIST_FIELDS,
        "config",
        "pending",
        "history",
        "_legal",
        "_scores",
    )

    config: RulesConfig
    players: int
    first_player: int
    turn_player: int
    to_act: int
    phase: int
    turn: int
    tilt: int
    tilt_start: int
    played: int
    first_slot: int
    display: int
    out: int
    top_left: int
    middle_rain: int
    lower_rain: int
    rain_out: int
    rain_placed: bool
    bank: int
    passed: int
    pets_due: bool
    endgame_from: int
    stock: list[int]
    hands: list[int]
    pets: list[int]
    known: list[int]
    chips: list[int]
    figures: list[int]
    halves: list[int]
    figures_left: list[int]
    left: list[int]
    right: list[int]
    pending: list[tuple[int, int, int]]
    history: list[int]
    _legal: list[int] | None
    _scores: Any

    def copy_into(self, other: ArcheStateData) -> None:
        """Copy every field into ``other`` (lists copied, so the two never share mutable data)."""
        other.config = self.config
        other.players = self.players
        other.first_player = self.first_player
        other.turn_player = self.turn_player
        other.to_act = self.to_act
        other.phase = self.phase
        other.turn = self.turn
        other.tilt = self.tilt
        other.tilt_start = self.tilt_start
        other.played = self.played
        other.first_slot = self.first_slot
        other.display = self.display
        other.out = self.out
        other.top_left = self.top_left
        other.middle_rain = self.middle_rain
        other.lower_rain = self.lower_rain
        other.rain_out = self.rain_out
        other.rain_placed = self.rain_placed
        other.bank = self.bank
        other.passed = self.passed
        other.pets_due = self.pets_due
        other.endgame_from = self.endgame_from
        other.stock = self.stock[:]
        other.hands = self.hands[:]
        other.pets = self.pets[:]
        other.known = self.known[:]
        other.chips = self.chips[:]
        other.figures = self.figures[:]
        other.halves = self.halves[:]
        other.figures_left = self.figures_left[:]
        other.left = self.left[:]
        other.right = self.right[:]
        other.pending = self.pending[:]
        other.history = self.history[:]
        other._legal = self._legal  # never mutated in place, so sharing is safe
        other._scores = self._scores

    def fields_json(self) -> dict[str, Any]:
        """Every field as JSON-ready data (the config as its option mapping)."""
        data: dict[str, Any] = {"config": self.config.to_options()}
        for name in SCALAR_FIELDS:
            data[name] = getattr(self, name)
        for name in _LIST_FIELDS:
            data[name] = list(getattr(self, name))
        data["pending"] = [list(job) for job in self.pending]
        data["history"] = list(self.history)
        return data

    def load_fields(self, data: dict[str, Any]) -> None:
        """Inverse of ``fields_json`` (the config is set by the caller)."""
        for name in SCALAR_FIELDS:
            # Two statements, not one conditional expression: compiled (native.py), ``bool(v) if ... else
            # int(v)`` has the type int, and its True would arrive as 1, which a bool field refuses.
            if name in ("rain_placed", "pets_due"):
                setattr(self, name, bool(data[name]))
            else:
                setattr(self, name, int(data[name]))
        for name in _LIST_FIELDS:
            setattr(self, name, [int(x) for x in data[name]])
        self.pending = [(int(k), int(a), int(b)) for k, a, b in data["pending"]]
        self.history = [int(x) for x in data["history"]]
        self._legal = None
        self._scores = None


def locate(left: list[int], right: list[int], card: int) -> tuple[int, int]:
    """(side, index) of the cabin holding ``card``: side 0 left, 1 right; (-1, -1) if it is in none."""
    bit = 1 << card
    for side, row in ((0, left), (1, right)):
        for i, cab in enumerate(row):
            if cab & bit:
                return side, i
    return -1, -1


def bits(mask: int) -> list[int]:
    """The card ids of a mask, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out

"""Arctic's state: compact mutable data (ints and lists of ints) with an explicit, cheap ``clone``.

Frozen records would cost the engine its speed target (spec: >= 50,000 decisions/s, clone <= 20 us), so
the state is a slotted object whose transitions live in ``rules.py``. Everything here is plain data that
serialises to JSON. Conventions:

- cards are ints 0..119; a face-down card in a pile is stored as ``card + FACE_DOWN_FLAG``;
- hands, penalty zones and the river are kept sorted, so equal positions are equal data;
- ``deck`` holds the unseen draw stock: the main deck and the reserve together, unordered. Every draw is
  a chance outcome, uniform over it, which gives exactly the distribution of a shuffled deck with a
  random reserve set aside (docs/arctic-rules.md §D1). ``reserve_count`` says how many of those cards are the
  reserve; the main deck is ``len(deck) - reserve_count``. No order exists, so no observation can read ahead.
- ``known[c]`` is the public knowledge about card ``c`` gathered from public events: 0 nothing beyond its
  public location, ``IN_HAND + seat`` certainly in that seat's hand (taken from the river, swapped or
  taken back, and not seen leaving), or a bit mask 1..15 of seats whose hidden areas (hand, penalty
  zone, face-down pile cards) may hold it.
- ``unseen_penalties`` (sorted) holds the penalty cards their owner has not seen (``penalties=hidden_look``):
  drawn from the deck as a shortfall or received as a Polar bear gift, and not looked at since. A card
  the owner discarded is seen; a Polar bear power's look (action ``look``) shows the whole zone.
- ``pushes[6 * seat + animal]`` is the net number of steps that seat chose to move that animal's token
  forward (token moves it could have made the other way, and Walrus extra steps). It is public, and it is
  the evidence search bots use to guess opponents' totems.
- the scalar fields (``SCALAR_FIELDS``) are all public and carry the names the observation's JSON uses
  (``placement_value``, ``place_min``..., see ``codec.py``), so that codec is a table, not a translation.
  Bit masks: ``decks_in_play`` (deck k in bit k) and ``powers_held_at_start`` (animal a in bit a). The one
  exception is ``to_act`` (``current_player`` on the wire), since ``current_player()`` is the core API's.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Any, Final

from floe.core.compiled import mypyc_attr
from floe.games.arctic.config import RulesConfig

FACE_DOWN_FLAG: Final = 128
IN_HAND: Final = 16

# Steps: which decisions are legal (or which automatic work comes next).
# (Final: the compiled engine reads them as C constants.)
SETUP: Final = 0
PLACE: Final = 1
SWAP_RIVER: Final = 2
TAKE_POWER: Final = 3
MOVE: Final = 4
EXTRA: Final = 5
DRAW: Final = 6
REFILLED: Final = 7
DISCARD: Final = 8
GIVE: Final = 9
OVER: Final = 10
STEP_NAMES = (
    "setup",
    "place",
    "swap",
    "take-power",
    "move",
    "extra",
    "draw",
    "refilled",
    "discard",
    "give",
    "over",
)


class Job(IntEnum):
    """The kind of a pending chance job ``(kind, a, b)``; ``a`` and ``b`` are seats or an animal."""

    DECKS = 0  # choose the decks in play
    SIDE = 1  # choose the side of animal a's power
    TOTEM = 2  # deal seat a's totem
    FIRST = 3  # choose the first player
    HAND = 4  # deal or draw a card from the stock into seat a's hand
    RIVER = 5  # refill the river from the stock
    PENALTY = 6  # a card from the stock into seat a's penalty zone (placement shortfall)
    BLIND_DRAW = 7  # Bear: a card of seat a's penalty zone, unseen, into its hand
    BLIND_GIVE = 8  # Bear: a card of seat a's penalty zone, unseen, into seat b's

    @property
    def slug(self) -> str:
        """The job's name on the wire (``deal-to-hand``)."""
        return JOB_NAMES[self]


JOB_NAMES = (
    "choose-decks",
    "choose-side",
    "deal-totem",
    "choose-first",
    "deal-to-hand",
    "refill-river",
    "penalty-draw",
    "penalty-to-hand",
    "give-penalty",
)
CARD_JOBS: Final = frozenset((Job.HAND, Job.RIVER, Job.PENALTY))  # a card drawn from the stock

_LIST_FIELDS = (
    "tokens",
    "river",
    "deck",
    "holder",
    "totems",
    "powers",
    "turns",
    "known",
    "pushes",
    "unseen_penalties",
    "history",
)
_NESTED_FIELDS = ("hands", "piles", "penalties")
# The scalars of the turn in progress (the wire groups them under "turn"), then the whole state's scalars.
TURN_FIELDS = (
    "powers_held_at_start",
    "placement_value",
    "place_min",
    "place_max",
    "placed",
    "placing_closed",
    "puffin_used",
    "give_used",
    "swap_card",
    "draw_min",
    "draw_max",
    "drawn",
    "walrus_token",
    "walrus_dir",
)
SCALAR_FIELDS = (
    "players",
    "first_player",
    "reserve_count",
    "decks_in_play",
    "round",
    "end_triggered",
    "trigger_player",
    "final_round",
    "turn_player",
    "step",
    "to_act",
    *TURN_FIELDS,
)


@mypyc_attr(allow_interpreted_subclasses=True)  # ArcticState (game.py) stays a Python class
class ArcticStateData:
    """The raw fields of an Arctic position; ``ArcticState`` adds the game API on top."""

    __slots__ = (
        *_LIST_FIELDS,
        *_NESTED_FIELDS,
        *SCALAR_FIELDS,
        "config",
        "pending",
        "_legal",
        "_draws",
        "_scores",
    )

    config: RulesConfig
    players: int
    tokens: list[int]
    river: list[int]
    deck: list[int]
    holder: list[int]
    totems: list[int]
    powers: list[int]
    turns: list[int]
    known: list[int]
    pushes: list[int]
    unseen_penalties: list[int]
    history: list[int]
    hands: list[list[int]]
    piles: list[list[int]]
    penalties: list[list[int]]
    pending: list[tuple[int, int, int]]
    first_player: int
    reserve_count: int
    decks_in_play: int
    round: int
    end_triggered: bool
    trigger_player: int
    final_round: bool
    turn_player: int
    step: int
    to_act: int
    powers_held_at_start: int
    placement_value: int
    place_min: int
    place_max: int
    placed: int
    placing_closed: bool
    puffin_used: bool
    give_used: bool
    swap_card: int
    draw_min: int
    draw_max: int
    drawn: int
    walrus_token: int
    walrus_dir: int
    _legal: list[int] | None
    # The outcome ids of a draw from the deck (rules.chance_actions), kept in step with the deck while set.
    _draws: list[int] | None
    _scores: Any

    def copy_into(self, other: ArcticStateData) -> None:
        """Copy every field into ``other`` (lists copied, so the two never share mutable data)."""
        other.config = self.config
        other.players = self.players
        other.tokens = self.tokens[:]
        other.river = self.river[:]
        other.deck = self.deck[:]
        other.holder = self.holder[:]
        other.totems = self.totems[:]
        other.powers = self.powers[:]
        other.turns = self.turns[:]
        other.known = self.known[:]
        other.pushes = self.pushes[:]
        other.unseen_penalties = self.unseen_penalties[:]
        other.history = self.history[:]
        other.hands = [h[:] for h in self.hands]
        other.piles = [p[:] for p in self.piles]
        other.penalties = [p[:] for p in self.penalties]
        other.pending = self.pending[:]
        other.first_player = self.first_player
        other.reserve_count = self.reserve_count
        other.decks_in_play = self.decks_in_play
        other.round = self.round
        other.end_triggered = self.end_triggered
        other.trigger_player = self.trigger_player
        other.final_round = self.final_round
        other.turn_player = self.turn_player
        other.step = self.step
        other.to_act = self.to_act
        other.powers_held_at_start = self.powers_held_at_start
        other.placement_value = self.placement_value
        other.place_min = self.place_min
        other.place_max = self.place_max
        other.placed = self.placed
        other.placing_closed = self.placing_closed
        other.puffin_used = self.puffin_used
        other.give_used = self.give_used
        other.swap_card = self.swap_card
        other.draw_min = self.draw_min
        other.draw_max = self.draw_max
        other.drawn = self.drawn
        other.walrus_token = self.walrus_token
        other.walrus_dir = self.walrus_dir
        other._legal = self._legal  # never mutated in place, so sharing is safe
        other._draws = self._draws  # the same
        other._scores = self._scores

    def fields_json(self) -> dict[str, Any]:
        """Every field as JSON-ready data (the config as its option mapping)."""
        data: dict[str, Any] = {"config": self.config.to_options()}
        for name in (*SCALAR_FIELDS, *_LIST_FIELDS):
            value = getattr(self, name)
            data[name] = list(value) if isinstance(value, list) else value
        for name in _NESTED_FIELDS:
            data[name] = [list(x) for x in getattr(self, name)]
        data["pending"] = [list(job) for job in self.pending]
        return data

    def load_fields(self, data: dict[str, Any]) -> None:
        """Inverse of ``fields_json`` (the config is set by the caller)."""
        for name in SCALAR_FIELDS:
            setattr(self, name, data[name])
        for name in _LIST_FIELDS:
            setattr(self, name, [int(x) for x in data[name]] if name in data else _absent(name))
        for name in _NESTED_FIELDS:
            setattr(self, name, [[int(x) for x in part] for part in data[name]])
        self.pending = [(int(k), int(a), int(b)) for k, a, b in data["pending"]]
        self.forget_derived()

    def forget_derived(self) -> None:
        """Drop what is derived from the fields and kept with them (the legal list, the draws' outcomes, the
        scores): for a new state, or one whose fields were set by hand (tests, puzzles)."""
        self._legal = None
        self._draws = None
        self._scores = None


def _absent(name: str) -> list[int]:
    # States saved before unseen_penalties existed had none (there was no hidden_look rule); any other
    # missing field is an error.
    if name == "unseen_penalties":
        return []
    raise KeyError(name)


def visible_card(pile: list[int]) -> int:
    """The pile's visible card, or -1 when the pile is empty or its top card is face-down."""
    if pile and pile[-1] < FACE_DOWN_FLAG:
        return pile[-1]
    return -1

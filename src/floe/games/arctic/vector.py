"""The observation as a fixed-length float32 vector, for the learning adapters (``docs/observation.md``).

The vector is cut into named slices (``SLICES``, in order, tiling it); a seat's block inside ``SEAT_SLICE``
has its own named offsets (``SEAT_*``). "Relative seat" r = (seat − observer) mod n: r = 0 is the observer.

>>> VECTOR_SIZE, SLICES["step"]
(2197, slice(2166, 2177, None))
"""

from __future__ import annotations

from itertools import compress

import numpy as np

from floe.games.arctic.cards import COMPANION, DECK_CARDS, DRAW, MAIN, N_ANIMALS, N_CARDS, PLACEMENT
from floe.games.arctic.observation import HIDDEN, ArcticObservation
from floe.games.arctic.state import FACE_DOWN_FLAG, IN_HAND, STEP_NAMES

# Card location classes, relative to the observing seat (opponent i = i seats after it).
LOC_OWN_HAND, LOC_OWN_PILE, LOC_OWN_FACE_DOWN, LOC_OWN_PENALTY, LOC_RIVER = range(5)
LOC_OPP_PILE = 5  # + i - 1
LOC_OPP_KNOWN_HAND = 8  # + i - 1
LOC_OPP_MAYBE = 11  # + i - 1
LOC_OUT_OF_PLAY = 14
LOC_UNSEEN = 15
N_LOC = 16

# A seat's features, as offsets in its block of SEAT_FEATURES entries.
SEAT_MAIN = 0  # visible card's main animal, one-hot (6)
SEAT_COMPANION = 6  # visible card's companion, one-hot (6)
SEAT_HAND_COUNT = 12  # / 10
SEAT_PENALTY_COUNT = 13  # / 10
SEAT_PILE_SIZE = 14  # / 30
SEAT_TURNS = 15  # / 30
SEAT_IS_FIRST = 16
SEAT_TO_ACT = 17
SEAT_PLACEMENT = 18  # visible card's placement value / 5
SEAT_DRAW = 19  # visible card's draw value / 5
SEAT_RUNS = 20  # longest face-up run per animal / 6 (6)
SEAT_TOP_RUN = 26  # length of the run at the top / 6
SEAT_PUSHES = 27  # net token steps chosen per animal / 5 (6)
SEAT_FEATURES = SEAT_PUSHES + N_ANIMALS

CARD_BLOCK = N_CARDS * N_LOC
TOKEN_BLOCK = N_ANIMALS * 6
POWER_BLOCK = N_ANIMALS * 7  # side one-hot (2) + holder one-hot (none, self, opp 1..3)
TOTEM_BLOCK = 4 * N_ANIMALS  # relative seat x animal
SEAT_BLOCK = 4 * SEAT_FEATURES
N_COUNTERS = 12  # main deck, reserve, round, ... (see _counters)
N_FLAGS = 8  # Bear gift used, placing closed, ... (see _flags)
GLOBAL_BLOCK = N_COUNTERS + len(STEP_NAMES) + N_ANIMALS + N_ANIMALS + N_FLAGS


def _tile(sizes: dict[str, int]) -> dict[str, slice]:
    out, start = {}, 0
    for name, size in sizes.items():
        out[name] = slice(start, start + size)
        start += size
    return out


SLICES: dict[str, slice] = _tile(
    {
        "cards": CARD_BLOCK,  # per card, one-hot location class (N_LOC)
        "tokens": TOKEN_BLOCK,  # per animal, one-hot token position 0..5
        "powers": POWER_BLOCK,  # per animal: side in play (2), holder (none, relative seat 0..3)
        "totems": TOTEM_BLOCK,  # per relative seat, totem one-hot (own only; all at the end)
        "seats": SEAT_BLOCK,  # per relative seat, SEAT_FEATURES entries (SEAT_* offsets)
        "counters": N_COUNTERS,
        "step": len(STEP_NAMES),  # one-hot
        "held": N_ANIMALS,  # powers held at the start of the turn, per animal
        "walrus": N_ANIMALS,  # the Walrus token, one-hot
        "flags": N_FLAGS,
    }
)
CARD_SLICE, TOKEN_SLICE, POWER_SLICE, TOTEM_SLICE, SEAT_SLICE = (
    SLICES[k] for k in ("cards", "tokens", "powers", "totems", "seats")
)
COUNTER_SLICE, STEP_SLICE, HELD_SLICE, WALRUS_SLICE, FLAG_SLICE = (
    SLICES[k] for k in ("counters", "step", "held", "walrus", "flags")
)
VECTOR_SIZE = FLAG_SLICE.stop
assert VECTOR_SIZE == CARD_BLOCK + TOKEN_BLOCK + POWER_BLOCK + TOTEM_BLOCK + SEAT_BLOCK + GLOBAL_BLOCK

_TOKEN_BASE = TOKEN_SLICE.start
_POWER_BASE = POWER_SLICE.start
_TOTEM_BASE = TOTEM_SLICE.start
_SEAT_BASE = SEAT_SLICE.start
_STEP_BASE = STEP_SLICE.start
_HELD_BASE = HELD_SLICE.start
_WALRUS_BASE = WALRUS_SLICE.start
_CARD_OFFSETS = np.arange(N_CARDS) * N_LOC
_CARD_IDS = range(N_CARDS)
_BASE_LOC: dict[int, bytes] = {}
_VALUE_INDEX: dict[tuple[int, int], np.ndarray] = {}


def _runs(pile: list[int]) -> tuple[list[int], int]:
    """Longest face-up run per animal and the length of the run at the top (face-down cards break runs)."""
    best = [0] * N_ANIMALS
    last, length = -1, 0
    for e in pile:
        animal = MAIN[e] if 0 <= e < FACE_DOWN_FLAG else -1
        length = length + 1 if animal == last and animal >= 0 else 1
        last = animal
        if animal >= 0 and length > best[animal]:
            best[animal] = length
    return best, (length if last >= 0 else 0)


def _base_loc(decks_in_play: int) -> bytes:
    """Every card's location class before anything is known: unseen if its deck is in play (cached)."""
    loc = _BASE_LOC.get(decks_in_play)
    if loc is None:
        cells = bytearray([LOC_OUT_OF_PLAY] * N_CARDS)
        for k in range(4):
            if decks_in_play >> k & 1:
                for c in DECK_CARDS[k]:
                    cells[c] = LOC_UNSEEN
        loc = _BASE_LOC[decks_in_play] = bytes(cells)
    return loc


def _value_index(n: int, seat: int) -> np.ndarray:
    """Where the scalar features go, in the order ``vector`` lists them (cached per seat)."""
    index = _VALUE_INDEX.get((n, seat))
    if index is None:
        order: list[int] = []
        for q in range(n):
            b = _SEAT_BASE + (q - seat) % n * SEAT_FEATURES
            order += [b + SEAT_PLACEMENT, b + SEAT_DRAW]
            order += [b + SEAT_HAND_COUNT, b + SEAT_PENALTY_COUNT, b + SEAT_PILE_SIZE, b + SEAT_TURNS]
            order.append(b + SEAT_TOP_RUN)
            order += range(b + SEAT_RUNS, b + SEAT_RUNS + N_ANIMALS)
            order += range(b + SEAT_PUSHES, b + SEAT_PUSHES + N_ANIMALS)
        order += range(COUNTER_SLICE.start, COUNTER_SLICE.stop)
        order += range(FLAG_SLICE.start, FLAG_SLICE.stop)
        index = _VALUE_INDEX[(n, seat)] = np.array(order, dtype=np.intp)
    return index


def vector(obs: ArcticObservation) -> np.ndarray:
    """The fixed-length float32 observation of ``obs.seat`` (layout: ``SLICES``, ``docs/observation.md``).

    This is the learning adapters' hot path, so the one-hots are set in a byte buffer and the card
    locations and scalars are written with one fancy-index assignment each.
    """
    seat = obs.seat if obs.seat is not None else 0
    s = obs.scalars
    n: int = s["players"]
    rel = [(q - seat) % n for q in range(n)]

    # Card locations; later writes win, in this order: public knowledge, river, piles, own hand/penalties.
    loc = bytearray(_base_loc(s["decks_in_play"]))
    known = obs.known
    for c in compress(_CARD_IDS, known):  # only the few cards with public knowledge
        v = known[c]
        if v >= IN_HAND:
            if v - IN_HAND != seat:
                loc[c] = LOC_OPP_KNOWN_HAND - 1 + rel[v - IN_HAND]
        else:
            for q in range(n):
                if v >> q & 1 and q != seat:
                    loc[c] = LOC_OPP_MAYBE - 1 + rel[q]
                    break
    for c in obs.river:
        loc[c] = LOC_RIVER
    for q in range(n):
        if q == seat:
            for e in obs.piles[q]:
                if e >= FACE_DOWN_FLAG:
                    loc[e - FACE_DOWN_FLAG] = LOC_OWN_FACE_DOWN
                elif e >= 0:
                    loc[e] = LOC_OWN_PILE
        else:
            where = LOC_OPP_PILE - 1 + rel[q]
            for e in obs.piles[q]:
                if 0 <= e < FACE_DOWN_FLAG:
                    loc[e] = where
    for c in obs.hand:
        loc[c] = LOC_OWN_HAND
    for c in obs.penalties or ():
        loc[c] = LOC_OWN_PENALTY

    ones = bytearray(VECTOR_SIZE)
    val: list[float] = []
    b = _TOKEN_BASE
    for pos in obs.tokens:
        ones[b + pos] = 1
        b += 6
    for a, power in enumerate(obs.powers):
        b = _POWER_BASE + a * 7
        if power:
            ones[b + power % 10 - 1] = 1  # the power's side (1 or 2): Power.side, inlined
        h = obs.holder[a]
        ones[b + 2 if h < 0 else b + 3 + rel[h]] = 1
    for q, totem in enumerate(obs.totems):
        if totem >= 0:
            ones[_TOTEM_BASE + rel[q] * N_ANIMALS + totem] = 1

    first, to_act = s["first_player"], s["to_act"]
    for q in range(n):
        b = _SEAT_BASE + rel[q] * SEAT_FEATURES
        pile = obs.piles[q]
        best, top_run = _runs(pile)
        top = pile[-1] if pile else HIDDEN
        if 0 <= top < FACE_DOWN_FLAG:
            ones[b + SEAT_MAIN + MAIN[top]] = 1
            ones[b + SEAT_COMPANION + COMPANION[top]] = 1
            val += (PLACEMENT[top] / 5, DRAW[top] / 5)
        else:
            val += (0.0, 0.0)
        if q == first:
            ones[b + SEAT_IS_FIRST] = 1
        if q == to_act:
            ones[b + SEAT_TO_ACT] = 1
        val += (obs.hand_counts[q] / 10, obs.penalty_counts[q] / 10, len(pile) / 30, obs.turns[q] / 30)
        val.append(top_run / 6)
        val += [x / 6 for x in best]
        val += [x / 5 for x in obs.pushes[N_ANIMALS * q : N_ANIMALS * q + N_ANIMALS]]
    # COUNTER_SLICE, in order
    val += (
        obs.deck_count / 100,
        s["reserve_count"] / 15,
        s["round"] / 30,
        float(s["end_triggered"]),
        float(s["final_round"]),
        s["placed"] / 6,
        s["place_min"] / 6,
        s["place_max"] / 6,
        s["drawn"] / 6,
        s["draw_min"] / 6,
        s["draw_max"] / 6,
        float(s["puffin_used"]),
    )
    # FLAG_SLICE, in order
    val += (
        float(s["give_used"]),
        float(s["placing_closed"]),
        s["walrus_dir"],
        float(s["swap_card"] >= 0),
        float(obs.seat is not None and to_act == obs.seat),
        s["placement_value"] / 5,
        float(bool(obs.pending)),
        n / 4,
    )
    ones[_STEP_BASE + s["step"]] = 1
    held = s["powers_held_at_start"]
    for a in range(N_ANIMALS):
        if held >> a & 1:
            ones[_HELD_BASE + a] = 1
    ones[_WALRUS_BASE + s["walrus_token"]] = 1

    out = np.frombuffer(ones, dtype=np.uint8).astype(np.float32)
    out[_CARD_OFFSETS + np.frombuffer(loc, dtype=np.uint8)] = 1.0
    out[_value_index(n, seat)] = val
    return out

"""The learning adapters' hot path: a seat's observation vector and action mask, straight from the state.

``floe.games.arctic.view.vector(observe(state, seat))`` is the reference encoding (layout in
``docs/observation.md``). It first builds the redacted ``ArcticObservation`` and then writes the array one
element at a time. ``observation_vector`` here reads the same public and own-seat fields from the state
directly, sets the one-hots in a byte buffer and writes the card locations and the scalars with one
fancy-index assignment each, for about half the cost (``docs/rl.md``, "Speed"). It must stay equal to the
reference, element for element: ``tests/rl/test_encode.py`` checks that on every position of seeded games,
for every player count and the rule flags that change what a seat sees (``piles_public``,
``owner_sees_penalties``).

Only what ``observe`` lets the seat know is read: other seats' face-down cards, covered cards (with
``piles_public=False``), hands, totems (before the end) and penalty zones never enter the vector.
"""

from __future__ import annotations

from itertools import compress

import numpy as np

from floe.games.arctic.actions import N_PLAYER_ACTIONS
from floe.games.arctic.cards import COMPANION, DECK_CARDS, DRAW, MAIN, N_ANIMALS, N_CARDS, PLACEMENT
from floe.games.arctic.state import FACE_DOWN_FLAG, IN_HAND, OVER, STEP_NAMES, ArcticStateData
from floe.games.arctic.view import (
    CARD_BLOCK,
    LOC_OPP_KNOWN_HAND,
    LOC_OPP_MAYBE,
    LOC_OPP_PILE,
    LOC_OUT_OF_PLAY,
    LOC_OWN_FACE_DOWN,
    LOC_OWN_HAND,
    LOC_OWN_PENALTY,
    LOC_OWN_PILE,
    LOC_RIVER,
    LOC_UNSEEN,
    N_LOC,
    POWER_BLOCK,
    SEAT_BLOCK,
    SEAT_FEATURES,
    TOKEN_BLOCK,
    TOTEM_BLOCK,
    VECTOR_SIZE,
)

__all__ = ["N_PLAYER_ACTIONS", "VECTOR_SIZE", "action_mask", "observation_vector"]

_TOKEN_BASE = CARD_BLOCK
_POWER_BASE = _TOKEN_BASE + TOKEN_BLOCK
_TOTEM_BASE = _POWER_BASE + POWER_BLOCK
_SEAT_BASE = _TOTEM_BASE + TOTEM_BLOCK
_GLOBAL_BASE = _SEAT_BASE + SEAT_BLOCK
_STEP_BASE = _GLOBAL_BASE + 12
_HELD_BASE = _STEP_BASE + len(STEP_NAMES)
_WALRUS_BASE = _HELD_BASE + N_ANIMALS
_FLAGS_BASE = _WALRUS_BASE + N_ANIMALS
_CARD_OFFSETS = np.arange(N_CARDS) * N_LOC
_CARD_IDS = range(N_CARDS)

# The location of every card before anything is known about it depends only on the decks in play.
# Bytes, so the per-step copy is one memcpy and numpy reads the copy without a conversion.
_BASE_LOC: dict[int, bytes] = {}


def _base_loc(decks_mask: int) -> bytes:
    loc = _BASE_LOC.get(decks_mask)
    if loc is None:
        cells = bytearray([LOC_OUT_OF_PLAY] * N_CARDS)
        for k in range(4):
            if decks_mask >> k & 1:
                for c in DECK_CARDS[k]:
                    cells[c] = LOC_UNSEEN
        loc = _BASE_LOC[decks_mask] = bytes(cells)
    return loc


_VALUE_INDEX: dict[tuple[int, int], np.ndarray] = {}


def _value_index(n: int, seat: int) -> np.ndarray:
    """Where the scalar features go, in the order ``observation_vector`` lists them (cached per seat)."""
    key = (n, seat)
    index = _VALUE_INDEX.get(key)
    if index is None:
        order: list[int] = []
        for q in range(n):
            b = _SEAT_BASE + (q - seat) % n * SEAT_FEATURES
            order += [b + 18, b + 19, b + 12, b + 13, b + 14, b + 15, b + 26]
            order += range(b + 20, b + 26)
            order += range(b + 27, b + 33)
        order += range(_GLOBAL_BASE, _GLOBAL_BASE + 12)
        order += range(_FLAGS_BASE, _FLAGS_BASE + 8)
        index = _VALUE_INDEX[key] = np.array(order, dtype=np.intp)
    return index


# The main animal of a pile entry, -1 for a face-down one (entries are card ids, or card + FACE_DOWN_FLAG).
_ANIMAL = tuple(MAIN) + (-1,) * (256 - N_CARDS)


def _runs(pile: list[int], hide_covered: bool) -> tuple[list[int], int]:
    """Longest face-up run per animal and the run at the top, as ``view._runs`` sees the redacted pile.

    Face-down entries and, with ``hide_covered``, every covered card break runs.
    """
    best = [0] * N_ANIMALS
    last, length = -1, 0
    if hide_covered:
        pile = [FACE_DOWN_FLAG] * (len(pile) - 1) + pile[-1:]
    for e in pile:
        animal = _ANIMAL[e]
        # A run of unknown entries also counts up here, but it is never read: only animals >= 0 are.
        length = length + 1 if animal == last else 1
        last = animal
        if animal >= 0 and length > best[animal]:
            best[animal] = length
    return best, (length if last >= 0 else 0)


def observation_vector(st: ArcticStateData, seat: int) -> np.ndarray:
    """The float32 vector of ``seat``; equal to ``vector(observe(st, seat))`` (``docs/observation.md``)."""
    n = st.n
    over = st.step == OVER
    hide_covered = not st.config.piles_public and not over
    # rel[q]: seat q relative to the observer; rel[-1] (no one) is never used as an index offset.
    rel = [(q - seat) % n for q in range(n)]

    # --- card locations (the order of the writes follows the reference, so overlaps resolve alike) ---
    loc = bytearray(_base_loc(st.decks_mask))
    known = st.known
    for c in compress(_CARD_IDS, known):  # only the cards with public knowledge (a few)
        v = known[c]
        if v >= IN_HAND:
            owner = v - IN_HAND
            if owner != seat:
                loc[c] = LOC_OPP_KNOWN_HAND - 1 + rel[owner]
        else:
            for q in range(n):
                if v >> q & 1 and q != seat:
                    loc[c] = LOC_OPP_MAYBE - 1 + rel[q]
                    break
    for c in st.river:
        loc[c] = LOC_RIVER
    piles = st.piles
    for q in range(n):
        pile = piles[q]
        if q == seat:
            for e in pile:
                if e < FACE_DOWN_FLAG:
                    loc[e] = LOC_OWN_PILE
                else:
                    loc[e - FACE_DOWN_FLAG] = LOC_OWN_FACE_DOWN
        elif pile:
            where = LOC_OPP_PILE - 1 + rel[q]
            for e in pile[-1:] if hide_covered else pile:
                if e < FACE_DOWN_FLAG:
                    loc[e] = where
    for c in st.hands[seat]:
        loc[c] = LOC_OWN_HAND
    if st.config.owner_sees_penalties:
        for c in st.penalties[seat]:
            loc[c] = LOC_OWN_PENALTY

    # Every other one-hot goes into a byte buffer; the scalars into ``val``, in ``_value_index`` order.
    ones = bytearray(VECTOR_SIZE)
    val: list[float] = []

    # --- tokens, powers, totems ---------------------------------------------------------------------
    b = _TOKEN_BASE
    for pos in st.tokens:
        ones[b + pos] = 1
        b += 6
    holder = st.holder
    for a, power in enumerate(st.powers):
        b = _POWER_BASE + a * 7
        if power:
            ones[b + power % 10 - 1] = 1
        h = holder[a]
        ones[b + 2 if h < 0 else b + 3 + rel[h]] = 1
    for q, totem in enumerate(st.totems):
        if totem >= 0 and (over or q == seat):
            ones[_TOTEM_BASE + rel[q] * N_ANIMALS + totem] = 1

    # --- per seat ------------------------------------------------------------------------------------
    first, to_act = st.first, st.to_act
    hands, penalties, turns, pushes = st.hands, st.penalties, st.turns, st.pushes
    for q in range(n):
        b = _SEAT_BASE + rel[q] * SEAT_FEATURES
        pile = piles[q]
        best, top_run = _runs(pile, hide_covered and q != seat)
        if pile and pile[-1] < FACE_DOWN_FLAG:
            top = pile[-1]
            ones[b + MAIN[top]] = 1
            ones[b + 6 + COMPANION[top]] = 1
            val += (PLACEMENT[top] / 5, DRAW[top] / 5)
        else:
            val += (0.0, 0.0)
        if q == first:
            ones[b + 16] = 1
        if q == to_act:
            ones[b + 17] = 1
        val += (len(hands[q]) / 10, len(penalties[q]) / 10, len(pile) / 30, turns[q] / 30, top_run / 6)
        val += [x / 6 for x in best]
        val += [x / 5 for x in pushes[N_ANIMALS * q : N_ANIMALS * q + N_ANIMALS]]

    # --- global --------------------------------------------------------------------------------------
    val += (
        (len(st.deck) - st.reserve_left) / 100,
        st.reserve_left / 15,
        st.round / 30,
        float(st.end_triggered),
        float(st.final_round),
        st.placed / 6,
        st.t_min / 6,
        st.t_max / 6,
        st.drawn / 6,
        st.n_min / 6,
        st.n_max / 6,
        float(st.puffin_used),
        float(st.give_used),
        float(st.closed),
        st.walrus_dir,
        float(st.swap_card >= 0),
        float(to_act == seat),
        st.p_value / 5,
        float(bool(st.pending)),
        n / 4,
    )
    ones[_STEP_BASE + st.step] = 1
    held = st.held_at_start
    if held:
        for a in range(N_ANIMALS):
            if held >> a & 1:
                ones[_HELD_BASE + a] = 1
    ones[_WALRUS_BASE + st.walrus_token] = 1

    out = np.frombuffer(ones, dtype=np.uint8).astype(np.float32)
    out[_CARD_OFFSETS + np.frombuffer(loc, dtype=np.uint8)] = 1.0
    out[_value_index(n, seat)] = val
    return out


def action_mask(legal: list[int]) -> np.ndarray:
    """An int8 mask over the player actions (ids ``0 .. N_PLAYER_ACTIONS - 1``) with the legal ones set."""
    mask = np.zeros(N_PLAYER_ACTIONS, dtype=np.int8)
    mask[legal] = 1
    return mask

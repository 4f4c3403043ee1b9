"""Arctic's fast observation vector (what the adapters hand out for Arctic) equals a straightforward
element-by-element reference encoder everywhere; the generic action mask."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("gymnasium")  # a guard only: CI installs the extra "rl"

from floe.core.match import Match
from floe.games.arctic.actions import N_PLAYER_ACTIONS
from floe.games.arctic.cards import COMPANION, DECK_CARDS, DRAW, MAIN, N_ANIMALS, N_CARDS, PLACEMENT
from floe.games.arctic.observation import HIDDEN, ArcticObservation
from floe.games.arctic.state import FACE_DOWN_FLAG, IN_HAND, STEP_NAMES
from floe.games.arctic.vector import (
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
    _runs,
)
from floe.rl.encode import action_mask, observation_vector

# The flags that change what a seat sees, and the BGA preset (other scoring and end rules).
OPTIONS = [{}, {"piles_public": False, "penalties": "hidden_blind"}, {"preset": "bga"}]


def reference_vector(obs: ArcticObservation) -> np.ndarray:
    """The first, element-by-element encoder: the fast ``view.vector`` must equal it everywhere."""
    seat = obs.seat if obs.seat is not None else 0
    n: int = obs.scalars["players"]
    out = np.zeros(VECTOR_SIZE, dtype=np.float32)

    def rel(q: int) -> int:
        return (q - seat) % n

    loc = [LOC_OUT_OF_PLAY] * N_CARDS
    for k in range(4):
        if obs.scalars["decks_in_play"] >> k & 1:
            for c in DECK_CARDS[k]:
                loc[c] = LOC_UNSEEN
    for c in range(N_CARDS):
        v = obs.known[c]
        if v >= IN_HAND:
            if v - IN_HAND != seat:
                loc[c] = LOC_OPP_KNOWN_HAND + rel(v - IN_HAND) - 1
        elif v:
            others = [q for q in range(n) if v >> q & 1 and q != seat]
            if others:
                loc[c] = LOC_OPP_MAYBE + rel(others[0]) - 1
    for c in obs.river:
        loc[c] = LOC_RIVER
    for q in range(n):
        for e in obs.piles[q]:
            if 0 <= e < FACE_DOWN_FLAG:
                loc[e] = LOC_OWN_PILE if q == seat else LOC_OPP_PILE + rel(q) - 1
            elif e >= FACE_DOWN_FLAG and q == seat:
                loc[e - FACE_DOWN_FLAG] = LOC_OWN_FACE_DOWN
    for c in obs.hand:
        loc[c] = LOC_OWN_HAND
    for c in obs.penalties or ():
        loc[c] = LOC_OWN_PENALTY
    out[np.arange(N_CARDS) * N_LOC + np.array(loc)] = 1.0
    base = CARD_BLOCK
    for a in range(N_ANIMALS):
        out[base + a * 6 + obs.tokens[a]] = 1.0
    base += TOKEN_BLOCK
    for a in range(N_ANIMALS):
        if obs.powers[a]:
            out[base + a * 7 + obs.powers[a] % 10 - 1] = 1.0
        h = obs.holder[a]
        out[base + a * 7 + 2 + (0 if h < 0 else 1 + rel(h))] = 1.0
    base += POWER_BLOCK
    for q in range(n):
        if obs.totems[q] >= 0:
            out[base + rel(q) * N_ANIMALS + obs.totems[q]] = 1.0
    base += TOTEM_BLOCK
    s = obs.scalars
    for q in range(n):
        b = base + rel(q) * SEAT_FEATURES
        pile = obs.piles[q]
        best, top_run = _runs(pile)
        top = pile[-1] if pile else HIDDEN
        if 0 <= top < FACE_DOWN_FLAG:
            out[b + MAIN[top]] = 1.0
            out[b + 6 + COMPANION[top]] = 1.0
            out[b + 18] = PLACEMENT[top] / 5
            out[b + 19] = DRAW[top] / 5
        out[b + 12] = obs.hand_counts[q] / 10
        out[b + 13] = obs.penalty_counts[q] / 10
        out[b + 14] = len(pile) / 30
        out[b + 15] = obs.turns[q] / 30
        out[b + 16] = float(q == s["first_player"])
        out[b + 17] = float(q == s["to_act"])
        out[b + 20 : b + 26] = [x / 6 for x in best]
        out[b + 26] = top_run / 6
        out[b + 27 : b + 33] = [x / 5 for x in obs.pushes[N_ANIMALS * q : N_ANIMALS * q + N_ANIMALS]]
    base += SEAT_BLOCK
    g = [
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
    ]
    out[base : base + 12] = g
    base += 12
    out[base + s["step"]] = 1.0
    base += len(STEP_NAMES)
    for a in range(N_ANIMALS):
        out[base + a] = float(s["powers_held_at_start"] >> a & 1)
    base += 6
    out[base + s["walrus_token"]] = 1.0
    base += 6
    out[base] = float(s["give_used"])
    out[base + 1] = float(s["placing_closed"])
    out[base + 2] = s["walrus_dir"]
    out[base + 3] = float(s["swap_card"] >= 0)
    out[base + 4] = float(obs.seat is not None and s["to_act"] == obs.seat)
    out[base + 5] = s["placement_value"] / 5
    out[base + 6] = float(bool(obs.pending))
    out[base + 7] = n / 4
    return out


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("options", OPTIONS, ids=["rules", "hidden", "bga"])
def test_fast_vector_equals_reference(players: int, options: dict[str, object]) -> None:
    for seed in range(2):
        match = Match.new("arctic", players=players, options=options, seed=seed)
        rng = random.Random(seed)
        while True:
            state = match.state
            for seat in range(players):
                fast = observation_vector(state, seat)
                assert fast.dtype == np.float32
                np.testing.assert_array_equal(fast, reference_vector(state.observation(seat)))
            if match.is_over():
                break
            match.apply(rng.choice(match.legal_actions()))


def test_action_mask() -> None:
    mask = action_mask([0, 5, N_PLAYER_ACTIONS - 1], N_PLAYER_ACTIONS)
    assert mask.dtype == np.int8 and mask.shape == (N_PLAYER_ACTIONS,)
    assert np.flatnonzero(mask).tolist() == [0, 5, N_PLAYER_ACTIONS - 1]
    assert not action_mask([], 7).any() and action_mask([], 7).shape == (7,)

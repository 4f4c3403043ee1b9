"""The observation as a fixed-length float32 vector, for the learning adapters.

The vector is cut into named slices (``layout(n)``, in order, tiling it; ``n`` is the deck's card count).
"Relative seat" r = (seat − observer) mod players: r = 0 is the observer (a spectator observes as seat 0).

==============  ===================  ===================================================================
slice           size                 contents
==============  ===================  ===================================================================
``cards``       n × 16               per card: one-hot location (``LOC_*``), then its cabin's place from
                                     the bow / 24 when it is in the ark
``seats``       5 × 19               per relative seat (``SEAT_*`` offsets): chips / 10, hand size / 10,
                                     has a pet, figures per scoring card / 10 (5), chips under them / 5
                                     (5), figures left / 19, passed, to act, turn player, first player,
                                     present (a seat of this game)
``tilt``        5                    the scale, one-hot -2..+2
``rain``        6                    rain cards out, one-hot 0..5
``phase``       5                    the turn's phase, one-hot (setup, start, second, endgame, over)
``job``         8                    the decision job at hand, one-hot (none, pet, take, chimp, figure,
                                     evict, discard, chance)
``counters``    10                   deck cards / 60, cards before the middle rain / 30, middle rain
                                     waiting, rains in the lower part / 5, bank / 22, cards played this
                                     turn / 2, turn / 100, left row / 24, right row / 24, end-game
==============  ===================  ===================================================================

>>> layout(55)["tilt"]
slice(975, 980, None)
"""

from __future__ import annotations

import numpy as np

from floe.games.arche.cards import N_SCORING
from floe.games.arche.config import MAX_ROW
from floe.games.arche.observation import CHANCE, ArcheObservation
from floe.games.arche.state import DECISION_JOBS, ENDGAME, J_PET, PHASE_NAMES

LOC_UNSEEN, LOC_OWN_HAND, LOC_OWN_PET, LOC_DISPLAY, LOC_LEFT, LOC_RIGHT, LOC_OUT = range(7)
LOC_OPP_KNOWN = 7  # + r - 1: known in the hand of relative seat r (its whole hand at the end)
LOC_OPP_PET = 11  # + r - 1: relative seat r's pet, shown at the end
N_LOC = 15
CARD_FEATURES = N_LOC + 1

SEAT_CHIPS, SEAT_HAND, SEAT_HAS_PET = 0, 1, 2
SEAT_FIGURES = 3  # + k
SEAT_HALVES = SEAT_FIGURES + N_SCORING  # + k
SEAT_LEFT = SEAT_HALVES + N_SCORING
SEAT_PASSED, SEAT_TO_ACT, SEAT_TURN, SEAT_FIRST, SEAT_PRESENT = range(SEAT_LEFT + 1, SEAT_LEFT + 6)
SEAT_FEATURES = SEAT_PRESENT + 1
MAX_SEATS = 5
N_JOBS = 8
N_COUNTERS = 10


def layout(n: int) -> dict[str, slice]:
    """The named slices of the vector for a deck of ``n`` cards."""
    sizes = {
        "cards": n * CARD_FEATURES,
        "seats": MAX_SEATS * SEAT_FEATURES,
        "tilt": 5,
        "rain": 6,
        "phase": len(PHASE_NAMES),
        "job": N_JOBS,
        "counters": N_COUNTERS,
    }
    out, start = {}, 0
    for name, size in sizes.items():
        out[name] = slice(start, start + size)
        start += size
    return out


def vector_size(n: int) -> int:
    """The vector's length for a deck of ``n`` cards."""
    stop: int = layout(n)["counters"].stop
    return stop


def vector(obs: ArcheObservation) -> np.ndarray:
    """The observation as a float32 vector (module docstring)."""
    cfg = obs.config
    n = cfg.deck.n
    lay = layout(n)
    out = np.zeros(lay["counters"].stop, dtype=np.float32)
    players = obs.players
    me = obs.seat if obs.seat is not None else 0
    sc = obs.scalars
    loc = [LOC_UNSEEN] * n
    place = [0.0] * n

    def mark(mask: int, where: int) -> None:
        while mask:
            low = mask & -mask
            loc[low.bit_length() - 1] = where
            mask ^= low

    mark(sc["display"], LOC_DISPLAY)
    mark(sc["out"], LOC_OUT)
    for where, row in ((LOC_LEFT, obs.left), (LOC_RIGHT, obs.right)):
        for i, cab in enumerate(row):
            mark(cab, where)
            m = cab
            while m:
                low = m & -m
                place[low.bit_length() - 1] = (i + 1) / MAX_ROW
                m ^= low
    for q in range(players):
        r = (q - me) % players
        if r == 0:
            if obs.seat is not None:
                mark(obs.hands[q], LOC_OWN_HAND)
                if obs.pets[q] >= 0:
                    loc[obs.pets[q]] = LOC_OWN_PET
            continue
        mark(obs.known[q] | obs.hands[q], LOC_OPP_KNOWN + r - 1)
        if obs.pets[q] >= 0:
            loc[obs.pets[q]] = LOC_OPP_PET + r - 1
    base = lay["cards"].start
    idx = base + np.arange(n) * CARD_FEATURES + np.asarray(loc)
    out[idx] = 1.0
    out[base + np.arange(n) * CARD_FEATURES + N_LOC] = place
    seats = lay["seats"].start
    to_act = sc["to_act"]
    for q in range(players):
        r = (q - me) % players
        b = seats + r * SEAT_FEATURES
        k5 = N_SCORING * q
        out[b + SEAT_CHIPS] = obs.chips[q] / 10
        out[b + SEAT_HAND] = obs.hand_counts[q] / 10
        out[b + SEAT_HAS_PET] = obs.has_pet[q]
        for k in range(N_SCORING):
            out[b + SEAT_FIGURES + k] = obs.figures[k5 + k] / 10
            out[b + SEAT_HALVES + k] = obs.halves[k5 + k] / 5
        out[b + SEAT_LEFT] = obs.figures_left[q] / 19
        out[b + SEAT_PASSED] = sc["passed"] >> q & 1
        out[b + SEAT_TO_ACT] = to_act == q
        out[b + SEAT_TURN] = sc["turn_player"] == q
        out[b + SEAT_FIRST] = sc["first_player"] == q
        out[b + SEAT_PRESENT] = 1.0
    out[lay["tilt"].start + sc["tilt"] + 2] = 1.0
    out[lay["rain"].start + min(sc["rain_out"], 5)] = 1.0
    out[lay["phase"].start + sc["phase"]] = 1.0
    job = 0
    if to_act == CHANCE:
        job = N_JOBS - 1
    elif obs.pending and obs.pending[0][0] in DECISION_JOBS:
        job = 1 + obs.pending[0][0] - J_PET
    out[lay["job"].start + job] = 1.0
    c = lay["counters"].start
    out[c : c + N_COUNTERS] = (
        obs.stock_count / 60,
        sc["top_left"] / 30,
        sc["middle_rain"],
        sc["lower_rain"] / 5,
        sc["bank"] / 22,
        sc["played"] / 2,
        sc["turn"] / 100,
        len(obs.left) / MAX_ROW,
        len(obs.right) / MAX_ROW,
        sc["phase"] == ENDGAME,
    )
    return out

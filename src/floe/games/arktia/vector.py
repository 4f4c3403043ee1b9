"""An Arktia observation as the fixed-length float32 vector learning agents read.

Vector layout for a layout of ``N`` fields. Colours are relative to the observing seat: slot 0 is its own
colour, slots 1..3 the seats after it clockwise (unused with fewer seats), slot 4 neutral.

=========================  ====  =================================================================
block                      size  content
=========================  ====  =================================================================
per field ``c`` (× N)      21    [0] ice (not melted); [1 + 5s + k] a Muglu of size s (g, d, t) and
                                 relative colour k; [16 + k] relative colour k controls the field
per relative seat (× 4)    10    supply per size / 3; neutral Muglus still to place per size;
                                 captured / 27; melted / N; game over for that seat; to act
global                     13    step one-hot (5); own opening round (turns < 2); melt due;
                                 relative colour awaiting a ``keep`` choice (5); turn / max_turns
=========================  ====  =================================================================
"""

from __future__ import annotations

import numpy as np

from floe.games.arktia.state import ArktiaStateData
from floe.games.arktia.towers import TOP, pieces_bottom_up

CELL_BLOCK = 21
SEAT_BLOCK = 10
GLOBAL_BLOCK = 13
MAX_SEATS = 4


def vector_size(n_fields: int) -> int:
    """The observation vector's length for a layout of ``n_fields`` fields."""
    return CELL_BLOCK * n_fields + SEAT_BLOCK * MAX_SEATS + GLOBAL_BLOCK


def vector(st: ArktiaStateData, seat: int) -> np.ndarray:
    """The fixed-length float32 observation of ``seat`` (layout in the module docstring)."""
    n = st.n
    n_fields = st.space.size
    out = np.zeros(vector_size(n_fields), dtype=np.float32)
    # Relative colour slot of each colour: own 0, then clockwise; neutral 4.
    rel = [(k - seat) % n for k in range(n)] + [0] * (MAX_SEATS - n) + [4]
    for c, code in enumerate(st.fields):
        base = CELL_BLOCK * c
        if code < 0:
            continue
        out[base] = 1.0
        if code == 0:
            continue
        for s, k in pieces_bottom_up(code):
            out[base + 1 + 5 * s + rel[k]] = 1.0
        out[base + 16 + rel[TOP[code]]] = 1.0
    seats = CELL_BLOCK * n_fields
    for q in range(n):
        base = seats + SEAT_BLOCK * rel[q]
        for s in range(3):
            out[base + s] = st.supply[3 * q + s] / 3.0
            out[base + 3 + s] = st.neutral_supply[3 * q + s]
        out[base + 6] = st.captured[q] / 27.0
        out[base + 7] = st.melted[q] / n_fields
        out[base + 8] = 1.0 if st.out[q] else 0.0
        out[base + 9] = 1.0 if st.player == q else 0.0
    g = seats + SEAT_BLOCK * MAX_SEATS
    out[g + st.step] = 1.0
    out[g + 5] = 1.0 if st.turns[seat] < 2 else 0.0
    out[g + 6] = 1.0 if st.melt_due else 0.0
    if st.pending_keep:
        out[g + 7 + rel[st.pending_keep[0]]] = 1.0
    out[g + 12] = st.turn / st.config.max_turns
    return out

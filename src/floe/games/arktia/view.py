"""What a seat may know: in Arktia (perfect information) everything, decided here like in every game.

``observe(state, seat)`` gives an ``ArktiaObservation``: the whole public state (``raw``, the state's JSON
fields, from which ``determinize`` rebuilds the position exactly) plus the seat it is for. ``to_dict`` is
the JSON view for the UI; ``vector`` the fixed-length float32 array for learning agents.

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

from dataclasses import dataclass
from typing import Any

import numpy as np

from floe.games.arktia.actions import colour_name
from floe.games.arktia.scoring import ScoreBreakdown
from floe.games.arktia.state import OUT_NAMES, STEP_NAMES, ArktiaStateData
from floe.games.arktia.towers import (
    MASK,
    NEUTRAL,
    SHAPE,
    SIZE_LETTERS,
    TOP,
    pieces_bottom_up,
)

CELL_BLOCK = 21
SEAT_BLOCK = 10
GLOBAL_BLOCK = 13
MAX_SEATS = 4


def vector_size(n_fields: int) -> int:
    """The observation vector's length for a layout of ``n_fields`` fields."""
    return CELL_BLOCK * n_fields + SEAT_BLOCK * MAX_SEATS + GLOBAL_BLOCK


@dataclass(eq=True)
class ArktiaObservation:
    """The whole public state (``raw``: the state's JSON fields) as seen by ``seat`` (None: spectator)."""

    seat: int | None
    raw: dict[str, Any]
    names: tuple[str, ...]  # field notation by index
    scores: list[dict[str, Any]] | None = None  # breakdowns once the game is over

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: a readable board and counters, plus ``raw`` for exact reconstruction."""
        raw = self.raw
        n = raw["n"]
        board = []
        for c, code in enumerate(raw["fields"]):
            entry: dict[str, Any] = {"field": self.names[c], "melted": code < 0}
            if code > 0:
                entry["pieces"] = [
                    {"size": SIZE_LETTERS[s], "colour": colour_name(k)} for s, k in pieces_bottom_up(code)
                ]
                entry["shape"] = SHAPE[MASK[code]]
                entry["control"] = colour_name(TOP[code])
            board.append(entry)
        return {
            "seat": self.seat,
            "step": STEP_NAMES[raw["step"]],
            "player": raw["player"],
            "turn": raw["turn"],
            "board": board,
            "seats": [
                {
                    "supply": dict(zip(SIZE_LETTERS, raw["supply"][3 * q : 3 * q + 3], strict=True)),
                    "neutral_supply": dict(
                        zip(SIZE_LETTERS, raw["neutral_supply"][3 * q : 3 * q + 3], strict=True)
                    ),
                    "captured": raw["captured"][q],
                    "melted": raw["melted"][q],
                    "lost": sum(raw["lost"][3 * q : 3 * q + 3]),
                    "status": OUT_NAMES[raw["out"][q]],
                    "turns": raw["turns"][q],
                }
                for q in range(n)
            ],
            "neutral_lost": sum(raw["lost"][3 * NEUTRAL :]),
            "pending_keep": [colour_name(k) for k in raw["pending_keep"]],
            "melt_due": raw["melt_due"],
            "scores": self.scores,
            "raw": raw,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any], names: tuple[str, ...]) -> ArktiaObservation:
        """Rebuild from ``to_dict`` output (only ``seat``, ``raw`` and ``scores`` are needed)."""
        return cls(seat=data["seat"], raw=dict(data["raw"]), names=names, scores=data.get("scores"))


def observe(st: ArktiaStateData, seat: int | None, scores: list[ScoreBreakdown] | None) -> ArktiaObservation:
    """The observation of ``seat``: the full state, which every seat may see (spec: perfect information)."""
    return ArktiaObservation(
        seat=seat,
        raw=st.fields_json(),
        names=st.space.layout.names,
        scores=[b.to_dict() for b in scores] if scores is not None else None,
    )


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

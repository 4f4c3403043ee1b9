"""What a seat may know: in Arktia (perfect information) everything, decided here like in every game.

``observe(state, seat)`` gives an ``ArktiaObservation``: the whole public state (``raw``, the state's JSON
fields, from which ``determinize`` rebuilds the position exactly) plus the seat it is for. From it come
the JSON view for the UI (``codec.py``) and the fixed-length float32 vector for learning agents
(``vector.py``); each of them imports this module, never the other way.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from floe.games.arktia.scoring import ScoreBreakdown
from floe.games.arktia.state import ArktiaStateData


@dataclass(eq=True)
class ArktiaObservation:
    """The whole public state (``raw``: the state's JSON fields) as seen by ``seat`` (None: spectator)."""

    seat: int | None
    raw: dict[str, Any]
    names: tuple[str, ...]  # field notation by index
    scores: list[dict[str, Any]] | None = None  # breakdowns once the game is over


def observe(st: ArktiaStateData, seat: int | None, scores: list[ScoreBreakdown] | None) -> ArktiaObservation:
    """The observation of ``seat``: the full state, which every seat may see (spec: perfect information)."""
    return ArktiaObservation(
        seat=seat,
        raw=st.fields_json(),
        names=st.space.layout.names,
        scores=[b.to_dict() for b in scores] if scores is not None else None,
    )

"""An Arktia observation as JSON-ready data and back: a readable board and counters for the UI, plus
``raw`` (the state's JSON fields) for exact reconstruction."""

from __future__ import annotations

from typing import Any

from floe.games.arktia.actions import colour_name
from floe.games.arktia.observation import ArktiaObservation
from floe.games.arktia.state import OUT_NAMES, STEP_NAMES
from floe.games.arktia.towers import MASK, NEUTRAL, SHAPE, SIZE_LETTERS, TOP, pieces_bottom_up


def observation_to_dict(obs: ArktiaObservation) -> dict[str, Any]:
    """JSON-ready: a readable board and counters, plus ``raw`` for exact reconstruction."""
    raw = obs.raw
    n = raw["n"]
    board = []
    for c, code in enumerate(raw["fields"]):
        entry: dict[str, Any] = {"field": obs.names[c], "melted": code < 0}
        if code > 0:
            entry["pieces"] = [
                {"size": SIZE_LETTERS[s], "colour": colour_name(k)} for s, k in pieces_bottom_up(code)
            ]
            entry["shape"] = SHAPE[MASK[code]]
            entry["control"] = colour_name(TOP[code])
        board.append(entry)
    return {
        "seat": obs.seat,
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
        "scores": obs.scores,
        "raw": raw,
    }


def observation_from_dict(data: dict[str, Any], names: tuple[str, ...]) -> ArktiaObservation:
    """Rebuild an observation from ``observation_to_dict`` output (only ``seat``, ``raw`` and ``scores`` are
    needed; ``names``: the layout's field notation by index)."""
    return ArktiaObservation(seat=data["seat"], raw=dict(data["raw"]), names=names, scores=data.get("scores"))

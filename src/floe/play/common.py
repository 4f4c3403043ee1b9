"""Small pieces every game's terminal view shares: player names and the ranking line."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from floe.core.game import State

ORDINALS = ("1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th")


def player_names(n: int, seat: int | None = None, labels: Sequence[str] | None = None) -> list[str]:
    """``P1``.. with a label each (a bot's name) and ``(you)`` for ``seat``."""
    names = []
    for q in range(n):
        extra = "you" if q == seat else (labels[q] if labels and q < len(labels) and labels[q] else "")
        names.append(f"P{q + 1} ({extra})" if extra else f"P{q + 1}")
    return names


def ranking_text(state: State, names: Sequence[str]) -> Text:
    """``Ranking: 1st P2 (45), 2nd P1 (40)``; seats with equal returns share a place (``1st= …``)."""
    scores = state.scores()
    returns = state.returns()
    order = state.ranking()
    out = Text("Ranking: ", style="bold")
    for i, q in enumerate(order):
        place = next(j for j, p in enumerate(order) if returns[p] == returns[q])
        shared = sum(1 for p in order if returns[p] == returns[q]) > 1
        if i:
            out.append(", ")
        ordinal = ORDINALS[place] if place < len(ORDINALS) else f"{place + 1}th"
        out.append(f"{ordinal}{'=' if shared else ''} {names[q]} ({scores[q]})")
    return out

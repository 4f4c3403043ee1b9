"""Small pieces every game's terminal view shares: player names and the ranking line."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from floe.core.game import State
from floe.core.i18n import FLOE, N_

_ = FLOE.gettext

ORDINALS = (N_("1st"), N_("2nd"), N_("3rd"), N_("4th"), N_("5th"), N_("6th"), N_("7th"), N_("8th"))


def player_names(n: int, seat: int | None = None, labels: Sequence[str] | None = None) -> list[str]:
    """``P1``.. with a label each (a bot's name) and ``(you)`` for ``seat``."""
    names = []
    for q in range(n):
        extra = _("you") if q == seat else (labels[q] if labels and q < len(labels) and labels[q] else "")
        names.append(f"P{q + 1} ({extra})" if extra else f"P{q + 1}")
    return names


def ranking_text(state: State, names: Sequence[str]) -> Text:
    """``Ranking: 1st P2 (45), 2nd P1 (40)``; seats with equal returns share a place (``1st= …``)."""
    scores = state.scores()
    returns = state.returns()
    order = state.ranking()
    out = Text(_("Ranking: "), style="bold")
    for i, q in enumerate(order):
        place = next(j for j, p in enumerate(order) if returns[p] == returns[q])
        shared = sum(1 for p in order if returns[p] == returns[q]) > 1
        if i:
            out.append(", ")
        ordinal = _(ORDINALS[place]) if place < len(ORDINALS) else f"{place + 1}."
        out.append(f"{ordinal}{'=' if shared else ''} {names[q]} ({scores[q]})")
    return out

"""Arktia's scoring (docs/arktia-rules.md §11): one point per captured Muglu, per controlled field and per
melted field.

The highest total wins. Equal totals share the win (``tie_break="shared"``, docs/arktia-rules.md §11 [GUESS]);
with ``"fewer_lost"`` the seat that lost fewer Muglus ranks higher among equal totals, and only seats equal in
both share. ``ranking`` lists seats best first (seat order within a shared place); ``returns`` gives every
seat of a shared place the mean of the places' utilities, so a shared win is worth the same to each.

>>> rank([5, 7, 5], [0, 0, 0], "shared")
[1, 0, 2]
>>> rank_returns([5, 7, 5], [0, 0, 0], "shared")
[-0.5, 1.0, -0.5]
>>> rank_returns([5, 7, 5], [2, 0, 1], "fewer_lost")
[-1.0, 1.0, 0.0]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from floe.games.arktia.towers import TOP


@dataclass(frozen=True, slots=True)
class ScoreBreakdown:
    """One seat's points: ``total = captured + controlled + melted``; ``lost`` is for the house tie-break."""

    captured: int
    controlled: int
    melted: int
    lost: int
    total: int

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return asdict(self)


def controlled_fields(fields: Sequence[int], seat: int) -> int:
    """How many fields ``seat`` controls: its colour is the top piece (neutral tops count for nobody)."""
    return sum(1 for code in fields if code > 0 and TOP[code] == seat)


def breakdowns(
    fields: Sequence[int], captured: Sequence[int], melted: Sequence[int], lost: Sequence[int]
) -> list[ScoreBreakdown]:
    """Every seat's score from the board and the counters."""
    out = []
    for q in range(len(captured)):
        controlled = controlled_fields(fields, q)
        out.append(
            ScoreBreakdown(captured[q], controlled, melted[q], lost[q], captured[q] + controlled + melted[q])
        )
    return out


def _key(scores: Sequence[int], lost: Sequence[int], tie_break: str, q: int) -> tuple[int, int]:
    return (-scores[q], lost[q] if tie_break == "fewer_lost" else 0)


def rank(scores: Sequence[int], lost: Sequence[int], tie_break: str) -> list[int]:
    """Seats best first; seats the tie rule cannot separate keep seat order."""
    return sorted(range(len(scores)), key=lambda q: (*_key(scores, lost, tie_break, q), q))


def rank_returns(scores: Sequence[int], lost: Sequence[int], tie_break: str) -> list[float]:
    """Utilities in [-1, 1] by place (first 1, last -1, linear), shared places averaged."""
    order = rank(scores, lost, tie_break)
    n = len(order)
    out = [0.0] * n
    i = 0
    while i < n:
        key = _key(scores, lost, tie_break, order[i])
        j = i
        while j < n and _key(scores, lost, tie_break, order[j]) == key:
            j += 1
        value = sum(1.0 - 2.0 * place / (n - 1) for place in range(i, j)) / (j - i)
        for place in range(i, j):
            out[order[place]] = value
        i = j
    return out


def winners(scores: Sequence[int], lost: Sequence[int], tie_break: str) -> list[int]:
    """The seats sharing first place."""
    order = rank(scores, lost, tie_break)
    best = _key(scores, lost, tie_break, order[0])
    return [q for q in order if _key(scores, lost, tie_break, q) == best]

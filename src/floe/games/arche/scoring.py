"""Arche's final scoring (docs/arche-rules.md §11): the five majorities (10/6/2 with shared places), chips,
the tie-breaker.

A seat's strength on a scoring card is its figures there, a figure with a chip under it counting 1.5.
Seats with at least one figure are ordered by strength; places pay 10, 6, then 2 each; seats of equal
strength share the points of the places they take, exactly (``tie_points=exact``: three tied for second
share (6+2+2)/3 = 10/3) or rounded to half points. Each chip in hand is a point. The higher total wins;
equal totals: fewer animal cards left in hand is better, and seats equal in both share the place.

>>> majority_points([3, 3, 0, 1])  # two tied first: 8 each; the third 2
[8, 8, 0, 2]
>>> majority_points([2, 1, 1, 0])  # two tied second: 4 each
[10, 4, 4, 0]
>>> majority_points([1, 1, 1])  # three tied first: 6 each
[6, 6, 6]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from floe.games.arche.cards import CATEGORIES, N_SCORING

PLACE_POINTS = (10, 6)  # then 2 for every later place
LATER_PLACE = 2

Number = int | float


def place_value(place: int) -> int:
    """The points of place ``place`` (0-based)."""
    return PLACE_POINTS[place] if place < len(PLACE_POINTS) else LATER_PLACE


def majority_places(strengths: Sequence[Number]) -> list[range | None]:
    """Each seat's places on one scoring card (0-based; equal seats share the places they take together),
    from its strength there (figures, 1.5 with a chip); None for a seat without a figure there.

    >>> majority_places([2, 1, 1, 0])
    [range(0, 1), range(1, 3), range(1, 3), None]
    """
    order = sorted((q for q, s in enumerate(strengths) if s > 0), key=lambda q: -strengths[q])
    out: list[range | None] = [None] * len(strengths)
    place = 0
    while place < len(order):
        group = [q for q in order[place:] if strengths[q] == strengths[order[place]]]
        for q in group:
            out[q] = range(place, place + len(group))
        place += len(group)
    return out


def place_share(places: range) -> Fraction:
    """The exact points of a seat that shares ``places`` (the mean of their values)."""
    return Fraction(sum(place_value(p) for p in places), len(places))


def majority_fractions(strengths: Sequence[Number]) -> list[Fraction]:
    """Each seat's exact points on one scoring card from its strength there (figures, 1.5 with a chip)."""
    return [Fraction(0) if places is None else place_share(places) for places in majority_places(strengths)]


def as_number(value: Fraction) -> Number:
    """A whole number as an int, else a float."""
    return int(value) if value.denominator == 1 else float(value)


def rounded(value: Fraction, mode: str) -> Fraction:
    """``exact``: as it is; ``halves``: to the nearest half point (halves up)."""
    if mode == "exact":
        return value
    return Fraction(int(value * 2 + Fraction(1, 2)), 2)


def majority_points(strengths: Sequence[Number], mode: str = "exact") -> list[Number]:
    """``majority_fractions`` as numbers (ints where whole), rounded by ``mode``."""
    return [as_number(rounded(v, mode)) for v in majority_fractions(strengths)]


@dataclass(frozen=True)
class ScoreBreakdown:
    """One seat's final score: points per scoring card, chips, the total, and the tie-breaker."""

    seat: int
    strengths: tuple[Number, ...]  # per scoring card: figures, 1.5 for one with a chip
    card_points: tuple[Fraction, ...]  # per scoring card
    chips: int
    total: Fraction
    animals_in_hand: int
    pet: int  # the pet card, or -1

    def to_dict(self, slugs: Sequence[str]) -> dict[str, Any]:
        """JSON-ready: per scoring card its strength and points, chips, total, animals left in hand."""
        return {
            "seat": self.seat,
            "cards": {
                CATEGORIES[k]: {"figures": self.strengths[k], "points": as_number(self.card_points[k])}
                for k in range(N_SCORING)
            },
            "chips": self.chips,
            "total": as_number(self.total),
            "animals_in_hand": self.animals_in_hand,
            "pet": slugs[self.pet] if self.pet >= 0 else None,
        }


def strength(figures: int, halves: int) -> Number:
    """Figures with ``halves`` chips under them: each chip adds half a figure."""
    doubled = 2 * figures + halves
    return doubled // 2 if doubled % 2 == 0 else doubled / 2


def standings(players: int, figures: Sequence[int], halves: Sequence[int], mode: str) -> dict[str, Any]:
    """Every scoring card's majorities if the game ended now (``figures``/``halves`` flat, ``N_SCORING`` per
    seat), what the board draws: per card, per seat its strength (``figures``), its ``points`` rounded by
    ``mode`` (the final scoring's, once the game is over), its ``place`` (1-based ``[first, last]``, a
    shared place spanning several; None without a figure) and ``paid``, the values of the places it takes
    (``[6, 2, 2]``: three seats share (6+2+2)/3)."""
    cards: dict[str, list[dict[str, Any]]] = {}
    for k in range(N_SCORING):
        strengths = [strength(figures[N_SCORING * q + k], halves[N_SCORING * q + k]) for q in range(players)]
        cards[CATEGORIES[k]] = [
            {
                "figures": strengths[q],
                "points": 0 if places is None else as_number(rounded(place_share(places), mode)),
                "place": None if places is None else [places.start + 1, places.stop],
                "paid": [] if places is None else [place_value(p) for p in places],
            }
            for q, places in enumerate(majority_places(strengths))
        ]
    return {"cards": cards}


def score(
    players: int,
    figures: Sequence[int],
    halves: Sequence[int],
    chips: Sequence[int],
    animals_in_hand: Sequence[int],
    pets: Sequence[int],
    mode: str,
) -> list[ScoreBreakdown]:
    """Every seat's breakdown (``figures``/``halves`` flat, ``N_SCORING`` per seat)."""
    per_card: list[list[Fraction]] = []
    strengths = [
        [strength(figures[N_SCORING * q + k], halves[N_SCORING * q + k]) for k in range(N_SCORING)]
        for q in range(players)
    ]
    for k in range(N_SCORING):
        points = majority_fractions([strengths[q][k] for q in range(players)])
        per_card.append([rounded(v, mode) for v in points])
    out = []
    for q in range(players):
        cards = tuple(per_card[k][q] for k in range(N_SCORING))
        out.append(
            ScoreBreakdown(
                seat=q,
                strengths=tuple(strengths[q]),
                card_points=cards,
                chips=chips[q],
                total=sum(cards, Fraction(0)) + chips[q],
                animals_in_hand=animals_in_hand[q],
                pet=pets[q],
            )
        )
    return out


def rank(breakdowns: Sequence[ScoreBreakdown], first_player: int) -> list[int]:
    """Seats best first: higher total, then fewer animals in hand; among equals the earlier seat from the
    first player (only for the order of the list: such seats share the place, ``returns``)."""
    n = len(breakdowns)
    return sorted(
        range(n),
        key=lambda q: (-breakdowns[q].total, breakdowns[q].animals_in_hand, (q - first_player) % n),
    )


def rank_returns(breakdowns: Sequence[ScoreBreakdown], first_player: int) -> list[float]:
    """Rank utilities in [-1, 1] (first 1, last -1, linear between); seats equal in total and tie-breaker
    share the mean of the places they take."""
    order = rank(breakdowns, first_player)
    n = len(order)
    out = [0.0] * n
    place = 0
    while place < n:
        head = breakdowns[order[place]]
        group = [
            q
            for q in order[place:]
            if breakdowns[q].total == head.total and breakdowns[q].animals_in_hand == head.animals_in_hand
        ]
        value = sum(1.0 - 2.0 * (place + i) / (n - 1) for i in range(len(group))) / len(group)
        for q in group:
            out[q] = value
        place += len(group)
    return out

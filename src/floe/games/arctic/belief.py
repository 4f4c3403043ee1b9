"""What a seat can infer about the other players' hidden totems from the token moves they chose.

Each time a player could move a token either way (step B-1) or took a Walrus extra step, the state counts
the net steps that player chose per animal (``pushes``, public). A player is more likely to push its own
animal forward and to push others back, so the chance that opponent p's totem is animal a is taken as
proportional to ``exp(BETA * pushes[p][a])``, and the totems, being distinct, are drawn jointly.

>>> weights_for([0, 0, 0, 0, 0, 0, 2, 0, -1, 0, 0, 0], seat=0, totems=[3, -1], n=2)[1][0] > 1.0
True
"""

from __future__ import annotations

import itertools
import math
import random
from bisect import bisect_right

N_ANIMALS = 6
BETA = 0.6  # how strongly one chosen step counts as evidence (e^0.6 ~ 1.8x per net step)


def weights_for(pushes: list[int], seat: int | None, totems: list[int], n: int) -> dict[int, list[float]]:
    """Per opponent whose totem is unknown, the weight of each animal (0 for animals known to be taken)."""
    taken = {t for t in totems if t >= 0}
    out = {}
    for q in range(n):
        if q == seat or totems[q] != -1:  # known, or not dealt yet (-2)
            continue
        out[q] = [
            0.0 if a in taken else math.exp(BETA * max(-8, min(8, pushes[N_ANIMALS * q + a])))
            for a in range(N_ANIMALS)
        ]
    return out


class TotemBelief:
    """The joint distribution of the unknown totems, ready for fast sampling."""

    def __init__(self, pushes: list[int], seat: int | None, totems: list[int], n: int) -> None:
        weights = weights_for(pushes, seat, totems, n)
        self.seats = sorted(weights)
        free = [a for a in range(N_ANIMALS) if a not in {t for t in totems if t >= 0}]
        self.assignments: list[tuple[int, ...]] = []
        self.cumulative: list[float] = []
        total = 0.0
        for combo in itertools.permutations(free, len(self.seats)):
            w = 1.0
            for q, a in zip(self.seats, combo, strict=True):
                w *= weights[q][a]
            if w > 0:
                total += w
                self.assignments.append(combo)
                self.cumulative.append(total)

    def sample(self, rng: random.Random) -> dict[int, int]:
        """One joint draw: seat -> totem animal."""
        if not self.seats:
            return {}
        x = rng.random() * self.cumulative[-1]
        combo = self.assignments[min(bisect_right(self.cumulative, x), len(self.assignments) - 1)]
        return dict(zip(self.seats, combo, strict=True))

    def marginals(self) -> dict[int, list[float]]:
        """The probability of each animal per seat (for tests and the hint display)."""
        out = {q: [0.0] * N_ANIMALS for q in self.seats}
        previous = 0.0
        for combo, cum in zip(self.assignments, self.cumulative, strict=True):
            p = (cum - previous) / self.cumulative[-1]
            previous = cum
            for q, a in zip(self.seats, combo, strict=True):
                out[q][a] += p
        return out

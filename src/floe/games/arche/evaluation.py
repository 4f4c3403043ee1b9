"""A hand-written evaluation of Arche positions, shared by the ``greedy`` bot and ISMCTS rollouts.

It estimates each seat's final score from a full (possibly sampled) state. Per scoring card, a seat's
projected strength is its figures there (1.5 with a chip), plus its pet's figure, plus a share of a figure
for each hand card of that category that it may still play (less once the end-game has begun, where each
card costs a chip). The majorities are then scored smoothly: a seat's expected number of rivals ahead of
it on the card is the sum of logistic chances in the strength differences, and its points are the place
values 10, 6, 2 read at that position (a seat with no figure there and none coming gets nothing). Chips in
hand are a point each. ``values`` turns the estimates into chances of finishing ahead of each rival.
"""

from __future__ import annotations

import math
import random

from floe.bots.hooks import ahead_chances, first_chances
from floe.games.arche import actions as act
from floe.games.arche.cards import N_SCORING, NONE
from floe.games.arche.config import NEW_LEFT
from floe.games.arche.state import ENDGAME, J_CHIMP, J_FIGURE, J_PET, J_TAKE, SECOND, START, ArcheStateData

# A hand card of a category is worth this share of a figure there before the end-game / in it.
HAND_SHARE = 0.3
ENDGAME_SHARE = 0.0
# Strength difference (figures) at which a rival is ~73% likely to stay ahead on a scoring card.
SPREAD = 0.6
# Score difference at which a seat is judged ~73% likely to finish ahead (logistic scale).
SCALE = 4.0
PLACES = (10.0, 6.0, 2.0, 2.0, 2.0, 2.0)
# How much of a hand card's share a card of each weight keeps: heavy cards wait for the scale.
PLAYABLE = [1.0, 1.0, 1.0, 0.8, 0.6]


def projected(st: ArcheStateData, seat: int) -> list[float]:
    """``seat``'s projected strength on each scoring card (module docstring)."""
    cfg = st.config
    base = N_SCORING * seat
    out = [st.figures[base + k] + 0.5 * st.halves[base + k] for k in range(N_SCORING)]
    room = float(st.figures_left[seat])
    pet = st.pets[seat]
    if pet >= 0:
        k = cfg.category[pet]
        if k != NONE and room >= 1:
            out[k] += 1.0
            room -= 1.0
    hand = st.hands[seat]
    if hand and room > 0:
        share = HAND_SHARE
        if st.phase == ENDGAME:
            hand &= ~cfg.solo_mask
            share = ENDGAME_SHARE * min(1.0, st.chips[seat] / max(1, hand.bit_count()))
        category = cfg.category
        weight = cfg.weight
        while hand and room > 0:
            low = hand & -hand
            c = low.bit_length() - 1
            k = category[c]
            if k != NONE:
                value = share * PLAYABLE[weight[c]]
                out[k] += value
                room -= value
            hand ^= low
    return out


def card_points(strengths: list[float]) -> list[float]:
    """Smooth majority points on one scoring card from every seat's projected strength."""
    n = len(strengths)
    out = [0.0] * n
    for q in range(n):
        s = strengths[q]
        if s <= 0.0:
            continue
        ahead = 0.0
        for r in range(n):
            if r != q:
                d = (strengths[r] - s) / SPREAD
                ahead += 1.0 / (1.0 + math.exp(-d)) if d > -30 else 0.0
        i = int(ahead)
        frac = ahead - i
        value = PLACES[i] + (PLACES[i + 1] - PLACES[i]) * frac if i + 1 < len(PLACES) else PLACES[-1]
        out[q] = value * (s if s < 1.0 else 1.0)
    return out


def estimate_all(st: ArcheStateData) -> list[float]:
    """Every seat's estimated final score."""
    n = st.players
    strengths = [projected(st, q) for q in range(n)]
    totals = [float(c) for c in st.chips]
    for k in range(N_SCORING):
        points = card_points([strengths[q][k] for q in range(n)])
        for q in range(n):
            totals[q] += points[q]
    return totals


def values(st: ArcheStateData) -> list[float]:
    """Each seat's chance of finishing ahead of the others, estimated from ``estimate_all``."""
    return ahead_chances(estimate_all(st), SCALE)


def win_values(st: ArcheStateData) -> list[float]:
    """Each seat's chance of finishing first, estimated from ``estimate_all``."""
    return first_chances(estimate_all(st), SCALE)


def hard_points(strengths: list[float]) -> list[float]:
    """Majority points on one scoring card as they would be scored now (shared places averaged)."""
    n = len(strengths)
    order = sorted(range(n), key=lambda q: -strengths[q])
    out = [0.0] * n
    place = 0
    while place < n and strengths[order[place]] > 0:
        value = strengths[order[place]]
        end = place
        while end < n and strengths[order[end]] == value:
            end += 1
        share = sum(PLACES[i] for i in range(place, end)) / (end - place)
        for i in range(place, end):
            out[order[i]] = share
        place = end
    return out


# CUMULATIVE[i]: the points of the first i places together.
CUMULATIVE = tuple(sum(PLACES[:i]) for i in range(len(PLACES) + 1))


def _own_points(s: float, others: list[float]) -> float:
    """A seat's majority points on one card with strength ``s`` (``hard_points`` for one seat, in O(n))."""
    if s <= 0.0:
        return 0.0
    ahead = tied = 0
    for r in others:
        if r > s:
            ahead += 1
        elif r == s:
            tied += 1
    return (CUMULATIVE[ahead + tied + 1] - CUMULATIVE[ahead]) / (tied + 1)


def gains(st: ArcheStateData, seat: int, step: float = 1.0) -> list[float]:
    """What ``step`` more figures on each scoring card would be worth to ``seat`` now: its own majority
    points gained, less the mean of what the others gain (``hard_points`` before and after).

    The others' gains need no second scoring: the places' points are shared out whole, so together the
    others gain what the card hands out more (a place more once ``seat`` enters it) less ``seat``'s gain.
    """
    n = st.players
    figures, halves = st.figures, st.halves
    base = N_SCORING * seat
    out = []
    for k in range(N_SCORING):
        others = [figures[N_SCORING * q + k] + 0.5 * halves[N_SCORING * q + k] for q in range(n) if q != seat]
        s = figures[base + k] + 0.5 * halves[base + k]
        own = _own_points(s + step, others) - _own_points(s, others)
        total = 0.0
        if s <= 0.0 < s + step:
            total = PLACES[sum(1 for r in others if r > 0.0)]
        out.append(own - (total - own) / (n - 1))
    return out


def rollout_action(st: ArcheStateData, legal: list[int], rng: random.Random) -> int:
    """A cheap, plausible move for rollouts, reading the majorities as they stand (``gains``): play the
    card whose figure gains most into an existing cabin, a second one while it gains, a new cabin only for a
    clear gain (it costs a chip), else draw the display card that would gain most; take, keep as a pet and
    mark with the Chimpanzee's chip the same way; in the end-game play only what is worth its chip.

    One move in eight is uniformly random, and near-equal choices are broken at random.
    """
    if len(legal) == 1:
        return legal[0]
    if rng.random() < 0.12:
        return legal[rng.randrange(len(legal))]
    cfg = st.config
    sp = cfg.space
    n = cfg.deck.n
    category = cfg.category
    p = st.to_act
    if st.pending:
        kind = st.pending[0][0]
        if kind == J_CHIMP:
            value = gains(st, p, 0.5)
            return max(legal, key=lambda a: value[a - act.CHIP] + rng.random() * 0.1)
        value = gains(st, p)
        if kind in (J_TAKE, J_PET):
            base = sp.take if kind == J_TAKE else sp.pet

            def card_value(a: int) -> float:
                if a < base:
                    return -0.5  # no-pet
                k = category[a - base]
                return (value[k] if k != NONE else 0.0) + rng.random() * 0.1

            return max(legal, key=card_value)
        if kind == J_FIGURE:
            return max(legal, key=lambda a: value[a - act.FIGURE] + rng.random() * 0.1)
        return legal[rng.randrange(len(legal))]
    value = gains(st, p)
    phase = st.phase
    best, best_score = -1, -1e9
    play, evict = sp.play, sp.evict
    for a in legal:
        if a < play:
            continue
        if a < evict:
            slot, c = divmod(a - play, n)
            k = category[c]
            score = value[k] if k != NONE else 0.0
            if slot >= NEW_LEFT:
                score -= 2.0  # a chip given away
        else:
            score = 1.0
        score += rng.random() * 0.5
        if score > best_score:
            best, best_score = a, score
    if phase == START:
        if best >= 0 and best_score > 1.0:
            return best
        draws = [a for a in legal if sp.draw <= a < sp.take]
        if draws:
            return max(
                draws,
                key=lambda a: (
                    (value[category[a - sp.draw]] if category[a - sp.draw] != NONE else 0.0) + rng.random()
                ),
            )
        return best if best >= 0 else legal[0]
    if phase == SECOND:
        return best if best >= 0 and best_score > 0.5 else act.DONE
    if phase == ENDGAME:
        return best if best >= 0 and best_score > 1.5 else act.PASS
    return legal[rng.randrange(len(legal))]


__all__ = [
    "card_points",
    "estimate_all",
    "gains",
    "hard_points",
    "projected",
    "rollout_action",
    "values",
    "win_values",
]

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
from floe.games.arche.config import MAX_ROW, NEW_LEFT
from floe.games.arche.state import ENDGAME, J_CHIMP, J_PET, J_TAKE, SECOND, START, ArcheStateData

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


def rollout_action(st: ArcheStateData, legal: list[int], rng: random.Random) -> int:
    """A cheap, plausible move for rollouts: play categorised cards into existing cabins (one or two), else
    draw a categorised display card; take categorised cards; in the end-game play while chips last.

    One move in six is uniformly random so rollouts still explore.
    """
    if len(legal) == 1:
        return legal[0]
    if rng.random() < 0.17:
        return legal[rng.randrange(len(legal))]
    cfg = st.config
    sp = cfg.space
    n = cfg.deck.n
    category = cfg.category
    if st.pending:
        kind = st.pending[0][0]
        if kind in (J_TAKE, J_PET):
            good = [a for a in legal if a > act.NO_PET and category[(a - sp.take) % n] != NONE]
            if good:
                return good[rng.randrange(len(good))]
        elif kind == J_CHIMP:
            return legal[rng.randrange(len(legal))]
        return legal[rng.randrange(len(legal))]
    phase = st.phase
    plays = []
    new_cabin = []
    play, evict = sp.play, sp.evict
    for a in legal:
        if play <= a < evict:
            slot, c = divmod(a - play, n)
            if category[c] == NONE:
                continue
            if slot < NEW_LEFT:
                plays.append(a)
            else:
                new_cabin.append(a)
        elif a >= evict:
            plays.append(a)
    if phase == START:
        if plays and rng.random() < 0.75:
            return plays[rng.randrange(len(plays))]
        draws = [a for a in legal if sp.draw <= a < sp.take and category[a - sp.draw] != NONE]
        if draws:
            return draws[rng.randrange(len(draws))]
        if new_cabin and st.chips[st.turn_player] > 1 and rng.random() < 0.3:
            return new_cabin[rng.randrange(len(new_cabin))]
        return legal[0] if legal[0] < sp.take else legal[rng.randrange(len(legal))]
    if phase == SECOND:
        if plays:
            return plays[rng.randrange(len(plays))]
        return act.DONE
    if phase == ENDGAME:
        if plays and rng.random() < 0.6:
            return plays[rng.randrange(len(plays))]
        return act.PASS
    return legal[rng.randrange(len(legal))]


__all__ = [
    "MAX_ROW",
    "card_points",
    "estimate_all",
    "projected",
    "rollout_action",
    "values",
    "win_values",
]

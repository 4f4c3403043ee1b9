"""A hand-written evaluation of Arctic positions, shared by the ``greedy`` bot and ISMCTS rollouts.

It estimates each seat's final score from a full (possibly sampled) state: the runs of its pile as they
stand, the value under its totem's token, its penalties, and a small credit for hand cards that can extend
the run on top of its pile. ``values`` turns the estimates into win chances in [0, 1] by comparing every
pair of seats through a logistic curve, so search can back up one number per seat.
"""

from __future__ import annotations

import random

from floe.bots.hooks import ahead_chances, first_chances
from floe.games.arctic import actions as act
from floe.games.arctic.cards import COMPANION, LANDSCAPE, MAIN, N_CARDS
from floe.games.arctic.scoring import RUN_POINTS
from floe.games.arctic.state import DRAW as STEP_DRAW
from floe.games.arctic.state import EXTRA, FACE_DOWN_FLAG, MOVE, PLACE, ArcticStateData

# How many points a hand card of the top run's animal is worth: it may extend the run next turn.
EXTEND_CREDIT = 0.8
# How many points a whole hand is worth beyond that: cards are future options (capped: big hands hurt).
HAND_CREDIT = 0.25
# Score difference at which a seat is judged ~73% likely to finish ahead (logistic scale).
SCALE = 4.0


def run_score(pile: list[int]) -> tuple[int, int, int]:
    """(runs + bonus points, top animal, top run length) of a pile; face-down cards break runs here."""
    best = [0, 0, 0, 0, 0, 0]
    last, length = -1, 0
    for e in pile:
        if e >= FACE_DOWN_FLAG:
            last, length = -1, 0
            continue
        animal = MAIN[e]
        length = length + 1 if animal == last else 1
        last = animal
        if length > best[animal]:
            best[animal] = length
    points = 0
    scored = 0
    for b in best:
        if b >= 2:
            scored += 1
            points += RUN_POINTS[b if b < 6 else 6]
    return points + RUN_POINTS[scored if scored < 6 else 6], last, length


def estimate(st: ArcticStateData, seat: int) -> float:
    """The estimated final score of ``seat`` in the full state ``st``."""
    points, top, length = run_score(st.piles[seat])
    hand = st.hands[seat]
    extend = sum(1 for c in hand if MAIN[c] == top) if top >= 0 else 0
    totem = st.totems[seat]
    value = float(points - len(st.penalties[seat]))
    value += LANDSCAPE[st.tokens[totem]] if totem >= 0 else 3.0
    value += EXTEND_CREDIT * min(extend, 6 - min(length, 6)) + HAND_CREDIT * min(len(hand), 5)
    return value


def values(st: ArcticStateData) -> list[float]:
    """Each seat's chance of finishing ahead of the others, estimated from ``estimate``."""
    return ahead_chances([estimate(st, q) for q in range(st.players)], SCALE)


def win_values(st: ArcticStateData) -> list[float]:
    """Each seat's chance of finishing first (nothing for a second place), estimated from ``estimate``."""
    return first_chances([estimate(st, q) for q in range(st.players)], SCALE)


def rollout_action(st: ArcticStateData, legal: list[int], rng: random.Random) -> int:
    """A cheap, plausible move for rollouts: extend the run on top of the pile, push one's own totem.

    One move in five is uniformly random so rollouts still explore; everything else follows simple
    habits of a sensible player. Used by ISMCTS with ``rollout=heuristic`` (the default for Arctic).
    """
    if rng.random() < 0.2:
        return legal[rng.randrange(len(legal))]
    step = st.step
    p = st.turn_player
    pile = st.piles[p]
    top = pile[-1] if pile and pile[-1] < FACE_DOWN_FLAG else -1
    top_animal = MAIN[top] if top >= 0 else -1
    if step in (PLACE, STEP_DRAW):
        base = act.PLACE if step == PLACE else act.RIVER
        matching = [a for a in legal if base <= a < base + N_CARDS and MAIN[a - base] == top_animal]
        if matching:
            return matching[rng.randrange(len(matching))]
        plain = [a for a in legal if base <= a < base + N_CARDS]
        if plain:
            return plain[rng.randrange(len(plain))]
    elif step == MOVE and top >= 0:
        totem = st.totems[p]
        if totem == MAIN[top]:
            return act.MOVE_RIGHT
        if totem == COMPANION[top]:
            return act.MOVE_LEFT
    elif step == EXTRA:
        if st.walrus_token == st.totems[p] and act.EXTRA_RIGHT in legal:
            return act.EXTRA_RIGHT
        return act.PASS
    return legal[rng.randrange(len(legal))]

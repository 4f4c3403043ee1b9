"""Full states consistent with one seat's observation, for search (``game.determinize``).

Public fields are copied; hidden cards are sampled into the hidden places (``Slot``): other seats' hands,
penalty cards the seat has not seen, face-down pile cards and covered face-up pile cards (flag
``piles_public=false``).
"""

from __future__ import annotations

import random
from typing import NamedTuple

from floe.core.compiled import mypyc_attr
from floe.games.arctic.cards import CARD_NAMES, DECK_CARDS, N_ANIMALS, N_CARDS
from floe.games.arctic.observation import FACE_DOWN_UNKNOWN, HIDDEN, ArcticObservation
from floe.games.arctic.state import FACE_DOWN_FLAG, IN_HAND, ArcticStateData, Job

# The kinds of hidden place.
HAND = "hand"  # another seat's hand: ``count`` cards
PENALTY_ZONE = "penalty"  # the cards of a penalty zone the observer has not seen: ``count`` cards
FACE_DOWN = "face-down"  # one face-down card of a pile, at ``position``
COVERED = "covered"  # one covered face-up card of a pile, at ``position`` (piles_public=false)


class Slot(NamedTuple):
    """A hidden place of the table: its kind, its seat, and for a pile card its position in the pile."""

    kind: str
    seat: int
    position: int = 0


# Every slot made once: search determinizes thousands of times per decision, and building a NamedTuple
# costs ~10x a lookup. A pile never holds more than the game's cards.
_HAND_SLOTS = tuple(Slot(HAND, q) for q in range(4))
_PENALTY_SLOTS = tuple(Slot(PENALTY_ZONE, q) for q in range(4))
_FACE_DOWN_SLOTS = tuple(tuple(Slot(FACE_DOWN, q, i) for i in range(N_CARDS)) for q in range(4))
_COVERED_SLOTS = tuple(tuple(Slot(COVERED, q, i) for i in range(N_CARDS)) for q in range(4))
_TOTEM_JOB = int(Job.TOTEM)  # a module global reads faster than an enum member


@mypyc_attr(native_class=False)  # the compiled engine (native.py) cannot derive a native class from it
class DeterminizationError(RuntimeError):
    """No consistent world could be sampled (a bug: the real state is always one)."""


def determinize(obs: ArcticObservation, rng: random.Random, state: ArcticStateData) -> None:
    """Fill ``state`` (a blank ``ArcticStateData``) with a full world consistent with ``obs``.

    Public fields are copied; hidden cards are sampled: cards certainly in a hand go there, cards known
    to be hidden by some seats go into those seats' hidden areas, every other unseen card is spread
    uniformly over the remaining hidden places and the stock. Opponents' totems are drawn uniformly from
    the animals not known to be taken. ``observe(state, obs.seat) == obs`` holds for the result.
    """
    seat = obs.seat
    n = obs.scalars["players"]
    state.config = obs.config
    for name, value in obs.scalars.items():
        setattr(state, name, value)
    state.tokens = obs.tokens[:]
    state.river = obs.river[:]
    state.holder = obs.holder[:]
    state.powers = obs.powers[:]
    state.turns = obs.turns[:]
    state.known = obs.known[:]
    state.pushes = obs.pushes[:]
    state.pending = obs.pending[:]
    state.history = []
    state.forget_derived()

    located: set[int] = set(obs.river)
    located.update(obs.hand)
    if obs.penalties is not None:
        located.update(obs.penalties)
    for q in range(n):
        for e in obs.piles[q]:
            if 0 <= e < FACE_DOWN_FLAG:
                located.add(e)
            elif e >= FACE_DOWN_FLAG:
                located.add(e - FACE_DOWN_FLAG)
    decks = obs.scalars["decks_in_play"]
    unknown = [c for k in range(4) if decks >> k & 1 for c in DECK_CARDS[k] if c not in located]

    free: dict[Slot, int] = {}  # hidden place -> how many unknown cards it still takes
    for q in range(n):
        if q != seat:
            free[_HAND_SLOTS[q]] = obs.hand_counts[q]
        if q != seat or obs.penalties is None:
            free[_PENALTY_SLOTS[q]] = obs.penalty_counts[q]
        elif len(obs.penalties) < obs.penalty_counts[q]:
            free[_PENALTY_SLOTS[q]] = obs.penalty_counts[q] - len(obs.penalties)  # face down, not seen
        for i, e in enumerate(obs.piles[q]):
            if e == FACE_DOWN_UNKNOWN:
                free[_FACE_DOWN_SLOTS[q][i]] = 1
            elif e == HIDDEN:
                free[_COVERED_SLOTS[q][i]] = 1
    hidden_slots = sum(free.values())
    stock = obs.stock_count
    if hidden_slots + stock != len(unknown):
        raise DeterminizationError(
            f"{len(unknown)} unseen cards for {hidden_slots} hidden places and a stock of {stock}"
        )

    placed: dict[Slot, list[int]] = {slot: [] for slot in free}
    rest: list[int] = []
    constrained: list[tuple[int, list[Slot]]] = []
    for c in unknown:
        v = obs.known[c]
        if v >= IN_HAND and v - IN_HAND != seat:
            hand = _HAND_SLOTS[v - IN_HAND]
            placed[hand].append(c)
            free[hand] -= 1
        elif 0 < v < IN_HAND:
            # Such a card may be in a hand, a penalty zone or a face-down pile slot of a masked seat
            # (a covered card is face-up: it was seen, so it has no such mask).
            areas = [slot for slot in free if slot.kind != COVERED and v >> slot.seat & 1]
            constrained.append((c, areas))
        else:
            rest.append(c)
    rng.shuffle(constrained)
    options = dict(constrained)
    owner: dict[Slot, list[int]] = {slot: [] for slot in free}

    def place(c: int, seen: set[Slot]) -> bool:
        # Kuhn's augmenting path: the real state is a witness, so a full assignment always exists;
        # a greedy pass alone can get stuck when masks overlap.
        slots = options[c][:]
        rng.shuffle(slots)
        for slot in slots:
            if slot in seen:
                continue
            seen.add(slot)
            if free[slot] > 0:
                free[slot] -= 1
                owner[slot].append(c)
                return True
            for d in owner[slot]:
                if place(d, seen):
                    owner[slot].remove(d)
                    owner[slot].append(c)
                    return True
        return False

    for c, _ in constrained:
        if not place(c, set()):
            raise DeterminizationError(f"no hidden place left for {CARD_NAMES[c]}")
    for slot, cards in owner.items():
        placed[slot] += cards
    rng.shuffle(rest)
    i = 0
    for slot, count in free.items():
        placed[slot] += rest[i : i + count]
        i += count
    state.deck = sorted(rest[i:])

    state.hands = []
    state.penalties = []
    state.piles = []
    unseen: list[int] = []
    for q in range(n):
        state.hands.append(obs.hand[:] if q == seat else sorted(placed[_HAND_SLOTS[q]]))
        sampled = placed.get(_PENALTY_SLOTS[q], [])
        if q == seat and obs.penalties is not None:
            state.penalties.append(sorted(obs.penalties + sampled))
            unseen += sampled
        else:
            state.penalties.append(sorted(sampled))
            # Which of another seat's penalty cards its owner has not seen is hidden; how many is public.
            unseen += sampled[: obs.penalty_unseen[q]] if obs.penalty_unseen else []
        pile = []
        for j, e in enumerate(obs.piles[q]):
            if e == FACE_DOWN_UNKNOWN:
                pile.append(placed[_FACE_DOWN_SLOTS[q][j]][0] + FACE_DOWN_FLAG)
            elif e == HIDDEN:
                pile.append(placed[_COVERED_SLOTS[q][j]][0])
            else:
                pile.append(e)
        state.piles.append(pile)
    totems = obs.totems[:]
    free_totems = [a for a in range(N_ANIMALS) if a not in totems]
    rng.shuffle(free_totems)
    for q in range(n):
        if totems[q] < 0 and not any(job[0] == _TOTEM_JOB and job[1] == q for job in obs.pending):
            totems[q] = free_totems.pop()
    state.totems = totems
    state.unseen_penalties = sorted(unseen)

"""Full states consistent with one seat's observation, for search (``game.determinize``).

Public fields are copied. The hidden cards — the other hands, the other pets, the stock — are dealt from
the cards the seat has not seen, honouring what is public: a card known to be in a seat's hand or pet
(taken from the display) goes there, a pet is always a card that may be a pet (an animal of weight < 3
without "!"), and the hand sizes and the deck's count are kept. Seats whose pet cannot come from their
known cards draw theirs first, so the deal never runs out of pet-worthy cards (the real state is one
solution). Deductions from earlier choices (a seat that put down no pet had none to give) are not used.
"""

from __future__ import annotations

import random

from floe.games.arche.observation import ArcheObservation
from floe.games.arche.state import ArcheStateData, bits


class DeterminizationError(RuntimeError):
    """No consistent world could be sampled (a bug: the real state is always one)."""


def determinize(obs: ArcheObservation, rng: random.Random, st: ArcheStateData) -> None:
    """Fill ``st`` (a blank ``ArcheStateData``) with a full world consistent with ``obs``."""
    cfg = obs.config
    n = obs.players
    seat = obs.seat
    st.config = cfg
    for name, value in obs.scalars.items():
        setattr(st, name, value)
    st.left = obs.left[:]
    st.right = obs.right[:]
    st.chips = obs.chips[:]
    st.figures = obs.figures[:]
    st.halves = obs.halves[:]
    st.figures_left = obs.figures_left[:]
    st.known = obs.known[:]
    st.pending = obs.pending[:]
    st.history = []
    st._legal = None
    st._scores = None
    hands = obs.hands[:]
    pets = obs.pets[:]

    seen = obs.scalars["display"] | obs.scalars["out"]
    for cab in (*obs.left, *obs.right):
        seen |= cab
    for q in range(n):
        seen |= hands[q]
        if pets[q] >= 0:
            seen |= 1 << pets[q]
    hidden = [q for q in range(n) if q != seat and not (obs.over)]
    known = [obs.known[q] & ~seen if q in hidden else 0 for q in range(n)]
    pool = cfg.deck.all_mask & ~seen
    for q in hidden:
        pool &= ~known[q]
    pool_cards = bits(pool)
    rng.shuffle(pool_cards)
    taken: set[int] = set()
    pet_mask = cfg.pet_mask

    # Pets first: the seats whose known cards hold no possible pet take theirs from the pool.
    need = [q for q in hidden if obs.has_pet[q] and pets[q] < 0]
    need.sort(key=lambda q: bool(known[q] & pet_mask))
    for q in need:
        own = bits(known[q] & pet_mask)
        room = obs.hand_counts[q] + 1 - known[q].bit_count()  # places for cards from the pool
        from_pool = [c for c in pool_cards if c not in taken and pet_mask >> c & 1]
        choices = own + (from_pool if room > 0 else [])
        if not choices:
            raise DeterminizationError(f"no card can be P{q + 1}'s pet")
        pet = choices[rng.randrange(len(choices))]
        pets[q] = pet
        if known[q] >> pet & 1:
            known[q] &= ~(1 << pet)
        else:
            taken.add(pet)
    rest = [c for c in pool_cards if c not in taken]
    i = 0
    for q in hidden:
        hand = known[q]
        count = obs.hand_counts[q] - hand.bit_count()
        if count < 0:
            raise DeterminizationError(f"P{q + 1} holds more known cards than cards")
        for c in rest[i : i + count]:
            hand |= 1 << c
        i += count
        hands[q] = hand
    stock = sorted(rest[i:])
    if len(stock) != obs.stock_count:
        raise DeterminizationError(f"{len(rest) - i} unseen cards left for a deck of {obs.stock_count}")
    st.stock = stock
    st.hands = hands
    st.pets = pets

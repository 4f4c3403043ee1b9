"""What a seat may know (docs/arctic-rules.md §9): hidden changes leave its view alone, visible ones do not.

Also determinization: a sampled world reproduces the seat's observation, conserves every card and plays on
legally, and different generators give different hidden worlds.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator

import numpy as np
import pytest

from floe.games.arctic import actions as act
from floe.games.arctic.cards import N_ANIMALS
from floe.games.arctic.codec import observation_from_dict, observation_to_dict
from floe.games.arctic.game import ArcticGame, ArcticState
from floe.games.arctic.state import FACE_DOWN_FLAG, IN_HAND, OVER
from floe.games.arctic.vector import CARD_SLICE, LOC_OWN_HAND, LOC_RIVER, N_LOC, TOKEN_SLICE

from .invariants import check_conservation, check_state, random_options

Slot = tuple[str, int, int]  # (area, seat, index): hand / penalty / facedown / covered / stock


def positions(count: int, seed: int, **fixed: object) -> Iterator[tuple[ArcticGame, ArcticState]]:
    """``count`` positions from random games under random options, at random moments (end included)."""
    rng = random.Random(seed)
    produced = 0
    while produced < count:
        players = rng.choice([2, 3, 4])
        options = {**random_options(rng, players), **fixed}
        game = ArcticGame(players, options)
        st = game.new_initial_state()
        stops = sorted(rng.sample(range(20, 400), 4))
        while produced < count:
            if st.is_terminal() or (stops and len(st.history) >= stops[0]):
                if stops:
                    stops.pop(0)
                yield game, st.clone()
                produced += 1
                if st.is_terminal() or not stops:
                    break
            st.apply(rng.choice(st.legal_actions()))


def hidden_slots(st: ArcticState, seat: int | None) -> list[Slot]:
    """Every place whose card identity ``seat`` may not know."""
    out: list[Slot] = []
    over = st.step == OVER
    for q in range(st.players):
        if q != seat:
            out += [("hand", q, i) for i in range(len(st.hands[q]))]
        if q != seat or st.config.penalties == "hidden_blind":
            out += [("penalty", q, i) for i in range(len(st.penalties[q]))]
        else:  # the owner's face-down cards it has not looked at (penalties=hidden_look)
            out += [("penalty", q, i) for i, c in enumerate(st.penalties[q]) if c in st.unseen_penalties]
        for i, e in enumerate(st.piles[q]):
            if q != seat and e >= FACE_DOWN_FLAG:
                out.append(("facedown", q, i))
            elif q != seat and not over and not st.config.piles_public and i < len(st.piles[q]) - 1:
                out.append(("covered", q, i))
    out += [("stock", -1, i) for i in range(len(st.deck))]
    return out


def get(st: ArcticState, slot: Slot) -> int:
    area, q, i = slot
    if area == "hand":
        return st.hands[q][i]
    if area == "penalty":
        return st.penalties[q][i]
    if area == "stock":
        return st.deck[i]
    e = st.piles[q][i]
    return e - FACE_DOWN_FLAG if e >= FACE_DOWN_FLAG else e


def put(st: ArcticState, slot: Slot, c: int) -> None:
    area, q, i = slot
    if area == "hand":
        st.hands[q][i] = c
    elif area == "penalty":
        st.penalties[q][i] = c
    elif area == "stock":
        st.deck[i] = c
    elif area == "facedown":
        st.piles[q][i] = c + FACE_DOWN_FLAG
    else:
        st.piles[q][i] = c


def swapped(st: ArcticState, a: Slot, b: Slot) -> ArcticState:
    """A copy with the cards in two slots exchanged (lists kept sorted, caches dropped)."""
    other = st.clone()
    ca, cb = get(st, a), get(st, b)
    put(other, a, cb)
    put(other, b, ca)
    # Whether its owner has seen a penalty card belongs to the place, so it stays with the slot.
    exchange = {ca: cb, cb: ca}
    other.unseen_penalties = sorted(exchange.get(c, c) for c in st.unseen_penalties)
    for q in range(other.players):
        other.hands[q].sort()
        other.penalties[q].sort()
    other.deck.sort()
    other.forget_derived()
    return other


def same_view(a: ArcticState, b: ArcticState, seat: int | None) -> bool:
    if a.observation_dict(seat) != b.observation_dict(seat) or a.observation(seat) != b.observation(seat):
        return False
    if seat is None:
        return True
    return bool(np.array_equal(a.observation_vector(seat), b.observation_vector(seat)))


def hidden_pairs(st: ArcticState, seat: int | None, rng: random.Random, k: int) -> list[tuple[Slot, Slot]]:
    """Up to ``k`` pairs of hidden slots in different areas whose cards carry the same public knowledge."""
    slots = hidden_slots(st, seat)
    pairs = []
    for _ in range(20 * k):
        if len(pairs) >= k or len(slots) < 2:
            break
        a, b = rng.sample(slots, 2)
        if a[:2] == b[:2] or st.known[get(st, a)] != st.known[get(st, b)]:
            continue
        pairs.append((a, b))
    return pairs


# --- hidden changes do not show ---------------------------------------------------------------------------


@pytest.mark.parametrize("chunk", range(4))
def test_hidden_card_swaps_are_invisible(chunk: int) -> None:
    rng = random.Random(chunk)
    checked: Counter[str] = Counter()
    for _, st in positions(60, seed=100 + chunk):
        for seat in [None, *range(st.players)]:
            for a, b in hidden_pairs(st, seat, rng, 3):
                other = swapped(st, a, b)
                check_conservation(other)
                assert same_view(st, other, seat), (a, b, seat)
                checked[a[0]] += 1
                checked[b[0]] += 1
    assert {"hand", "penalty", "facedown", "stock"} <= set(checked)


def test_covered_pile_cards_hidden_when_piles_are_private() -> None:
    rng = random.Random(7)
    checked = 0
    for _, st in positions(40, seed=8, piles_public=False):
        if st.step == OVER:
            continue
        for seat in range(st.players):
            slots = [s for s in hidden_slots(st, seat) if s[0] == "covered"]
            stock = [s for s in hidden_slots(st, seat) if s[0] == "stock"]
            for a in slots[:3]:
                b = rng.choice(stock) if stock else None
                if b is None:
                    continue
                other = swapped(st, a, b)
                assert same_view(st, other, seat)
                checked += 1
    assert checked > 20


def test_own_penalties_hidden_when_owners_cannot_look() -> None:
    checked = 0
    for _, st in positions(40, seed=9, penalties="hidden_blind"):
        for seat in range(st.players):
            if not st.penalties[seat] or not st.deck:
                continue
            a, b = ("penalty", seat, 0), ("stock", -1, 0)
            if st.known[get(st, a)] != st.known[get(st, b)]:
                continue
            assert same_view(st, swapped(st, a, b), seat)
            assert st.observation_dict(seat)["players_view"][seat]["penalties"] is None
            checked += 1
    assert checked > 10


def test_own_face_down_penalties_hidden_until_a_look() -> None:
    """penalties=hidden_look: a card drawn into the zone (or given) is unknown to its owner, exchanging it
    with a stock card changes nothing the owner sees; after the owner's look the exchange shows."""
    checked = looked = 0
    for _, st in positions(60, seed=10, penalties="hidden_look"):
        for seat in range(st.players):
            unseen = [i for i, c in enumerate(st.penalties[seat]) if c in st.unseen_penalties]
            if not unseen or not st.deck:
                continue
            a, b = ("penalty", seat, unseen[0]), ("stock", -1, 0)
            if st.known[get(st, a)] != st.known[get(st, b)]:
                continue
            assert same_view(st, swapped(st, a, b), seat)
            assert get(st, a) not in (st.observation(seat).penalties or [])
            checked += 1
            if st.current_player() == seat and act.LOOK in st.legal_actions():
                after = st.clone()
                after.apply(act.LOOK)
                assert not same_view(after, swapped(after, a, b), seat)
                looked += 1
    assert checked > 10 and looked > 0


def test_opponent_totems_are_invisible_until_the_end() -> None:
    checked = 0
    for _, st in positions(60, seed=11):
        for seat in range(st.players):
            for q in range(st.players):
                if q == seat:
                    continue
                free = [a for a in range(N_ANIMALS) if a not in st.totems]
                other = st.clone()
                other.totems[q] = free[0]
                if st.step == OVER:
                    assert not same_view(st, other, seat)  # revealed at the end
                else:
                    assert same_view(st, other, seat)
                    assert st.observation_dict(seat)["players_view"][q]["totem"] is None
                    checked += 1
    assert checked > 100


# --- visible changes do show -------------------------------------------------------------------------------


def test_own_hand_totem_and_face_down_cards_are_seen() -> None:
    seen: Counter[str] = Counter()
    for _, st in positions(60, seed=12):
        for seat in range(st.players):
            stock = ("stock", -1, 0)
            if st.deck and st.hands[seat]:
                other = swapped(st, ("hand", seat, 0), stock)
                assert other.observation_dict(seat) != st.observation_dict(seat)
                assert not np.array_equal(other.observation_vector(seat), st.observation_vector(seat))
                seen["hand"] += 1
            seen_pens = [i for i, c in enumerate(st.penalties[seat]) if c not in st.unseen_penalties]
            if st.deck and seen_pens and st.config.penalties != "hidden_blind":
                other = swapped(st, ("penalty", seat, seen_pens[0]), stock)
                assert other.observation_dict(seat) != st.observation_dict(seat)
                seen["penalty"] += 1
            downs = [i for i, e in enumerate(st.piles[seat]) if e >= FACE_DOWN_FLAG]
            if st.deck and downs:
                other = swapped(st, ("facedown", seat, downs[0]), stock)
                assert other.observation_dict(seat) != st.observation_dict(seat)
                assert not np.array_equal(other.observation_vector(seat), st.observation_vector(seat))
                seen["facedown"] += 1
            other = st.clone()
            other.totems[seat] = next(a for a in range(N_ANIMALS) if a not in st.totems)
            assert other.observation_dict(seat) != st.observation_dict(seat)
            assert not np.array_equal(other.observation_vector(seat), st.observation_vector(seat))
    assert min(seen["hand"], seen["penalty"], seen["facedown"]) > 5


def test_spectator_sees_no_hand_totem_or_penalty_identity() -> None:
    for _, st in positions(40, seed=13):
        obs = st.observation(None)
        data = st.observation_dict(None)
        assert obs.hand == [] and obs.penalties is None and data["seat"] is None
        for view in data["players_view"]:
            assert "hand" not in view and "penalties" not in view
            if st.step != OVER:
                assert view["totem"] is None
            assert all(entry.get("card") is None for entry in view["pile"] if entry.get("face_down"))
        for q in range(st.players):
            if st.hands[q]:
                assert data["players_view"][q]["hand_count"] == len(st.hands[q])


def test_observation_dict_round_trips() -> None:
    for _, st in positions(80, seed=14):
        for seat in [None, *range(st.players)]:
            obs = st.observation(seat)
            assert observation_from_dict(observation_to_dict(obs)) == obs
            assert observation_from_dict(json.loads(json.dumps(observation_to_dict(obs)))) == obs


def test_vector_agrees_with_the_dict() -> None:
    for _, st in positions(40, seed=15):
        for seat in range(st.players):
            vec = st.observation_vector(seat)
            obs = st.observation(seat)
            assert vec.shape == (ArcticGame(st.players).spec.observation_size,) and vec.dtype == np.float32
            cards = vec[CARD_SLICE].reshape(120, N_LOC)
            assert (cards.sum(axis=1) == 1).all()  # one location per card
            assert all(cards[c, LOC_OWN_HAND] == 1 for c in obs.hand)
            assert all(cards[c, LOC_RIVER] == 1 for c in obs.river)
            tokens = vec[TOKEN_SLICE].reshape(6, 6)
            assert [int(np.argmax(row)) for row in tokens] == obs.tokens


# --- determinization --------------------------------------------------------------------------------------


def is_possible(st: ArcticState, world: ArcticState, seat: int) -> None:
    """The world respects every piece of public knowledge the observation carries."""
    for c, v in enumerate(st.known):
        if v >= IN_HAND and v - IN_HAND != seat:
            assert c in world.hands[v - IN_HAND]
        elif 0 < v < IN_HAND:
            places = [
                q
                for q in range(st.players)
                if v >> q & 1
                and (c in world.hands[q] or c in world.penalties[q] or c + FACE_DOWN_FLAG in world.piles[q])
            ]
            assert places, f"card {c} outside the hidden areas of mask {v}"


@pytest.mark.parametrize("chunk", range(3))
def test_determinize_reproduces_the_observation_and_plays_on(chunk: int) -> None:
    differing = comparable = 0
    for game, st in positions(40, seed=200 + chunk):
        for seat in range(st.players):
            obs = st.observation(seat)
            worlds = []
            for k in range(4):
                world = game.determinize(obs if k % 2 else st.observation_dict(seat), random.Random(k))
                assert world.observation(seat) == obs
                assert world.observation_dict(seat) == st.observation_dict(seat)
                check_state(world, random.Random(k))
                assert world.totems[seat] == st.totems[seat]
                is_possible(st, world, seat)
                worlds.append(world)
            # Freedom: a hidden place outside the stock holds a card nobody has public knowledge about, and
            # there are enough such cards for several worlds.
            unknown = [s for s in hidden_slots(st, seat) if st.known[get(st, s)] == 0]
            if any(s[0] != "stock" for s in unknown) and len(unknown) >= 4 and st.deck:
                comparable += 1
                cards = {json.dumps([w.hands, w.penalties, w.piles, w.deck, w.totems]) for w in worlds}
                differing += len(cards) > 1
            world = worlds[0]
            rng = random.Random(seat)
            while not world.is_terminal():
                assert len(world.history) < 4000, "the game does not end"
                world.apply(rng.choice(world.legal_actions()))
            assert len(set(world.turns)) == 1
    assert comparable > 50 and differing == comparable

"""Decoded actions (``actions.decode``/``encode``/``parse``): the typed form of every id and notation."""

from __future__ import annotations

import random

import pytest

from floe.core.errors import InvalidActionError
from floe.games.arctic import actions as act
from floe.games.arctic.actions import LEFT, RIGHT, ActionKind, ArcticAction
from floe.games.arctic.cards import N_CARDS, parse_card
from floe.games.arctic.game import ArcticGame
from floe.games.arctic.powers import Power

from .invariants import random_options


def test_every_id_decodes_and_encodes_back() -> None:
    ids = act.all_action_ids()
    decoded = [act.decode(a) for a in ids]
    assert len(set(decoded)) == len(ids)  # one decoded action per id
    for a, d in zip(ids, decoded, strict=True):
        assert act.encode(d) == a and d.id == a
        assert str(d) == act.action_to_string(a)
        assert act.parse(str(d)) == d
        assert eval(repr(d), {"ArcticAction": ArcticAction}) == d  # repr rebuilds it
        assert d.is_chance == (a >= act.N_PLAYER_ACTIONS)
        assert not d.hidden


def test_every_kind_appears_and_fields_are_in_range() -> None:
    decoded = [act.decode(a) for a in act.all_action_ids()]
    assert {d.kind for d in decoded} == set(ActionKind)
    for d in decoded:
        assert (d.card >= 0) == (d.kind in act.CARD_KINDS)
        assert -1 <= d.card < N_CARDS and -1 <= d.seat < 4
        assert (d.direction != 0) == (d.kind in (ActionKind.MOVE, ActionKind.EXTRA))
        assert (d.power is not None) == (d.kind is ActionKind.SIDE)
        assert (d.decks != 0) == (d.kind is ActionKind.DECKS)
        assert (d.animal >= 0) == (d.kind is ActionKind.TOTEM)


@pytest.mark.parametrize("a", [-1, 14, act.DECKS, act.N_ACTIONS, 10**6])
def test_ids_outside_the_space_do_not_decode(a: int) -> None:
    with pytest.raises(InvalidActionError):
        act.decode(a)


def test_examples() -> None:
    fox_walrus = parse_card("fox-walrus-4")
    assert act.decode(act.GIVE + 4 * fox_walrus + 2) == ArcticAction(ActionKind.GIVE, card=fox_walrus, seat=2)
    assert act.decode(act.MOVE_LEFT) == ArcticAction(ActionKind.MOVE, direction=LEFT)
    assert act.decode(act.EXTRA_RIGHT) == ArcticAction(ActionKind.EXTRA, direction=RIGHT)
    assert act.decode(act.GIVE_BLIND + 1) == ArcticAction(ActionKind.GIVE_BLIND, seat=1)
    assert act.decode(act.DECKS + 0b0101).decks == 0b0101
    assert act.decode(act.SIDE).power is Power.FOX_FACEDOWN
    assert act.decode(act.TOTEM + 5).animal == 5
    assert act.decode(act.FIRST + 3) == ArcticAction(ActionKind.FIRST, seat=3)
    assert ArcticAction("place", card=fox_walrus).id == act.PLACE + fox_walrus  # kinds compare as text


@pytest.mark.parametrize(
    ("seen", "expected"),
    [
        ("facedown ?", ArcticAction(ActionKind.FACEDOWN)),
        ("discard ?", ArcticAction(ActionKind.DISCARD)),
        ("penalty ?", ArcticAction(ActionKind.PENALTY_BLIND)),
        ("give ? to P3", ArcticAction(ActionKind.GIVE_BLIND, seat=2)),
    ],
)
def test_hidden_cards_parse_and_print_but_have_no_id(seen: str, expected: ArcticAction) -> None:
    d = act.parse(seen)
    assert d == expected and str(d) == seen
    if expected.kind in act.CARD_KINDS:
        assert d.hidden
        with pytest.raises(InvalidActionError):
            act.encode(d)
        with pytest.raises(InvalidActionError):
            act.string_to_action(seen)


def test_a_hidden_give_prints_as_the_blind_gift() -> None:
    given = act.decode(act.GIVE + 4 * 7 + 1)
    assert str(given._replace(card=-1)) == "give ? to P2" == act.action_to_string(act.GIVE_BLIND + 1)


@pytest.mark.parametrize(
    "text", ["", "main up", "place unicorn-fox-3", "give fox-moose-5", "decks 5", "first P9"]
)
def test_unreadable_notation(text: str) -> None:
    with pytest.raises(InvalidActionError):
        act.parse(text)


def test_observed_actions_parse_in_random_games() -> None:
    """Every action as each seat may know it reads back: the same action, or the same with its card hidden."""
    seen_hidden = 0
    for seed in range(12):
        rng = random.Random(seed)
        players = 2 + seed % 3
        st = ArcticGame(players, random_options(rng, players)).new_initial_state()
        while not st.is_terminal():
            action = rng.choice(st.legal_actions())
            truth = act.decode(action)
            for seat in [None, *range(players)]:
                seen = st.observe_action(action, seat)
                if seen is None:
                    continue
                d = act.parse(seen)
                if d == truth:
                    continue
                seen_hidden += 1
                blind = {ActionKind.PENALTY: ActionKind.PENALTY_BLIND, ActionKind.GIVE: ActionKind.GIVE_BLIND}
                assert d.card == -1 and d.kind in (truth.kind, blind.get(truth.kind)), (seen, truth)
                assert d.seat == (truth.seat if truth.kind is ActionKind.GIVE else -1)
            st.apply(action)
    assert seen_hidden > 50

"""Arctic states as data: JSON and pickle round-trips, clones, refused actions (STYLE item 9)."""

from __future__ import annotations

import json
import pickle
import random

import pytest
from invariants import random_options

from floe.core.errors import IllegalActionError
from floe.games.arctic import actions as act
from floe.games.arctic.game import ArcticGame, ArcticState
from floe.games.arctic.state import STEP_NAMES

POWERS_OF_TWO = {1 << k for k in range(12)}


def games(count: int, seed: int) -> list[tuple[ArcticGame, list[int]]]:
    """Random full games (their game and action list) under random options."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        players = rng.choice([2, 3, 4])
        game = ArcticGame(players, random_options(rng, players))
        st = game.new_initial_state()
        while not st.is_terminal():
            assert len(st.history) < 4000, "the game does not end"
            st.apply(rng.choice(st.legal_actions()))
        out.append((game, list(st.history)))
    return out


@pytest.mark.parametrize("seed", range(4))
def test_json_and_pickle_round_trips_at_steps_1_2_4_8(seed: int) -> None:
    for game, history in games(10, seed):
        st = game.new_initial_state()
        for i, action in enumerate(history, start=1):
            st.apply(action)
            if i not in POWERS_OF_TWO and i != len(history):
                continue
            data = st.to_json()
            restored = game.state_from_json(json.loads(json.dumps(data)))
            assert restored == st and restored.to_json() == data
            assert restored.legal_actions() == st.legal_actions()
            pickled = pickle.loads(pickle.dumps(st))
            assert isinstance(pickled, ArcticState) and pickled == st
            # The copies play on exactly like the original.
            for copy in (restored, pickled):
                for a in history[i : i + 20]:
                    copy.apply(a)
                probe = game.new_initial_state()
                for a in history[: min(i + 20, len(history))]:
                    probe.apply_unchecked(a)
                assert copy == probe


def test_clones_are_independent_and_stay_equal_under_the_same_action() -> None:
    for game, history in games(12, 10):
        st = game.new_initial_state()
        rng = random.Random(len(history))
        for i, action in enumerate(history):
            if i % 17 == 0 and not st.is_terminal():
                clone = st.clone()
                assert clone == st and clone is not st
                before = st.to_json()
                # Advancing the clone leaves the original alone ...
                probe = clone.clone()
                probe.apply(rng.choice(probe.legal_actions()))
                assert st.to_json() == before
                # ... and so does mutating its data in place.
                clone.hands[0].append(999)
                clone.tokens[0] = 5 - clone.tokens[0]
                clone.piles[-1].append(7)
                clone.known[3] = 99
                assert st.to_json() == before
                # Both advance the same way with the same action.
                twin = st.clone()
                st.apply(action)
                twin.apply(action)
                assert twin == st
                # Advancing the original leaves an earlier clone alone.
                assert twin.clone() == st
                continue
            st.apply(action)


def test_illegal_actions_raise_and_change_nothing() -> None:
    rng = random.Random(3)
    checked = 0
    for game, history in games(10, 20):
        st = game.new_initial_state()
        for action in history:
            if rng.random() < 0.1:
                legal = set(st.legal_actions())
                before = st.to_json()
                for bad in (-1, act.N_ACTIONS, 10**6, *rng.sample(range(act.N_ACTIONS), 5)):
                    if bad in legal:
                        continue
                    with pytest.raises(IllegalActionError):
                        st.apply(bad)
                    assert st.to_json() == before
                    checked += 1
            st.apply(action)
        before = st.to_json()
        with pytest.raises(IllegalActionError, match="over"):
            st.apply(0)
        assert st.to_json() == before
    assert checked > 500


def test_chance_outcome_is_illegal_for_a_player_and_decisions_at_chance() -> None:
    game = ArcticGame(2, {"first_player": 0})
    st = game.new_initial_state()
    assert st.is_chance_node()
    with pytest.raises(IllegalActionError):
        st.apply(act.STOP)
    while st.is_chance_node():
        st.apply(st.legal_actions()[0])
    hand_card = st.hands[0][0]
    before = st.to_json()
    with pytest.raises(IllegalActionError):
        st.apply(act.CARD + st.deck[0])
    with pytest.raises(IllegalActionError):
        st.apply(act.PLACE + st.deck[0])  # a card not in the hand
    assert st.to_json() == before
    st.apply(act.PLACE + hand_card)


def test_to_json_is_plain_json_with_every_field() -> None:
    game, history = games(1, 30)[0]
    st = game.new_initial_state()
    for a in history[:120]:
        st.apply(a)
    data = st.to_json()
    assert json.loads(json.dumps(data)) == data
    for key in (
        "hands",
        "piles",
        "penalties",
        "river",
        "deck",
        "tokens",
        "holder",
        "powers",
        "totems",
        "step",
    ):
        assert key in data
    assert STEP_NAMES[data["step"]]

"""Arktia states as data: records and replay, JSON and pickle round-trips, clones, refused actions,
observations (STYLE item 9)."""

from __future__ import annotations

import json
import pickle
import random

import numpy as np
import pytest
from arktia_helpers import RING_18, choose, random_options

from floe.core.errors import IllegalActionError, RecordError
from floe.core.match import Match
from floe.core.record import Record
from floe.core.registry import game_names, make_game
from floe.games.arktia.game import ArktiaGame, ArktiaState

POWERS_OF_TWO = {1 << k for k in range(12)}


def games(count: int, seed: int) -> list[tuple[ArktiaGame, list[int]]]:
    """Random full games (their game and action list) under random options."""
    out = []
    for i in range(count):
        players = 2 + i % 3
        rng = random.Random(seed * 1000 + i)
        game = ArktiaGame(players, random_options(rng, players))
        st = game.new_initial_state()
        while not st.is_terminal():
            st.apply(choose(rng, st.legal_actions()))
        out.append((game, list(st.history)))
    return out


def test_registered() -> None:
    assert "arktia" in game_names()
    assert isinstance(make_game("arktia", 3), ArktiaGame)


def test_records_replay_to_the_same_state_and_result() -> None:
    for game, history in games(12, 1):
        st = game.new_initial_state()
        for action in history:
            st.apply(action)
        record = Record.of(game, None, st)
        loaded = Record.from_json(json.loads(record.dumps()))
        assert loaded == record
        replayed = loaded.replay()
        assert replayed == st and replayed.scores() == st.scores()
        assert record.result == {"scores": st.scores(), "ranking": st.ranking()}


def test_a_record_with_a_wrong_action_names_it() -> None:
    match = Match.new("arktia", players=2, seed=1)
    rng = random.Random(1)
    for _ in range(12):
        match.apply(choose(rng, match.legal_actions()))
    data = match.record().to_json()
    data["actions"][7] = "melt c3"
    with pytest.raises(RecordError, match="action 8"):
        Record.from_json(data).replay()


def test_json_and_pickle_round_trips_along_games() -> None:
    for game, history in games(9, 2):
        st = game.new_initial_state()
        for i, action in enumerate(history, start=1):
            st.apply(action)
            if i in POWERS_OF_TWO or i == len(history):
                data = json.loads(json.dumps(st.to_json()))
                back = game.state_from_json(data)
                assert back == st and back.legal_actions() == st.legal_actions()
                unpickled = pickle.loads(pickle.dumps(st))
                assert unpickled == st and unpickled.legal_actions() == st.legal_actions()
                assert back.current_player() == st.current_player()


def test_clones_are_independent() -> None:
    for game, history in games(6, 3):
        st = game.new_initial_state()
        for action in history[: len(history) // 2]:
            st.apply(action)
        if st.is_terminal():
            continue
        copy = st.clone()
        assert copy == st
        action = st.legal_actions()[-1]
        copy.apply(action)
        assert copy != st and st.legal_actions()[-1] == action
        st.apply(action)
        assert copy == st  # the same action gives the same position


def test_an_illegal_action_changes_nothing() -> None:
    for game, history in games(6, 4):
        st = game.new_initial_state()
        rng = random.Random(5)
        for action in history:
            before = st.to_json()
            legal = set(st.legal_actions())
            for bad in rng.sample(range(game.spec.num_distinct_actions), 5):
                if bad in legal:
                    continue
                with pytest.raises(IllegalActionError):
                    st.apply(bad)
                assert st.to_json() == before
            st.apply(action)
        with pytest.raises(IllegalActionError, match="over"):
            st.apply(0)


def test_observations_are_the_whole_state_for_every_seat() -> None:
    game = ArktiaGame(3, {"neutrals": True})
    st = game.new_initial_state()
    rng = random.Random(6)
    while not st.is_terminal():
        if len(st.history) % 7 == 0:
            views = [st.observation_dict(seat) for seat in (0, 1, 2, None)]
            assert all(v["raw"] == views[0]["raw"] for v in views)
            json.dumps(views[0])
            assert game.determinize(st.observation(1), rng) == st
            assert game.determinize(json.loads(json.dumps(views[2])), rng) == st
            for seat in range(3):
                vec = st.observation_vector(seat)
                assert vec.shape == (game.spec.observation_size,) and vec.dtype == np.float32
            # Colours are relative to the seat: the own colour block moves with the seat.
            assert not np.array_equal(st.observation_vector(0), st.observation_vector(1))
        st.apply(choose(rng, st.legal_actions()))
    final = st.observation_dict(0)
    assert final["scores"] == st.score_breakdowns() and final["step"] == "over"


def test_render_shows_board_and_seats() -> None:
    game = ArktiaGame(2, {"layout": RING_18})
    st = game.new_initial_state()
    text = st.render(0)
    assert "c3" not in text.splitlines()[3] and "P1 (you)" in text
    rng = random.Random(7)
    while not st.is_terminal():
        st.apply(choose(rng, st.legal_actions()))
        assert isinstance(st.render(None), str)
    assert "step over" in st.render(None)


def test_state_type() -> None:
    assert isinstance(ArktiaGame(2).new_initial_state(), ArktiaState)

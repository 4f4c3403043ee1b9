"""Arktia states as data: a bad record names its action, observations are the whole state, rendering
(docs/style.md §9).

Records replaying to the same state, JSON and pickle round trips, clone independence, refused actions,
exact determinization and the observation vectors are checked by the conformance kit in
``test_arktia_kit.py``.
"""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from floe.core.errors import RecordError
from floe.core.match import Match
from floe.core.record import Record
from floe.core.registry import game_names, make_game
from floe.games.arktia.game import ArktiaGame, ArktiaState

from .arktia_helpers import RING_18, choose


def test_registered() -> None:
    assert "arktia" in game_names()
    assert isinstance(make_game("arktia", 3), ArktiaGame)


def test_a_record_with_a_wrong_action_names_it() -> None:
    match = Match.new("arktia", players=2, seed=1)
    rng = random.Random(1)
    for _ in range(12):
        match.apply(choose(rng, match.legal_actions()))
    data = match.record().to_json()
    data["actions"][7] = "melt c3"
    with pytest.raises(RecordError, match="action 8"):
        Record.from_json(data).replay()


def test_observations_are_the_whole_state_for_every_seat() -> None:
    game = ArktiaGame(3, {"neutrals": True})
    st = game.new_initial_state()
    rng = random.Random(6)
    while not st.is_terminal():
        if len(st.history) % 7 == 0:
            views = [st.observation_dict(seat) for seat in (0, 1, 2, None)]
            assert all(v["raw"] == views[0]["raw"] for v in views)
            # determinize also reads the JSON view back (the kit checks it from the observation object).
            assert game.determinize(json.loads(json.dumps(views[2])), rng) == st
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

"""The observation's JSON codec: state field names are wire names, and the dict round-trips.

(The round trip over random positions for every seat and the spectator is in ``test_observation_safety``.)
"""

from __future__ import annotations

import json
import random

from floe.games.arctic.codec import TURN_SCALARS, WIRE_NAMES, observation_from_dict, observation_to_dict
from floe.games.arctic.game import ArcticGame
from floe.games.arctic.state import SCALAR_FIELDS

from .invariants import random_options


def test_every_scalar_keeps_its_name_on_the_wire_but_to_act() -> None:
    assert {k: v for k, v in WIRE_NAMES.items() if k != v} == {"to_act": "current_player"}
    st = ArcticGame(3).new_initial_state()
    data = observation_to_dict(st.observation(1))
    for name in SCALAR_FIELDS:
        where = data["turn"] if name in TURN_SCALARS else data
        assert WIRE_NAMES[name] in where, name
    assert set(SCALAR_FIELDS) >= TURN_SCALARS


def test_round_trip_through_json_during_whole_games() -> None:
    for seed in range(6):
        rng = random.Random(seed)
        players = 2 + seed % 3
        st = ArcticGame(players, random_options(rng, players)).new_initial_state()
        step = 0
        while True:
            if step % 17 == 0 or st.is_terminal():
                for seat in [None, *range(players)]:
                    obs = st.observation(seat)
                    data = json.loads(json.dumps(observation_to_dict(obs)))
                    assert observation_from_dict(data) == obs
                    assert observation_to_dict(observation_from_dict(data)) == data
            if st.is_terminal():
                break
            st.apply(rng.choice(st.legal_actions()))
            step += 1

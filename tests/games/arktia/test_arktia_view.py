"""Arktia's observation dict (``codec.observation_to_dict``): the readable board and per-seat counters match
the raw state they are written from, and ``observation_from_dict`` gives the observation back."""

from __future__ import annotations

import random

from floe.core.registry import make_game
from floe.games.arktia.codec import observation_from_dict, observation_to_dict
from floe.games.arktia.game import ArktiaState
from floe.games.arktia.observation import ArktiaObservation
from floe.games.arktia.towers import MASK, NEUTRAL, SHAPE, TOP


def midgame(players: int, seed: int, actions: int = 30) -> ArktiaState:
    state = make_game("arktia", players).new_initial_state()
    rng = random.Random(seed)
    for _ in range(actions):
        if state.is_terminal():
            break
        state.apply(state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions()))
    assert isinstance(state, ArktiaState)
    return state


def test_the_dict_names_the_seat_and_every_field() -> None:
    state = midgame(3, 1)
    for seat in (0, 2, None):
        obs = state.observation(seat)
        d = observation_to_dict(obs)
        assert d["seat"] == seat
        assert [e["field"] for e in d["board"]] == list(obs.names)
        stacks = 0
        for entry, code in zip(d["board"], obs.raw["fields"], strict=True):
            assert entry["melted"] == (code < 0)
            if code > 0:
                stacks += 1
                assert entry["shape"] == SHAPE[MASK[code]] is not None
                assert entry["control"] == entry["pieces"][-1]["colour"] or TOP[code] < 0
            else:
                assert sorted(entry) == ["field", "melted"]
        assert stacks > 0


def test_lost_pieces_are_summed_per_seat_and_for_the_neutral_colour() -> None:
    obs = midgame(3, 2).observation(0)
    # Three sizes per colour: seats 0, 1, 2, then the neutral colour's three at 3 * NEUTRAL.
    raw = dict(obs.raw, lost=[1, 2, 3, 10, 20, 30, 100, 200, 300, 0, 0, 0, 1000, 2000, 3000])
    assert 3 * NEUTRAL == 12
    d = observation_to_dict(ArktiaObservation(0, raw, obs.names))
    assert [s["lost"] for s in d["seats"]] == [6, 60, 600]
    assert d["neutral_lost"] == 6000


def test_from_dict_gives_the_observation_back() -> None:
    state = midgame(2, 3, actions=400)
    for seat in (0, 1, None):
        obs = state.observation(seat)
        again = observation_from_dict(observation_to_dict(obs), obs.names)
        assert again == obs
        assert (again.seat, again.raw, again.names, again.scores) == (seat, obs.raw, obs.names, obs.scores)
    assert state.is_terminal() and state.observation(0).scores is not None

"""The adapters' fast observation vector equals the reference ``vector(observe(state, seat))`` everywhere."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("gymnasium")  # a guard only: CI installs the extra "rl"

from floe.core.match import Match
from floe.games.arctic.actions import N_PLAYER_ACTIONS
from floe.games.arctic.view import vector
from floe.rl.encode import action_mask, observation_vector

# The flags that change what a seat sees, and the BGA preset (other scoring and end rules).
OPTIONS = [{}, {"piles_public": False, "owner_sees_penalties": False}, {"preset": "bga"}]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("options", OPTIONS, ids=["rules", "hidden", "bga"])
def test_fast_vector_equals_reference(players: int, options: dict[str, object]) -> None:
    for seed in range(2):
        match = Match.new("arctic", players=players, options=options, seed=seed)
        rng = random.Random(seed)
        while True:
            state = match.state
            for seat in range(players):
                fast = observation_vector(state, seat)
                assert fast.dtype == np.float32
                np.testing.assert_array_equal(fast, vector(state.observation(seat)))
            if match.is_over():
                break
            match.apply(rng.choice(match.legal_actions()))


def test_action_mask() -> None:
    mask = action_mask([0, 5, N_PLAYER_ACTIONS - 1])
    assert mask.dtype == np.int8 and mask.shape == (N_PLAYER_ACTIONS,)
    assert np.flatnonzero(mask).tolist() == [0, 5, N_PLAYER_ACTIONS - 1]

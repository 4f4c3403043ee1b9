"""The Gymnasium environment: ``check_env``, registration, masks, illegal actions, seeding, opponents."""

from __future__ import annotations

import random
import warnings
from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")  # a guard only: CI installs the extra "rl"

import gymnasium
from gymnasium.utils.env_checker import check_env

import floe.rl
from floe.rl import ArcticEnv, IllegalActionError


@pytest.mark.parametrize(
    "kwargs",
    [{}, {"players": 4, "opponents": ["random", "baseline", "random"], "seat": None, "reward": "score_diff"}],
    ids=["default", "4p"],
)
def test_check_env(kwargs: dict[str, Any]) -> None:
    env = gymnasium.make(floe.rl.ENV_ID, **kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no complaint at all from Gymnasium's checker
        check_env(env.unwrapped)


def test_registered_on_import() -> None:
    assert floe.rl.ENV_ID == "floe/Arctic-v0"
    env = gymnasium.make("floe/Arctic-v0")
    assert isinstance(env.unwrapped, ArcticEnv)


def _episode(env: Any, seed: int, pick_seed: int) -> tuple[list[int], float]:
    """A whole episode with random legal actions; checks mask and vector against the engine at every step."""
    rng = random.Random(pick_seed)
    obs, info = env.reset(seed=seed)
    raw = env.unwrapped
    chosen: list[int] = []
    while True:
        state = raw.match.state
        assert state.current_player() == raw.seat == info["seat"]
        legal = state.legal_actions()
        assert np.flatnonzero(info["action_mask"]).tolist() == legal
        assert np.flatnonzero(raw.action_masks()).tolist() == legal
        np.testing.assert_array_equal(obs, state.observation_vector(raw.seat))
        action = rng.choice(legal)
        chosen.append(action)
        obs, reward, terminated, truncated, info = env.step(action)
        assert not truncated
        if terminated:
            assert raw.match.state.is_terminal()
            assert not info["action_mask"].any()
            assert info["scores"] == raw.match.state.scores()
            return chosen, reward
        assert reward == 0.0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_masks_agree_with_engine(players: int) -> None:
    env = gymnasium.make("floe/Arctic-v0", players=players, seat=players - 1, opponents="random")
    for seed in range(3):
        _, reward = _episode(env, seed, pick_seed=seed)
        state = env.unwrapped.match.state
        assert reward == state.returns()[players - 1]


def test_same_seed_same_episode() -> None:
    a = gymnasium.make("floe/Arctic-v0", players=3, opponents=["baseline", "random"], seat=None)
    b = gymnasium.make("floe/Arctic-v0", players=3, opponents=["baseline", "random"], seat=None)
    assert _episode(a, 21, pick_seed=4) == _episode(b, 21, pick_seed=4)
    assert a.unwrapped.match.state.history == b.unwrapped.match.state.history
    assert a.unwrapped.seat == b.unwrapped.seat
    assert a.unwrapped.match.seed == 21


def test_illegal_action_penalty_changes_nothing() -> None:
    env = gymnasium.make("floe/Arctic-v0")
    obs, info = env.reset(seed=5)
    state = env.unwrapped.match.state
    before = state.to_json()
    illegal = next(a for a in range(1336) if not info["action_mask"][a])
    obs2, reward, terminated, truncated, info2 = env.step(illegal)
    assert (reward, terminated, truncated, info2["illegal_action"]) == (-1.0, False, False, True)
    assert state.to_json() == before
    np.testing.assert_array_equal(obs2, obs)
    np.testing.assert_array_equal(info2["action_mask"], info["action_mask"])
    env.step(int(np.flatnonzero(info["action_mask"])[0]))  # the game goes on


@pytest.mark.parametrize("bad", [-1, 1336, 2.5, "stop"])
def test_illegal_action_raise_changes_nothing(bad: object) -> None:
    env = gymnasium.make("floe/Arctic-v0", illegal_action="raise")
    _obs, info = env.reset(seed=5)
    state = env.unwrapped.match.state
    before = state.to_json()
    illegal = next(a for a in range(1336) if not info["action_mask"][a])
    for action in (bad, illegal):
        with pytest.raises(gymnasium.error.InvalidAction):
            env.step(action)
        with pytest.raises(IllegalActionError):
            env.step(action)
        assert state.to_json() == before


def test_step_after_the_end_needs_reset() -> None:
    env = ArcticEnv()
    _episode(env, 2, pick_seed=2)
    with pytest.raises(gymnasium.error.ResetNeeded):
        env.step(0)


def test_render_ansi() -> None:
    env = ArcticEnv(players=3, seat=1, render_mode="ansi")
    env.reset(seed=0)
    assert env.render() == env.match.state.render(1)


def test_bad_parameters() -> None:
    with pytest.raises(ValueError, match="opponents"):
        ArcticEnv(players=4, opponents=["random", "random"])
    with pytest.raises(ValueError, match="seat"):
        ArcticEnv(players=2, seat=2)
    with pytest.raises(ValueError, match="illegal_action"):
        ArcticEnv(illegal_action="ignore")
    with pytest.raises(ValueError, match="unknown bot"):
        ArcticEnv(opponents="nobody")

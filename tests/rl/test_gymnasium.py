"""The Gymnasium environment of every game: ``check_env``, registration, masks, illegal actions, seeding,
opponents."""

from __future__ import annotations

import pickle
import random
import warnings
from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")  # a guard only: CI installs the extra "rl"

import gymnasium
from gymnasium.utils.env_checker import check_env

import floe.rl
from floe.core.registry import entries
from floe.rl import ArcticEnv, FloeEnv, IllegalActionError

GAMES = {"arctic": "floe/Arctic-v0", "arktia": "floe/Arktia-v0"}


@pytest.mark.parametrize(
    ("env_id", "kwargs"),
    [
        ("floe/Arctic-v0", {}),
        (
            "floe/Arctic-v0",
            {
                "players": 4,
                "opponents": ["random", "baseline", "random"],
                "seat": None,
                "reward": "score_diff",
            },
        ),
        ("floe/Arktia-v0", {}),
        (
            "floe/Arktia-v0",
            {"players": 3, "opponents": ["greedy", "random"], "seat": None, "reward": "score_diff"},
        ),
    ],
    ids=["arctic", "arctic-4p", "arktia", "arktia-3p"],
)
def test_check_env(env_id: str, kwargs: dict[str, Any]) -> None:
    env = gymnasium.make(env_id, **kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no complaint at all from Gymnasium's checker
        check_env(env.unwrapped)


def test_registered_on_import() -> None:
    assert floe.rl.ENV_ID == "floe/Arctic-v0"
    env = gymnasium.make("floe/Arctic-v0")
    assert isinstance(env.unwrapped, ArcticEnv)
    assert floe.rl.env_ids() == {e.name: f"floe/{e.title.replace(' ', '')}-v0" for e in entries()}
    for name, env_id in floe.rl.env_ids().items():
        raw = gymnasium.make(env_id).unwrapped
        assert isinstance(raw, FloeEnv) and type(raw) is floe.rl.env_class(name)
        assert type(raw).__name__ == env_id[len("floe/") : -len("-v0")] + "Env"
        assert raw.game.name == name and raw.game.players == raw.game.__class__.min_players
        assert raw.action_space.n == raw.game.spec.player_actions
        assert raw.observation_space.shape == (raw.game.spec.observation_size,)


def test_generic_class_and_pickle() -> None:
    env = FloeEnv("arktia", players=3, opponents="greedy")
    assert env.game.players == 3 and env.opponents == ["greedy", "greedy"]
    for raw in (env, floe.rl.ArktiaEnv(players=3), ArcticEnv()):
        raw.reset(seed=1)
        copy = pickle.loads(pickle.dumps(raw))
        assert type(copy) is type(raw)
        np.testing.assert_array_equal(copy._obs, raw._obs)


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
@pytest.mark.parametrize("game", GAMES)
def test_masks_agree_with_engine(game: str, players: int) -> None:
    env = gymnasium.make(GAMES[game], players=players, seat=players - 1, opponents="random")
    for seed in range(3):
        _, reward = _episode(env, seed, pick_seed=seed)
        state = env.unwrapped.match.state
        assert reward == state.returns()[players - 1]


@pytest.mark.parametrize(("game", "bot"), [("arctic", "baseline"), ("arktia", "greedy")])
def test_same_seed_same_episode(game: str, bot: str) -> None:
    a = gymnasium.make(GAMES[game], players=3, opponents=[bot, "random"], seat=None)
    b = gymnasium.make(GAMES[game], players=3, opponents=[bot, "random"], seat=None)
    assert _episode(a, 21, pick_seed=4) == _episode(b, 21, pick_seed=4)
    assert a.unwrapped.match.state.history == b.unwrapped.match.state.history
    assert a.unwrapped.seat == b.unwrapped.seat
    assert a.unwrapped.match.seed == 21


@pytest.mark.parametrize("game", GAMES)
def test_illegal_action_penalty_changes_nothing(game: str) -> None:
    env = gymnasium.make(GAMES[game])
    obs, info = env.reset(seed=5)
    state = env.unwrapped.match.state
    before = state.to_json()
    illegal = next(a for a in range(env.action_space.n) if not info["action_mask"][a])
    obs2, reward, terminated, truncated, info2 = env.step(illegal)
    assert (reward, terminated, truncated, info2["illegal_action"]) == (-1.0, False, False, True)
    assert state.to_json() == before
    np.testing.assert_array_equal(obs2, obs)
    np.testing.assert_array_equal(info2["action_mask"], info["action_mask"])
    env.step(int(np.flatnonzero(info["action_mask"])[0]))  # the game goes on


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("bad", [-1, "size", 2.5, "stop"])
def test_illegal_action_raise_changes_nothing(game: str, bad: object) -> None:
    env = gymnasium.make(GAMES[game], illegal_action="raise")
    _obs, info = env.reset(seed=5)
    state = env.unwrapped.match.state
    before = state.to_json()
    bad = env.action_space.n if bad == "size" else bad  # the first id past the player actions
    illegal = next(a for a in range(env.action_space.n) if not info["action_mask"][a])
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
    other = FloeEnv("arktia", players=3, seat=2, render_mode="ansi")
    other.reset(seed=0)
    assert other.render() == other.match.state.render(2)


def test_score_diff_reward() -> None:
    env = FloeEnv("arktia", players=2, reward="score_diff", score_scale=4.0)
    _, reward = _episode(env, 3, pick_seed=3)
    scores = env.match.state.scores()
    assert reward == pytest.approx((scores[0] - scores[1]) / 4.0)


def test_bad_parameters() -> None:
    with pytest.raises(ValueError, match="opponents"):
        ArcticEnv(players=4, opponents=["random", "random"])
    with pytest.raises(ValueError, match="seat"):
        ArcticEnv(players=2, seat=2)
    with pytest.raises(ValueError, match="illegal_action"):
        ArcticEnv(illegal_action="ignore")
    with pytest.raises(ValueError, match="unknown bot"):
        ArcticEnv(opponents="nobody")
    with pytest.raises(ValueError, match="unknown game"):
        FloeEnv("chess")
    with pytest.raises(ValueError, match="score_scale"):
        FloeEnv("arktia", score_scale=-1)

"""The PettingZoo AEC environment of every game: PettingZoo's own tests, masks, illegal actions, seeding,
rewards, and the per-game module convention (``floe.rl.<name>_v0``)."""

from __future__ import annotations

import importlib
import pickle
import random
import warnings
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")  # a guard only: CI installs the extra "rl"

from pettingzoo.test import api_test, seed_test

import floe.rl
from floe.core.errors import IllegalActionError as FloeIllegalActionError
from floe.core.record import Record
from floe.core.registry import game_names
from floe.rl import IllegalActionError, arctic_v0

GAMES = ["arctic", "arktia"]


def _n_actions(env: Any) -> int:
    return int(env.unwrapped.game.spec.player_actions)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("game", GAMES)
def test_api_test(game: str, players: int) -> None:
    # PettingZoo warns that a dict observation "is not a NumPy array"; it exempts its own classic games,
    # which have the same observation layout, by name.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        api_test(floe.rl.env(game, players=players), num_cycles=1000)


@pytest.mark.parametrize(("game", "players"), [("arctic", 2), ("arctic", 4), ("arktia", 2), ("arktia", 3)])
def test_seed_test(game: str, players: int) -> None:
    seed_test(lambda: floe.rl.env(game, players=players), num_cycles=300)


def test_api_test_score_diff_and_render() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        api_test(arctic_v0.env(players=3, reward="score_diff", render_mode="ansi"), num_cycles=1000)
        api_test(floe.rl.env("arktia", players=2, reward="score_diff", render_mode="ansi"), num_cycles=1000)


def test_every_game_has_its_module() -> None:
    for name in game_names():
        module = getattr(floe.rl, f"{name}_v0")
        assert module is importlib.import_module(f"floe.rl.{name}_v0")
        raw = module.raw_env()
        assert raw.metadata["name"] == f"{name}_v0"
        assert raw.game.name == name and raw.game.players == raw.game.__class__.min_players
        assert isinstance(raw, floe.rl.FloeAECEnv)
    assert floe.rl.arctic_v0 is arctic_v0


@pytest.mark.parametrize("game", GAMES)
def test_pickles_as_its_own_class(game: str) -> None:
    module = getattr(floe.rl, f"{game}_v0")
    for raw in (module.raw_env(players=3, reward="score_diff"), floe.rl.raw_env(game, 3, "score_diff")):
        copy = pickle.loads(pickle.dumps(raw))
        assert type(copy) is type(raw)
        assert (copy.game.name, copy.game.players, copy.reward) == (game, 3, "score_diff")


def _play(env: Any, seed: int, pick_seed: int) -> list[int]:
    """Play a whole game with random legal actions; check the mask against the engine at every step."""
    rng = random.Random(pick_seed)
    env.reset(seed=seed)
    raw = env.unwrapped
    chosen = []
    for agent in env.agent_iter():
        obs, _reward, terminated, truncated, _info = env.last()
        state = raw.match.state
        if terminated or truncated:
            assert state.is_terminal()
            assert not obs["action_mask"].any()
            env.step(None)
            continue
        seat = raw.possible_agents.index(agent)
        assert state.current_player() == seat
        assert np.flatnonzero(obs["action_mask"]).tolist() == state.legal_actions()
        np.testing.assert_array_equal(obs["observation"], state.observation_vector(seat))
        for other in raw.possible_agents:  # the others' masks are empty: it is not their turn
            if other != agent:
                assert not raw.observe(other)["action_mask"].any()
        action = rng.choice(state.legal_actions())
        chosen.append(action)
        env.step(action)
    return chosen


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("game", GAMES)
def test_masks_agree_with_engine(game: str, players: int) -> None:
    env = floe.rl.env(game, players=players)
    assert env.action_space("player_0").n == _n_actions(env)
    for seed in range(2):
        _play(env, seed, pick_seed=seed)


@pytest.mark.parametrize("game", GAMES)
def test_same_seed_same_episode_and_record(game: str) -> None:
    a, b = floe.rl.env(game, players=3), floe.rl.env(game, players=3)
    assert _play(a, 11, pick_seed=5) == _play(b, 11, pick_seed=5)
    sa, sb = a.unwrapped.match.state, b.unwrapped.match.state
    assert sa.history == sb.history and sa.scores() == sb.scores()
    # The episode is Floe's seeded match: its record replays to the same end.
    record = a.unwrapped.match.record()
    assert record.seed == 11
    assert Record.from_json(record.to_json()).replay().scores() == sa.scores()
    # A later unseeded reset follows from the seed too.
    a.reset(seed=11)
    b.reset(seed=11)
    a.reset()
    b.reset()
    assert a.unwrapped.match.seed == b.unwrapped.match.seed


def test_arctic_module_is_the_generic_env() -> None:
    a, b = arctic_v0.env(players=3), floe.rl.env("arctic", players=3)
    assert _play(a, 4, pick_seed=1) == _play(b, 4, pick_seed=1)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("bad", [-1, 10**6, 3.5, "stop", None])
def test_illegal_action_raises_and_changes_nothing(game: str, bad: object) -> None:
    env = floe.rl.env(game, players=2)
    env.reset(seed=3)
    raw = env.unwrapped
    state = raw.match.state
    legal = state.legal_actions()
    illegal = [a for a in range(_n_actions(env)) if a not in legal]
    before = (state.to_json(), env.agent_selection, dict(env.rewards), dict(env._cumulative_rewards))
    for action in [bad, illegal[0], illegal[-1], _n_actions(env)]:
        with pytest.raises(IllegalActionError) as info:
            env.step(action)
        # One exception, three interfaces: Floe's, Python's and Gymnasium's.
        assert isinstance(info.value, FloeIllegalActionError)
        assert isinstance(info.value, ValueError)
        after = (state.to_json(), env.agent_selection, dict(env.rewards), dict(env._cumulative_rewards))
        assert after == before
    env.step(legal[0])  # and the game goes on


@pytest.mark.parametrize("game", GAMES)
def test_illegal_reward_option_terminates_like_pettingzoo_classic(game: str) -> None:
    env = floe.rl.env(game, players=2, illegal_reward=-1.0)
    env.reset(seed=3)
    state = env.unwrapped.match.state
    illegal = next(a for a in range(_n_actions(env)) if a not in state.legal_actions())
    offender = env.agent_selection
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env.step(illegal)
    assert all(env.terminations.values())
    assert env._cumulative_rewards[offender] == -1.0


def _final_totals(env: Any, seed: int) -> tuple[dict[str, float], Any]:
    totals = dict.fromkeys(env.unwrapped.possible_agents, 0.0)
    env.reset(seed=seed)
    rng = random.Random(0)
    for agent in env.agent_iter():
        obs, rew, terminated, truncated, info = env.last()
        totals[agent] += rew
        if terminated or truncated:
            assert "score" in info and "rank" in info
            env.step(None)
        else:
            assert rew == 0.0  # rewards come at the end only
            env.step(rng.choice(np.flatnonzero(obs["action_mask"])))
    return totals, env.unwrapped.match.state


@pytest.mark.parametrize("reward", ["rank", "score_diff"])
def test_final_rewards(reward: str) -> None:
    totals, state = _final_totals(arctic_v0.env(players=4, reward=reward), seed=8)
    scores = state.scores()
    expected = state.returns() if reward == "rank" else [(s - (sum(scores) - s) / 3) / 20 for s in scores]
    assert [totals[f"player_{q}"] for q in range(4)] == pytest.approx(expected)
    assert sum(totals.values()) == pytest.approx(0.0)


@pytest.mark.parametrize("reward", ["rank", "score_diff"])
def test_final_rewards_any_game_and_scale(reward: str) -> None:
    env = floe.rl.env("arktia", players=3, reward=reward, score_scale=5.0)
    totals, state = _final_totals(env, seed=2)
    scores = state.scores()
    expected = state.returns() if reward == "rank" else [(s - (sum(scores) - s) / 2) / 5 for s in scores]
    assert [totals[f"player_{q}"] for q in range(3)] == pytest.approx(expected)
    assert sum(totals.values()) == pytest.approx(0.0)


def test_render_ansi_shows_the_selected_seat() -> None:
    env = arctic_v0.env(players=2, render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    seat = env.unwrapped.possible_agents.index(env.agent_selection)
    assert text == env.unwrapped.match.state.render(seat)
    assert "(you)" in text and "river" in text
    other = floe.rl.env("arktia", players=3, render_mode="ansi")
    other.reset(seed=1)
    seat = other.unwrapped.possible_agents.index(other.agent_selection)
    assert other.render() == other.unwrapped.match.state.render(seat)


def test_bad_parameters() -> None:
    with pytest.raises(ValueError, match="reward"):
        arctic_v0.raw_env(reward="points")
    with pytest.raises(ValueError, match="render_mode"):
        arctic_v0.raw_env(render_mode="rgb_array")
    with pytest.raises(ValueError, match="2 to 4"):
        arctic_v0.raw_env(players=5)
    with pytest.raises(ValueError, match="2 to 4"):
        floe.rl.raw_env("arktia", players=5)
    with pytest.raises(ValueError, match="score_scale"):
        floe.rl.raw_env("arktia", score_scale=0)
    with pytest.raises(ValueError, match="unknown game"):
        floe.rl.env("chess")
    with pytest.raises(AttributeError):
        _ = floe.rl.chess_v0

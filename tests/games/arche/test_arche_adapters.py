"""The three learning adapters play Arche through the game contract alone and pass their own suites:
PettingZoo's ``api_test`` and ``seed_test``, Gymnasium's ``check_env`` (no warning allowed) and OpenSpiel's
``random_sim_test`` (with serialisation)."""

from __future__ import annotations

import warnings

import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")
pyspiel = pytest.importorskip("pyspiel")


def test_pettingzoo() -> None:
    from pettingzoo.test import api_test, seed_test

    import floe.rl

    api_test(floe.rl.env("arche", players=3), num_cycles=300)
    api_test(floe.rl.env("arche", players=5, reward="score_diff"), num_cycles=200)
    seed_test(lambda: floe.rl.raw_env("arche", players=4), num_cycles=100)


def test_gymnasium() -> None:
    import gymnasium
    from gymnasium.utils.env_checker import check_env

    import floe.rl

    assert "floe/ArcheOptiMix-v0" in floe.rl.register_envs()
    env = gymnasium.make("floe/ArcheOptiMix-v0", players=4, opponents=["greedy", "random", "random"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # check_env warns about anything doubtful: none is allowed
        check_env(env.unwrapped)
    observation, _ = env.reset(seed=3)
    assert observation.shape == (env.unwrapped.game.spec.observation_size,)


def test_openspiel() -> None:
    import floe.rl.openspiel

    assert "python_floe_arche" in floe.rl.openspiel.register_games()
    game = pyspiel.load_game("python_floe_arche", {"players": 3})
    spec = game.floe_game.spec
    assert game.num_distinct_actions() == spec.player_actions
    assert game.max_chance_outcomes() == spec.num_distinct_actions - spec.player_actions
    pyspiel.random_sim_test(game, num_sims=6, serialize=True, verbose=False)
    options = pyspiel.load_game(
        "python_floe_arche", {"players": 5, "pet": "voluntary", "tie_points": "halves"}
    )
    pyspiel.random_sim_test(options, num_sims=3, serialize=True, verbose=False)

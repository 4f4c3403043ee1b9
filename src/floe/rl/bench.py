"""``floe bench rl``: decisions per second through each learning adapter against the raw engine, one run,
for any registered game.

Every pass plays the same number of random games of the same game and player count on one core; a decision
is a player's choice (chance events are resolved but not counted). What each pass does per decision:

- ``engine``: ``legal_actions`` and ``apply`` on the Floe state (``floe bench engine``'s loop): the floor.
- ``engine_vector``: the same plus the observation vector of the seat to act
  (``state.observation_vector``), i.e. a hand-written learning loop on the engine's own API.
- ``engine_obs``: the engine plus what every adapter computes per decision, ``floe.rl.encode``'s vector and
  action mask: the floor for any adapter.
- ``pettingzoo``: ``floe.rl.env(game)`` (with PettingZoo's order checks): ``env.last()`` (vector and mask of
  the agent to act), a random legal action from the mask, ``env.step``.
- ``gymnasium``: ``gymnasium.make("floe/<Title>-v0", opponents="random")``: the learner's ``step`` with a
  random legal action from ``info["action_mask"]``; the ``random`` bots in the other seats count too (each
  gets its seat's observation object, as every Floe bot does).
- ``openspiel``: ``python_floe_<name>`` through ``pyspiel``: the observation of the player to act through
  ``open_spiel.python.observation.make_observation(game)`` (a NumPy tensor), ``legal_actions``,
  ``apply_action``; chance from ``chance_outcomes()``.
- ``openspiel_tensor_list``: the same with ``state.observation_tensor(player)`` instead, OpenSpiel's C++ API,
  which hands the vector back as a Python list (what ``rl_environment`` uses); for a vector of thousands of
  floats the list costs more than the whole rest of the decision, for any OpenSpiel game.

``<adapter>_overhead`` is the engine's rate divided by the adapter's: how many times slower a decision is.
"""

from __future__ import annotations

import json
import platform
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from floe.core.registry import default_game, entry, make_game

__all__ = ["bench_rl", "run_bench_rl"]


def _engine(name: str, players: int, games: int, seed: int, observe: str = "") -> int:
    from floe.rl.encode import action_mask, observation_vector

    game = make_game(name, players)
    n_actions = game.spec.player_actions
    rng = random.Random(seed)
    decisions = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            player = state.current_player()
            if player < 0:  # chance, drawn with the game's own odds
                state.apply(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            decisions += 1
            if observe == "reference":
                state.observation_vector(player)
            elif observe == "adapter":
                observation_vector(state, player)
                action_mask(legal, n_actions)
            state.apply(rng.choice(legal))
    return decisions


def _pettingzoo(name: str, players: int, games: int, seed: int) -> int:
    import floe.rl

    env = floe.rl.env(name, players=players)
    rng = random.Random(seed)
    decisions = 0
    for g in range(games):
        env.reset(seed=seed + g)
        for _agent in env.agent_iter():
            obs, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            decisions += 1
            env.step(rng.choice(np.flatnonzero(obs["action_mask"])))
    env.close()
    return decisions


def _gymnasium(name: str, players: int, games: int, seed: int) -> int:
    import gymnasium

    from floe.rl.names import env_id

    env = gymnasium.make(env_id(name), players=players, opponents="random")
    n_actions = make_game(name, players).spec.player_actions
    rng = random.Random(seed)
    decisions = 0
    for g in range(games):
        _obs, info = env.reset(seed=seed + g)
        terminated = False
        while not terminated:
            _obs, _reward, terminated, _truncated, info = env.step(
                rng.choice(np.flatnonzero(info["action_mask"]))
            )
        history = env.unwrapped.match.state.history  # type: ignore[attr-defined]
        decisions += sum(1 for a in history if a < n_actions)
    env.close()
    return decisions


def _openspiel(name: str, players: int, games: int, seed: int, tensor_list: bool = False) -> int:
    import pyspiel
    from open_spiel.python.observation import make_observation

    from floe.rl.openspiel import spiel_name  # importing it registers every game with OpenSpiel

    game = pyspiel.load_game(spiel_name(name), {"players": players})
    observer = make_observation(game)
    rng = random.Random(seed)
    decisions = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                actions, weights = zip(*outcomes, strict=True)
                state.apply_action(rng.choices(actions, weights)[0])
                continue
            player = state.current_player()
            if tensor_list:
                state.observation_tensor(player)
            else:
                observer.set_from(state, player)  # observer.tensor now holds the vector
            decisions += 1
            state.apply_action(rng.choice(state.legal_actions()))
    return decisions


def _rate(run: Callable[[], int]) -> tuple[int, float]:
    start = time.perf_counter()
    decisions = run()
    return decisions, time.perf_counter() - start


def bench_rl(players: int = 2, games: int = 50, seed: int = 0, game: str | None = None) -> dict[str, Any]:
    """Decisions per second of the engine and of each adapter over ``games`` random games of ``game``
    (default: the first registered game) on one core."""
    name = entry(game).name if game is not None else default_game()
    passes: dict[str, Callable[[], int]] = {
        "engine": lambda: _engine(name, players, games, seed),
        "engine_vector": lambda: _engine(name, players, games, seed, observe="reference"),
        "engine_obs": lambda: _engine(name, players, games, seed, observe="adapter"),
        "pettingzoo": lambda: _pettingzoo(name, players, games, seed),
        "gymnasium": lambda: _gymnasium(name, players, games, seed),
        "openspiel": lambda: _openspiel(name, players, games, seed),
        "openspiel_tensor_list": lambda: _openspiel(name, players, games, seed, tensor_list=True),
    }
    make_game(name, players)  # a bad player count fails here, before any pass runs
    figures: dict[str, Any] = {"game": name, "players": players, "games": games, "seed": seed}
    rates: dict[str, float] = {}
    for pass_name, run in passes.items():
        decisions, seconds = _rate(run)
        rates[pass_name] = decisions / seconds
        figures[f"{pass_name}_decisions"] = decisions
        figures[f"{pass_name}_seconds"] = round(seconds, 3)
        figures[f"{pass_name}_decisions_per_sec"] = round(rates[pass_name])
    for pass_name in passes:
        if pass_name != "engine":
            figures[f"{pass_name}_overhead"] = round(rates["engine"] / rates[pass_name], 2)
    figures["python"] = platform.python_version()
    figures["machine"] = platform.machine()
    return figures


def run_bench_rl(players: int, games: int, seed: int, as_json: bool, game: str | None = None) -> None:
    """The ``floe bench rl`` command: print the figures (JSON with ``as_json``)."""
    figures = bench_rl(players, games, seed, game)
    if as_json:
        print(json.dumps(figures))
        return
    for key, value in figures.items():
        print(f"{key:>32}: {value}")

"""The games ``floe train`` plays, as jobs for the lab's ``backends.execute`` (local processes or Ray): the
imitation games of the bootstrap and the search's self-play, which make the training examples, and the
evaluation games. Numpy only: a worker never
imports the training library.

A job carries the models it plays with (their file bytes), so it runs on any machine of a cluster with
nothing shared but the code.
"""

from __future__ import annotations

import json
import random
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from floe.bots.base import Bot
from floe.bots.hooks import hooks_for
from floe.bots.puct import NetSearch, most_visited, visit_distribution
from floe.core.game import Game, State
from floe.core.match import Match
from floe.core.registry import make_game
from floe.lab.runner import play_game
from floe.learn.model import install_model, model_from_bytes

_GAMES: dict[str, Game] = {}  # per process: each game built once


def _game(name: str, players: int, options: dict[str, Any]) -> Game:
    key = json.dumps([name, players, options], sort_keys=True)
    if key not in _GAMES:
        _GAMES[key] = make_game(name, players, options)
    return _GAMES[key]


@dataclass(frozen=True)
class SelfPlayJob:
    """One self-play game: every seat searched by ``NetSearch`` with the model, ``iterations`` per decision;
    the first ``explore`` decisions of each seat sampled in proportion to the visits (later ones: the most
    visited), Dirichlet ``noise`` at each root, the game's evaluation mixed into the values with ``mix``,
    ``depth`` rollout decisions before a leaf's value."""

    game: str
    players: int
    options: dict[str, Any]
    model: bytes
    seed: int
    iterations: int
    c: float
    explore: int
    noise: float
    mix: float = 0.0
    depth: int = 0


@dataclass
class Examples:
    """Training examples of one or more games: per decision the seat's vector, the seat, the legal actions
    and the search's visit distribution over them; the final result, relative to the seat (entry k: the
    seat k places after it, ``State.returns``)."""

    vectors: np.ndarray  # (n, observation_size) float32
    legal: list[np.ndarray]  # int32 action ids per example
    targets: list[np.ndarray]  # float32 probabilities over ``legal``
    values: np.ndarray  # (n, players) float32
    decisions: int = 0  # decisions of the games, forced ones included
    games: int = 0
    cpu_seconds: float = 0.0  # processor time the games took (where they ran)
    # The index of each example's game where it is known (the bootstrap's; empty otherwise).
    origin: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))

    def __len__(self) -> int:
        return len(self.legal)


def self_play(job: SelfPlayJob) -> Examples:
    """Play one self-play game and return its examples (a top-level function, for worker processes)."""
    cpu = time.process_time()
    game = _game(job.game, job.players, job.options)
    model = model_from_bytes(job.model, game)
    hooks = hooks_for(game)
    rng = random.Random(job.seed)
    world_params = {key: allowed[0] for key, allowed in hooks.world_parameters.items()}

    def world(observation: Any) -> Any:
        return hooks.world(game, observation, rng, world_params)

    searches = [
        NetSearch(
            game,
            seat,
            rng,
            model,
            world,
            c=job.c,
            depth=job.depth,
            rollout=hooks.rollout,
            evaluate=hooks.evaluate,
            mix=job.mix,
        )
        for seat in range(game.players)
    ]
    match = Match(game, job.seed)
    state = match.state
    rows: list[tuple[np.ndarray, int, list[int], np.ndarray]] = []
    made = [0] * game.players
    decisions = 0
    while not state.is_terminal():
        seat = state.current_player()
        legal = state.legal_actions()
        decisions += 1
        if len(legal) == 1:
            match.apply(legal[0])
            continue
        observation = state.observation(seat)
        root = searches[seat].search(observation, legal, job.iterations, None, None, noise=job.noise)
        dist = visit_distribution(root, legal)
        rows.append((np.asarray(state.observation_vector(seat), dtype=np.float32), seat, legal, dist))
        if made[seat] < job.explore:
            action = rng.choices(legal, weights=dist.tolist())[0]
        else:
            action = most_visited(root, legal)
        made[seat] += 1
        match.apply(action)
    return _examples(game, rows, state.returns(), decisions, time.process_time() - cpu)


@dataclass(frozen=True)
class ImitationJob:
    """One imitation game of the bootstrap: every seat is the bot ``bot``; ``index`` numbers the game in the
    run (what a resumed bootstrap counts), ``keep`` is the most positions kept (a uniform random sample)."""

    game: str
    players: int
    options: dict[str, Any]
    bot: str
    seed: int
    index: int
    keep: int


def imitation_game(job: ImitationJob) -> tuple[int, Examples]:
    """Play one imitation game; its index and its examples: per decision with a choice, the seat's vector,
    the legal actions, the bot's policy (the visits of its search's root over the legal actions where the
    bot reports them, ``Bot.last_visits``; else the action it chose) and the final results relative to the
    seat; at most ``job.keep`` of them, a random sample, so that no game weighs more than another."""
    cpu = time.process_time()
    game = _game(job.game, job.players, job.options)
    rows: list[tuple[np.ndarray, int, list[int], np.ndarray]] = []

    def watch(state: State, seat: int, legal: list[int], bot: Bot, action: int) -> None:
        if len(legal) == 1:
            return
        visits = bot.last_visits
        counts = np.array([visits.get(a, 0) for a in legal] if visits else [], dtype=np.float32)
        if counts.sum() > 0:
            target = counts / counts.sum()
        else:
            target = np.zeros(len(legal), dtype=np.float32)
            target[legal.index(action)] = 1.0
        rows.append((np.asarray(state.observation_vector(seat), dtype=np.float32), seat, legal, target))

    result, state = play_game(game, [job.bot] * game.players, job.seed, watch)
    if len(rows) > job.keep:
        picked = sorted(random.Random(job.seed).sample(range(len(rows)), job.keep))
        rows = [rows[i] for i in picked]
    ex = _examples(game, rows, state.returns(), result.decisions, time.process_time() - cpu)
    ex.origin = np.full(len(ex), job.index, dtype=np.int64)
    return job.index, ex


def _examples(
    game: Game,
    rows: list[tuple[np.ndarray, int, list[int], np.ndarray]],
    returns: list[float],
    decisions: int,
    cpu_seconds: float,
) -> Examples:
    """One game's examples from its rows (vector, seat, legal actions, target) and its final results."""
    n = game.players
    return Examples(
        vectors=np.stack([r[0] for r in rows])
        if rows
        else np.zeros((0, game.spec.observation_size), np.float32),
        legal=[np.asarray(r[2], dtype=np.int32) for r in rows],
        targets=[r[3] for r in rows],
        values=np.array(
            [[returns[(r[1] + k) % n] for k in range(n)] for r in rows], dtype=np.float32
        ).reshape(len(rows), n),
        decisions=decisions,
        games=1,
        cpu_seconds=cpu_seconds,
    )


@dataclass(frozen=True)
class EvalJob:
    """One evaluation game: ``seats`` are bot specs, which may name the models in ``models`` (name -> file
    bytes), installed in the worker before the game."""

    game: str
    players: int
    options: dict[str, Any]
    models: tuple[tuple[str, bytes], ...]
    seats: tuple[str, ...]
    seed: int
    tag: str  # which match of the evaluation this game belongs to
    hero: int  # the seat of the bot being measured


def evaluation_game(job: EvalJob) -> tuple[str, float, float]:
    """Play one evaluation game; its tag, the hero's result (1 first, 0 last, shared places shared) and
    the processor time it took."""
    cpu = time.process_time()
    game = _game(job.game, job.players, job.options)
    for name, data in job.models:
        install_model(name, model_from_bytes(data, game))
    _, state = play_game(game, list(job.seats), job.seed)
    return job.tag, (state.returns()[job.hero] + 1.0) / 2.0, time.process_time() - cpu

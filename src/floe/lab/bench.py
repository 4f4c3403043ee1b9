"""``floe bench``: the engine's speed in random play, on one core.

Two passes over the same seeded games: a plain loop (decisions and games per second, as a bot harness
would run them) and an instrumented loop that times each ``legal_actions``, ``apply`` and ``clone`` call.

For a game with the ``mcts`` bot (perfect information) the same run also measures UCT search:
``mcts_iterations_per_sec_2p`` and ``_4p`` (``--iterations`` per search, default rollouts), see
``bench_mcts``; ``--mcts`` gives those figures alone.
"""

from __future__ import annotations

import json
import platform
import random
import time
from collections.abc import Callable
from typing import Any

from floe.core.game import State
from floe.core.registry import make_game


def _plain_pass(new_state: Any, games: int, seed: int) -> dict[str, float]:
    rng = random.Random(seed)
    decisions = actions = 0
    start = time.perf_counter()
    for _ in range(games):
        state: State = new_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            if state.current_player() >= 0:
                decisions += 1
            actions += 1
            state.apply(rng.choice(legal))
    elapsed = time.perf_counter() - start
    return {
        "games": games,
        "seconds": round(elapsed, 3),
        "decisions": decisions,
        "actions": actions,
        "decisions_per_sec": round(decisions / elapsed),
        "actions_per_sec": round(actions / elapsed),
        "games_per_sec": round(games / elapsed, 2),
        "decisions_per_game": round(decisions / games, 1),
    }


def _timed_pass(new_state: Any, games: int, seed: int) -> dict[str, float]:
    rng = random.Random(seed)
    clock = time.perf_counter_ns
    legal_ns = apply_ns = clone_ns = 0
    n_legal = n_apply = n_clone = 0
    for _ in range(games):
        state: State = new_state()
        while not state.is_terminal():
            t0 = clock()
            copy = state.clone()
            t1 = clock()
            legal = copy.legal_actions()  # a fresh clone has no cached legal list when ours is unset
            t2 = clock()
            action = rng.choice(legal)
            t3 = clock()
            state.apply(action)
            t4 = clock()
            clone_ns += t1 - t0
            n_clone += 1
            legal_ns += t2 - t1
            n_legal += 1
            apply_ns += t4 - t3
            n_apply += 1
    return {
        "clone_us": round(clone_ns / n_clone / 1000, 3),
        "legal_us": round(legal_ns / n_legal / 1000, 3),
        "apply_us": round(apply_ns / n_apply / 1000, 3),
    }


def bench(game_name: str, players: int, games: int, seed: int) -> dict[str, Any]:
    """Measure ``games`` random games; returns the figures as a dict."""
    game = make_game(game_name, players)
    plain = _plain_pass(game.new_initial_state, games, seed)
    timed = _timed_pass(game.new_initial_state, max(1, games // 4), seed)
    return {
        "game": game_name,
        "players": players,
        "engine": game.engine(),
        **plain,
        **timed,
        "python": platform.python_version(),
        "machine": platform.machine(),
    }


def run_bench(
    game_name: str,
    players: int,
    games: int,
    seed: int,
    as_json: bool,
    ismcts: bool = False,
    iterations: int = 1000,
    mcts: bool = False,
) -> None:
    """The ``floe bench`` command: engine figures, plus MCTS speed for games with the ``mcts`` bot (only
    that with ``mcts``), or ISMCTS speed with ``ismcts``."""
    positions = max(1, games // 20)
    if ismcts:
        figures = bench_ismcts(game_name, iterations, positions, seed)
    elif mcts:
        figures = bench_mcts(game_name, iterations, positions, seed)
    else:
        figures = bench(game_name, players, games, seed)
        if has_mcts(game_name):
            mcts_figures = bench_mcts(game_name, iterations, positions, seed)
            figures.update({f"mcts_{k}": v for k, v in mcts_figures.items() if k not in ("game", "python")})
    if as_json:
        print(json.dumps(figures))
        return
    for key, value in figures.items():
        print(f"{key:>20}: {value}")


def bench_ismcts(game_name: str, iterations: int, positions: int, seed: int) -> dict[str, Any]:
    """ISMCTS iterations per second on one core, for 2 and 4 players.

    The positions are taken from seeded random games (a few decisions into the game and later), so the
    figure covers early, middle and late positions; each search runs ``iterations`` iterations.
    """
    return _search_speed(
        game_name, "ismcts", iterations, positions, seed, steps=lambda n: (10, 60 * n), by_policy=False
    )


def has_mcts(game_name: str) -> bool:
    """Whether the ``mcts`` bot is available for ``game_name`` (games of perfect information)."""
    from floe.bots.registry import bot_names

    return "mcts" in bot_names(game_name)


def bench_mcts(game_name: str, iterations: int, positions: int, seed: int) -> dict[str, Any]:
    """UCT (``mcts`` bot) iterations per second on one core, for 2 and 4 players.

    The positions come from seeded games played by the game's rollout policy where it has one (which avoids
    moves that end a seat's game early), else at random, a few decisions in and later, so early, middle and
    late positions count; each search runs ``iterations`` iterations with the bot's default settings and no
    tree kept from an earlier search.
    """
    return _search_speed(
        game_name, "mcts", iterations, positions, seed, steps=lambda n: (4 * n, 12 * n), by_policy=True
    )


def _search_speed(
    game_name: str,
    bot_name: str,
    iterations: int,
    positions: int,
    seed: int,
    *,
    steps: Callable[[int], tuple[int, int]],
    by_policy: bool,
) -> dict[str, Any]:
    """Iterations per second of a search bot (``search`` and ``last_iterations``) for 2 and 4 players, over
    ``positions`` positions, each reached after a number of actions drawn from ``range(*steps(players))``,
    played by the game's rollout policy (``by_policy``) or at random."""
    from floe.bots.hooks import hooks_for
    from floe.bots.registry import make_bot
    from floe.core.match import Match
    from floe.core.registry import make_game

    policy = hooks_for(make_game(game_name, 2)).rollout if by_policy else None
    figures: dict[str, Any] = {"game": game_name, "iterations_per_search": iterations}
    for players in (2, 4):
        done = searched = 0
        elapsed = 0.0
        rng = random.Random(seed)
        for k in range(positions):
            match = Match.new(game_name, players=players, seed=seed + k)
            for _ in range(rng.randrange(*steps(players))):
                if match.is_over():
                    break
                legal = match.legal_actions()
                if policy is not None and len(legal) > 1:
                    match.apply(policy(match.state, legal, rng))
                else:
                    match.apply(rng.choice(legal))
            state = match.state
            if state.is_terminal():
                continue
            seat = state.current_player()
            bot = make_bot(f"{bot_name}:it={iterations}", match.game, seat, seed + k)
            start = time.perf_counter()
            bot.search(state.observation(seat), state.legal_actions())  # type: ignore[attr-defined]
            elapsed += time.perf_counter() - start
            done += bot.last_iterations  # type: ignore[attr-defined]
            searched += 1
        figures[f"iterations_per_sec_{players}p"] = round(done / elapsed) if elapsed else 0
        figures[f"positions_{players}p"] = searched
    figures["python"] = platform.python_version()
    return figures

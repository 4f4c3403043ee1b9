"""``floe bench engine`` and ``floe bench search``: the engine's and the searches' speed, on one core.

The engine: two passes over the same seeded random games, a plain loop (decisions and games per second, as
a bot harness would run them) and an instrumented loop that times each ``legal_actions``, ``apply`` and
``clone`` call. For a game with the ``mcts`` bot (perfect information) the same run also measures UCT
search at the game's fewest and most players (``mcts_iterations_per_sec_<N>p``).

A search (``bench_search``): a search bot's iterations per second on positions from seeded games, for each
number of players asked (by default the game's fewest and most).
"""

from __future__ import annotations

import json
import platform
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from floe.core.game import State
from floe.core.registry import entry, make_game


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


def player_range(game_name: str) -> tuple[int, ...]:
    """The player counts a search is measured at by default: the game's fewest and most (one if equal)."""
    spec = entry(game_name)
    return tuple(sorted({spec.min_players, spec.max_players}))


def run_engine(game_name: str, players: int, games: int, seed: int, iterations: int) -> dict[str, Any]:
    """``floe bench engine``: the engine's figures at ``players`` seats, plus UCT's speed at the game's
    player range (``mcts_iterations_per_sec_<N>p``) for a game with the ``mcts`` bot."""
    figures = bench(game_name, players, games, seed)
    if has_mcts(game_name):
        positions = max(1, games // 20)
        mcts = bench_search(game_name, "mcts", iterations, positions, seed, player_range(game_name))
        figures.update({f"mcts_{k}": v for k, v in mcts.items() if k not in ("game", "bot", "python")})
    return figures


def print_figures(figures: dict[str, Any], as_json: bool) -> None:
    """A benchmark's figures on stdout: one JSON object, or one ``key: value`` line each."""
    if as_json:
        print(json.dumps(figures))
        return
    width = max((len(key) for key in figures), default=0)
    for key, value in figures.items():
        print(f"{key:>{width}}: {value}")


def has_mcts(game_name: str) -> bool:
    """Whether the ``mcts`` bot is available for ``game_name`` (games of perfect information)."""
    from floe.bots.registry import bot_names

    return "mcts" in bot_names(game_name)


# The searches ``floe bench search`` measures: the bots with ``search`` and ``last_iterations``, and how far
# into a game (a range of actions, by the number of players) their positions are taken: ISMCTS from random
# play, a few decisions in and later; UCT from the game's rollout policy where it has one (which avoids moves
# that end a seat's game early), a little later.
SEARCHES: dict[str, tuple[Callable[[int], tuple[int, int]], bool]] = {
    "ismcts": (lambda n: (10, 60 * n), False),
    "mcts": (lambda n: (4 * n, 12 * n), True),
}


def bench_search(
    game_name: str, bot_name: str, iterations: int, positions: int, seed: int, player_counts: Sequence[int]
) -> dict[str, Any]:
    """Iterations per second of the search bot ``bot_name`` (a key of ``SEARCHES``) on one core, for each
    number of players in ``player_counts``, over ``positions`` positions each.

    The positions come from seeded games, so early, middle and late positions count (a game that ends
    before its position is reached gives its last decision: a game shorter than the range, as a 3-player
    game's can be, still gives every position); each search runs ``iterations`` iterations with the bot's
    default settings and no tree kept from an earlier search. Figures: ``iterations_per_sec_<N>p`` and
    ``positions_<N>p`` (positions searched) per player count.
    """
    from floe.bots.hooks import hooks_for
    from floe.bots.registry import make_bot
    from floe.core.match import Match

    steps, by_policy = SEARCHES[bot_name]
    policy = hooks_for(make_game(game_name, player_counts[0])).rollout if by_policy else None
    figures: dict[str, Any] = {"game": game_name, "bot": bot_name, "iterations_per_search": iterations}
    for players in player_counts:
        done = searched = 0
        elapsed = 0.0
        rng = random.Random(seed)
        for k in range(positions):
            match = Match.new(game_name, players=players, seed=seed + k)
            state = match.state.clone()
            for _ in range(rng.randrange(*steps(players))):
                legal = match.legal_actions()
                if policy is not None and len(legal) > 1:
                    match.apply(policy(match.state, legal, rng))
                else:
                    match.apply(rng.choice(legal))
                if match.is_over():
                    break  # a short game: its last decision is searched (``state``)
                state = match.state.clone()
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

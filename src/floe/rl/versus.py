"""Floe's ``ismcts`` bot against OpenSpiel's IS-MCTS on ``python_floe_<name>``: an outside opponent.

Duplicate format, as ``floe tournament``: deal ``d`` draws its chance events from ``Random(seed + d)`` and is
played once with Floe's bot in each seat, so both bots get the same chance from the same seat (the draws
after the first differing decision differ, as in the lab's tournaments). OpenSpiel's bot is
``open_spiel.python.algorithms.ismcts.ISMCTSBot`` with a ``RandomRolloutEvaluator`` (one random rollout to
the end per iteration) and ``max_simulations`` = the iteration budget; it samples worlds through
``state.resample_from_infostate`` (Floe's determinization) and plays through OpenSpiel's API only. For a
perfect-information game (which OpenSpiel's IS-MCTS refuses) it is OpenSpiel's ``MCTSBot`` with the same
evaluator and budget. Floe's bot is ``ismcts:it=N`` with its defaults (the game's own search hooks: rollout
policy, evaluation, world sampling), seeing only its seat's observation.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from floe.bots.registry import make_bot
from floe.core.registry import default_game
from floe.lab.stats import wilson_interval
from floe.rl.openspiel import FloeSpielGame, floe_state, spiel_name

__all__ = ["play_versus_game", "run_versus"]

FLOE = "floe"
OPENSPIEL = "openspiel"


def play_versus_game(
    floe_seat: int,
    iterations: int,
    seed: int,
    *,
    players: int = 2,
    floe_spec: str | None = None,
    uct_c: float = 2.0,
    game_name: str | None = None,
) -> dict[str, Any]:
    """One game of ``game_name`` (default: the first registered game): Floe's bot in ``floe_seat``,
    OpenSpiel's search in the other seats; chance from ``seed``."""
    game = pyspiel.load_game(spiel_name(game_name or default_game()), {"players": players})
    assert isinstance(game, FloeSpielGame)
    game.resample_rng.seed(seed * 31 + 1)
    spec = floe_spec or f"ismcts:it={iterations}"
    floe_bot = make_bot(spec, game.floe_game, floe_seat, seed * 7919 + floe_seat)
    outside = {q: _outside_bot(game, q, seed, iterations, uct_c) for q in range(players) if q != floe_seat}
    chance = random.Random(seed)
    state = game.new_initial_state()
    fs = floe_state(state)
    seconds = {FLOE: 0.0, OPENSPIEL: 0.0}
    while not state.is_terminal():
        player = state.current_player()
        if player == pyspiel.PlayerId.CHANCE:
            # OpenSpiel's chance outcome = Floe's chance id - the number of player actions.
            state.apply_action(fs.sample_chance(chance) - game.num_distinct_actions())
            continue
        start = time.perf_counter()
        if player == floe_seat:
            action = floe_bot.choose(fs.observation(player), fs.legal_actions())
            who = FLOE
        else:
            action = int(outside[player].step(state))
            who = OPENSPIEL
        seconds[who] += time.perf_counter() - start
        state.apply_action(action)
    return {
        "seed": seed,
        "floe_seat": floe_seat,
        "scores": fs.scores(),
        "ranking": fs.ranking(),
        "floe_rank": fs.ranking().index(floe_seat) + 1,
        "seconds": {k: round(v, 2) for k, v in seconds.items()},
    }


def _outside_bot(game: FloeSpielGame, seat: int, seed: int, iterations: int, uct_c: float) -> Any:
    """OpenSpiel's bot for ``seat``: IS-MCTS, or MCTS for a perfect-information game."""
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed * 13 + seat))
    random_state = np.random.RandomState(seed * 17 + seat)
    if game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION:
        return mcts.MCTSBot(game, uct_c, iterations, evaluator, random_state=random_state)
    return ismcts.ISMCTSBot(game, evaluator, uct_c, iterations, random_state=random_state)


def run_versus(
    deals: int,
    iterations: int,
    seed: int = 0,
    *,
    players: int = 2,
    floe_spec: str | None = None,
    uct_c: float = 2.0,
    progress: Callable[[dict[str, Any]], None] | None = None,
    game_name: str | None = None,
) -> dict[str, Any]:
    """``deals`` duplicate deals of ``game_name`` (default: the first registered game), Floe's bot in each
    seat in turn; the summary as JSON-ready data."""
    name = game_name or default_game()
    games = []
    for d in range(deals):
        for floe_seat in range(players):
            result = play_versus_game(
                floe_seat,
                iterations,
                seed + d,
                players=players,
                floe_spec=floe_spec,
                uct_c=uct_c,
                game_name=name,
            )
            games.append(result)
            if progress is not None:
                progress(result)
    n = len(games)
    floe_wins = sum(1 for g in games if g["floe_rank"] == 1)
    low, high = wilson_interval(floe_wins, n)
    floe_scores = [g["scores"][g["floe_seat"]] for g in games]
    other_scores = [s for g in games for q, s in enumerate(g["scores"]) if q != g["floe_seat"]]
    return {
        "game": name,
        "players": players,
        "deals": deals,
        "games": n,
        "iterations": iterations,
        "floe_bot": floe_spec or f"ismcts:it={iterations}",
        "openspiel_bot": (
            f"open_spiel {_outside_name(name, players)}(RandomRolloutEvaluator(1), uct_c={uct_c}, "
            f"sims={iterations})"
        ),
        "floe_wins": floe_wins,
        "floe_win_rate": round(floe_wins / n, 3),
        "floe_win_rate_95ci": [round(low, 3), round(high, 3)],
        "floe_mean_rank": round(sum(g["floe_rank"] for g in games) / n, 3),
        "floe_mean_score": round(sum(floe_scores) / n, 2),
        "openspiel_mean_score": round(sum(other_scores) / len(other_scores), 2),
        "seconds_per_game": {
            who: round(sum(g["seconds"][who] for g in games) / n, 2) for who in (FLOE, OPENSPIEL)
        },
        "seed": seed,
    }


def _outside_name(name: str, players: int) -> str:
    """The class name of OpenSpiel's bot for game ``name`` (see ``_outside_bot``)."""
    game = pyspiel.load_game(spiel_name(name), {"players": players})
    perfect = game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
    return "MCTSBot" if perfect else "ISMCTSBot"

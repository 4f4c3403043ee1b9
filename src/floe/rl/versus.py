"""Floe's ``ismcts`` bot against OpenSpiel's IS-MCTS on ``python_floe_arctic``: an outside opponent.

Duplicate format, as ``floe tournament``: deal ``d`` draws its chance events from ``Random(seed + d)`` and is
played once with Floe's bot in each seat, so both bots get the same cards from the same seat (the draws
after the first differing decision differ, as in the lab's tournaments). OpenSpiel's bot is
``open_spiel.python.algorithms.ismcts.ISMCTSBot`` with a ``RandomRolloutEvaluator`` (one random rollout to
the end per iteration) and ``max_simulations`` = the iteration budget; it samples worlds through
``state.resample_from_infostate`` (Floe's determinization) and plays through OpenSpiel's API only.
Floe's bot is ``ismcts:it=N`` (its defaults: heuristic rollouts cut off after 24 decisions and evaluated,
totems sampled from the token moves), seeing only its seat's observation.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from floe.bots.base import make_bot
from floe.lab.stats import wilson_interval
from floe.rl.openspiel import ArcticSpielGame, floe_state

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
) -> dict[str, Any]:
    """One game: Floe's bot in ``floe_seat``, OpenSpiel's IS-MCTS in the other seats; chance from ``seed``."""
    game = pyspiel.load_game("python_floe_arctic", {"players": players})
    assert isinstance(game, ArcticSpielGame)
    game.resample_rng.seed(seed * 31 + 1)
    spec = floe_spec or f"ismcts:it={iterations}"
    floe_bot = make_bot(spec, game.floe_game, floe_seat, seed * 7919 + floe_seat)
    outside = {
        q: ismcts.ISMCTSBot(
            game,
            mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed * 13 + q)),
            uct_c,
            iterations,
            random_state=np.random.RandomState(seed * 17 + q),
        )
        for q in range(players)
        if q != floe_seat
    }
    chance = random.Random(seed)
    state = game.new_initial_state()
    fs = floe_state(state)
    seconds = {FLOE: 0.0, OPENSPIEL: 0.0}
    while not state.is_terminal():
        player = state.current_player()
        if player == pyspiel.PlayerId.CHANCE:
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


def run_versus(
    deals: int,
    iterations: int,
    seed: int = 0,
    *,
    players: int = 2,
    floe_spec: str | None = None,
    uct_c: float = 2.0,
    progress: Callable[[dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """``deals`` duplicate deals, Floe's bot in each seat in turn; the summary as JSON-ready data."""
    games = []
    for d in range(deals):
        for floe_seat in range(players):
            result = play_versus_game(
                floe_seat, iterations, seed + d, players=players, floe_spec=floe_spec, uct_c=uct_c
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
        "players": players,
        "deals": deals,
        "games": n,
        "iterations": iterations,
        "floe_bot": floe_spec or f"ismcts:it={iterations}",
        "openspiel_bot": f"open_spiel ISMCTSBot(RandomRolloutEvaluator(1), uct_c={uct_c}, sims={iterations})",
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

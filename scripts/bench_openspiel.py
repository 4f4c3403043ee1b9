"""Floe's engine against an OpenSpiel C++ game in one run: random decisions per second, both measured with
the same loop shape on one core, alternating, so that a shared machine's load falls on both alike.

    .venv/bin/python scripts/bench_openspiel.py arctic hearts --players 4 --games 300 --rounds 3

Needs the ``rl`` extra (pyspiel). Prints JSON: each round's figures, their means and the ratio
(Floe ÷ OpenSpiel; docs/performance.md). The OpenSpiel loop is ``floe.bench.engine``'s plain pass written
against pyspiel's names (``apply_action``); chance outcomes are drawn uniformly from the legal list, as
Floe's bench does (its Arctic chance events are uniform; Hearts' deal is too).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time
from typing import Any

import pyspiel

from floe.bench.engine import bench


def openspiel_pass(name: str, games: int, seed: int) -> dict[str, Any]:
    """Random play of OpenSpiel's ``name``: decisions (a player's choice) per second."""
    game = pyspiel.load_game(name)
    rng = random.Random(seed)
    decisions = actions = 0
    start = time.perf_counter()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            if state.current_player() >= 0:
                decisions += 1
            actions += 1
            state.apply_action(rng.choice(legal))
    elapsed = time.perf_counter() - start
    return {"decisions": decisions, "decisions_per_sec": round(decisions / elapsed)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", help="Floe's game (arctic)")
    parser.add_argument("openspiel", help="OpenSpiel's game (hearts)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rounds = []
    for _ in range(args.rounds):
        floe = bench(args.game, args.players, args.games, args.seed)
        other = openspiel_pass(args.openspiel, args.games, args.seed)
        rounds.append(
            {
                "floe": floe["decisions_per_sec"],
                "openspiel": other["decisions_per_sec"],
                **{k: floe[k] for k in ("clone_us", "legal_us", "apply_us")},
            }
        )
    ours = statistics.mean(r["floe"] for r in rounds)
    theirs = statistics.mean(r["openspiel"] for r in rounds)
    print(
        json.dumps(
            {
                "game": args.game,
                "engine": floe["engine"],
                "openspiel_game": args.openspiel,
                "players": args.players,
                "games": args.games,
                "rounds": rounds,
                "floe_decisions_per_sec": round(ours),
                "openspiel_decisions_per_sec": round(theirs),
                "ratio": round(ours / theirs, 2),
                "load_average_1min": round(os.getloadavg()[0], 2),
            }
        )
    )


if __name__ == "__main__":
    main()

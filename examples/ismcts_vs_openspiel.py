"""Floe's ``ismcts`` bot against OpenSpiel's IS-MCTS at equal iteration budgets, on ``python_floe_arctic``.

    .venv/bin/python examples/ismcts_vs_openspiel.py --deals 10 --iterations 200 --seed 1
    .venv/bin/python examples/ismcts_vs_openspiel.py --game arktia --deals 5 --iterations 100

Any registered game can be played (``--game``; OpenSpiel's MCTS stands in for its IS-MCTS on a
perfect-information game).

Each deal is played twice, Floe's bot in each seat (duplicate format); every game is printed as one JSON
line as it ends, then the summary (win rate with a 95% Wilson interval, mean rank and scores, time per game).
Needs the optional extra ``rl``. Background: ``docs/rl.md``, section "Against OpenSpiel's IS-MCTS".
"""

from __future__ import annotations

import argparse
import json
import sys

from floe.rl.versus import run_versus


def main(argv: list[str] | None = None) -> None:
    """Parse the options, play the deals, print the games and the summary as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="arctic", help="the game (floe games lists them)")
    parser.add_argument("--deals", type=int, default=10, help="deals, each played once per seating")
    parser.add_argument("--iterations", type=int, default=200, help="iterations per decision, both bots")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first deal (deal d uses seed + d)")
    parser.add_argument("--players", type=int, default=2, help="players (Floe's bot holds one seat)")
    parser.add_argument("--floe-bot", default=None, help="Floe bot spec (default ismcts:it=ITERATIONS)")
    parser.add_argument(
        "--uct-c", type=float, default=2.0, help="OpenSpiel's UCT constant (returns in [-1, 1])"
    )
    args = parser.parse_args(argv)
    summary = run_versus(
        args.deals,
        args.iterations,
        args.seed,
        players=args.players,
        floe_spec=args.floe_bot,
        uct_c=args.uct_c,
        game_name=args.game,
        progress=lambda game: print(json.dumps(game), flush=True),
    )
    print(json.dumps(summary, indent=1))
    sys.stdout.flush()


if __name__ == "__main__":
    main()

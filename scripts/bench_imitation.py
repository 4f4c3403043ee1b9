"""The cost of ``floe train --imitate``'s games: processor time per imitation game of a bot, on one core.

    .venv/bin/python scripts/bench_imitation.py arctic --players 2 --bot ismcts:it=300 --games 10

Plays ``--games`` imitation games (``floe.learn.selfplay.imitation_game``, seeds ``--seed`` onwards, every
seat the bot) in this process and prints JSON: processor time (``time.process_time``) per game, its
spread, decisions and examples per game. Sizes the bootstrap of a run (docs/learning.md).
"""

from __future__ import annotations

import argparse
import json
import statistics

from floe.learn.selfplay import ImitationJob, imitation_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--bot", required=True)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--keep", type=int, default=16)
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args()
    if not 1 <= args.games <= 100_000:
        parser.error("--games must be from 1 to 100,000")
    cpu: list[float] = []
    decisions = examples = 0
    for i in range(args.games):
        job = ImitationJob(args.game, args.players, {}, args.bot, args.seed + i, i, args.keep)
        _, ex = imitation_game(job)
        cpu.append(ex.cpu_seconds)
        decisions += ex.decisions
        examples += len(ex)
    print(
        json.dumps(
            {
                "game": args.game,
                "players": args.players,
                "bot": args.bot,
                "games": args.games,
                "cpu_seconds_per_game": round(statistics.mean(cpu), 4),
                "cpu_seconds_stdev": round(statistics.stdev(cpu), 4) if len(cpu) > 1 else 0.0,
                "decisions_per_game": round(decisions / args.games, 1),
                "examples_per_game": round(examples / args.games, 1),
            }
        )
    )


if __name__ == "__main__":
    main()

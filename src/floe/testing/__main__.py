"""``python -m floe.testing GAME``: a longer conformance run of an installed game, from the command line.

    python -m floe.testing mygame --players 2 3 --games 500 --seed 1000 --option variant=short

Prints the report, or the failure (with the seed to replay) and exits 1. The game's own invariants are
not available here: they live in its test suite, which calls ``check_game`` itself.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from floe.core.errors import FloeError
from floe.testing.context import ConformanceError
from floe.testing.kit import check_game


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``check_game`` with the command line's settings; 0 if every check held, 1 if one failed."""
    parser = argparse.ArgumentParser(prog="python -m floe.testing", description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--players", type=int, nargs="+", help="player counts (default: all)")
    parser.add_argument("--games", type=int, default=20, help="games per player count")
    parser.add_argument("--seed", type=int, default=0, help="the first game's seed")
    parser.add_argument("--option", "-o", action="append", default=[], help="key=value (repeatable)")
    parser.add_argument("--max-actions", type=int, help="stop each game after this many actions")
    parser.add_argument("--sample", type=float, default=0.05, help="share of positions fully checked")
    parser.add_argument("--information", type=float, help="share of positions with observation checks")
    args = parser.parse_args(argv)
    options = {}
    for pair in args.option:
        key, sep, value = pair.partition("=")
        if not sep:
            parser.error(f"--option wants key=value, not {pair!r}")
        options[key.strip()] = value.strip()  # text: the game's option schema reads it
    try:
        report = check_game(
            args.game,
            args.players,
            games=args.games,
            seed=args.seed,
            options=options,
            max_actions=args.max_actions,
            sample=args.sample,
            information=args.information,
        )
    except ConformanceError as exc:
        print(exc, file=sys.stderr)
        return 1
    except FloeError as exc:  # an unknown game
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Regenerate the golden Arche games in ``tests/golden/arche/`` and ``tests/data/arche.perft``.

Each golden game is a seeded full game played by a seeded random-action loop through ``Match`` (``done``
and ``pass`` only rarely when anything else is legal, so turns play two cards and the end-game goes on).
It is stored twice: ``<name>.json``, a ``Record`` (options, every action in notation, final scores), and
``<name>.txt``, a human-readable transcript rebuilt from that record by ``transcript()``: at the start of
every turn the table as the seat to act sees it, and per action the seat, the legal actions and the action
taken (chance outcomes with their count). ``tests/games/arche/test_arche_golden.py`` replays each record
and rebuilds its transcript, so any change of rules behaviour shows up as a reviewable diff.

The perft file holds, from fixed positions, the number of decision sequences of each length; every chance
outcome is fixed by the position's seed and the number of actions so far (see ``perft``).

Usage:  .venv/bin/python scripts/regen_golden_arche.py          rewrite the golden files and the perft data
        .venv/bin/python scripts/regen_golden_arche.py --check  report differences, write nothing (exit 1)

Regenerate only after a deliberate rules change, and bump ``VERSION`` in ``floe/games/arche/game.py``.
"""

from __future__ import annotations

import json
import random
import sys
import textwrap
from pathlib import Path
from typing import Any

from floe.core.game import CHANCE
from floe.core.record import Record
from floe.testing import golden, perft

ROOT = Path(__file__).resolve().parent.parent
# A folder of its own: tests/games/arctic/test_golden.py expects every tests/golden/*.json to be Arctic's.
GOLDEN_DIR = ROOT / "tests" / "golden" / "arche"
PERFT_FILE = ROOT / "tests" / "data" / "arche.perft"
DONE, PASS = 0, 1

# name -> (players, options, seed). Seeds picked so that every game shows evictions, a pet round, new cabins
# and plays in the end-game.
GAMES: dict[str, tuple[int, dict[str, Any], int]] = {
    "arche-3p-default": (3, {}, 12),
    "arche-4p-options": (
        4,
        {
            "first_player": 1,
            "pet": "voluntary",
            "pet_timing": "end_of_turn",
            "uncategorised_figure": "choose",
            "evict_from": "any_cabin",
            "tie_points": "halves",
        },
        12,
    ),
    "arche-5p-variants": (
        5,
        {
            "rain_placement": "anywhere",
            "setup_rain": "counts",
            "refill_rain": "reshuffle",
            "opening_rejects": "out_of_game",
            "eviction": "mandatory",
            "shy_neighbours": "row",
            "hand_limit": 5,
        },
        14,
    ),
}


def choose(rng: random.Random, legal: list[int]) -> int:
    """A random legal action; ``done``/``pass`` only with probability 10% when anything else is legal."""
    if legal[0] in (DONE, PASS) and len(legal) > 1 and rng.random() < 0.9:
        return rng.choice(legal[1:])
    return rng.choice(legal)


def transcript(record: Record) -> str:
    """The human-readable transcript of a record, rebuilt by replaying it action by action."""
    from floe.core.registry import make_game

    game = make_game(record.game, record.players, record.options)
    state = game.new_initial_state()
    shown = {k: v for k, v in record.options.items() if k != "deck"}
    lines = [
        f"# {record.game} {record.version}: {record.players} players, seed {record.seed}",
        "# options: " + json.dumps(shown, sort_keys=True),
        "# deck: " + ("the placeholder deck" if not record.options.get("deck") else "a loaded deck"),
        "",
    ]
    turn_seen = -1
    for i, text in enumerate(record.actions, start=1):
        seat = state.current_player()
        legal = state.legal_actions()
        if seat == CHANCE:
            lines.append(f"{i:4d} chance ({len(legal)} outcomes): {text}")
        else:
            turn: int = state.turn  # type: ignore[attr-defined]
            if turn != turn_seen:
                turn_seen = turn
                lines.append("")
                lines.append(f"== turn {turn}: P{seat + 1} ==")
                lines += ["   | " + row for row in state.render(seat).splitlines()]
            lines.append(f"{i:4d} P{seat + 1} -> {text}   ({len(legal)} legal)")
            names = ", ".join(state.action_to_string(a) for a in legal)
            lines += textwrap.wrap(names, 104, initial_indent="      ", subsequent_indent="      ")
        state.apply(state.string_to_action(text))
    lines.append("")
    lines.append("== end ==")
    lines += ["   | " + row for row in state.render(None).splitlines()]
    if state.is_terminal():
        lines.append(f"scores {state.scores()}  ranking {[q + 1 for q in state.ranking()]}")
        lines.append(f"returns {state.returns()}")
        for q, breakdown in enumerate(state.score_breakdowns()):
            lines.append(f"P{q + 1} " + json.dumps(breakdown, sort_keys=True))
    return "\n".join(lines) + "\n"


# --- perft ------------------------------------------------------------------------------------------------

# name -> (players, options, seed, plies, max depth). The position: a match from ``seed``, then ``plies``
# decisions chosen by ``choose`` with random.Random(seed) (chance by the match's generator).
PERFT_POSITIONS: dict[str, tuple[int, dict[str, Any], int, int, int]] = {
    "start-3p": (3, {"first_player": 0}, 1, 0, 6),
    "start-4p": (4, {}, 2, 0, 6),
    "mid-4p": (4, {}, 3, 20, 5),
    "mid-5p-options": (5, {"evict_from": "any_cabin", "pet": "voluntary", "hand_limit": 4}, 4, 30, 8),
    "late-3p": (3, {"uncategorised_figure": "choose"}, 5, 45, 5),
    "endgame-4p": (4, {}, 6, 50, 10),
}


def perft_position(players: int, options: dict[str, Any], seed: int, plies: int) -> Any:
    """The start position of a perft entry."""
    return perft.position("arche", players, options, seed, plies, perft_choose)


def perft_choose(rng: random.Random, legal: list[int], state: Any) -> int:
    """The plies to a perft position: ``choose``."""
    return choose(rng, legal)


def perft_text() -> str:
    """The perft file (``floe.testing.perft`` counts and writes it)."""
    header = (
        "Arche perft: decision sequences of length d from fixed positions (scripts/regen_golden_arche.py).\n"
        "Chance outcomes are not plies; each is legal[Random(f'{seed}:{len(history)}').randrange(n)]."
    )
    return perft.perft_text("arche", PERFT_POSITIONS, header, perft_choose)


def files() -> dict[Path, str]:
    """Every golden file's text: each game's record and transcript, and the perft file."""
    return {**golden.game_files("arche", GAMES, GOLDEN_DIR, transcript, choose), PERFT_FILE: perft_text()}


def main(argv: list[str] | None = None) -> int:
    return golden.main((__doc__ or "").splitlines()[0], files, argv)


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Regenerate the golden Arctic games in ``tests/golden/`` (STYLE item 8).

Each golden game is a seeded full game played by a seeded random-action loop through ``Match``. It is stored
twice: ``<name>.json``, a ``Record`` (options, seed, every action in notation, final scores), and
``<name>.txt``, a human-readable transcript made from that record by ``transcript()``: per step the seat to
act, the legal actions, the action taken, and at the start of every turn what the acting seat sees.
``tests/games/arctic/test_golden.py`` replays each record and rebuilds its transcript, so any change of
rules behaviour (legality, automatic steps, scoring, rendering) shows up as a reviewable diff.

It also writes ``tests/data/arctic.perft`` (STYLE item 7): from fixed positions, the number of decision
sequences of each length, with every chance outcome fixed by the position's seed (see ``perft``).

Usage:  .venv/bin/python scripts/regen_golden.py            rewrite every golden file and the perft data
        .venv/bin/python scripts/regen_golden.py --check    report differences, write nothing (exit 1)

Regenerate only after a deliberate rules change, and bump ``VERSION`` in ``floe/games/arctic/game.py``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from floe.core.game import CHANCE
from floe.core.record import Record
from floe.testing import golden, perft

GOLDEN_DIR = Path(__file__).resolve().parent.parent / "tests" / "golden"
PERFT_FILE = Path(__file__).resolve().parent.parent / "tests" / "data" / "arctic.perft"

# name -> (players, options, seed)
GAMES: dict[str, tuple[int, dict[str, Any], int]] = {
    "arctic-2p-rules": (2, {"preset": "rules"}, 11),
    "arctic-4p-bga": (4, {"preset": "bga"}, 12),
    "arctic-3p-variants": (
        3,
        {
            "preset": "rules",
            "end_trigger": "refill_fails",
            "walrus_mode": "double_move",
            "bear_give_step": "A",
            "penalties": "hidden_blind",
            "piles_public": False,
            "first_player": 2,
        },
        13,
    ),
}


def transcript(record: Record) -> str:
    """The human-readable transcript of a record, rebuilt by replaying it action by action."""
    from floe.core.registry import make_game

    game = make_game(record.game, record.players, record.options)
    state = game.new_initial_state()
    lines = [
        f"# {record.game} {record.version}: {record.players} players, seed {record.seed}",
        "# options: " + json.dumps(record.options, sort_keys=True),
        "",
    ]
    turn_seen = -1
    for i, text in enumerate(record.actions, start=1):
        seat = state.current_player()
        legal = state.legal_actions()
        if seat == CHANCE:
            lines.append(f"{i:4d} chance ({len(legal)} outcomes): {text}")
        else:
            turns = sum(state.turns)  # type: ignore[attr-defined]
            if turns != turn_seen:
                turn_seen = turns
                lines.append("")
                lines.append(f"== turn {turns + 1}: P{seat + 1} ==")
                lines += ["   | " + row for row in state.render(seat).splitlines()]
            options = ", ".join(state.action_to_string(a) for a in legal)
            lines.append(f"{i:4d} P{seat + 1} [{options}] -> {text}")
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
# decisions drawn with random.Random(seed) (chance by the match's generator).
PERFT_POSITIONS: dict[str, tuple[int, dict[str, Any], int, int, int]] = {
    "start-2p": (2, {"preset": "rules", "first_player": 0}, 1, 0, 8),
    "start-4p-bga": (4, {"preset": "bga"}, 2, 0, 8),
    "mid-3p": (3, {"preset": "rules"}, 3, 60, 7),
    "mid-4p-powers": (4, {"preset": "rules", "power_sides": [2, 2, 1, 2, 2, 1]}, 4, 90, 6),
    "mid-2p-variants": (
        2,
        {
            "preset": "bga",
            "penalties": "hidden_blind",
            "bear_give_step": "A",
            "power_sides": [1, 1, 2, 1, 1, 2],
        },
        5,
        50,
        5,
    ),
    "late-3p": (3, {"preset": "rules", "end_trigger": "refill_fails"}, 6, 130, 6),
}


def perft_position(players: int, options: dict[str, Any], seed: int, plies: int) -> Any:
    """The start position of a perft entry."""
    return perft.position("arctic", players, options, seed, plies)


def perft_text() -> str:
    """The perft file (``floe.testing.perft`` counts and writes it)."""
    header = (
        "Arctic perft: decision sequences of length d from fixed positions (scripts/regen_golden.py).\n"
        "Chance outcomes are not plies; each is legal[Random(f'{seed}:{len(history)}').randrange(n)]."
    )
    return perft.perft_text("arctic", PERFT_POSITIONS, header)


def files() -> dict[Path, str]:
    """Every golden file's text: each game's record and transcript, and the perft file."""
    return {**golden.game_files("arctic", GAMES, GOLDEN_DIR, transcript), PERFT_FILE: perft_text()}


def main(argv: list[str] | None = None) -> int:
    return golden.main((__doc__ or "").splitlines()[0], files, argv)


if __name__ == "__main__":
    sys.exit(main())

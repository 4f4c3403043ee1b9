#!/usr/bin/env python3
"""Regenerate the golden Arktia games in ``tests/golden/arktia/`` and ``tests/data/arktia.perft``.

Each golden game is a seeded full game played by a seeded random-action loop through ``Match`` (``stop`` is
chosen only rarely, so games run into captures, melting and the end conditions). It is stored twice:
``<name>.json``, a ``Record`` (options, every action in notation, final scores), and ``<name>.txt``, a
human-readable transcript rebuilt from that record by ``transcript()``: the board at the start of every
turn, and per decision the seat, the legal actions and the action taken. ``tests/games/arktia/
test_arktia_golden.py`` replays each record and rebuilds its transcript, so any change of rules behaviour
shows up as a reviewable diff.

The perft file holds, from fixed positions, the number of action sequences of each length (Arktia has no
chance, so every action is a decision).

Usage:  .venv/bin/python scripts/regen_golden_arktia.py          rewrite the golden files and the perft data
        .venv/bin/python scripts/regen_golden_arktia.py --check  report differences, write nothing (exit 1)

Regenerate only after a deliberate rules change, and bump ``VERSION`` in ``floe/games/arktia/game.py``.
"""

from __future__ import annotations

import json
import random
import sys
import textwrap
from pathlib import Path
from typing import Any

from floe.core.record import Record
from floe.testing import golden, perft

ROOT = Path(__file__).resolve().parent.parent
# A folder of its own: tests/games/arctic/test_golden.py expects every tests/golden/*.json to be Arctic's.
GOLDEN_DIR = ROOT / "tests" / "golden" / "arktia"
PERFT_FILE = ROOT / "tests" / "data" / "arktia.perft"
STOP = 0

# name -> (players, options, seed). Seeds picked (from 20..59) so that every game shows captures, a tie
# chosen by the mover, towers moving and melting; the 2-player game ends in a shared win.
GAMES: dict[str, tuple[int, dict[str, Any], int]] = {
    "arktia-2p-default": (2, {}, 31),
    "arktia-3p-neutrals": (3, {"neutrals": True, "melt_start": "same_turn", "tie_break": "fewer_lost"}, 41),
    "arktia-4p-options": (
        4,
        {"first_player": 2, "out_pieces": "remove", "bridge_melt_ends": False},
        21,
    ),
}


def choose(rng: random.Random, legal: list[int]) -> int:
    """A random legal action; ``stop`` only with probability 3% when anything else is legal."""
    if legal[0] == STOP and len(legal) > 1 and rng.random() < 0.97:
        return rng.choice(legal[1:])
    return rng.choice(legal)


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
        turn: int = state.turn  # type: ignore[attr-defined]
        if turn != turn_seen:
            turn_seen = turn
            lines.append("")
            lines.append(f"== turn {turn + 1}: P{seat + 1} ==")
            lines += ["   | " + row for row in state.render(seat).splitlines()]
        legal = [state.action_to_string(a) for a in state.legal_actions()]
        lines.append(f"{i:4d} P{seat + 1} -> {text}   ({len(legal)} legal)")
        lines += textwrap.wrap(", ".join(legal), 104, initial_indent="      ", subsequent_indent="      ")
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

# name -> (players, options, seed, plies, max depth). The position: a match, then ``plies`` actions chosen
# by ``choose`` with random.Random(seed).
PERFT_POSITIONS: dict[str, tuple[int, dict[str, Any], int, int, int]] = {
    "start-2p": (2, {}, 1, 0, 4),
    "start-3p": (3, {}, 2, 0, 4),
    "opening-4p": (4, {"first_player": 1}, 3, 3, 5),
    "mid-2p": (2, {}, 4, 24, 5),
    "mid-3p-neutrals": (3, {"neutrals": True}, 5, 30, 4),
    "mid-4p": (4, {}, 6, 40, 4),
    "late-2p-melting": (2, {"melt_start": "same_turn"}, 7, 44, 5),
    "late-3p": (3, {"bridge_melt_ends": False}, 8, 60, 5),
}


def perft_position(players: int, options: dict[str, Any], seed: int, plies: int) -> Any:
    """The start position of a perft entry."""
    return perft.position("arktia", players, options, seed, plies, perft_choose)


def perft_choose(rng: random.Random, legal: list[int], state: Any) -> int:
    """The plies to a perft position: ``choose``."""
    return choose(rng, legal)


def perft_text() -> str:
    """The perft file (``floe.testing.perft`` counts and writes it)."""
    header = (
        "Arktia perft: action sequences of length d from fixed positions (scripts/regen_golden_arktia.py).\n"
        "No chance: every ply is a decision. A line reaching the end early counts once."
    )
    return perft.perft_text("arktia", PERFT_POSITIONS, header, perft_choose)


def files() -> dict[Path, str]:
    """Every golden file's text: each game's record and transcript, and the perft file."""
    return {**golden.game_files("arktia", GAMES, GOLDEN_DIR, transcript, choose), PERFT_FILE: perft_text()}


def main(argv: list[str] | None = None) -> int:
    return golden.main((__doc__ or "").splitlines()[0], files, argv)


if __name__ == "__main__":
    sys.exit(main())

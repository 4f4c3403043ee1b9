"""Perft-style regression counts (docs/style.md §7) from ``tests/data/arche.perft``.

Each line gives a position (players, options, seed, random plies) and, per depth, the number of decision
sequences (every chance outcome fixed by the seed and the number of actions so far). The runner stops at
the first mismatching depth of a position and reports the count under each first action ("divide"), which
narrows a regression down to one decision. Depths whose stored count exceeds ``FLOE_PERFT_CAP`` (default
300,000) are skipped.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from ..scripts import regen_module

ROOT = Path(__file__).resolve().parents[3]
DATA = ROOT / "tests" / "data" / "arche.perft"
CAP = int(os.environ.get("FLOE_PERFT_CAP", "300000"))


REGEN = regen_module("regen_golden_arche")


def entries() -> list[tuple[str, int, dict[str, object], int, int, dict[int, int]]]:
    out = []
    for line in DATA.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        name, players, options, seed, plies, counts = (part.strip() for part in line.split("|"))
        depths = {int(d): int(c) for d, c in (item.split("=") for item in counts.split())}
        out.append((name, int(players), json.loads(options), int(seed), int(plies), depths))
    return out


def test_perft_file_lists_every_position() -> None:
    assert [e[0] for e in entries()] == list(REGEN.PERFT_POSITIONS)


@pytest.mark.parametrize("entry", entries(), ids=lambda e: e[0])
def test_perft_counts(entry: tuple[str, int, dict[str, object], int, int, dict[int, int]]) -> None:
    name, players, options, seed, plies, depths = entry
    state = REGEN.perft_position(players, options, seed, plies)
    assert not state.is_terminal()
    for depth, expected in sorted(depths.items()):
        if expected > CAP:
            continue
        got = REGEN.perft(state, depth, seed)
        if got != expected:
            rows = "\n".join(f"  {text}: {n}" for text, n in REGEN.divide(state, depth, seed).items())
            pytest.fail(f"{name} depth {depth}: {got} sequences, expected {expected}; divide:\n{rows}")


def test_perft_agrees_with_validated_play() -> None:
    """The perft walk uses apply_unchecked; a validated walk to depth 2 counts the same."""
    for name, players, options, seed, plies, depths in entries():
        state = REGEN.perft_position(players, options, seed, plies)
        total = 0
        for action in state.legal_actions():
            child = state.clone()
            child.apply(action)
            REGEN._fix_chance(child, seed)
            total += 1 if child.is_terminal() else len(child.legal_actions())
        assert total == depths[2], name

"""Perft-style regression counts (docs/style.md §7) from ``tests/data/arche.perft``, checked by the shared
runner ``floe.testing.perft`` (every chance outcome fixed by the seed and the number of actions so far). The
runner stops at the first mismatching depth of a position and reports the count under each first action
("divide"), which narrows a regression down to one decision. Depths whose stored count exceeds
``FLOE_PERFT_CAP`` (default 300,000) are skipped. The file is written by ``scripts/regen_golden_arche.py``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from floe.testing.perft import PerftPosition, check_perft, fix_chance, read_perft_file

from ..scripts import regen_module

ROOT = Path(__file__).resolve().parents[3]
CAP = int(os.environ.get("FLOE_PERFT_CAP", "300000"))


REGEN = regen_module("regen_golden_arche")
ENTRIES = read_perft_file(ROOT / "tests" / "data" / "arche.perft")


def test_perft_file_lists_every_position() -> None:
    assert [e.name for e in ENTRIES] == list(REGEN.PERFT_POSITIONS)


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.name)
def test_perft_counts(entry: PerftPosition) -> None:
    check_perft("arche", entry, CAP, REGEN.perft_choose)


def test_perft_agrees_with_validated_play() -> None:
    """The perft walk uses apply_unchecked; a validated walk to depth 2 counts the same."""
    for entry in ENTRIES:
        state = REGEN.perft_position(entry.players, entry.options, entry.seed, entry.plies)
        total = 0
        for action in state.legal_actions():
            child = state.clone()
            child.apply(action)
            fix_chance(child, entry.seed)
            total += 1 if child.is_terminal() else len(child.legal_actions())
        assert total == entry.counts[2], entry.name

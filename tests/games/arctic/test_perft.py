"""Perft-style regression counts (docs/style.md §7) from ``tests/data/arctic.perft``, checked by the shared
runner ``floe.testing.perft`` (which names the count under each first action when a depth is wrong).
Depths whose stored count exceeds ``FLOE_PERFT_CAP`` (default 100,000) are skipped. The file is written by
``scripts/regen_golden.py``: a change detector."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from floe.testing.perft import PerftPosition, check_perft, read_perft_file

from ..scripts import regen_module

ROOT = Path(__file__).resolve().parents[3]
ENTRIES = read_perft_file(ROOT / "tests" / "data" / "arctic.perft")
CAP = int(os.environ.get("FLOE_PERFT_CAP", "100000"))


def test_perft_file_lists_every_position() -> None:
    assert [e.name for e in ENTRIES] == list(regen_module("regen_golden").PERFT_POSITIONS)


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.name)
def test_perft_counts(entry: PerftPosition) -> None:
    check_perft("arctic", entry, CAP)

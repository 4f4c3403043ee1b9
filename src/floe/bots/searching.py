"""What the search bots share: when a search stops, and its root's visits as a hint shows them."""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from typing import Any


def visit_rows(children: Mapping[int, Any], legal_actions: list[int]) -> list[tuple[int, int, float]]:
    """A search's view of the root for ``hint``: (action, visits, mean value) for each legal action, most
    visited first (``children`` maps actions to nodes with ``visits`` and a summed ``reward``)."""
    rows = []
    for a in legal_actions:
        child = children.get(a)
        visits = child.visits if child else 0
        rows.append((a, visits, child.reward / child.visits if child and child.visits else 0.0))
    rows.sort(key=lambda row: (-row[1], -row[2]))
    return rows


def deadline(ms: float | None, time_cap: float | None) -> float:
    """The ``time.perf_counter()`` reading at which a search that starts now stops: its ``ms`` budget or the
    ``time_cap`` (seconds), whichever comes first; infinity for neither."""
    limits = [x for x in (None if ms is None else ms / 1000, time_cap) if x is not None]
    return time.perf_counter() + min(limits) if limits else math.inf

"""Finished tables: kept in the store, loaded on demand, a bounded number of them kept in memory.

A server does not replay its finished tables at start-up (thousands of them would take minutes and
gigabytes); a finished table is replayed from the store when someone asks for it (its summary, state,
replay or record) and kept in a least-recently-used cache of ``size`` tables. The lobby's list shows
finished tables from the store's rows alone (``stored_summary``), without replaying them.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from floe.server.store import TableRow
from floe.server.tables import Seat, Table


class FinishedCache:
    """The finished tables in memory, least recently used dropped first (``size`` 0: none kept)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._tables: OrderedDict[str, Table] = OrderedDict()

    def __len__(self) -> int:
        return len(self._tables)

    def __contains__(self, table_id: object) -> bool:
        return table_id in self._tables

    def get(self, table_id: str) -> Table | None:
        """The table if it is in memory (it becomes the most recently used)."""
        table = self._tables.get(table_id)
        if table is not None:
            self._tables.move_to_end(table_id)
        return table

    def put(self, table: Table) -> None:
        """Keep ``table``, dropping the least recently used beyond ``size``. A dropped table that still
        has connections lives on with them; a later request loads a fresh copy from the store."""
        self._tables[table.id] = table
        self._tables.move_to_end(table.id)
        while len(self._tables) > self.size:
            self._tables.popitem(last=False)

    def values(self) -> list[Table]:
        return list(self._tables.values())


def stored_summary(row: TableRow, version: int) -> dict[str, Any]:
    """``Table.summary()`` of a finished table, from its stored row and log length alone (no replay):
    nobody is connected to it and nobody is to move."""
    seats = [Seat.from_stored(s) for s in row.seats]
    return {
        "id": row.id,
        "game": row.game,
        "players": row.players,
        "status": "finished",
        "opened": all(s.seen for s in seats if s.kind == "person"),
        "version": version,
        "created": row.created,
        "options": row.options,
        "turn_timer": row.turn_timer,
        "public": row.public,
        "name": row.name,
        "seats": [s.summary(k, row.game) for k, s in enumerate(seats)],
        "to_move": None,
    }

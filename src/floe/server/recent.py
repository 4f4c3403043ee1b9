"""A browser's recent tables: those it created, joined or was given in a rematch, found by its browser key
(the random string the lobby keeps in the browser's storage; only its SHA-256 is stored, as for joins).

The list holds table ids and seat numbers, never a seat's token: the browser keeps its own links."""

from __future__ import annotations

import time
from typing import Any

import sqlalchemy as sa

from floe.server.archive import stored_summary
from floe.server.store import Store, recent_t
from floe.server.tables import token_hash


def note_recent(db: Any, key: str, table_id: str, seat: int, keep: int) -> None:
    """Remember (for the browser key ``key``) its seat at ``table_id``; the key keeps its ``keep`` newest."""
    key_hash = token_hash(key)
    mine = recent_t.c.key_hash == key_hash
    db.execute(recent_t.delete().where(mine, recent_t.c.table_id == table_id))
    db.execute(recent_t.insert().values(key_hash=key_hash, table_id=table_id, seat=seat, at=time.time()))
    newest = sa.select(recent_t.c.table_id).where(mine).order_by(recent_t.c.at.desc()).limit(keep)
    # Read first, then delete: some databases refuse a LIMIT inside an IN subquery of a DELETE.
    kept = [table for (table,) in db.execute(newest)]
    db.execute(recent_t.delete().where(mine, recent_t.c.table_id.not_in(kept)))


def recent_rows(store: Store, key: str, limit: int) -> list[tuple[str, int]]:
    """The browser key's ``(table id, seat)`` pairs, newest first."""
    query = (
        sa.select(recent_t.c.table_id, recent_t.c.seat)
        .where(recent_t.c.key_hash == token_hash(key))
        .order_by(recent_t.c.at.desc())
        .limit(limit)
    )
    with store.engine.connect() as db:
        return [(table, int(seat)) for table, seat in db.execute(query)]


def stored_summaries(store: Store, table_ids: list[str]) -> dict[str, dict[str, Any]]:
    """Summaries of tables not in memory, from their stored rows and log lengths (no log read, no replay;
    ``stored_summary``)."""
    out: dict[str, dict[str, Any]] = {}
    for row, version in store.rows_of(table_ids):
        summary = stored_summary(row, version)
        if not row.finished:  # not in memory yet unfinished: a table this server could not load
            summary["status"] = "unavailable"
        out[row.id] = summary
    return out

"""A person takes back their last decision (``undo`` over the WebSocket, ``POST …/undo``): checked, stored
as an ``UNDO`` event in the table's log, then adopted and broadcast, like a move (core/undo.py says what may
be taken back; the table keeps the points, tables.py)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from floe.core.undo import UNDO
from floe.server.store import Store
from floe.server.tables import MoveError, Table

if TYPE_CHECKING:
    from floe.server.manager import Lobby


def check_undo(table: Table, seat: int, version: Any) -> None:
    """Refuse an undo that is malformed, stale, out of turn or of nothing undoable (``MoveError``)."""
    if type(version) is not int:
        raise MoveError("malformed", "an undo needs an integer version", 400)
    status = table.status
    if status != "playing":
        raise MoveError("finished" if status == "finished" else "not_started", f"the game is {status}")
    if version != table.version:
        raise MoveError("stale", f"stale undo: made on version {version}, the table is at {table.version}")
    if table.to_move != seat:
        raise MoveError("not_your_turn", "you can take a move back only during your own turn")
    if not table.may_undo(seat):
        raise MoveError(
            "cannot_undo",
            "nothing to take back: a card was drawn or shown, the turn began, or a bot played for you",
        )


async def undo(
    lobby: Lobby, table: Table, seat: int, version: Any, *, ack: Callable[[int], None] | None = None
) -> int:
    """Check, store and adopt an undo of ``seat``'s last decision; returns the new version. ``MoveError``
    changes nothing; ``ack`` is called once the undo is committed, before anyone is sent the new state."""
    async with lobby.lock(table.id):
        check_undo(table, seat, version)
        start = table.version

        def write(conn: Any) -> None:
            Store.append(conn, table.id, start, [UNDO])

        # Shielded as a move is (manager.py): a committed undo is adopted even if the caller goes away.
        pending = asyncio.ensure_future(lobby.writer.write(write))
        try:
            await asyncio.shield(pending)
        except asyncio.CancelledError:
            with contextlib.suppress(Exception):
                await pending
                table.take_back()
            raise
        table.take_back()
        table.seats[seat].away = False
        if ack is not None:
            ack(table.version)
    lobby.changed(table)
    return table.version

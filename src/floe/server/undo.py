"""A person takes back their last decision (``undo`` over the WebSocket, ``POST …/undo``): checked, stored
as an ``UNDO`` event in the table's log, then adopted and broadcast, like a move (core/undo.py says what may
be taken back; the table keeps the points, tables.py)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from floe.core.i18n import L_
from floe.core.undo import UNDO
from floe.server.store import Store
from floe.server.tables import MoveError, Table

if TYPE_CHECKING:
    from floe.server.manager import Lobby


def check_undo(table: Table, seat: int, version: Any) -> None:
    """Refuse an undo that is malformed, stale, out of turn or of nothing undoable (``MoveError``)."""
    if type(version) is not int:
        raise MoveError("malformed", L_("an undo needs an integer version"), 400)
    status = table.status
    if status != "playing":
        if status == "finished":
            raise MoveError("finished", L_("the game is over"))
        raise MoveError("not_started", L_("the game starts when every seat is taken"))
    if version != table.version:
        said = L_(
            "stale undo: made on version %(made)s, the table is at %(now)s", made=version, now=table.version
        )
        raise MoveError("stale", said)
    if table.to_move != seat:
        raise MoveError("not_your_turn", L_("you can take a move back only during your own turn"))
    if not table.may_undo(seat):
        raise MoveError(
            "cannot_undo",
            L_("nothing to take back: a card was drawn or shown, the turn began, or a bot played for you"),
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

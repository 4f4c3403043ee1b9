"""A person takes back their last decision (``undo`` over the WebSocket, ``POST …/undo``): checked, stored
as an ``UNDO`` event in the table's log, then adopted and broadcast, like a move (core/undo.py says what may
be taken back; the table keeps the points, tables.py).

Each undo is an event of the log, so undos are bounded (issue 24, item 1: one table moving and undoing
reached 178,320 events in 120 s, and every reader of the table paid for them): ``UndoLimits.per_turn`` undos
per turn, a token bucket per seat (``per_second`` after a ``burst``) and, over the whole game, as many undos
as ``per_game_length`` times the longest the game may last (its spec's ``max_game_length``). A table's log
then holds at most about (1 + 2 × ``per_game_length``) × ``max_game_length`` events."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from floe.core.i18n import L_, NL_
from floe.core.undo import UNDO
from floe.server.conns import RateLimit
from floe.server.refusal import Refusal
from floe.server.store import Store
from floe.server.tables import Table

if TYPE_CHECKING:
    from floe.server.manager import Lobby


@dataclass(frozen=True)
class UndoLimits:
    """The bounds on undo (``Settings``: ``undo_per_turn`` … ``undos_per_game_length``)."""

    per_turn: int = 20  # undos of one seat in one turn (until a decision that cannot be taken back)
    per_second: float = 1.0  # undos per seat, after a burst of
    burst: float = 30.0
    per_game_length: float = 1.0  # undos per table, as a share of the game's max_game_length

    def per_table(self, table: Table) -> int:
        """The undos ``table`` may hold in all: a share of the longest its game may last."""
        return int(self.per_game_length * table.game.spec.max_game_length)


def check_undo(table: Table, seat: int, version: Any, limits: UndoLimits | None = None) -> None:
    """Refuse an undo that is malformed, stale, out of turn, of nothing undoable or past ``limits``' counts
    (``Refusal``)."""
    if type(version) is not int:
        raise Refusal("malformed", L_("an undo needs an integer version"), 400)
    status = table.status
    if status != "playing":
        if status == "finished":
            raise Refusal("finished", L_("the game is over"))
        raise Refusal("not_started", L_("the game starts when every seat is taken"))
    if version != table.version:
        said = L_(
            "stale undo: made on version %(made)s, the table is at %(now)s", made=version, now=table.version
        )
        raise Refusal("stale", said)
    if table.to_move != seat:
        raise Refusal("not_your_turn", L_("you can take a move back only during your own turn"))
    if not table.may_undo(seat):
        raise Refusal(
            "cannot_undo",
            L_("nothing to take back: a card was drawn or shown, the turn began, or a bot played for you"),
        )
    limits = limits or UndoLimits()
    if table.undos_in_turn >= limits.per_turn:
        said = NL_(
            "at most %(n)s undo a turn; play on", "at most %(n)s undos a turn; play on", limits.per_turn
        )
        raise Refusal("too_many_undos", said, 429)
    if table.undos >= limits.per_table(table):
        said = L_("this table has taken back %(n)s moves, the most its game allows", n=table.undos)
        raise Refusal("too_many_undos", said, 429)


class Undos:
    """Undo, a service beside the lobby: it checks an undo against ``limits`` and takes it through the
    lobby's one commit, under the table's lock, as a move is."""

    def __init__(self, lobby: Lobby, limits: UndoLimits | None = None) -> None:
        self.lobby = lobby
        self.limits = limits or UndoLimits()

    async def undo(
        self, table: Table, seat: int, version: Any, *, ack: Callable[[int], None] | None = None
    ) -> int:
        """Check, store and adopt an undo of ``seat``'s last decision; returns the new version. ``Refusal``
        changes nothing; ``ack`` is called once the undo is committed, before anyone is sent the new state."""
        limits = self.limits
        async with self.lobby.lock(table.id):
            check_undo(table, seat, version, limits)
            # The seat's bucket lives with the table (a reconnect does not refill it); taken last, so a
            # refused undo costs no token.
            bucket = table.undo_rates.setdefault(seat, RateLimit(limits.per_second, limits.burst))
            if not bucket.allow():
                said = L_("undo at most %(rate)s a second; wait a moment", rate=f"{limits.per_second:g}")
                raise Refusal("too_fast", said, 429)
            start = table.version
            await self.lobby.commit(lambda conn: Store.append(conn, table.id, start, [UNDO]), table.take_back)
            table.seats[seat].away = False
            if ack is not None:
                ack(table.version)
        self.lobby.changed(table)
        return table.version

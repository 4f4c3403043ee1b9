"""Rematch: after a game, a person asks for a new table with the same seats (same game, options, timer;
the bots come along); each person of the old table gets an invitation in its page and accepts it to get its
new seat's link (docs/server.md, "Rematch").

The new table is private (its seats are taken with their links only, never from the lobby), and it waits
until every person has opened their link. The offer — the new table and one token per person seat — is
kept in memory (the newest ``kept`` offers): a restart forgets the invitations, not the table.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from floe.core.i18n import L_
from floe.server.protocol import CreateTable, SeatRequest
from floe.server.refusal import Refusal
from floe.server.tables import Table

if TYPE_CHECKING:
    from floe.server.manager import Lobby


@dataclass(frozen=True)
class Offer:
    """A rematch of one finished table: the new table, who asked, and each person seat's token."""

    table_id: str
    by: int
    tokens: dict[int, str]

    def message(self, seated: bool) -> dict[str, Any]:
        """What every connection of the old table hears (no token); the new table's id only a connection
        with a seat (``seated``) hears: the rematch is private, and a spectator has no seat to bring."""
        if not seated:
            return {"type": "rematch_offer", "by": self.by}
        return {"type": "rematch_offer", "table": self.table_id, "by": self.by}


class Rematches:
    """The offers of recently finished tables."""

    def __init__(self, lobby: Lobby, kept: int = 1000) -> None:
        self.lobby = lobby
        self.kept = kept
        self._offers: OrderedDict[str, Offer] = OrderedDict()
        self._locks: dict[str, asyncio.Lock] = {}

    def offer(self, table_id: str) -> Offer | None:
        """The rematch of ``table_id``, if one was asked for (and is still kept)."""
        return self._offers.get(table_id)

    async def ask(self, table: Table, seat: int, client: str | None) -> tuple[Offer, bool]:
        """The rematch of ``table`` for ``seat`` (a person): the one asked for already, or a new one made
        now; and whether it is new. ``Refusal`` before the game is over, or past the creation limits."""
        if table.status != "finished":
            raise Refusal("not_finished", L_("a rematch can be asked for once the game is over"), 409)
        if table.seats[seat].kind != "person":
            raise Refusal("bad_token", L_("only a person's seat can ask for a rematch"), 403)
        lock = self._locks.setdefault(table.id, asyncio.Lock())
        async with lock:
            offer = self._offers.get(table.id)
            if offer is not None:
                return offer, False
            offer = await self._create(table, seat, client)
            self._offers[table.id] = offer
            while len(self._offers) > self.kept:
                old, _ = self._offers.popitem(last=False)
                self._locks.pop(old, None)
        return offer, True

    async def _create(self, table: Table, seat: int, client: str | None) -> Offer:
        """The new table: the old one's game, options, timer and seats (bots with their specs and names,
        people with their names), private; only the asker's seat is taken."""
        seats = []
        for info in table.seats:
            if info.kind == "bot":
                named = info.name if info.name != info.bot else None
                seats.append(SeatRequest(kind="bot", name=named, bot=info.bot))
            else:
                seats.append(SeatRequest(kind="person", name=info.name))
        request = CreateTable(
            game=table.row.game,
            seats=seats,
            options=table.row.options,
            turn_timer=table.row.turn_timer,
            public=False,
        )
        new, tokens, _ = await self.lobby.create(request, client)  # the asker's creation limits apply
        # build_table gives the first person seat to the creator; here the asker's seat is theirs, the others
        # wait for their people to accept. Each seat keeps the browser that joined it (one seat per browser).
        for k, info in enumerate(new.seats):
            if info.kind == "person":
                info.claimed = k == seat
                info.joined_by = table.seats[k].joined_by
        await self.lobby.save_seats(new)
        self.lobby.changed(new)  # a table of one person and bots starts now
        return Offer(table_id=new.id, by=seat, tokens=dict(tokens))

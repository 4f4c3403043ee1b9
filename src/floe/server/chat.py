"""Table chat: the people at a table and its spectators write plain-text lines that everyone watching it reads
(docs/server.md, "Chat").

A line is cleaned like a name (names.py: no control, format or invisible characters; white space folded to
single spaces), bounded in characters (``ChatLimits.max_chars``) and rate-limited per seat (a spectator: per
address) with a token bucket (``per_second`` after a ``burst``) and per address over every table it writes at
(``client_per_second`` after ``client_burst``). The buckets outlive the connection, so reconnecting does not
refill them (issue 24, item 7: 565 lines a second went into other people's tables that way). A seat writes
under its seat's name; a spectator under a name it gives (cleaned and checked as a name, so it cannot pass for
a seat) and is marked as a spectator. Lines are stored beside the table (``floe_chat``, never in the game's
log or record), the newest ``history`` of each table only, and are sent to every connection of the table, to a
new connection as its history, and with the replay. The pages show them as text, never as HTML. What the
chat holds in memory is bounded in bytes for the whole server (``memory_bytes``), each table's room counted
with its lines: the least recently used tables' rooms are dropped, and read from the store again when asked
for. (A room with no line counts too: before, asking for the chat of 100,000 silent tables kept 100,000 rooms
that counted as nothing.)
"""

from __future__ import annotations

import asyncio
import sys
import time
import unicodedata
from collections import OrderedDict, deque
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa

from floe.core.i18n import L_, NL_, text_of
from floe.server.conns import Conn
from floe.server.limits import RateLimiter
from floe.server.names import BadName, clean_name
from floe.server.refusal import Refusal
from floe.server.store import Store, chat_t
from floe.server.tables import Table

if TYPE_CHECKING:
    from floe.server.writer import Writer


@dataclass(frozen=True)
class ChatLimits:
    """The bounds on chat (``Settings``: ``chat_max_chars`` … ``chat_history``)."""

    max_chars: int = 300  # characters of one line, after cleaning
    per_second: float = 0.5  # lines per seat (a spectator: per address), after a burst of
    burst: float = 5.0
    client_per_second: float = 2.0  # lines per address, at every table together, after a burst of
    client_burst: float = 20.0
    history: int = 200  # lines kept per table (older ones are deleted)
    memory_bytes: int = 64 * 1024 * 1024  # rooms and lines in memory, all tables together (else: the store)


@dataclass(frozen=True)
class ChatLine:
    """One line said at a table."""

    idx: int
    at: float
    version: int  # the table's version when it was said (where the replay shows it)
    seat: int | None  # None: a spectator
    name: str
    text: str

    @property
    def cost(self) -> int:
        """What the line takes in memory, in bytes (its strings and the object around them)."""
        return sys.getsizeof(self.text) + sys.getsizeof(self.name) + _LINE_OVERHEAD

    def message(self) -> dict[str, Any]:
        """The line as the clients get it."""
        return {
            "idx": self.idx,
            "at": self.at,
            "version": self.version,
            "seat": self.seat,
            "spectator": self.seat is None,
            "name": self.name,
            "text": self.text,
        }


# A line's object, its numbers and its place in its table's deque, besides its two strings (measured with
# tracemalloc: about 200 bytes).
_LINE_OVERHEAD = 200

# A table's room in memory, besides its lines: its deque, its places in the dicts, its lock and its next index
# (measured with tracemalloc: about 1,000 bytes).
_ROOM_OVERHEAD = 1000

# Control, format (bidi overrides, zero-width characters), surrogate, private-use and unassigned characters.
_DROPPED = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})
_JOINERS = frozenset("\u200c\u200d")  # kept: emoji sequences and some scripts need them


def clean_text(raw: str, max_chars: int) -> str:
    """The line to store for ``raw``: NFC, without control, format and unassigned characters (joiners
    kept), white space folded to single spaces; ``Refusal`` if nothing is left or it is too long."""
    text = unicodedata.normalize("NFC", raw)
    text = "".join(ch for ch in text if ch in _JOINERS or unicodedata.category(ch) not in _DROPPED)
    text = " ".join(text.split())
    if not text:
        raise Refusal("bad_chat", L_("a chat message needs some text"), 400)
    if len(text) > max_chars:
        said = NL_(
            "a chat message is at most %(n)s character",
            "a chat message is at most %(n)s characters",
            max_chars,
        )
        raise Refusal("too_long", said, 400)
    return text


def spectator_name(raw: str | None) -> str:
    """A spectator's name: ``raw`` cleaned as a seat's name is (names.py), or "Guest"."""
    if not raw:
        return "Guest"
    try:
        return clean_name(raw)
    except BadName as exc:
        raise Refusal("bad_name", text_of(exc), 400) from None


class ChatRooms:
    """Every table's chat: the newest lines in memory (read from the store when a table is first asked
    for), the rate limits of seats and addresses, and the writes."""

    def __init__(self, store: Store, writer: Writer, limits: ChatLimits | None = None) -> None:
        self.store = store
        self.writer = writer
        self.limits = limits or ChatLimits()
        self._rooms: OrderedDict[str, deque[ChatLine]] = OrderedDict()
        self._next: dict[str, int] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self.bytes = 0  # what the lines in ``_rooms`` take (``ChatLine.cost``)
        # Keyed by seat (``table/seat``) or by a spectator's address, and by address: they outlive the
        # connections (LRU-bounded, a forgotten bucket is a full one).
        self._speakers = RateLimiter(self.limits.per_second * 60, round(self.limits.burst))
        self._clients = RateLimiter(self.limits.client_per_second * 60, round(self.limits.client_burst))

    async def history(self, table_id: str) -> list[ChatLine]:
        """The newest lines of a table, oldest first."""
        async with self._lock(table_id):
            return list(await self._room(table_id))

    def _lock(self, table_id: str) -> asyncio.Lock:
        return self._locks.setdefault(table_id, asyncio.Lock())

    async def _room(self, table_id: str) -> deque[ChatLine]:
        """The table's lines (under its lock), read from the store the first time."""
        room = self._rooms.get(table_id)
        if room is None:
            lines = await asyncio.to_thread(load_chat, self.store, table_id, self.limits.history)
            room = self._rooms[table_id] = deque(lines, maxlen=self.limits.history)
            self._next[table_id] = lines[-1].idx + 1 if lines else 0
            self.bytes += _ROOM_OVERHEAD + sum(line.cost for line in lines)
        self._rooms.move_to_end(table_id)
        self._forget_old()
        return room

    def _add(self, room: deque[ChatLine], line: ChatLine) -> None:
        """Append ``line`` to ``room`` (its oldest line goes if it is full), counting the bytes."""
        if room.maxlen is not None and len(room) == room.maxlen:
            self.bytes -= room[0].cost
        room.append(line)
        self.bytes += line.cost

    def _forget_old(self) -> None:
        """Keep the lines in memory within ``limits.memory_bytes``: the least recently used tables' go (not
        one whose lock is held, a line is being said there; nor the newest, asked for right now)."""
        if self.bytes <= self.limits.memory_bytes:
            return
        for table_id in list(self._rooms)[:-1]:
            if self.bytes <= self.limits.memory_bytes:
                return
            lock = self._locks.get(table_id)
            if lock is None or not lock.locked():
                self.bytes -= _ROOM_OVERHEAD + sum(line.cost for line in self._rooms.pop(table_id))
                self._next.pop(table_id, None)
                self._locks.pop(table_id, None)

    def _allow(self, table: Table, conn: Conn) -> None:
        """Take a token of the speaker's bucket (its seat's, or a spectator's address's) and of its address's;
        ``Refusal`` ``too_fast`` (nothing taken) if either is empty."""
        address = conn.client or "?"
        speaker = f"{table.id}/{conn.seat}" if conn.seat is not None else f"spectator/{address}"
        if self._speakers.take(speaker):
            rate = self.limits.per_second
        elif self._clients.take(address):
            self._speakers.give_back(speaker)
            rate = self.limits.client_per_second
        else:
            return
        said = L_("chat at most %(rate)s lines a second; wait a moment", rate=f"{rate:g}")
        raise Refusal("too_fast", said, 429)

    async def say(self, table: Table, conn: Conn, text: str, name: str | None, conns: Iterable[Conn]) -> None:
        """Store ``conn``'s line and send it to ``conns``; ``Refusal`` (nothing stored or sent) for a line
        too fast, empty or too long, or a bad spectator name."""
        self._allow(table, conn)
        text = clean_text(text, self.limits.max_chars)
        seat = conn.seat
        who = spectator_name(name) if seat is None else table.seats[seat].name
        async with self._lock(table.id):
            room = await self._room(table.id)
            line = ChatLine(self._next[table.id], time.time(), table.version, seat, who, text)
            await self.writer.write(lambda db: insert_chat(db, table.id, line, self.limits.history))
            self._next[table.id] = line.idx + 1
            self._add(room, line)
        message = {"type": "chat", "lines": [line.message()]}
        for other in conns:
            other.send(message)


def insert_chat(db: Any, table_id: str, line: ChatLine, keep: int) -> None:
    """Store ``line`` and delete the table's lines older than the newest ``keep``."""
    db.execute(
        chat_t.insert().values(
            table_id=table_id,
            idx=line.idx,
            at=line.at,
            version=line.version,
            seat=line.seat,
            name=line.name,
            text=line.text,
        )
    )
    db.execute(chat_t.delete().where(chat_t.c.table_id == table_id, chat_t.c.idx <= line.idx - keep))


def load_chat(store: Store, table_id: str, limit: int) -> list[ChatLine]:
    """The newest ``limit`` lines of a table, oldest first."""
    query = sa.select(chat_t).where(chat_t.c.table_id == table_id).order_by(chat_t.c.idx.desc()).limit(limit)
    with store.engine.connect() as db:
        rows = list(db.execute(query))
    return [ChatLine(r.idx, r.at, r.version, r.seat, r.name, r.text) for r in reversed(rows)]

"""Table chat: the people at a table and its spectators write plain-text lines that everyone watching it
reads (docs/server.md, "Chat").

A line is cleaned like a name (names.py: no control, format or invisible characters; white space folded to
single spaces), bounded in characters (``ChatLimits.max_chars``) and rate-limited per connection (a token
bucket: ``per_second`` after a ``burst``). A seat writes under its seat's name; a spectator under a name it
gives (cleaned and checked as a name, so it cannot pass for a seat) and is marked as a spectator. Lines are
stored beside the table (``floe_chat``, never in the game's log or record), the newest ``history`` of each
table only, and are sent to every connection of the table, to a new connection as its history, and with
the replay. The pages show them as text, never as HTML.
"""

from __future__ import annotations

import asyncio
import time
import unicodedata
import weakref
from collections import OrderedDict, deque
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa

from floe.core.i18n import L_, NL_, text_of
from floe.server.conns import Conn, RateLimit
from floe.server.names import BadName, clean_name
from floe.server.store import Store, chat_t
from floe.server.tables import MoveError, Table

if TYPE_CHECKING:
    from floe.server.writer import Writer


@dataclass(frozen=True)
class ChatLimits:
    """The bounds on chat (``Settings``: ``chat_max_chars`` … ``chat_history``)."""

    max_chars: int = 300  # characters of one line, after cleaning
    per_second: float = 0.5  # lines per connection, after a burst of
    burst: float = 5.0
    history: int = 200  # lines kept per table (older ones are deleted)
    rooms: int = 4096  # tables whose lines are kept in memory (others are read from the store again)


@dataclass(frozen=True)
class ChatLine:
    """One line said at a table."""

    idx: int
    at: float
    version: int  # the table's version when it was said (where the replay shows it)
    seat: int | None  # None: a spectator
    name: str
    text: str

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


# Control, format (bidi overrides, zero-width characters), surrogate, private-use and unassigned characters.
_DROPPED = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})
_JOINERS = frozenset("\u200c\u200d")  # kept: emoji sequences and some scripts need them


def clean_text(raw: str, max_chars: int) -> str:
    """The line to store for ``raw``: NFC, without control, format and unassigned characters (joiners
    kept), white space folded to single spaces; ``MoveError`` if nothing is left or it is too long."""
    text = unicodedata.normalize("NFC", raw)
    text = "".join(ch for ch in text if ch in _JOINERS or unicodedata.category(ch) not in _DROPPED)
    text = " ".join(text.split())
    if not text:
        raise MoveError("bad_chat", L_("a chat message needs some text"), 400)
    if len(text) > max_chars:
        said = NL_(
            "a chat message is at most %(n)s character",
            "a chat message is at most %(n)s characters",
            max_chars,
        )
        raise MoveError("too_long", said, 400)
    return text


def spectator_name(raw: str | None) -> str:
    """A spectator's name: ``raw`` cleaned as a seat's name is (names.py), or "Guest"."""
    if not raw:
        return "Guest"
    try:
        return clean_name(raw)
    except BadName as exc:
        raise MoveError("bad_name", text_of(exc), 400) from None


class ChatRooms:
    """Every table's chat: the newest lines in memory (read from the store when a table is first asked
    for), each connection's rate limit, and the writes."""

    def __init__(self, store: Store, writer: Writer, limits: ChatLimits | None = None) -> None:
        self.store = store
        self.writer = writer
        self.limits = limits or ChatLimits()
        self._rooms: OrderedDict[str, deque[ChatLine]] = OrderedDict()
        self._next: dict[str, int] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._buckets: weakref.WeakKeyDictionary[Conn, RateLimit] = weakref.WeakKeyDictionary()

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
            self._forget_old()
        self._rooms.move_to_end(table_id)
        return room

    def _forget_old(self) -> None:
        """Keep at most ``limits.rooms`` tables' lines in memory: the least recently used go (not one whose
        lock is held: a line is being said there)."""
        for table_id in list(self._rooms)[: max(0, len(self._rooms) - self.limits.rooms)]:
            lock = self._locks.get(table_id)
            if lock is None or not lock.locked():
                self._rooms.pop(table_id, None)
                self._next.pop(table_id, None)
                self._locks.pop(table_id, None)

    async def say(self, table: Table, conn: Conn, text: str, name: str | None, conns: Iterable[Conn]) -> None:
        """Store ``conn``'s line and send it to ``conns``; ``MoveError`` (nothing stored or sent) for a line
        too fast, empty or too long, or a bad spectator name."""
        bucket = self._buckets.get(conn)
        if bucket is None:
            bucket = self._buckets[conn] = RateLimit(self.limits.per_second, self.limits.burst)
        if not bucket.allow():
            rate = self.limits.per_second
            said = L_("chat at most %(rate)s lines a second; wait a moment", rate=f"{rate:g}")
            raise MoveError("too_fast", said, 429)
        text = clean_text(text, self.limits.max_chars)
        seat = conn.seat
        who = spectator_name(name) if seat is None else table.seats[seat].name
        async with self._lock(table.id):
            room = await self._room(table.id)
            line = ChatLine(self._next[table.id], time.time(), table.version, seat, who, text)
            await self.writer.write(lambda db: insert_chat(db, table.id, line, self.limits.history))
            self._next[table.id] = line.idx + 1
            room.append(line)
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

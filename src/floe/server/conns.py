"""One WebSocket connection's outgoing side: a bounded queue in which the table's state is coalesced.

A connection that does not read must cost the server a small, fixed amount, however often its table
changes. So the table's ``state`` (and the smaller ``seats`` update) is never queued as text: the queue
holds a marker, at most one, and the message is built when it is written, from the table as it is then,
with the log lines from the connection's ``log_sent`` on (so coalescing never loses a log line). Other
messages (``welcome``, ``ack``, ``error``, ``pong``) are queued as text, in order; more than
``ConnLimits.queue`` of them waiting, or one write waiting ``ConnLimits.send_timeout`` seconds for the
client to read, drops the connection (``DROPPED``, a close code the client may reconnect after).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from pydantic_core import to_json

log = logging.getLogger("floe.server")

# The close code of a connection dropped for not reading what it is sent (4000-4999: the application's).
DROPPED = 4008
# How long the close frame of a dropped connection may wait behind what its client has not read: it costs
# no more than the connection already holds (its buffers), and a client that reads again within it learns
# why it was dropped.
CLOSE_GRACE = 30.0


@dataclass(frozen=True)
class ConnLimits:
    """The bounds on connections (``Settings``: ``max_spectators`` … ``away_toggle_burst``)."""

    spectators: int = 100  # spectator connections per table
    seat_connections: int = 4  # connections per seat (tabs, devices)
    queue: int = 64  # messages waiting for one connection besides its newest state
    send_timeout: float = 20.0  # seconds one write may wait for a client that does not read
    toggles_per_second: float = 1.0  # leave/back per connection, after a burst of
    toggle_burst: float = 5.0
    seats_news_interval: float = 1.0  # seconds between two ``seats`` messages of one table


class Sender(Protocol):
    async def send_text(self, data: str) -> None: ...


class RateLimit:
    """A token bucket: ``burst`` at once, then ``rate`` a second."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.tokens, self.at = burst, time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


# The markers for the coalesced messages; any other item of the queue is a message's text.
_STATE = object()
_SEATS = object()


class Conn:
    """One WebSocket connection watching a table as a seat (or a spectator, seat None).

    ``state_of(seat, log_from)`` and ``seats_of()`` build the coalesced messages when they are written.
    """

    def __init__(
        self,
        sender: Sender,
        seat: int | None,
        *,
        state_of: Callable[[int | None, int], dict[str, Any]] | None = None,
        seats_of: Callable[[], dict[str, Any]] | None = None,
        limits: ConnLimits | None = None,
        lang: str = "en",
        client: str | None = None,
    ) -> None:
        self.sender = sender
        self.seat = seat
        self.client = client  # the peer's address (or the one a trusted proxy names): per-address limits
        self.lang = lang  # the language it reads (its hello's): its refusals are written in it
        self.state_of = state_of
        self.seats_of = seats_of
        self.limits = limits or ConnLimits()
        self.log_sent = 0
        self.toggles = RateLimit(self.limits.toggles_per_second, self.limits.toggle_burst)
        self.dropped: str | None = None  # why the server dropped it
        self._queue: deque[object] = deque()
        self._texts = 0  # how many items of the queue are texts (not the marker)
        self._marker: object | None = None  # the marker in the queue, if one is
        self._wake = asyncio.Event()
        self._closing = False
        self._task: asyncio.Task[None] | None = None
        self._table_told: Any = None  # the table summary of the last state or seats written

    # --- queueing ------------------------------------------------------------------------------------
    def send(self, message: dict[str, Any]) -> None:
        """Queue ``message`` (written by ``pump`` in order); too many waiting: the connection is dropped."""
        if self._closing:
            return
        if self._texts >= self.limits.queue:
            self.drop(f"more than {self.limits.queue} messages waiting: the client does not read")
            return
        # pydantic-core's serializer is several times faster than json.dumps on these dicts.
        self._queue.append(to_json(message).decode())
        self._texts += 1
        self._wake.set()

    def send_state(self) -> None:
        """Queue the table's newest ``state``: one queued earlier and not yet written moves here (it would be
        built from the same table anyway), and a waiting ``seats`` update is part of it."""
        self._queue_marker(_STATE)

    def send_seats(self) -> None:
        """Queue a ``seats`` update (the seats' flags changed); nothing if a ``state`` waits (it has them)."""
        if self._marker is not _STATE:
            self._queue_marker(_SEATS)

    def _queue_marker(self, marker: object) -> None:
        # At most one marker waits: a state replaces a waiting seats update, and a new one the old one.
        if self._closing:
            return
        if self._marker is not None:
            self._queue.remove(self._marker)  # at most ``limits.queue`` + 1 items
        self._queue.append(marker)
        self._marker = marker
        self._wake.set()

    # --- writing -------------------------------------------------------------------------------------
    def start(self) -> asyncio.Task[None]:
        """Start writing (``pump``) in a task of its own; returns it."""
        self._task = asyncio.create_task(self.pump())
        return self._task

    async def pump(self) -> None:
        """Write queued messages until ``close`` (after what is queued), a drop or a broken connection."""
        while True:
            while not self._queue:
                if self._closing:
                    return
                self._wake.clear()
                await self._wake.wait()
            try:
                text = self._text(self._queue.popleft())
            except Exception:
                log.exception("could not build a message for a connection; closing it")
                return
            if text is None:
                continue
            try:
                async with asyncio.timeout(self.limits.send_timeout):
                    await self.sender.send_text(text)
            except TimeoutError:
                self.drop(f"a message waited {self.limits.send_timeout:g} s: the client does not read")
                return
            except Exception:
                return  # the connection is gone; the receiving side notices and ends it

    def _text(self, item: object) -> str | None:
        """The text to write for a queue item (a coalesced message is built now); None: nothing."""
        if isinstance(item, str):
            self._texts -= 1
            return item
        self._marker = None
        if item is _STATE and self.state_of is not None:
            message = self.state_of(self.seat, self.log_sent)
            self.log_sent = message["log_total"]
            self._table_told = message.get("table")
            return to_json(message).decode()
        if item is _SEATS and self.seats_of is not None:
            message = self.seats_of()
            if message["table"] == self._table_told:
                return None  # a state written since the news was due already said it
            self._table_told = message["table"]
            return to_json(message).decode()
        return None

    # --- ending --------------------------------------------------------------------------------------
    def drop(self, reason: str) -> None:
        """Give up on a client that does not read: forget what waits and stop writing (see ``DROPPED``)."""
        if self.dropped is None:
            self.dropped = reason
        self._closing = True
        self._queue.clear()
        self._texts, self._marker = 0, None
        self._wake.set()
        if self._task is not None and self._task is not asyncio.current_task():
            self._task.cancel()  # it may be stuck in a write that waits for the client

    def close(self) -> None:
        """Stop ``pump`` after what is queued."""
        self._closing = True
        self._wake.set()

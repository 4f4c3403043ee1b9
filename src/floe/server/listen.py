"""Listening for ``floe serve``: the socket is bound before anything else starts, and the web table's address
is announced only once the server accepts connections.

Binding first turns a port already in use into one plain sentence (``PortTaken``) before any bot worker is
spawned or any table is loaded; uvicorn, left to bind it, would log its own error after starting the app and
exit with its start-up failure code. The address is printed from ``Announcing.startup``, after the app's
start-up (tables loaded, bot workers started) and the listener, so a URL on screen always answers.
"""

from __future__ import annotations

import asyncio
import errno
import resource
import socket
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

if TYPE_CHECKING:
    from floe.server.settings import Settings

# The listen backlog uvicorn uses by default.
BACKLOG = 2048


class PortTaken(OSError):
    """Another program already listens on the address and port."""


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host``:``port``; ``PortTaken`` if the port is in use there, another
    ``OSError`` (its ``strerror`` says why) if the address cannot be listened on."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
    except socket.gaierror as exc:
        raise OSError(errno.EADDRNOTAVAIL, f"unknown address {host!r} ({exc.strerror})") from None
    sock = socket.socket(family, kind, proto)
    try:
        # As uvicorn does: a restarted server may listen again while old connections are in TIME_WAIT.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(BACKLOG)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise PortTaken(exc.errno, "address already in use") from None
        raise
    sock.set_inheritable(True)
    return sock


class Announcing(uvicorn.Server):
    """A uvicorn server that calls ``announce`` once it listens (after the app's start-up)."""

    def __init__(self, config: uvicorn.Config, announce: Callable[[], None]) -> None:
        super().__init__(config)
        self.announce = announce

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        """uvicorn's start-up, then the announcement (not made if the start-up failed or a stop came)."""
        await super().startup(sockets)
        if self.started and not self.should_exit:
            self.announce()


def bounded_h11(head_timeout: float, per_client: int, total: int) -> type[H11Protocol]:
    """uvicorn's h11 protocol with the bounds a public server needs on its sockets (issue 24, item 5:
    20,000 idle or slow-loris sockets filled the process's file limit and new clients got broken
    connections). uvicorn times out only an idle keep-alive connection after a response; this one also
    closes a connection whose request head (line and headers) is not complete ``head_timeout`` seconds
    after the connection opened or the previous response ended, whether it sent nothing or a byte at a time;
    and it closes at once a new connection past ``per_client`` open ones of its address or ``total`` open
    ones in all (WebSockets included: the app bounds those further, per address and in total)."""
    open_by_client: Counter[str] = Counter()

    class Bounded(H11Protocol):
        head_timer: asyncio.TimerHandle | None = None
        counted: str | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            address = self.client[0] if self.client else "?"
            if len(self.connections) > total or open_by_client[address] >= per_client:
                transport.close()
                return
            self.counted = address
            open_by_client[address] += 1
            self._arm_head()

        def _arm_head(self) -> None:
            self._disarm_head()
            self.head_timer = self.loop.call_later(head_timeout, self._head_too_slow)

        def _disarm_head(self) -> None:
            if self.head_timer is not None:
                self.head_timer.cancel()
                self.head_timer = None

        def _head_too_slow(self) -> None:
            self.head_timer = None
            if not self.transport.is_closing():
                self.transport.close()

        def _uncount(self) -> None:
            if self.counted is not None:
                open_by_client[self.counted] -= 1
                if not open_by_client[self.counted]:
                    del open_by_client[self.counted]
                self.counted = None

        def handle_events(self) -> None:
            super().handle_events()
            if self.cycle is not None and not self.cycle.response_complete:
                self._disarm_head()  # a whole request head arrived: the app answers it

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing() and (self.cycle is None or self.cycle.response_complete):
                self._arm_head()

        def handle_websocket_upgrade(self, event: h11.Request) -> None:
            self._disarm_head()
            self._uncount()  # the WebSocket's own bounds (the app's) count it from here
            super().handle_websocket_upgrade(event)

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm_head()
            self._uncount()
            super().connection_lost(exc)

    return Bounded


# File descriptors kept for what is not a client's socket: the database, the bot workers' pipes, logs.
RESERVED_FILES = 256


def max_connections(settings: Settings) -> int:
    """The sockets the server keeps open at most: ``max_connections``, but no more than the process's file
    limit (its soft ``RLIMIT_NOFILE``) leaves after ``RESERVED_FILES``, so a flood of connections never
    takes the files the server itself needs."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return settings.max_connections
    return max(1, min(settings.max_connections, soft - RESERVED_FILES))

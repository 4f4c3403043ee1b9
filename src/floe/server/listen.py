"""Listening for ``floe serve``: the socket is bound before anything else starts, and the web table's address
is announced only once the server accepts connections.

Binding first turns a port already in use into one plain sentence (``PortTaken``) before any bot worker is
spawned or any table is loaded; uvicorn, left to bind it, would log its own error after starting the app and
exit with its start-up failure code. The address is printed from ``Announcing.startup``, after the app's
start-up (tables loaded, bot workers started) and the listener, so a URL on screen always answers.
"""

from __future__ import annotations

import errno
import socket
from collections.abc import Callable

import uvicorn

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

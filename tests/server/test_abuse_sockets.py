"""Issue 24, item 5: sockets time out and are bounded per address and in total.

20,000 idle or slow-loris sockets used to fill the process's file limit (new clients got broken connections),
and 3,000 spectator WebSockets from one address cost 207 MB. Over a real server with small bounds: a socket
that sends nothing, or its request head a byte at a time, is closed after ``http_head_timeout``; an address
past ``http_connections_per_client`` open sockets is cut off at once while another address still gets
answers; WebSockets are capped per address (``ws_per_client``) and in total (``ws_total``), spectators
included.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import time
from collections.abc import Iterator

import httpx
import pytest
import websockets

from .serverproc import ServerProcess, running_server

SETTINGS = {
    "http_head_timeout": 1,
    "http_connections_per_client": 3,
    "ws_per_client": 2,
    "ws_total": 3,
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    extra = [arg for name, value in SETTINGS.items() for arg in ("--set", f"{name}={value}")]
    with running_server(tmp_path_factory.mktemp("sockets") / "data", extra=extra) as srv:
        yield srv


def _open(server: ServerProcess, address: str) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=30, source_address=(address, 0))
    return sock


def _closed_within(sock: socket.socket, timeout: float = 20.0) -> bool:
    """Whether the server closes ``sock`` (reading gives the end) before ``timeout`` seconds pass."""
    sock.settimeout(timeout)
    try:
        while sock.recv(4096):
            pass
    except TimeoutError:
        return False
    except ConnectionResetError:
        return True
    return True


def test_a_silent_socket_and_a_slow_request_head_are_closed(server: ServerProcess) -> None:
    silent = _open(server, "127.0.1.1")
    slow = _open(server, "127.0.1.2")
    head = b"GET /api/games HTTP/1.1\r\nHost: x\r\n"
    start = time.monotonic()
    for byte in head:  # a byte at a time, never the blank line that ends the head
        try:
            slow.send(bytes([byte]))
        except OSError:
            break
        time.sleep(0.05)
        if time.monotonic() - start > 20:
            break
    assert _closed_within(slow)
    assert _closed_within(silent)


def test_an_address_gets_a_bounded_number_of_sockets(server: ServerProcess) -> None:
    held = [_open(server, "127.0.2.1") for _ in range(3)]
    extra = _open(server, "127.0.2.1")
    # Closed at once: a whole request on it gets no answer (one of the held sockets would get a 200).
    with contextlib.suppress(OSError):
        extra.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\n\r\n")
    extra.settimeout(20)
    with contextlib.suppress(ConnectionResetError):
        assert extra.recv(4096) == b""
    # Another address is answered meanwhile.
    transport = httpx.HTTPTransport(local_address="127.0.2.2")
    with httpx.Client(transport=transport, timeout=30) as client:
        assert client.get(server.url + "/api/games").status_code == 200
    for sock in held:
        sock.close()


async def _spectator(server: ServerProcess, table: str, address: str) -> websockets.ClientConnection | None:
    """A spectator from ``address`` that said hello and got its welcome; None if it was refused."""
    try:
        ws = await websockets.connect(
            f"{server.ws_url}/ws/tables/{table}", open_timeout=30, local_addr=(address, 0)
        )
    except websockets.InvalidStatus:
        return None
    await ws.send('{"type": "hello"}')
    return ws


def test_websockets_are_bounded_per_address_and_in_total(server: ServerProcess) -> None:
    table = server.create([{"kind": "bot", "bot": "random"}, {"kind": "person"}])["table"]["id"]

    async def run() -> None:
        first = [await _spectator(server, table, "127.0.3.1") for _ in range(2)]
        assert all(ws is not None for ws in first)
        assert await _spectator(server, table, "127.0.3.1") is None  # per address
        other = await _spectator(server, table, "127.0.3.2")
        assert other is not None
        assert await _spectator(server, table, "127.0.3.3") is None  # in total
        for ws in [*first, other]:
            assert ws is not None
            await ws.close()
        # Places free up once the server has seen the closes (it may not have yet: ask again until it has;
        # the deadline only bounds a hang).
        deadline = time.monotonic() + 60
        while (again := await _spectator(server, table, "127.0.3.3")) is None:
            assert time.monotonic() < deadline, "no place came free after the closes"
            await asyncio.sleep(0.05)
        await again.close()

    asyncio.run(run())

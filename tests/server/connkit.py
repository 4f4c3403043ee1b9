"""Helpers for the connection tests (test_conn_*.py): a server with chosen settings, a WebSocket client that
never reads, and the server's resident memory.

``RawClient`` speaks just enough WebSocket over a plain socket to say hello and then stop reading, with a
small receive buffer, so the server's writes to it stall the way they do for a client that does not read;
later it can read what was sent, up to the close frame and its code.
"""

from __future__ import annotations

import base64
import json
import os
import socket
import struct
import time
from pathlib import Path
from typing import Any

from .serverproc import ServerProcess

HERE = Path(__file__).parent


class ConnServer(ServerProcess):
    """A real ``floe serve`` process started with ``settings`` (``Settings`` field -> value, as ``--set``)."""

    def __init__(self, data_dir: Path, settings: dict[str, Any] | None = None) -> None:
        self.settings = settings or {}
        extra = [arg for name, value in self.settings.items() for arg in ("--set", f"{name}={value}")]
        super().__init__(data_dir, extra=extra)

    def rss_mb(self) -> float:
        """The server process's resident memory (VmRSS), in MB."""
        assert self.proc is not None
        return rss_mb(self.proc.pid)


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError(f"no VmRSS for {pid}")


class RawClient:
    """A WebSocket client on a bare socket: ``hello`` then silence (it reads nothing until asked)."""

    def __init__(self, port: int, path: str, *, rcvbuf: int = 4096) -> None:
        self.sock = socket.socket()
        # Before connecting, so the window the server sees is small from the start.
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        self.sock.settimeout(60)  # only bounds a hang
        self.sock.connect(("127.0.0.1", port))
        key = base64.b64encode(os.urandom(16)).decode()
        request = (
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        self.sock.sendall(request.encode())
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            chunk = self.sock.recv(4096)
            assert chunk, "the server closed the connection during the handshake"
            self.buffer += chunk
        head, _, self.buffer = self.buffer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 101"), head

    def send_text(self, text: str | bytes) -> None:
        """One masked text frame (``bytes`` are sent as they are, valid UTF-8 or not)."""
        payload = text.encode() if isinstance(text, str) else text
        mask = os.urandom(4)
        n = len(payload)
        if n < 126:
            header = struct.pack("!BB", 0x81, 0x80 | n)
        elif n < 65536:
            header = struct.pack("!BBH", 0x81, 0x80 | 126, n)
        else:
            header = struct.pack("!BBQ", 0x81, 0x80 | 127, n)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def hello(self, token: str | None = None) -> None:
        self.send_text(json.dumps({"type": "hello", "token": token}))

    def welcomed(self, timeout: float = 60.0) -> dict[str, Any]:
        """Read frames up to the server's answer to the hello (``welcome`` or ``error``): the connection is
        then the server's (counted, sent to). ``timeout`` only bounds a hang."""
        deadline = time.monotonic() + timeout
        while True:
            opcode, payload = self._frame(deadline)
            if opcode == 0x1:
                message: dict[str, Any] = json.loads(payload)
                if message["type"] in ("welcome", "error"):
                    return message

    def _read(self, n: int, deadline: float) -> bytes:
        while len(self.buffer) < n:
            self.sock.settimeout(max(0.01, deadline - time.monotonic()))
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError
            self.buffer += chunk
        data, self.buffer = self.buffer[:n], self.buffer[n:]
        return data

    def _frame(self, deadline: float) -> tuple[int, bytes]:
        """One frame: its opcode and payload."""
        first, second = self._read(2, deadline)
        n = second & 0x7F
        if n == 126:
            (n,) = struct.unpack("!H", self._read(2, deadline))
        elif n == 127:
            (n,) = struct.unpack("!Q", self._read(8, deadline))
        return first & 0x0F, self._read(n, deadline)

    def frames(self, timeout: float = 60.0) -> list[tuple[int, bytes]]:
        """Read every frame until the close frame (included) or the end of the connection (``timeout`` only
        bounds a hang: what was read by then is returned, and the caller's check fails)."""
        deadline = time.monotonic() + timeout
        out: list[tuple[int, bytes]] = []
        try:
            while True:
                out.append(self._frame(deadline))
                if out[-1][0] == 0x8:
                    return out
        except (EOFError, ConnectionResetError, TimeoutError):
            return out

    def close_code(self, timeout: float = 60.0) -> int | None:
        """Read to the end and return the close frame's code (None if the connection ended without one)."""
        frames = self.frames(timeout)
        closes = [payload for opcode, payload in frames if opcode == 0x8]
        if not closes or len(closes[0]) < 2:
            return None
        code: int = struct.unpack("!H", closes[0][:2])[0]
        return code

    def close(self) -> None:
        self.sock.close()

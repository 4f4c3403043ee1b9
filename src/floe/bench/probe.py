"""Instruments of the server benchmarks: the server's memory and CPU read from /proc, a bare WebSocket client
for attacks at scale, percentiles, and a started ``floe serve`` process.

``ProcWatch`` samples the server process and every descendant (its bot workers) in a thread: resident
memory now (VmRSS, summed over the tree), each process's high-water mark (VmHWM) and CPU time. Past a limit
(default 2 GB) it kills the server, so an attack that makes the server grow cannot take the machine down
with it; the attack is then recorded as "server exceeded".

``RawWebSocket`` speaks just enough RFC 6455 over asyncio streams to hold a thousand connections cheaply
(no parsing of what arrives), to be a client that never reads, and to send frames a well-behaved library
refuses to write (a text frame that is not UTF-8). Its frames use the all-zero masking key, which the RFC
allows and which makes masking free.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import os
import secrets
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import httpx

MB = 1024 * 1024
_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Polled(Protocol):
    """A started process: ``subprocess.Popen``, or what stands in for one (``floe.testing.zygote.Forked``)."""

    def poll(self) -> int | None: ...


def wait_ready(base: str, proc: Polled, timeout: float = 60.0) -> None:
    """Wait until the server at ``base`` answers; ``RuntimeError`` if it exits or stays silent."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError("the server did not start")
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(base + "/api/games", timeout=1).status_code == 200:
                return
        time.sleep(0.1)
    raise RuntimeError("the server did not answer in time")


def pct(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (nearest rank; 0.0 for none)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def default_sigint() -> None:
    """For ``Popen(preexec_fn=...)``: the child gets Ctrl-C's default action, as a terminal's foreground job
    does. A program started in the background of a non-interactive shell (or by a CI runner) has SIGINT
    ignored, its children inherit that, and a Python child then never raises ``KeyboardInterrupt``: a test of
    what Ctrl-C does would watch the program play on."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


# --- a server process ------------------------------------------------------------------------------------
@dataclass
class Served:
    """A running ``floe serve``: where it answers, its process (group leader) and its log."""

    base: str
    proc: subprocess.Popen[bytes]
    log_path: Path
    data_dir: Path

    @property
    def ws(self) -> str:
        return self.base.replace("http://", "ws://")

    @property
    def port(self) -> int:
        return int(self.base.rsplit(":", 1)[1])

    def kill(self) -> None:
        """kill -9 the server and its workers (its process group)."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)

    def alive(self) -> bool:
        return self.proc.poll() is None

    def log_since(self, offset: int) -> str:
        """The server's log from byte ``offset`` on."""
        with self.log_path.open("rb") as f:
            f.seek(offset)
            return f.read().decode(errors="replace")

    def log_size(self) -> int:
        return self.log_path.stat().st_size


@contextlib.contextmanager
def served(
    *, db: str | None = None, extra: Sequence[str] = (), env: dict[str, str] | None = None
) -> Iterator[Served]:
    """Start ``floe serve`` on a free port with a fresh data directory (or ``db``), ``env`` added to its
    environment; stop it afterwards."""
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="floe-bench-") as tmp:
        cmd = [sys.executable, "-m", "floe", "serve", "--port", str(port), "--data-dir", tmp, *extra]
        if db:
            cmd += ["--db", db]
        log_path = Path(tmp, "server.log")
        with log_path.open("wb") as log:
            environ = {**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})}
            proc = subprocess.Popen(
                cmd, stdout=log, stderr=subprocess.STDOUT, start_new_session=True, env=environ
            )
            server = Served(f"http://127.0.0.1:{port}", proc, log_path, Path(tmp))
            try:
                wait_ready(server.base, proc)
                yield server
            finally:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGTERM)
                with contextlib.suppress(subprocess.TimeoutExpired):
                    proc.wait(timeout=10)
                # Then whatever is left of its process group: bot workers can outlive the server (today a
                # worker the SIGTERM killed is replaced during the shutdown, and the new one stays behind,
                # still thinking), and one left after an attack would weigh on every later measurement.
                server.kill()
                proc.wait()


# --- /proc --------------------------------------------------------------------------------------------------
def _status(pid: int) -> dict[str, int]:
    """VmRSS and VmHWM of ``pid`` in bytes (empty if it is gone)."""
    out: dict[str, int] = {}
    try:
        with open(f"/proc/{pid}/status", encoding="ascii", errors="replace") as f:
            for line in f:
                if line.startswith(("VmRSS:", "VmHWM:")):
                    key, value = line.split(":", 1)
                    out[key] = int(value.split()[0]) * 1024
    except OSError:
        pass
    return out


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of ``pid`` so far (0.0 if it is gone)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / _TICK


def children(pid: int) -> list[int]:
    """The direct children of ``pid`` (from /proc/<pid>/task/*/children)."""
    found: list[int] = []
    with contextlib.suppress(OSError):
        for task in os.listdir(f"/proc/{pid}/task"):
            with contextlib.suppress(OSError), open(f"/proc/{pid}/task/{task}/children") as f:
                found += [int(c) for c in f.read().split()]
    return found


def descendants(pid: int) -> list[int]:
    """Every process below ``pid``."""
    out: list[int] = []
    todo = children(pid)
    while todo:
        child = todo.pop()
        out.append(child)
        todo += children(child)
    return out


def cmdline(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


@dataclass
class MemoryWindow:
    """What ``ProcWatch`` saw between ``start`` and ``stop``."""

    peak_rss: int = 0  # the largest sampled sum of VmRSS over the server and its descendants
    hwm: dict[int, int] = field(default_factory=dict)  # pid -> the largest VmHWM seen
    cpu_start: dict[int, float] = field(default_factory=dict)
    cpu_end: dict[int, float] = field(default_factory=dict)

    def report(self, server_pid: int) -> dict[str, Any]:
        workers = {p: h for p, h in self.hwm.items() if p != server_pid}
        cpu = sum(self.cpu_end.get(p, 0.0) - self.cpu_start.get(p, 0.0) for p in self.cpu_end)
        return {
            "peak_rss_mb": round(self.peak_rss / MB, 1),
            "server_hwm_mb": round(self.hwm.get(server_pid, 0) / MB, 1),
            "workers_hwm_mb": round(sum(workers.values()) / MB, 1),
            "processes": len(self.hwm),
            "cpu_s": round(cpu, 2),
        }


class ProcWatch:
    """Samples the memory and CPU of ``server`` and its descendants every ``interval`` seconds in a thread;
    kills the server if their resident memory passes ``limit`` bytes (``exceeded`` is then set)."""

    def __init__(self, server: Served, *, limit: int = 2048 * MB, interval: float = 0.1) -> None:
        self.server = server
        self.pid = server.proc.pid
        self.limit = limit
        self.interval = interval
        self.exceeded = threading.Event()
        self.window = MemoryWindow()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="floe-procwatch", daemon=True)

    def __enter__(self) -> ProcWatch:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(5)

    def tree(self) -> list[int]:
        return [self.pid, *descendants(self.pid)]

    def start_window(self) -> None:
        """Start counting afresh (the peak is that of the window; a process's VmHWM is its lifetime's)."""
        with self._lock:
            self.window = MemoryWindow()
        self.sample()

    def stop_window(self) -> dict[str, Any]:
        self.sample()
        with self._lock:
            return self.window.report(self.pid)

    def sample(self) -> int:
        """One sample; returns the tree's resident memory in bytes."""
        total = 0
        with self._lock:
            w = self.window
            for pid in self.tree():
                status = _status(pid)
                if not status:
                    continue
                total += status.get("VmRSS", 0)
                w.hwm[pid] = max(w.hwm.get(pid, 0), status.get("VmHWM", 0))
                cpu = cpu_seconds(pid)
                w.cpu_start.setdefault(pid, cpu)
                w.cpu_end[pid] = cpu
            w.peak_rss = max(w.peak_rss, total)
        if total > self.limit and not self.exceeded.is_set():
            self.exceeded.set()
            self.server.kill()
        return total

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            if self.server.alive():
                self.sample()


# --- a bare WebSocket client --------------------------------------------------------------------------------
TEXT, BINARY, CLOSE, PING, PONG = 0x1, 0x2, 0x8, 0x9, 0xA


def frame(opcode: int, payload: bytes) -> bytes:
    """One final client frame with the all-zero mask (legal, and the payload goes out as is)."""
    n = len(payload)
    if n < 126:
        head = struct.pack("!BB", 0x80 | opcode, 0x80 | n)
    elif n < 1 << 16:
        head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, n)
    else:
        head = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, n)
    return head + b"\0\0\0\0" + payload


class RawWebSocket:
    """One WebSocket connection that sends what it is told and reads only if asked (``drain``)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.received = 0  # bytes read by ``drain_forever`` or ``read_some``
        self.seen = asyncio.Event()
        self._drain: asyncio.Task[None] | None = None

    @classmethod
    async def open(cls, host: str, port: int, path: str, *, timeout: float = 30.0) -> RawWebSocket:
        """Connect and upgrade; ``ConnectionError`` if the server does not switch protocols."""
        reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), timeout)
        key = base64.b64encode(secrets.token_bytes(16)).decode()
        writer.write(
            (
                f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout)
        if not head.startswith(b"HTTP/1.1 101"):
            writer.close()
            raise ConnectionError(head.split(b"\r\n", 1)[0].decode(errors="replace"))
        return cls(reader, writer)

    def send(self, payload: bytes | str, opcode: int = TEXT) -> None:
        """Queue one frame (``payload`` bytes go out unchecked: they need not be UTF-8)."""
        self.writer.write(frame(opcode, payload.encode() if isinstance(payload, str) else payload))

    async def flush(self) -> None:
        """Wait until the kernel takes what is queued (blocks while the server does not read)."""
        await self.writer.drain()

    async def read_some(self, timeout: float) -> bytes:
        """Whatever arrives within ``timeout`` (b"" at the end of the stream or on time-out)."""
        try:
            data = await asyncio.wait_for(self.reader.read(65536), timeout)
        except TimeoutError:
            return b""
        self.received += len(data)
        return data

    def drain_forever(self, watch: bytes = b"") -> None:
        """Read and drop everything that arrives, in the background (a client that keeps up), answering the
        server's pings as any WebSocket client does (else it would drop us after its ping timeout). When
        ``watch`` is given, ``seen`` is set the first time those bytes arrive."""
        self.seen = asyncio.Event()
        self._drain = asyncio.create_task(self._drain_loop(watch))

    async def _drain_loop(self, watch: bytes) -> None:
        frames = _FrameSkipper()
        tail = b""
        with contextlib.suppress(OSError, asyncio.CancelledError):
            while data := await self.reader.read(262144):
                self.received += len(data)
                for payload in frames.feed(data):
                    self.send(payload, PONG)
                if watch and not self.seen.is_set():
                    if watch in tail + data[: len(watch) * 2] or watch in data:
                        self.seen.set()
                    tail = data[-len(watch) :]

    async def close_code(self, timeout: float) -> int | None:
        """Read until the server's close frame and return its code (None if none came in time; 1006 if
        the connection ended without one)."""
        buffer = b""
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            data = await self.read_some(left)
            if not data:
                return 1006 if self.reader.at_eof() else None
            buffer += data
            code = _close_in(buffer)
            if code is not None:
                return code
        return None

    def abort(self) -> None:
        """Drop the connection at once (no closing handshake)."""
        if self._drain is not None:
            self._drain.cancel()
        self.writer.transport.abort()


class _FrameSkipper:
    """Walks the server's frames as the bytes come, skipping their payloads without copying them; returns
    the payload of each ping (to be answered)."""

    def __init__(self) -> None:
        self.head = b""  # the bytes of a frame header not complete yet
        self.skip = 0  # payload bytes of the current frame still to skip
        self.ping: bytes | None = None  # the payload so far of a ping cut across reads
        self.ping_size = 0

    def feed(self, data: bytes) -> list[bytes]:
        pings: list[bytes] = []
        at = 0
        while at < len(data):
            if self.ping is not None:
                take = data[at : at + self.ping_size - len(self.ping)]
                self.ping += take
                at += len(take)
                if len(self.ping) == self.ping_size:
                    pings.append(self.ping)
                    self.ping = None
                continue
            if self.skip:
                step = min(self.skip, len(data) - at)
                self.skip -= step
                at += step
                continue
            buffer = self.head + data[at : at + 14]
            parsed = _header(buffer)
            if parsed is None:  # an incomplete header: keep it for the next chunk
                self.head = buffer
                return pings
            opcode, size, length = parsed
            at += length - len(self.head)
            self.head = b""
            if opcode == PING:
                self.ping, self.ping_size = b"", size
            else:
                self.skip = size
        if self.ping is not None and len(self.ping) == self.ping_size:  # an empty ping at the very end
            pings.append(self.ping)
            self.ping = None
        return pings


def _header(buffer: bytes) -> tuple[int, int, int] | None:
    """(opcode, payload size, header length) of the unmasked frame starting ``buffer``, if complete."""
    if len(buffer) < 2:
        return None
    opcode, size, length = buffer[0] & 0x0F, buffer[1] & 0x7F, 2
    if size == 126:
        if len(buffer) < 4:
            return None
        size, length = struct.unpack("!H", buffer[2:4])[0], 4
    elif size == 127:
        if len(buffer) < 10:
            return None
        size, length = struct.unpack("!Q", buffer[2:10])[0], 10
    return opcode, size, length


def _close_in(buffer: bytes) -> int | None:
    """The code of the first close frame in ``buffer`` of server frames (unmasked), if one is complete."""
    at = 0
    while at + 2 <= len(buffer):
        opcode, size = buffer[at] & 0x0F, buffer[at + 1] & 0x7F
        at += 2
        if size == 126:
            if at + 2 > len(buffer):
                return None
            size = struct.unpack("!H", buffer[at : at + 2])[0]
            at += 2
        elif size == 127:
            if at + 8 > len(buffer):
                return None
            size = struct.unpack("!Q", buffer[at : at + 8])[0]
            at += 8
        if at + size > len(buffer):
            return None
        if opcode == CLOSE:
            code: int = struct.unpack("!H", buffer[at : at + 2])[0] if size >= 2 else 1005
            return code
        at += size
    return None

"""A real ``floe serve`` process on 127.0.0.1 for the server tests, and small HTTP/WebSocket helpers."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx

from floe.bench.probe import free_port, wait_ready
from floe.testing.zygote import Forked, start_floe


class ServerProcess:
    """``python -m floe serve`` in a child process; ``start``/``kill``/``stop`` and an HTTP client."""

    def __init__(self, data_dir: Path, *, db: str | None = None, extra: list[str] | None = None) -> None:
        self.data_dir = data_dir
        self.db = db
        self.extra = extra or []
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | Forked | None = None
        self.log_path = data_dir / "server.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 120.0) -> None:
        """Start the server and wait until it answers (``timeout`` bounds a hang only: a busy machine may take
        many seconds)."""
        self.data_dir.mkdir(parents=True, exist_ok=True)
        cmd = ["serve", "--port", str(self.port), "--data-dir", str(self.data_dir)]
        if self.db:
            cmd += ["--db", self.db]
        cmd += self.extra
        self.proc = start_floe(cmd, {}, self.log_path)
        try:
            wait_ready(self.url, self.proc, timeout)
        except RuntimeError as exc:
            raise RuntimeError(f"{exc}: {self.log_path.read_text()[-2000:]}") from None

    def kill(self) -> None:
        """kill -9 the server and its bot workers (a crash)."""
        if self.proc is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
            self.proc = None

    def stop(self) -> None:
        """A clean stop (SIGTERM), then kill if it hangs."""
        if self.proc is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
            self.proc = None

    # --- HTTP helpers --------------------------------------------------------------------------------
    def post(self, path: str, body: Any = None, token: str | None = None) -> httpx.Response:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return httpx.post(self.url + path, json=body, headers=headers, timeout=30)

    def get(self, path: str, token: str | None = None) -> httpx.Response:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return httpx.get(self.url + path, headers=headers, timeout=30)

    def create(self, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
        """Create a table; returns the answer (``table`` and ``seats`` with tokens)."""
        answer = self.post("/api/tables", {"seats": seats, **extra})
        assert answer.status_code == 201, answer.text
        data: dict[str, Any] = answer.json()
        return data


@contextlib.contextmanager
def running_server(data_dir: Path, **kwargs: Any) -> Iterator[ServerProcess]:
    """A started server, killed at the end (``kill -9`` of its group: a clean stop waits for the bot workers
    to leave, more than a second, and is tested where it is the behaviour, in test_bot_workers.py; nothing
    acknowledged is lost either way, test_crash.py)."""
    server = ServerProcess(data_dir, **kwargs)
    server.start()
    try:
        yield server
    finally:
        server.kill()


def dumps(message: dict[str, Any]) -> str:
    return json.dumps(message)

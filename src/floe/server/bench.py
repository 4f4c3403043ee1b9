"""``floe bench server``: many concurrent tables driven through real WebSocket clients.

A ``floe serve`` process is started on a free port with a fresh SQLite database (or ``--db``). For each of
T tables, every seat is a person seat held by a client in this process that plays a random legal move as
soon as it is its turn (after ``--think-ms`` on average, drawn uniformly from half to one and a half times
it, when a pause is asked for). The latency of a move is the time from sending it to receiving its ``ack``
(which the server sends only after the move is committed to the database).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class _Seat:
    """One WebSocket client playing random legal moves for one seat."""

    def __init__(
        self, url: str, token: str, rng: random.Random, think: float, latencies: list[float]
    ) -> None:
        self.url, self.token, self.rng, self.think = url, token, rng, think
        self.latencies = latencies
        self.sent_at: dict[int, float] = {}
        self.errors = 0
        self.finished = False

    async def run(self, deadline: float) -> None:
        async with websockets.connect(self.url, max_size=2**22) as ws:
            await ws.send(json.dumps({"type": "hello", "token": self.token}))
            counter = 0
            moved_on = -1
            while time.monotonic() < deadline:
                try:
                    left = max(0.01, deadline - time.monotonic())
                    raw = await asyncio.wait_for(ws.recv(), timeout=left)
                except TimeoutError:
                    return
                message = json.loads(raw)
                kind = message["type"]
                if kind == "ack":
                    self.latencies.append(time.perf_counter() - self.sent_at.pop(message["id"]))
                elif kind == "error":
                    self.errors += 1
                elif kind == "state":
                    if message["status"] == "finished":
                        self.finished = True
                        return
                    # A state can repeat its version (a player connecting): move once per version.
                    if message["legal"] and message["version"] != moved_on:
                        moved_on = message["version"]
                        if self.think:
                            # Spread uniformly around the mean, so the tables do not move in lockstep.
                            await asyncio.sleep(self.think * self.rng.uniform(0.5, 1.5))
                        counter += 1
                        action = self.rng.choice(message["legal"])["id"]
                        self.sent_at[counter] = time.perf_counter()
                        move = {
                            "type": "move",
                            "action": action,
                            "version": message["version"],
                            "id": counter,
                        }
                        await ws.send(json.dumps(move))


async def _drive(
    base: str, tables: int, players: int, seed: int, think: float, seconds: float
) -> dict[str, Any]:
    latencies: list[float] = []
    seats: list[_Seat] = []
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        for t in range(tables):
            answer = await http.post(
                "/api/tables", json={"seats": [{"kind": "person"}] * players, "public": False}
            )
            answer.raise_for_status()
            created = answer.json()
            ws_url = base.replace("http://", "ws://") + f"/ws/tables/{created['table']['id']}"
            for s in created["seats"]:
                rng = random.Random(seed * 100_003 + t * 4 + s["seat"])
                seats.append(_Seat(ws_url, s["token"], rng, think, latencies))
    start = time.perf_counter()
    deadline = time.monotonic() + seconds
    await asyncio.gather(*(seat.run(deadline) for seat in seats))
    elapsed = time.perf_counter() - start
    ordered = sorted(latencies)

    def pct(q: float) -> float:
        return round(1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))], 2) if ordered else 0.0

    return {
        "tables": tables,
        "players": players,
        "clients": len(seats),
        "moves": len(latencies),
        "seconds": round(elapsed, 2),
        "moves_per_sec": round(len(latencies) / elapsed, 1) if elapsed else 0.0,
        "p50_ms": pct(0.50),
        "p90_ms": pct(0.90),
        "p99_ms": pct(0.99),
        "max_ms": round(1000 * ordered[-1], 2) if ordered else 0.0,
        "mean_ms": round(1000 * statistics.fmean(ordered), 2) if ordered else 0.0,
        "games_finished": sum(s.finished for s in seats) // players,
        "errors": sum(s.errors for s in seats),
        "think_ms": round(think * 1000),
    }


def run_server_bench(
    tables: int,
    players: int,
    seed: int,
    *,
    think_ms: float = 0.0,
    seconds: float = 120.0,
    db: str | None = None,
) -> dict[str, Any]:
    """Start a server, drive ``tables`` tables through WebSocket clients, stop it; returns the figures."""
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="floe-bench-") as tmp:
        cmd = [
            sys.executable,
            "-m",
            "floe",
            "serve",
            "--port",
            str(port),
            "--data-dir",
            tmp,
            "--bot-workers",
            "1",
        ]
        if db:
            cmd += ["--db", db]
        with Path(tmp, "server.log").open("wb") as log:
            proc = subprocess.Popen(
                cmd, stdout=log, stderr=subprocess.STDOUT, start_new_session=True, env=bench_env(tables)
            )
            base = f"http://127.0.0.1:{port}"
            try:
                wait_ready(base, proc)
                figures = asyncio.run(_drive(base, tables, players, seed, think_ms / 1000, seconds))
            finally:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGTERM)
                try:
                    proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
    figures["storage"] = "postgresql" if db else "sqlite"
    return figures


def bench_env(tables: int) -> dict[str, str]:
    """The environment of the bench's server: the bench is one client creating every table at once, which
    the creation limits (docs/security.md) exist to refuse; they are lifted for it alone."""
    return {
        **os.environ,
        "FLOE_CREATE_PER_MINUTE": "0",
        "FLOE_OPEN_TABLES_PER_CLIENT": "0",
        "FLOE_OPEN_TABLES_TOTAL": str(max(2000, 2 * tables)),
    }


def wait_ready(base: str, proc: subprocess.Popen[bytes], timeout: float = 60.0) -> None:
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

"""``floe bench server``: many concurrent tables driven through real WebSocket clients.

A ``floe serve`` process is started on a free port with a fresh SQLite database (or ``--db``). For each of
T tables, every seat is a person seat held by a WebSocket client that plays a random legal move as soon as
it is its turn (after ``--think-ms`` on average, drawn uniformly from half to one and a half times it,
when a pause is asked for). The latency of a move is the time from sending it to receiving its ``ack``
(which the server sends only after the move is committed to the database).

The clients must not be what limits the figures: they connect first (a hundred at a time) and only then
start playing, so connecting is not measured; they can be spread over several processes
(``client_procs``), each on uvloop when it is installed; and the figures include the clients' own CPU use
and how late their event loops woke up (``client_lag_p99_ms``: a latency measured by a late client is too
high by about that much), next to the server's CPU use, so a reader can tell who was busy.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import random
import statistics
import time
from collections.abc import Coroutine
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any, TypeVar

import httpx
import websockets
from pydantic_core import from_json, to_json
from rich.progress import Progress, TaskID

from floe.bench.probe import cpu_seconds, descendants, free_port, pct, served, wait_ready

__all__ = ["free_port", "run_server_bench", "wait_ready"]
T = TypeVar("T")


def run_async(main: Coroutine[Any, Any, T]) -> T:
    """Run ``main`` on uvloop when it is installed (the clients' loop does less work per message)."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    result: T = uvloop.run(main)
    return result


class _Seat:
    """One WebSocket client playing random legal moves for one seat."""

    def __init__(self, url: str, token: str, rng: random.Random, think: float) -> None:
        self.url, self.token, self.rng, self.think = url, token, rng, think
        self.latencies: list[float] = []
        self.sent_at: dict[int, float] = {}
        self.errors = 0
        self.finished = False
        self.ws: Any = None

    async def connect(self, gate: asyncio.Semaphore) -> None:
        async with gate:
            self.ws = await websockets.connect(self.url, max_size=2**22, compression=None, open_timeout=120)
            await self.ws.send(to_json({"type": "hello", "token": self.token}).decode())

    async def run(self, deadline: float) -> None:
        ws = self.ws
        try:
            await self._play(ws, deadline)
        finally:
            await ws.close()

    async def _play(self, ws: Any, deadline: float) -> None:
        counter = 0
        moved_on = -1
        while time.monotonic() < deadline:
            try:
                left = max(0.01, deadline - time.monotonic())
                raw = await asyncio.wait_for(ws.recv(), timeout=left)
            except TimeoutError:
                return
            message = from_json(raw)
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
                    move = {"type": "move", "action": action, "version": message["version"], "id": counter}
                    await ws.send(to_json(move).decode())


@dataclass(frozen=True)
class _SeatPlan:
    url: str
    token: str
    seed: int


async def _lag_probe(lags: list[float], stop: asyncio.Event) -> None:
    """How late this loop wakes from a 50 ms sleep, sampled until ``stop``."""
    while not stop.is_set():
        before = time.perf_counter()
        await asyncio.sleep(0.05)
        lags.append(time.perf_counter() - before - 0.05)


async def _clients(plans: list[_SeatPlan], think: float, seconds: float, go: Any, pipe: Connection) -> None:
    """Connect every seat of ``plans``, say so on ``pipe``, wait for ``go``, play, send back the figures."""
    seats = [_Seat(p.url, p.token, random.Random(p.seed), think) for p in plans]
    gate = asyncio.Semaphore(100)
    await asyncio.gather(*(s.connect(gate) for s in seats))
    pipe.send("connected")
    await asyncio.to_thread(go.wait)
    lags: list[float] = []
    stop = asyncio.Event()
    probe = asyncio.create_task(_lag_probe(lags, stop))
    cpu = time.process_time()
    deadline = time.monotonic() + seconds
    await asyncio.gather(*(s.run(deadline) for s in seats))
    stop.set()
    await probe
    pipe.send(
        {
            "latencies": [x for s in seats for x in s.latencies],
            "errors": sum(s.errors for s in seats),
            "finished": sum(s.finished for s in seats),
            "cpu": time.process_time() - cpu,
            "lags": lags,
        }
    )


def _client_main(plans: list[_SeatPlan], think: float, seconds: float, go: Any, pipe: Connection) -> None:
    run_async(_clients(plans, think, seconds, go, pipe))


async def _create_tables(base: str, tables: int, players: int, seed: int) -> list[_SeatPlan]:
    """Create the tables (16 requests at a time); every seat's plan."""
    plans: list[_SeatPlan] = []
    gate = asyncio.Semaphore(16)
    ws_base = base.replace("http://", "ws://")
    async with httpx.AsyncClient(base_url=base, timeout=120) as http:

        async def one(t: int) -> list[_SeatPlan]:
            async with gate:
                answer = await http.post(
                    "/api/tables", json={"seats": [{"kind": "person"}] * players, "public": False}
                )
            answer.raise_for_status()
            created = answer.json()
            url = f"{ws_base}/ws/tables/{created['table']['id']}"
            return [_SeatPlan(url, s["token"], seed * 100_003 + t * 4 + s["seat"]) for s in created["seats"]]

        for seats in await asyncio.gather(*(one(t) for t in range(tables))):
            plans += seats
    return plans


def _drive(
    base: str,
    server_pid: int,
    tables: int,
    players: int,
    seed: int,
    think: float,
    seconds: float,
    procs: int,
    progress: Progress | None = None,
) -> dict[str, Any]:
    def task(what: str, total: float | None) -> TaskID | None:
        return progress.add_task(what, total=total) if progress is not None else None

    def done(which: TaskID | None, completed: float) -> None:
        if progress is not None and which is not None:
            progress.update(which, completed=completed)

    creating = task(f"creating {tables} tables", 1)
    plans = asyncio.run(_create_tables(base, tables, players, seed))
    done(creating, 1)
    ctx = multiprocessing.get_context("spawn")
    go = ctx.Event()
    workers = []
    started_connecting = time.perf_counter()
    for k in range(procs):
        mine = plans[k::procs]
        parent, child = ctx.Pipe()
        proc = ctx.Process(target=_client_main, args=(mine, think, seconds, go, child), daemon=True)
        proc.start()
        child.close()
        workers.append((proc, parent))
    try:
        connecting = task(f"connecting {len(plans)} clients", len(workers))
        for k, (_, pipe) in enumerate(workers, start=1):
            if not pipe.poll(600) or pipe.recv() != "connected":
                raise RuntimeError("the clients could not connect")
            done(connecting, k)
        connecting_s = time.perf_counter() - started_connecting
        tree = [server_pid, *descendants(server_pid)]
        server_cpu = sum(cpu_seconds(p) for p in tree)
        start = time.perf_counter()
        go.set()
        playing = task(f"playing for {seconds:g} s", seconds)
        parts = []
        for _, pipe in workers:
            # Wait in short steps, so the bar moves; the same bound as before on a client that hangs.
            while not pipe.poll(1.0):
                done(playing, min(seconds, time.perf_counter() - start))
                if time.perf_counter() - start > seconds + 600:
                    raise RuntimeError("the clients did not finish")
            parts.append(pipe.recv())
        done(playing, seconds)
        elapsed = time.perf_counter() - start
        server_cpu = sum(cpu_seconds(p) for p in tree) - server_cpu
    finally:
        for proc, _ in workers:
            proc.join(30)
            if proc.is_alive():
                proc.kill()
    latencies = sorted(x for part in parts for x in part["latencies"])
    lags = [x for part in parts for x in part["lags"]]

    def ms(value: float) -> float:
        return round(1000 * value, 2)

    return {
        "tables": tables,
        "players": players,
        "clients": len(plans),
        "client_procs": procs,
        "moves": len(latencies),
        "seconds": round(elapsed, 2),
        "moves_per_sec": round(len(latencies) / elapsed, 1) if elapsed else 0.0,
        "p50_ms": ms(pct(latencies, 0.50)),
        "p90_ms": ms(pct(latencies, 0.90)),
        "p99_ms": ms(pct(latencies, 0.99)),
        "max_ms": ms(latencies[-1]) if latencies else 0.0,
        "mean_ms": ms(statistics.fmean(latencies)) if latencies else 0.0,
        "games_finished": sum(part["finished"] for part in parts) // players,
        "errors": sum(part["errors"] for part in parts),
        "think_ms": round(think * 1000),
        "connect_seconds": round(connecting_s, 2),
        "server_cpu_pct": round(100 * server_cpu / elapsed, 1) if elapsed else 0.0,
        "client_cpu_pct": round(100 * sum(part["cpu"] for part in parts) / elapsed, 1) if elapsed else 0.0,
        "client_lag_p99_ms": ms(pct(lags, 0.99)),
        "load_avg": round(os.getloadavg()[0], 2),  # the machine's: other work competes for its cores
        "cores": os.cpu_count(),
    }


def run_server_bench(
    tables: int,
    players: int,
    seed: int,
    *,
    think_ms: float = 0.0,
    seconds: float = 120.0,
    db: str | None = None,
    client_procs: int = 1,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Start a server, drive ``tables`` tables through WebSocket clients, stop it; returns the figures.
    ``progress`` (if any) shows each phase as it goes: the server's start, the tables, the clients
    connecting, the seconds played."""
    starting = progress.add_task("starting the server", total=None) if progress is not None else None
    with served(db=db, extra=["--bot-workers", "1"], env=bench_env(tables)) as server:
        if progress is not None and starting is not None:
            progress.update(starting, total=1, completed=1)
        figures = _drive(
            server.base,
            server.proc.pid,
            tables,
            players,
            seed,
            think_ms / 1000,
            seconds,
            max(1, min(client_procs, tables)),
            progress,
        )
    figures["storage"] = "postgresql" if db and not db.startswith("sqlite") else "sqlite"
    return figures


def bench_env(tables: int) -> dict[str, str]:
    """The environment of the bench's server: the bench is one client creating every table at once, which
    the creation limits (docs/security.md) exist to refuse; they are lifted for it alone."""
    return {
        "FLOE_CREATE_PER_MINUTE": "0",
        "FLOE_OPEN_TABLES_PER_CLIENT": "0",
        "FLOE_OPEN_TABLES_TOTAL": str(max(2000, 2 * tables)),
    }

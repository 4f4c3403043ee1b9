"""The normal player of the abuse benchmark: one person playing a bot (``random``, or a search such as
``ismcts:ms=1000``) at a human pace, in a process of its own, measuring what a person would feel while an
attack runs against the same server.

The player creates a table (the server's first game; a person seat and a bot seat), plays a random legal
move after a pause drawn uniformly from half to one and a half times ``think``, and starts a new table when a
game ends or the connection is lost. It records, with the time they were taken (CLOCK_MONOTONIC, which every
process on the machine shares):

- ``ack``: from sending a move to receiving its ``ack`` (the move is then committed to the database);
- ``bot``: from seeing the bot to move to seeing the position after its move (one sample per decision).

It runs in its own process so that an attack's client side (a thousand sockets, a 300 MB upload) cannot
delay the measurement. The parent talks to it through a pipe: ``ready`` once a move was acknowledged and
the bot replied (its worker is up), ``window(t0, t1)`` for the samples of an attack, ``stop``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import multiprocessing
import random
import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

import httpx
import websockets

from floe.bench.probe import pct


@dataclass
class Samples:
    ack: list[tuple[float, float]] = field(default_factory=list)  # (when answered, seconds)
    bot: list[tuple[float, float]] = field(default_factory=list)
    ack_pending_since: float | None = None  # a move sent and not yet acknowledged
    bot_pending_since: float | None = None  # the bot to move, and no move of it seen yet
    errors: list[tuple[float, str]] = field(default_factory=list)
    games: int = 0

    def window(self, t0: float, t1: float) -> dict[str, Any]:
        """The figures of ``t0``..``t1``: a wait still open at ``t1`` counts as one sample of its length
        so far, so a server that stopped answering shows as a long wait rather than as no data."""
        acks = [v for t, v in self.ack if t0 <= t <= t1]
        bots = [v for t, v in self.bot if t0 <= t <= t1]
        ack_open = t1 - self.ack_pending_since if self.ack_pending_since else 0.0
        bot_open = t1 - max(self.bot_pending_since, t0) if self.bot_pending_since else 0.0
        ack_all = acks + ([ack_open] if ack_open > 0.1 else [])
        bot_all = bots + ([bot_open] if bot_open > 0.1 else [])
        return {
            "moves": len(acks),
            "ack_p50_ms": round(1000 * pct(ack_all, 0.5), 1),
            "ack_p99_ms": round(1000 * pct(ack_all, 0.99), 1),
            "ack_max_ms": round(1000 * max(ack_all, default=0.0), 1),
            "ack_waiting_s": round(ack_open, 2),
            "bot_replies": len(bots),
            "bot_p50_s": round(pct(bot_all, 0.5), 3),
            "bot_p99_s": round(pct(bot_all, 0.99), 3),
            "bot_max_s": round(max(bot_all, default=0.0), 3),
            "bot_waiting_s": round(bot_open, 2),
            "errors": len([e for t, e in self.errors if t0 <= t <= t1]),
            "last_error": next((e for t, e in reversed(self.errors) if t0 <= t <= t1), ""),
        }


async def _one_game(
    http: httpx.AsyncClient,
    ws_base: str,
    think: float,
    rng: random.Random,
    s: Samples,
    ready: asyncio.Event,
    bot: str = "random",
) -> None:
    answer = await http.post(
        "/api/tables",
        json={
            "seats": [{"kind": "person", "name": "Normal"}, {"kind": "bot", "bot": bot}],
            "public": False,
        },
    )
    answer.raise_for_status()
    created = answer.json()
    token, table = created["seats"][0]["token"], created["table"]["id"]
    async with websockets.connect(f"{ws_base}/ws/tables/{table}", max_size=2**22, compression=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        seat: int | None = None
        moved_on = -1
        bot_version = -1
        counter = 0
        while True:
            message = json.loads(await ws.recv())
            now = time.monotonic()
            kind = message["type"]
            if kind == "welcome":
                seat = message["seat"]
            elif kind == "ack":
                if s.ack_pending_since is not None:
                    s.ack.append((now, now - s.ack_pending_since))
                    s.ack_pending_since = None
                    if s.bot:  # warmed up: a move acknowledged and a bot reply seen (its worker started)
                        ready.set()
            elif kind == "error":
                s.errors.append((now, f"{message.get('code')}: {message.get('message')}"[:200]))
                s.ack_pending_since = None
            elif kind == "state":
                version, to_move = message["version"], message["to_move"]
                if s.bot_pending_since is not None and version > bot_version:
                    s.bot.append((now, now - s.bot_pending_since))
                    s.bot_pending_since = None
                    if s.ack:
                        ready.set()
                if message["status"] == "finished":
                    s.games += 1
                    return
                if to_move is not None and to_move != seat and s.bot_pending_since is None:
                    s.bot_pending_since, bot_version = now, version
                if to_move == seat and message["legal"] and version != moved_on:
                    moved_on = version
                    await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                    counter += 1
                    action = rng.choice(message["legal"])["id"]
                    s.ack_pending_since = time.monotonic()
                    await ws.send(
                        json.dumps({"type": "move", "action": action, "version": version, "id": counter})
                    )


async def _play(base: str, think: float, seed: int, pipe: Connection, bot: str = "random") -> None:
    s = Samples()
    rng = random.Random(seed)
    ready = asyncio.Event()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()

    def command() -> None:
        try:
            request = pipe.recv()
        except EOFError:
            stop.set()
            return
        if request[0] == "window":
            pipe.send(s.window(request[1], request[2]))
        elif request[0] == "stop":
            stop.set()

    loop.add_reader(pipe.fileno(), command)

    async def games() -> None:
        # The normal player is another person than the attacker: it comes from its own address (the
        # attacker's are 127.0.0.1), so the per-client limits the attacks run into are not its own.
        transport = httpx.AsyncHTTPTransport(local_address="127.0.0.2")
        async with httpx.AsyncClient(base_url=base, timeout=60, transport=transport) as http:
            while True:
                try:
                    await _one_game(http, base.replace("http://", "ws://"), think, rng, s, ready, bot)
                except asyncio.CancelledError:
                    raise
                except Exception as exc:  # the server is down or dropped us: note it, start a new table
                    s.errors.append((time.monotonic(), f"{type(exc).__name__}: {exc}"[:200]))
                    s.ack_pending_since = None
                    await asyncio.sleep(0.5)

    async def announce() -> None:
        await ready.wait()
        pipe.send(("ready",))

    tasks = [asyncio.create_task(games()), asyncio.create_task(announce())]
    await stop.wait()
    for task in tasks:
        task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await asyncio.gather(*tasks)


def _main(base: str, think: float, seed: int, pipe: Connection, bot: str) -> None:
    asyncio.run(_play(base, think, seed, pipe, bot))


class NormalPlayer:
    """The player process (see the module docstring)."""

    def __init__(self, base: str, think: float, seed: int, bot: str = "random") -> None:
        ctx = multiprocessing.get_context("spawn")
        self.pipe, child = ctx.Pipe()
        self.proc = ctx.Process(target=_main, args=(base, think, seed, child, bot), daemon=True)
        self.proc.start()
        child.close()

    def wait_ready(self, timeout: float) -> bool:
        """Whether the player made its first move within ``timeout`` seconds."""
        if self.pipe.poll(timeout):
            return bool(self.pipe.recv() == ("ready",))
        return False

    def window(self, t0: float, t1: float) -> dict[str, Any]:
        self.pipe.send(("window", t0, t1))
        while True:
            if not self.pipe.poll(30):
                raise RuntimeError("the normal player does not answer")
            answer = self.pipe.recv()
            if isinstance(answer, dict):
                return answer

    def stop(self) -> None:
        with contextlib.suppress(OSError, BrokenPipeError):
            self.pipe.send(("stop",))
        self.proc.join(10)
        if self.proc.is_alive():
            self.proc.kill()
            self.proc.join()

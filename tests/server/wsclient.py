"""An asyncio WebSocket client for the server tests: one connection to a table, every message kept.

A reader task stores each message the server sends (``messages``) and the latest ``state``; ``until``
waits, with a timeout, for a condition on them. ``play`` is a well-behaved player that picks random legal
moves from its ``state`` messages and records every acknowledged move.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import websockets
from websockets.exceptions import ConnectionClosed

T = TypeVar("T")


class Closed(Exception):
    """The server closed the connection (or it broke) while we were waiting."""


@dataclass(frozen=True)
class Acked:
    """A move the server acknowledged: made on ``made_on``, the table at ``version`` afterwards."""

    table: str
    seat: int
    made_on: int
    action: int
    notation: str
    version: int


class WsClient:
    """One WebSocket connection to ``/ws/tables/{table_id}``."""

    def __init__(
        self, ws_url: str, table_id: str, token: str | None = None, *, name: str = "", lang: str | None = None
    ) -> None:
        self.url = f"{ws_url}/ws/tables/{table_id}"
        self.table_id = table_id
        self.token = token
        self.lang = lang  # the language the hello asks for (None: none asked)
        self.name = name or table_id
        self.ws: Any = None
        self.messages: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None
        self.seat: int | None = None
        self.closed = False
        self.close_code: int | None = None
        self._news = asyncio.Event()
        self._reader: asyncio.Task[None] | None = None
        self._ids = 0
        self.pending: tuple[int, int] | None = None  # (version, action) of a move sent but not answered

    # --- connection ----------------------------------------------------------------------------------
    async def connect(self, *, hello: bool = True, timeout: float = 60.0) -> None:
        """Open the connection; with ``hello``, say hello and wait for the welcome and the first state."""
        self.ws = await websockets.connect(self.url, open_timeout=timeout, max_size=2**22)
        self._reader = asyncio.create_task(self._read())
        if hello:
            hello = {"type": "hello", "token": self.token}
            if self.lang is not None:
                hello["lang"] = self.lang
            await self.send(hello)
            welcome = await self.next_message(lambda m: m["type"] in ("welcome", "error"), timeout=timeout)
            if welcome["type"] != "welcome":
                raise AssertionError(f"{self.name}: hello refused: {welcome}")
            self.seat = welcome["seat"]
            await self.until(lambda: self.state, timeout=timeout)

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                assert isinstance(raw, str), f"{self.name}: the server sent a binary frame"
                message = json.loads(raw)
                self.messages.append(message)
                if message.get("type") == "state":
                    self.state = message
                self._notify()
        except ConnectionClosed:
            pass
        finally:
            self.closed = True
            self.close_code = self.ws.close_code
            self._notify()

    def _notify(self) -> None:
        news, self._news = self._news, asyncio.Event()
        news.set()

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            await asyncio.wait_for(self._reader, 10)

    # --- sending -------------------------------------------------------------------------------------
    async def send(self, message: dict[str, Any]) -> None:
        await self.send_raw(json.dumps(message))

    async def send_raw(self, data: str | bytes) -> None:
        try:
            await self.ws.send(data)
        except ConnectionClosed as exc:
            raise Closed(f"{self.name}: closed while sending") from exc

    def new_id(self) -> str:
        self._ids += 1
        return f"{self.name}/{self._ids}"

    # --- waiting -------------------------------------------------------------------------------------
    async def until(self, check: Callable[[], T | None], timeout: float = 60.0) -> T:
        """Wait until ``check()`` returns something other than None (or False) and return it."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            news = self._news
            result = check()
            if result is not None and result is not False:
                return result
            if self.closed:
                raise Closed(f"{self.name}: connection closed (code {self.close_code})")
            remaining = deadline - loop.time()
            if remaining <= 0:
                last = self.messages[-1] if self.messages else None
                raise TimeoutError(f"{self.name}: timed out; last message {str(last)[:300]}")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(news.wait(), remaining)

    async def next_message(
        self, match: Callable[[dict[str, Any]], bool], *, start: int | None = None, timeout: float = 60.0
    ) -> dict[str, Any]:
        """The first message from index ``start`` on (default: the next one to arrive) that ``match``es."""
        begin = len(self.messages) if start is None else start

        def find() -> dict[str, Any] | None:
            return next((m for m in self.messages[begin:] if match(m)), None)

        return await self.until(find, timeout)

    async def reply(self, message_id: Any, start: int, timeout: float = 60.0) -> dict[str, Any]:
        """The ``ack`` or ``error`` answering the message ``message_id`` (received from index ``start``)."""
        return await self.next_message(
            lambda m: m["type"] in ("ack", "error") and m.get("id") == message_id,
            start=start,
            timeout=timeout,
        )

    async def roundtrip(self, data: str | bytes, timeout: float = 60.0) -> dict[str, Any] | None:
        """Send ``data`` and follow it with a ping; the messages in between answer ``data``.

        Returns the ``error`` that answered it, or None if it drew no error before the pong."""
        start = len(self.messages)
        await self.send_raw(data)
        await self.send({"type": "ping"})
        await self.next_message(lambda m: m["type"] == "pong", start=start, timeout=timeout)
        return next((m for m in self.messages[start:] if m["type"] == "error"), None)


def my_turn(client: WsClient) -> dict[str, Any] | None:
    """The latest state if it is ``client``'s turn (with legal choices) or the game is over."""
    state = client.state
    if state is None:
        return None
    if state["status"] == "finished":
        return state
    if state["to_move"] == client.seat and state["legal"]:
        return state
    return None


async def play(
    client: WsClient,
    rng: random.Random,
    acks: list[Acked],
    *,
    pause: Callable[[], bool] = lambda: False,
    timeout: float = 60.0,
) -> str:
    """Play random legal moves for ``client``'s seat until the game is over (``"finished"``) or
    ``pause()`` is true on our turn (``"paused"``). Every acknowledged move is appended to ``acks``.
    ``Closed`` propagates if the connection drops; a refused move is an ``AssertionError``."""
    while True:
        state = await client.until(lambda: my_turn(client), timeout)
        if state["status"] == "finished":
            return "finished"
        if pause():
            return "paused"
        choice = rng.choice(state["legal"])
        message_id = client.new_id()
        start = len(client.messages)
        client.pending = (state["version"], choice["id"])
        await client.send(
            {"type": "move", "action": choice["id"], "version": state["version"], "id": message_id}
        )
        answer = await client.reply(message_id, start, timeout)
        client.pending = None
        if answer["type"] != "ack":
            raise AssertionError(f"{client.name}: legal move {choice['notation']} refused: {answer}")
        assert answer["version"] > state["version"], answer
        acks.append(
            Acked(
                table=client.table_id,
                seat=state["seat"],
                made_on=state["version"],
                action=choice["id"],
                notation=choice["notation"],
                version=answer["version"],
            )
        )
        version = answer["version"]
        await client.until(lambda v=version: client.state and client.state["version"] >= v, timeout)

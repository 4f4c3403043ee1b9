"""Issue 24, items 7 and 8: chat and reconnect floods.

Chat limits used to be per connection, so reconnecting refilled them (565 lines a second went into other
people's tables), and the chat held in memory was bounded in rooms, not bytes (0.71 MB a room, 2.9 GB at the
default). A seat token reconnecting 83 times a second made the server tell 100 spectators of each reconnect.
Over a real server with small bounds: a seat's chat bucket survives its reconnects, spectators share their
address's, and an address's lines at every table together are bounded; hellos are rate-limited per seat token
and per address; a seat reconnecting over and over sends the others at most one ``seats`` message per
``seats_news_interval``. In process: the chat lines kept in memory stay within their bytes.
"""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

from floe.server.chat import ChatLimits, ChatRooms
from floe.server.conns import Conn
from floe.server.store import Store, database_url
from floe.server.writer import Writer

from .serverproc import ServerProcess, running_server
from .test_tables import make_table
from .wsclient import WsClient

PEOPLE = [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "random"}]


def _settings(**values: Any) -> list[str]:
    return [arg for name, value in values.items() for arg in ("--set", f"{name}={value}")]


async def _say(client: WsClient, text: str) -> dict[str, Any] | None:
    return await client.roundtrip(json.dumps({"type": "chat", "text": text}))


async def _hello(server: ServerProcess, table: str, token: str | None) -> dict[str, Any]:
    """Open a connection and say hello; its first welcome or error (the connection is closed after)."""
    client = WsClient(server.ws_url, table, token)
    await client.connect(hello=False)
    await client.send({"type": "hello", "token": token})
    answer = await client.next_message(lambda m: m["type"] in ("welcome", "error"), start=0)
    await client.close()
    return answer


def test_chat_limits_outlive_reconnects_and_bound_an_address(tmp_path: Path) -> None:
    extra = _settings(chat_burst=3, chat_per_second=0.001, chat_client_burst=5, chat_client_per_second=0.001)

    async def run(server: ServerProcess, tables: list[str], token: str) -> None:
        ann = WsClient(server.ws_url, tables[0], token, name="ann")
        await ann.connect()
        for k in range(3):
            assert await _say(ann, f"line {k}") is None
        await ann.close()
        ann = WsClient(server.ws_url, tables[0], token, name="ann again")
        await ann.connect()
        refused = await _say(ann, "after a reconnect")
        assert refused is not None and refused["code"] == "too_fast", refused
        await ann.close()
        # A spectator of the same address at another table: its own bucket (3) is full, but its address
        # has 2 of its 5 lines left.
        watcher = WsClient(server.ws_url, tables[1], None, name="watcher")
        await watcher.connect()
        assert await _say(watcher, "one") is None
        assert await _say(watcher, "two") is None
        refused = await _say(watcher, "three")
        assert refused is not None and refused["code"] == "too_fast", refused
        await watcher.close()

    with running_server(tmp_path / "data", extra=extra) as server:
        made = server.create(PEOPLE, game="arktia")
        other = server.create(PEOPLE, game="arktia")
        asyncio.run(run(server, [made["table"]["id"], other["table"]["id"]], made["seats"][0]["token"]))


def test_hellos_are_rate_limited_per_seat_token_and_per_address(tmp_path: Path) -> None:
    extra = _settings(
        seat_connect_burst=3,
        seat_connects_per_minute=0.01,
        client_connect_burst=6,
        client_connects_per_minute=0.01,
    )

    async def run(server: ServerProcess, table: str, token: str) -> None:
        for _ in range(3):
            assert (await _hello(server, table, token))["type"] == "welcome"
        refused = await _hello(server, table, token)
        assert refused["type"] == "error" and refused["code"] == "too_fast", refused
        # The refused seat hello took nothing from the address: three spectators still connect.
        for _ in range(3):
            assert (await _hello(server, table, None))["type"] == "welcome"
        refused = await _hello(server, table, None)
        assert refused["type"] == "error" and refused["code"] == "too_fast", refused

    with running_server(tmp_path / "data", extra=extra) as server:
        made = server.create(PEOPLE, game="arktia")
        asyncio.run(run(server, made["table"]["id"], made["seats"][0]["token"]))
        seats = server.get(f"/api/tables/{made['table']['id']}").json()["seats"]
        assert not seats[0]["connected"]


def test_a_seat_reconnecting_over_and_over_is_not_told_to_everyone_each_time(tmp_path: Path) -> None:
    interval, reconnects = 30.0, 10
    extra = _settings(seats_news_interval=interval, seat_connect_burst=100)

    async def run(server: ServerProcess, table: str, token: str) -> None:
        watcher = WsClient(server.ws_url, table, None, name="watcher")
        await watcher.connect()
        start, began = len(watcher.messages), time.monotonic()
        for _ in range(reconnects):
            assert (await _hello(server, table, token))["type"] == "welcome"
        await watcher.roundtrip(json.dumps({"type": "ping"}))
        elapsed = time.monotonic() - began
        news = [m for m in watcher.messages[start:] if m["type"] in ("seats", "state")]
        # The first change is told at once, the rest at most once an interval (before: two per reconnect).
        assert len(news) <= 1 + int(elapsed // interval), (len(news), elapsed)
        await watcher.close()

    with running_server(tmp_path / "data", extra=extra) as server:
        made = server.create(PEOPLE, game="arktia")
        asyncio.run(run(server, made["table"]["id"], made["seats"][0]["token"]))


class _Silent:
    async def send_text(self, data: str) -> None:
        pass


def test_the_chat_kept_in_memory_is_bounded_in_bytes(tmp_path: Path) -> None:
    budget = 40_000
    limits = ChatLimits(per_second=100, burst=1000, client_per_second=100, client_burst=1000)
    limits = ChatLimits(**{**limits.__dict__, "memory_bytes": budget})

    async def run(store: Store) -> None:
        writer = Writer(store)
        rooms = ChatRooms(store, writer, limits)
        tables = []
        for k in range(12):
            table = make_table()
            table.row.id = f"room{k}"
            tables.append(table)
            for j in range(10):
                speaker = Conn(_Silent(), None, client=f"10.0.0.{k}")
                await rooms.say(table, speaker, f"{k}.{j} " + "é" * 290, None, [])
            assert rooms.bytes <= budget + 10 * 1000  # at most one room over: the one being said in
        # The first rooms left memory; their lines are read from the store again, in full.
        lines = await rooms.history("room0")
        assert [line.text.split()[0] for line in lines] == [f"0.{j}" for j in range(10)]
        writer.close()

    store = Store(database_url(None, tmp_path / "data"))
    try:
        asyncio.run(run(store))
    finally:
        store.close()


def test_rooms_without_a_line_count_in_the_chat_memory_too(tmp_path: Path) -> None:
    # Each table's room cost ~1 KB in memory but only its lines were counted: asking for the chat of many
    # silent tables (a spectator's hello at each) kept a room for every one of them, counted as nothing.
    budget, asked = 5_000, 200
    limits = ChatLimits(memory_bytes=budget)

    async def run(store: Store) -> None:
        writer = Writer(store)
        rooms = ChatRooms(store, writer, limits)
        for k in range(asked):
            assert await rooms.history(f"silent{k}") == []
        assert 0 < rooms.bytes <= budget
        assert len(rooms._rooms) < asked // 10  # bounded by the bytes, whatever the number of tables
        writer.close()

    store = Store(database_url(None, tmp_path / "data"))
    try:
        asyncio.run(run(store))
    finally:
        store.close()

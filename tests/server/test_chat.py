"""Issue 13, item 11: table chat over a real server.

People at a table and spectators write lines everyone connected reads; a spectator's line is marked as such
and its name is cleaned (and may not pass for a seat); a line too long, empty, or one too many in a burst
(spectators of one address share theirs) is refused with a short error and nothing is stored or sent; lines
are kept beside the table (not in the game's record) across a restart, the newest ``chat_history`` only, and
come with the replay. The SQLite and PostgreSQL stores keep them alike, and a database made before chat
existed gets its table.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from floe.server.chat import ChatLine, insert_chat, load_chat
from floe.server.recent import note_recent, recent_rows
from floe.server.store import Store, actions_t, tables_t

from .serverproc import ServerProcess, running_server
from .wsclient import WsClient

BURST = 4
HISTORY = 6
# A rate so slow that no token comes back during a test: the burst is all a connection may say.
LIMITS = ["--set", "chat_per_second=0.001", "--set", f"chat_burst={BURST}"]
LIMITS += ["--set", f"chat_history={HISTORY}"]
PEOPLE = [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "random"}]


async def _say(client: WsClient, text: Any, name: Any = None) -> dict[str, Any] | None:
    """Send a chat line; the error that answered it, or None."""
    message: dict[str, Any] = {"type": "chat", "text": text}
    if name is not None:
        message["name"] = name
    return await client.roundtrip(json.dumps(message))


def _lines(client: WsClient) -> list[dict[str, Any]]:
    return [line for m in client.messages if m["type"] == "chat" for line in m["lines"]]


async def _session(server: ServerProcess, table: str, token: str) -> list[dict[str, Any]]:
    ann = WsClient(server.ws_url, table, token, name="ann")
    watcher = WsClient(server.ws_url, table, None, name="watcher")
    await ann.connect()
    await watcher.connect()
    assert await _say(ann, "  hello\u202e  <b>all</b>\u0007 ") is None
    assert await _say(watcher, "hi from the rail", name="  Zoe\u200b ") is None
    refused = await _say(watcher, "I am P1", name="P1")
    assert refused is not None and refused["code"] == "bad_name"
    await ann.until(lambda: len(_lines(ann)) == 2 or None)
    lines = _lines(ann)
    assert [(x["seat"], x["spectator"], x["name"], x["text"]) for x in lines] == [
        (0, False, "Ann", "hello <b>all</b>"),
        (None, True, "Zoe", "hi from the rail"),
    ]
    await watcher.until(lambda: len(_lines(watcher)) == 2 or None)
    version = server.get(f"/api/tables/{table}").json()["version"]

    # Too long, empty, not text: refused; nothing is stored or sent, the table does not change.
    for text, code in (("x" * 400, "too_long"), (" \u200b\n ", "bad_chat"), (5, "malformed")):
        error = await _say(ann, text)
        assert error is not None and error["code"] == code, (text, error)
        assert len(error["message"]) < 120 and "x" * 50 not in error["message"]
    # A flood from a new spectator connection: spectators are limited by their address, so it has what
    # the watcher (same address) left of the burst (two tries spent), then every line is refused.
    flooder = WsClient(server.ws_url, table, None, name="flooder")
    await flooder.connect()
    left = BURST - 2
    answers = [await _say(flooder, f"line {k}") for k in range(left + 3)]
    assert answers[:left] == [None] * left
    assert all(a is not None and a["code"] == "too_fast" for a in answers[left:]), answers
    await watcher.until(lambda: len(_lines(watcher)) == 2 + left or None)
    await ann.roundtrip('{"type": "ping"}')  # a line wrongly sent would have arrived before this pong
    assert len(_lines(watcher)) == 2 + left and len(_lines(ann)) == 2 + left
    assert server.get(f"/api/tables/{table}").json()["version"] == version
    await flooder.close()
    await ann.close()
    await watcher.close()
    return _lines(watcher)


async def _history(server: ServerProcess, table: str) -> list[dict[str, Any]]:
    late = WsClient(server.ws_url, table, None, name="late")
    await late.connect()
    lines = await late.until(lambda: _lines(late) or None)
    await late.close()
    return lines


def test_chat_lines_limits_spectators_and_restart(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with running_server(data, extra=LIMITS) as server:
        created = server.create(PEOPLE, game="arktia")
        table, token = created["table"]["id"], created["seats"][0]["token"]
        said = asyncio.run(_session(server, table, token))
        assert len(said) == BURST
        # The newest HISTORY lines are kept: a new connection gets them as its history.
        assert asyncio.run(_history(server, table)) == said[-HISTORY:]
    with running_server(data, extra=LIMITS) as server:
        assert asyncio.run(_history(server, table)) == said[-HISTORY:]
        replay = server.get(f"/api/tables/{table}/replay").json()
        assert replay["chat"] == said[-HISTORY:]
        state = server.get(f"/api/tables/{table}/state").json()
        assert "hello" not in str(state)  # chat is not part of the game's state or log


def test_the_history_is_bounded(tmp_path: Path) -> None:
    with running_server(tmp_path / "data", extra=[*LIMITS, "--set", f"chat_burst={3 * BURST}"]) as server:
        table = server.create(PEOPLE, game="arktia")["table"]["id"]

        async def talk() -> list[dict[str, Any]]:
            for k in range(3):  # three spectators of one address, sharing its burst
                client = WsClient(server.ws_url, table, None, name=f"s{k}")
                await client.connect()
                for j in range(BURST):
                    assert await _say(client, f"{k}.{j}") is None
                await client.close()
            return await _history(server, table)

        lines = asyncio.run(talk())
        assert [x["text"] for x in lines] == [f"{k}.{j}" for k in range(3) for j in range(BURST)][-HISTORY:]


@pytest.fixture(params=["sqlite", "postgresql"])
def old_database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database made before chat existed (only the tables and their logs)."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    else:
        url = request.getfixturevalue("fresh_pg_url").replace("postgresql://", "postgresql+psycopg://")
    engine = sa.create_engine(url)
    old = sa.MetaData()
    tables_t.to_metadata(old)
    actions_t.to_metadata(old)
    old.create_all(engine)
    engine.dispose()
    return url


def test_a_database_made_before_chat_gets_its_tables(old_database: str) -> None:
    """Chat lines and recent tables are kept alike in SQLite and PostgreSQL, in a database made before."""
    assert "floe_chat" not in sa.inspect(sa.create_engine(old_database)).get_table_names()
    store = Store(old_database)
    try:
        with store.engine.begin() as db:
            for k in range(4):
                note_recent(db, "k" * 20, f"t{k}", k % 2, keep=3)
            note_recent(db, "k" * 20, "t1", 0, keep=3)  # again: it moves to the front
        assert recent_rows(store, "k" * 20, 10) == [("t1", 0), ("t3", 1), ("t2", 0)]
        assert recent_rows(store, "j" * 20, 10) == []
        for k in range(5):
            line = ChatLine(k, 1.0 + k, 3, None if k % 2 else 1, "Ann", f"<script>{k}</script>")
            with store.engine.begin() as db:
                insert_chat(db, "t1", line, keep=3)
        loaded = load_chat(store, "t1", 10)
        assert [x.idx for x in loaded] == [2, 3, 4] and loaded[0].text == "<script>2</script>"
        assert [x.seat for x in loaded] == [1, None, 1]
    finally:
        store.close()

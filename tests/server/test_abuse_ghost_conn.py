"""Issue 24, item 6: a hello whose database read fails leaves no ghost connection.

The chat history a new connection is sent is read from the store after the connection is registered. With
the store failing there (here: the chat table renamed away under the running server, as a database that is
down would fail), each such hello used to leave its seat counted as connected forever: after
``max_seat_connections`` of them the seat's owner was refused ``too_many_connections`` once the database was
back, and the away bot never took the seat over. Now the client hears ``storage`` and the seat is as before.
"""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from .serverproc import running_server
from .wsclient import WsClient

SEAT_CONNECTIONS = 2


def _rename(data_dir: Path, old: str, new: str) -> None:
    with sqlite3.connect(data_dir / "floe.sqlite3") as db:
        db.execute(f"ALTER TABLE {old} RENAME TO {new}")


async def _hello(ws_url: str, table: str, token: str) -> dict[str, object]:
    """Say hello; the first welcome or error it gets."""
    client = WsClient(ws_url, table, token)
    await client.connect(hello=False)
    await client.send({"type": "hello", "token": token})
    answer = await client.next_message(lambda m: m["type"] in ("welcome", "error"), start=0)
    await client.close()
    return answer


def test_a_hello_whose_database_read_fails_unregisters_its_connection(tmp_path: Path) -> None:
    data = tmp_path / "data"
    extra = ["--set", f"max_seat_connections={SEAT_CONNECTIONS}"]
    with running_server(data, extra=extra) as server:
        made = server.create([{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "random"}])
        table, token = made["table"]["id"], made["seats"][0]["token"]
        _rename(data, "floe_chat", "floe_chat_away")  # the store fails the hello's read
        for _ in range(SEAT_CONNECTIONS + 1):
            answer = asyncio.run(_hello(server.ws_url, table, token))
            assert answer["type"] == "error" and answer["code"] == "storage", answer
        seats = server.get(f"/api/tables/{table}").json()["seats"]
        assert not seats[0]["connected"]
        _rename(data, "floe_chat_away", "floe_chat")  # the database is back
        answer = asyncio.run(_hello(server.ws_url, table, token))
        assert answer["type"] == "welcome", answer
        assert "Traceback" not in server.log_path.read_text()

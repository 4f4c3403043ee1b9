"""The turn timer counts the seat's decision only, not the time the table waited for its players (a real
server process)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from .serverproc import ServerProcess, running_server

# A short timer: the table waits for its second player longer than that (a timer and a second after the table
# was made) before the game starts. Nothing here depends on the machine's speed: the test waits for that time
# to pass (a slow machine only waits longer, which changes nothing), the deadline is checked as a lower bound
# and the "nothing before the deadline" check can only pass wrongly on a slow machine, never fail wrongly.
TIMER = 1.5
MARGIN = 1.0


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with running_server(tmp_path_factory.mktemp("clock")) as srv:
        yield srv


def ws_open(server: ServerProcess, table: str, token: str) -> ClientConnection:
    ws = connect(f"{server.ws_url}/ws/tables/{table}", legacy=True)
    ws.send(json.dumps({"type": "hello", "token": token}))
    return ws


def until(
    ws: ClientConnection, done: Callable[[dict[str, Any]], bool], timeout: float = 30
) -> dict[str, Any]:
    """Read messages until one satisfies ``done``."""
    end = time.monotonic() + timeout
    while True:
        message: dict[str, Any] = json.loads(ws.recv(timeout=max(0.1, end - time.monotonic())))
        if done(message):
            return message


def test_the_timer_starts_when_the_game_does_not_when_the_table_was_made(server: ServerProcess) -> None:
    created = server.create([{"kind": "person"}, {"kind": "person"}], turn_timer=TIMER)
    table = created["table"]["id"]
    first, second = (seat["token"] for seat in created["seats"])
    ws = ws_open(server, table, first)
    try:
        waiting = until(ws, lambda m: m["type"] == "state")
        assert waiting["status"] == "waiting" and waiting["deadline"] is None
        # The second person comes well after a timer started at creation would have run out (and been seen
        # by a tick): with such a timer, the first seat to act would be marked away at once.
        made = created["table"]["created"]
        time.sleep(max(0.0, made + TIMER + MARGIN - time.time()))
        joined_at = time.time()
        ws_open(server, table, second).close()
        started = until(ws, lambda m: m["type"] == "state" and m["status"] == "playing")
        deadline = started["deadline"]
        assert deadline is not None, started
        # The deadline is the server's clock (time.time()), which is this machine's clock too.
        assert joined_at + TIMER <= deadline + 0.05, (made, joined_at, deadline)
        # Nobody is marked away and nothing is played for them before that deadline (a message that arrived
        # before it was sent before it).
        to_move = started["to_move"]
        while time.time() < deadline - 0.2:
            try:
                message = json.loads(ws.recv(timeout=max(0.05, deadline - 0.2 - time.time())))
            except TimeoutError:
                break
            if message["type"] in ("state", "seats"):
                seats = message["table"]["seats"]
                assert not seats[to_move]["away"], ("marked away before the deadline", message)
                assert message["table"]["version"] == started["version"], "played before the deadline"
    finally:
        ws.close()

"""Issue 24, item 3: a person seat nobody sits at gives an attacker's table no "person first" in the lane.

A table of a person goes before bot-only tables in the search lane, and its searches are never cut to the
last free worker's slice (``bot_last_worker_slice``). Before, any table with a person seat had that, so an
attacker's tables with a person seat nobody ever opened (or one opened once and left to the away bot) were
served like a person's. Now only a table where a person sits (``Table.attended``: a person seat whose link
was opened and who is not away) is. Over a real server with one search worker: each such table's bot, given
an hour's search, moves after the slice (before: never, its hour holding the only worker).
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from floe.server.tables import Seat, Table

from .serverproc import ServerProcess, running_server
from .wsclient import WsClient

HOUR = "ismcts:ms=3600000"  # a search no test outlasts: only the last free worker's slice ends it


def test_a_table_is_attended_only_while_a_person_sits_there() -> None:
    # The rule on its own: what ``Table.attended`` reads of the seats.
    def attended(*seats: Seat) -> bool:
        table = Table.__new__(Table)
        table.seats = list(seats)
        return table.attended

    bot = Seat("bot", "B", bot=HOUR)
    assert not attended(Seat("person", "Ann"), bot)  # never opened
    assert attended(Seat("person", "Ann", seen=True), bot)
    assert not attended(Seat("person", "Ann", seen=True, away=True), bot)  # the away bot plays for Ann
    assert not attended(bot, bot)


def _moved(server: ServerProcess, table: str, past: int, deadline: float) -> int:
    """The table's version once it is past ``past`` (a bounded wait: only a hang fails it)."""
    while True:
        version: int = server.get(f"/api/tables/{table}").json()["version"]
        if version > past:
            return version
        assert time.monotonic() < deadline, f"table {table} never moved past version {past}"
        time.sleep(0.05)


def test_unopened_and_away_person_seats_get_no_person_first(tmp_path: Path) -> None:
    extra = ["--bot-workers", "1", "--bot-time-cap", "3600", "--set", "bot_max_ms=3600000"]
    extra += ["--set", "bot_search_round=0", "--set", "bot_last_worker_slice=0.2", "--set", "away_after=0.3"]
    with running_server(tmp_path / "data", extra=extra) as server:
        deadline = time.monotonic() + 120  # bounds a hang only (before: an hour's search)
        # A bot moves first beside a person seat nobody ever opens: its search is a bot-only table's.
        unopened = server.create([{"kind": "bot", "bot": HOUR}, {"kind": "person"}], game="arktia")
        _moved(server, unopened["table"]["id"], 0, deadline)

        # A person opens their seat, leaves, and the away bot plays for them: the table's own bot's
        # searches are a bot-only table's too.
        made = server.create([{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": HOUR}], game="arktia")
        table, token = made["table"]["id"], made["seats"][0]["token"]

        async def visit() -> None:
            ann = WsClient(server.ws_url, table, token)
            await ann.connect()
            await ann.close()

        asyncio.run(visit())
        state: dict[str, Any] = server.get(f"/api/tables/{table}/state", token=token).json()
        assert state["to_move"] == 0 and state["version"] == 0, state
        # Ann's turn (played by the away bot), then the bot's turn, then Ann's again: the table's bot moved.
        while True:
            state = server.get(f"/api/tables/{table}/state", token=token).json()
            if state["to_move"] == 1:
                break
            assert time.monotonic() < deadline, "the away bot never played"
            time.sleep(0.05)
        at_bot = state["version"]
        while True:
            version = _moved(server, table, at_bot, deadline)
            state = server.get(f"/api/tables/{table}/state", token=token).json()
            if state["to_move"] != 1 or state["version"] != version:
                break
            at_bot = version  # a turn of several decisions: still the bot's

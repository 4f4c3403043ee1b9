"""Issue 24, item 3, the search fleets (``mcts_big_boards``, ``greedy_fleet``): what a search lane full of an
attacker's tables may not take from a person.

A table of a person goes before bot-only tables in the search lane, and its searches are never cut to the
last free worker's slice (``bot_last_worker_slice``). Before, any table with a person seat had that, so an
attacker's tables with a person seat nobody ever opened (or one opened once and left to the away bot) were
served like a person's. Now only a table where a person sits (``Table.attended``: a person seat whose link
was opened and who is not away) is. Over a real server with one search worker: each such table's bot, given
an hour's search, moves after the slice (before: never, its hour holding the only worker).

And the search workers run at a lower CPU priority than the server (``bot_search_nice``): with 400 tables
searching on a busy two-core machine, the server's acks waited for CPU behind its own workers.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Iterator
from typing import Any

import pytest

from floe.bench.attacks import bot_workers
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


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One search worker whose searches may last an hour, cut only by the last free worker's slice."""
    extra = ["--bot-workers", "1", "--bot-time-cap", "3600", "--set", "bot_max_ms=3600000"]
    extra += ["--set", "bot_search_round=0", "--set", "bot_last_worker_slice=0.2", "--set", "away_after=0.3"]
    with running_server(tmp_path_factory.mktemp("fleet") / "data", extra=extra) as served:
        yield served


def test_the_search_workers_run_at_a_lower_priority_than_the_server(server: ServerProcess) -> None:
    assert server.proc is not None
    pid = server.proc.pid
    mine = os.getpriority(os.PRIO_PROCESS, pid)
    workers = sorted(os.getpriority(os.PRIO_PROCESS, w) for w in bot_workers(pid))
    # The fast lane's worker keeps the server's priority (cheap bots answer people); the search one is
    # 10 lower (the default), or the lowest there is.
    assert workers == [mine, min(19, mine + 10)], (mine, workers)


def test_unopened_and_away_person_seats_get_no_person_first(server: ServerProcess) -> None:
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

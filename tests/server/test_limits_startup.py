"""Issue 11 item 9 (second half): finished tables are loaded on demand, not replayed at every start.

The attack left thousands of tables that every start-up replayed (39 s and 6.5 GB for the big layouts).
Now a server replays only its unfinished tables; a finished one is read from the store when someone asks
for it (summary, state, replay, record, WebSocket) and kept in a bounded cache; the lobby lists finished
tables from the store's rows. The database of these tests is filled by ``floe.bench.startup``: one
short real game stored under many ids, as the server stores a table.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from floe.bench import startup as bench

from .serverproc import ServerProcess, running_server
from .wsclient import WsClient


def table_id(k: int) -> str:
    return f"{k:012x}"  # the ids the bench gives its tables


def test_a_server_with_10000_finished_tables_starts_as_fast_as_an_empty_one(tmp_path: Path) -> None:
    empty, full = tmp_path / "empty", tmp_path / "full"
    bench.fill(empty, 0)
    figures: dict[str, Any] = bench.fill(full, 10_000)
    bench.measure(empty)  # compiles and caches the bytecode, as an installed server has it
    base, loaded = bench.measure(empty), bench.measure(full)
    print(f"start-up: empty {base}; 10,000 finished tables of {figures['actions_per_game']} actions {loaded}")
    # Nothing was replayed: the memory is the empty server's (a count of megabytes, whatever the speed) ...
    assert loaded["rss_mb"] <= base["rss_mb"] + 30, (base, loaded)
    # ... and so is the work: the CPU time of two starts of the same server, on the same machine in the same
    # run (CPU time, not wall time, which grows with whatever else runs on the cores), so a slow or busy
    # machine scales both alike; replaying the tables would cost many times an empty start. The figures
    # themselves are `floe bench startup`'s (docs/performance.md).
    assert loaded["ready_cpu_s"] <= 2 * base["ready_cpu_s"], (base, loaded)
    assert loaded["listed"] == 200 and loaded["loaded_status"] == "finished"


@pytest.fixture
def archive(tmp_path: Path) -> ServerProcess:
    """12 finished tables (the even ones public) and 2 unfinished ones; a finished-table cache of 2."""
    data = tmp_path / "data"
    bench.fill(data, 12, unfinished=2)
    return ServerProcess(data, extra=["--set", "finished_cache=2"])


def test_finished_tables_are_listed_and_loaded_on_demand(archive: ServerProcess) -> None:
    archive.start()
    try:
        listed = archive.get("/api/tables").json()
        ids = [t["id"] for t in listed]
        assert ids == [table_id(k) for k in (12, 10, 8, 6, 4, 2, 0)]  # public ones, newest first
        assert [t["status"] for t in listed] == ["playing"] + ["finished"] * 6
        assert [t["id"] for t in archive.get("/api/tables?status=finished").json()] == ids[1:]
        by_id = {t["id"]: t for t in listed}
        for k in range(12):  # six times the cache: each is loaded from the store, some more than once
            tid = table_id(k)
            summary = archive.get(f"/api/tables/{tid}").json()
            assert summary["status"] == "finished" and summary["id"] == tid
            if tid in by_id:
                assert summary == by_id[tid]  # the list's summary (from the row alone) is the replayed one
            state = archive.get(f"/api/tables/{tid}/state").json()
            assert state["status"] == "finished" and state["result"] is not None
            record = archive.get(f"/api/tables/{tid}/record")
            assert record.status_code == 200 and len(record.json()["actions"]) > 0
            replay = archive.get(f"/api/tables/{tid}/replay?reveal=true").json()
            assert replay["frames"][-1]["version"] == summary["version"]
            join = archive.post(f"/api/tables/{tid}/join", {"name": "Late"})
            # A public finished table has no free seat; a private one takes no joins from the lobby at all.
            code = (409, "no_free_seat") if tid in by_id else (403, "private_table")
            assert (join.status_code, join.json()["error"]["code"]) == code
        assert archive.get(f"/api/tables/{table_id(99)}").status_code == 404
        assert archive.get("/api/tables/" + "a" * 200).status_code == 404
        welcome = asyncio.run(spectate(archive, table_id(5)))
        assert welcome["status"] == "finished"
    finally:
        archive.stop()


async def spectate(server: ServerProcess, tid: str) -> dict[str, Any]:
    client = WsClient(server.ws_url, tid, None, name="spectator")
    await client.connect()
    await client.close()
    assert client.state is not None
    return client.state


def test_a_game_that_ends_in_play_stays_listed_and_loadable_after_restarts(tmp_path: Path) -> None:
    bots = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
    server = ServerProcess(tmp_path / "data", extra=["--set", "finished_cache=0"])
    server.start()
    try:
        # A game the bots end soon (Arktia after one round of turns): what is tested is its end and after.
        tid = server.create(bots, game="arktia", options={"max_turns": 1})["table"]["id"]
        deadline = time.monotonic() + 60  # only bounds a hang
        while (summary := server.get(f"/api/tables/{tid}").json())["status"] != "finished":
            assert time.monotonic() < deadline
            time.sleep(0.2)
        version = summary["version"]
        for restart in ("kill", "stop", None):
            listed = server.get("/api/tables?status=finished").json()
            assert [t["id"] for t in listed] == [tid] and listed[0]["version"] == version
            assert server.get(f"/api/tables/{tid}/record").status_code == 200
            assert server.get(f"/api/tables/{tid}/state").json()["version"] == version
            if restart == "kill":
                server.kill()
                server.start()
            elif restart == "stop":
                server.stop()
                server.start()
    finally:
        server.stop()


def test_a_finished_table_an_older_server_left_unmarked_is_marked_at_start(tmp_path: Path) -> None:
    data = tmp_path / "data"
    bench.fill(data, 1)
    with sqlite3.connect(data / "floe.sqlite3") as db:
        db.execute("UPDATE floe_tables SET finished = 0")
    with running_server(data, extra=["--set", "finished_cache=0"]) as server:
        listed = server.get("/api/tables").json()
        assert [(t["id"], t["status"]) for t in listed] == [(table_id(0), "finished")]
    with sqlite3.connect(data / "floe.sqlite3") as db:
        assert db.execute("SELECT finished FROM floe_tables").fetchall() == [(1,)]

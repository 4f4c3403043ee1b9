"""A real ``floe serve --db postgresql://...`` process: tables live in PostgreSQL and survive restarts.

A person plays a 2-seat table against the ``baseline`` bot through the HTTP API (random legal moves,
seeded); the bot moves on the server, so the person polls its state until it is their turn again. Each
test has its own fresh database in the session's throwaway cluster (``pg.py``).
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from floe.core.record import Record
from floe.server.store import Store, TableRow, database_url

from .pg import PgCluster
from .serverproc import ServerProcess, free_port

SEATS = [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "baseline"}]
ME = 0


def start(data_dir: Path, db: str) -> ServerProcess:
    server = ServerProcess(data_dir, db=db)
    server.start()
    return server


def new_table(server: ServerProcess) -> tuple[str, str]:
    """A person-vs-baseline table; returns (table id, the person's seat token). The creator's seat is
    claimed from the start, so the game is on at once."""
    created = server.create(SEATS)
    table = created["table"]["id"]
    assert created["table"]["status"] == "playing", created["table"]
    [seat] = created["seats"]
    assert seat["seat"] == ME
    return table, seat["token"]


def state_of(server: ServerProcess, table: str, token: str | None) -> dict[str, Any]:
    answer = server.get(f"/api/tables/{table}/state", token=token)
    assert answer.status_code == 200, answer.text
    state: dict[str, Any] = answer.json()
    return state


def my_turn(server: ServerProcess, table: str, token: str, timeout: float = 60) -> dict[str, Any]:
    """Poll the state until it is my turn or the game is over (the bot moves on the server meanwhile)."""
    end = time.monotonic() + timeout
    while True:
        state = state_of(server, table, token)
        if state["status"] == "finished" or state["to_move"] == ME:
            return state
        assert state["status"] == "playing" and state["to_move"] == 1 - ME, state["table"]
        assert time.monotonic() < end, f"the bot did not move within {timeout}s: {state['table']}"
        time.sleep(0.02)


def move(server: ServerProcess, table: str, token: str, state: dict[str, Any], rng: random.Random) -> int:
    """Play a random legal move on ``state``; returns the acknowledged version."""
    assert state["legal"], "my turn, but no legal move offered"
    action = rng.choice(state["legal"])["id"]
    answer = server.post(f"/api/tables/{table}/moves", {"action": action, "version": state["version"]}, token)
    assert answer.status_code == 200, answer.text
    version: int = answer.json()["version"]
    assert version > state["version"]
    return version


def play(
    server: ServerProcess, table: str, token: str, rng: random.Random, moves: int | None = None
) -> dict[str, Any]:
    """Make ``moves`` moves (all if None); returns the state once it is my turn again or the game is over."""
    state = my_turn(server, table, token)
    made = 0
    while state["status"] != "finished" and (moves is None or made < moves):
        move(server, table, token, state, rng)
        made += 1
        state = my_turn(server, table, token)
    return state


def stored(db: str, tmp_path: Path) -> list[TableRow]:
    """Every table the database holds, read directly (no server)."""
    store = Store(database_url(db, tmp_path))
    try:
        return store.load_all()
    finally:
        store.close()


def test_a_finished_game_is_kept_in_postgres_across_a_restart(fresh_pg_url: str, tmp_path: Path) -> None:
    first = start(tmp_path / "first", fresh_pg_url)
    try:
        table, token = new_table(first)
        final = play(first, table, token, random.Random(1))
        assert final["status"] == "finished" and final["to_move"] is None and final["legal"] == []
        scores = final["result"]["scores"]
        assert len(scores) == 2
        record = first.get(f"/api/tables/{table}/record")
        assert record.status_code == 200, record.text
        before = record.json()
        summary = first.get(f"/api/tables/{table}").json()
    finally:
        first.stop()

    assert Record.from_json(before).result == {"scores": scores, "ranking": final["result"]["ranking"]}
    assert len(before["actions"]) == final["version"] == summary["version"]
    # It went to PostgreSQL: the database holds the whole game, no SQLite file was made.
    [row] = stored(fresh_pg_url, tmp_path)
    assert row.id == table and row.finished and len(row.actions) == final["version"]
    assert row.seats[ME]["claimed"] and row.seats[1 - ME]["bot"] == "baseline"
    assert not list(tmp_path.rglob("*.sqlite3*"))

    second = start(tmp_path / "second", fresh_pg_url)
    try:
        assert second.get(f"/api/tables/{table}").json() == summary
        again = state_of(second, table, token)  # the seat token still opens the seat
        assert again["seat"] == ME and again["status"] == "finished"
        assert again["version"] == final["version"] and again["result"] == final["result"]
        assert again["view"] == final["view"]
        assert second.get(f"/api/tables/{table}/record").json() == before
        listed = second.get("/api/tables").json()
        assert [t["id"] for t in listed] == [table]
        late = second.post(
            f"/api/tables/{table}/moves", {"action": 0, "version": final["version"]}, token=token
        )
        assert late.status_code == 409 and late.json()["error"]["code"] == "finished"
    finally:
        second.stop()


def test_kill_9_mid_game_resumes_at_the_same_version(fresh_pg_url: str, tmp_path: Path) -> None:
    rng = random.Random(2)
    server = start(tmp_path / "first", fresh_pg_url)
    try:
        table, token = new_table(server)
        halfway = play(server, table, token, rng, moves=24)
        assert halfway["status"] == "playing", "the game ended before the crash; make fewer moves"
        spectator = state_of(server, table, None)
    finally:
        server.kill()  # SIGKILL: no clean shutdown

    [row] = stored(fresh_pg_url, tmp_path)
    assert len(row.actions) == halfway["version"] and not row.finished
    log_at_crash = row.actions

    server = start(tmp_path / "second", fresh_pg_url)
    try:
        # My turn, so nothing moved since the snapshot: the table is exactly where it was.
        resumed = state_of(server, table, token)
        for key in ("version", "status", "to_move", "deciding", "view", "legal", "log", "result"):
            assert resumed[key] == halfway[key], key
        assert state_of(server, table, None)["view"] == spectator["view"]

        # A move acknowledged just before a crash survives it; the bot's turn resumes after the restart.
        acked = move(server, table, token, resumed, rng)
    finally:
        server.kill()
    [row] = stored(fresh_pg_url, tmp_path)
    assert len(row.actions) >= acked and row.actions[: len(log_at_crash)] == log_at_crash

    server = start(tmp_path / "third", fresh_pg_url)
    try:
        assert my_turn(server, table, token)["version"] >= acked
        final = play(server, table, token, rng)
        assert final["status"] == "finished"
        record = server.get(f"/api/tables/{table}/record").json()
    finally:
        server.stop()
    assert final["log"][: len(halfway["log"])] == halfway["log"]
    [row] = stored(fresh_pg_url, tmp_path)
    assert row.finished and len(row.actions) == len(record["actions"]) == final["version"]
    assert row.actions[: len(log_at_crash)] == log_at_crash


def serve_once(data_dir: Path, db: str, timeout: float = 30) -> subprocess.CompletedProcess[str]:
    """``floe serve`` on ``db`` run to its end: a refused start ends after the claim's waiting (half a second
    here: ``claim_wait``); one that is still running after ``timeout`` seconds serves, which fails the test
    (it is killed first)."""
    cmd = [sys.executable, "-m", "floe", "serve", "--port", str(free_port()), "--data-dir", str(data_dir)]
    cmd += ["--set", "claim_wait=0.5"]
    proc = subprocess.Popen(
        [*cmd, "--db", db], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)  # the server and its bot workers
        out, err = proc.communicate()
        raise AssertionError(f"a second server on {db} started serving: {err[-500:]}") from None
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def test_a_second_server_on_the_same_postgres_database_is_refused(
    fresh_pg_url: str, pg_cluster: PgCluster, tmp_path: Path
) -> None:
    """Two servers on one database would each keep their own copy of its tables in memory: the second one
    stops at once with one line. Each server has its own data directory, so what refuses it is the
    database's lock (a PostgreSQL advisory lock), not the SQLite lock file of a shared directory."""
    first = start(tmp_path / "first", fresh_pg_url)
    try:
        table, token = new_table(first)
        done = serve_once(tmp_path / "second", fresh_pg_url)
        assert done.returncode == 2, done.stderr
        assert "Traceback" not in done.stderr and "Traceback" not in done.stdout
        lines = [line for line in done.stderr.splitlines() if line.strip()]
        assert len(lines) == 1 and "already serving this database" in lines[0], done.stderr
        # The first server was not disturbed, and the lock is per database: another database of the same
        # PostgreSQL gets its own server.
        assert state_of(first, table, token)["status"] == "playing"
        other = start(tmp_path / "other", pg_cluster.create_database())
        try:
            assert other.get("/api/tables").json() == []
        finally:
            other.stop()
    finally:
        first.stop()
    # Once the first server is gone the database is free again.
    again = start(tmp_path / "again", fresh_pg_url)
    try:
        assert again.get(f"/api/tables/{table}").status_code == 200
    finally:
        again.stop()

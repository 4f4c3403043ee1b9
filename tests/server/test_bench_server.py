"""``floe bench server`` drives whole games through real WebSocket clients and reports consistent figures."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from floe.core.registry import make_game
from floe.server.store import Store, TableRow


def decisions(row: TableRow) -> int:
    """How many decisions (not chance outcomes) the stored log of ``row`` holds, by replaying it; the game
    must be over."""
    state = make_game(row.game, row.players, row.options).new_initial_state()
    count = 0
    for action in row.actions:
        count += not state.is_chance_node()
        state.apply(action)
    assert state.is_terminal() and row.finished, row.id
    return count


def test_bench_server_plays_every_table_to_the_end_and_reports_latency(tmp_path: Path) -> None:
    # The bench's server stores in a database the test keeps, so its figures can be checked against what
    # the server committed.
    db = f"sqlite:///{tmp_path / 'bench.sqlite3'}"
    cmd = [
        sys.executable,
        "-m",
        "floe",
        "bench",
        "server",
        "--tables",
        "3",
        "--players",
        "3",
        "--think-ms",
        "0",
        "--client-procs",
        "2",
        "--json",
        "--db",
        db,
    ]
    # As in a terminal (rich draws its progress only there): each phase shows on stderr, stdout stays JSON.
    terminal = {**os.environ, "TTY_INTERACTIVE": "1", "TTY_COMPATIBLE": "1"}
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300, check=True, env=terminal)
    figures = json.loads(done.stdout)
    for phase in ("starting the server", "creating 3 tables", "connecting 9 clients", "playing for 120 s"):
        assert phase in done.stderr, phase
    assert figures["tables"] == 3 and figures["clients"] == 9 and figures["storage"] == "sqlite"
    assert figures["client_procs"] == 2
    # Who was busy: the clients' CPU and loop lag next to the server's, so a reader can tell.
    assert figures["server_cpu_pct"] > 0 and figures["client_cpu_pct"] > 0
    assert figures["client_lag_p99_ms"] >= 0
    assert figures["games_finished"] == 3 and figures["errors"] == 0
    assert 0 < figures["p50_ms"] <= figures["p99_ms"] <= figures["max_ms"]
    # Every seat is a client (no bots), so each acknowledged move is one decision in a stored log: the
    # moves the clients counted are the decisions the server committed, no more (an ack counted twice, a
    # refused move counted) and no fewer (a move the clients missed).
    store = Store(db)
    try:
        rows = store.load_all()
    finally:
        store.close()
    assert len(rows) == 3 and all(row.players == 3 for row in rows)
    assert figures["moves"] == sum(decisions(row) for row in rows) > 3 * 60
    assert figures["moves_per_sec"] > 0 and figures["seconds"] > 0


def test_bench_server_refuses_bad_arguments() -> None:
    cmd = [sys.executable, "-m", "floe", "bench", "server", "--tables", "0"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--tables" in done.stderr and "Traceback" not in done.stderr


def test_startup_bench_stores_finished_tables_and_times_the_start() -> None:
    cmd = [sys.executable, "-m", "floe", "bench", "startup", "--tables", "30", "--json"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300, check=True)
    figures = json.loads(done.stdout)
    assert (
        figures["finished_tables"] == 30 and figures["actions_per_game"] > 20 and figures["database_mb"] > 0
    )
    assert 0 < figures["ready_s"] < 300 and figures["rss_mb"] > 30
    # The second start's figures, and the lobby's list of them: the 15 public ones.
    assert figures["listed"] == 15 and figures["loaded_status"] == "finished"
    too_many = [sys.executable, "-m", "floe", "bench", "startup", "--tables", "100001"]
    refused = subprocess.run(too_many, capture_output=True, text=True, timeout=60)
    assert (
        refused.returncode != 0
        and "--tables must be 1 to 100,000, not 100,001" in refused.stderr + refused.stdout
    )

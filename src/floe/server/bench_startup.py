"""``floe bench server --startup N``: how long ``floe serve`` takes to answer with N finished tables stored.

A hostile client made 3,491 tables in 25 s, and each was replayed at every start (issue 11, hole 9); the
target is a start within 3 s with 10,000 finished tables (finished tables load on demand). The bench plays
a few whole games of the server's first game in this process (random legal moves, chance outcomes drawn
from the table's seed exactly as the server draws them), stores N finished tables cycling over them through
the server's own ``Store`` (so the rows are what a real server would have written), then starts
``floe serve`` on that database and measures the time until it answers, and its memory then.
"""

from __future__ import annotations

import random
import secrets
import subprocess
import sys
import tempfile
import time
from functools import partial
from pathlib import Path
from typing import Any

from floe.core.registry import default_game, entry
from floe.server.bench_probe import MB, ProcWatch, Served, free_port, wait_ready
from floe.server.store import Store, TableRow, database_url
from floe.server.tables import Seat, Table


def finished_logs(
    games: int, players: int, seed: int
) -> tuple[str, dict[str, Any], list[tuple[int, list[int]]]]:
    """``games`` whole random games of the first game: its name, its stored options, (seed, log) each."""
    info = entry(default_game())
    game = info.new_game(players, {})
    logs = []
    for k in range(games):
        table_seed = seed * 1_000 + k
        rng = random.Random(table_seed)
        state = game.new_initial_state()
        Table.resolve_chance(state, table_seed)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
            Table.resolve_chance(state, table_seed)
        logs.append((table_seed, list(state.history)))
    return game.name, game.options_dict(), logs


def store_tables(data_dir: Path, count: int, players: int, seed: int) -> int:
    """Store ``count`` finished tables in a fresh SQLite database in ``data_dir``; the actions stored."""
    name, options, logs = finished_logs(min(count, 20), players, seed)
    store = Store(database_url(None, data_dir))
    seats = [Seat(kind="person", name=f"P{k + 1}", claimed=True).stored() for k in range(players)]
    actions = 0
    try:
        batch: list[TableRow] = []
        for k in range(count):
            table_seed, log = logs[k % len(logs)]
            batch.append(
                TableRow(
                    id=secrets.token_hex(6),
                    game=name,
                    players=players,
                    options=options,
                    seed=table_seed,
                    created=time.time() - count + k,
                    public=True,
                    turn_timer=None,
                    seats=seats,
                    finished=True,
                    actions=log,
                )
            )
            actions += len(log)
            if len(batch) == 500 or k == count - 1:
                store.run([partial(Store.insert_table, row=row) for row in batch])
                batch = []
    finally:
        store.close()
    return actions


def run_startup_bench(tables: int, *, players: int = 2, seed: int = 0) -> dict[str, Any]:
    """Store ``tables`` finished tables, start ``floe serve`` on them, time it until it answers."""
    with tempfile.TemporaryDirectory(prefix="floe-startup-") as tmp:
        data = Path(tmp)
        began = time.perf_counter()
        actions = store_tables(data, tables, players, seed)
        stored = time.perf_counter() - began
        port = free_port()
        cmd = [sys.executable, "-m", "floe", "serve", "--port", str(port), "--data-dir", tmp]
        with (data / "server.log").open("wb") as log:
            started = time.perf_counter()
            proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
            server = Served(f"http://127.0.0.1:{port}", proc, data / "server.log", data)
            try:
                wait_ready(server.base, proc, timeout=600)
                ready = time.perf_counter() - started
                with ProcWatch(server) as watch:
                    watch.start_window()
                    memory = watch.stop_window()
            finally:
                server.kill()
                proc.wait()
        size = sum(f.stat().st_size for f in data.glob("floe.sqlite3*"))
    return {
        "tables": tables,
        "actions": actions,
        "database_mb": round(size / MB, 1),
        "store_seconds": round(stored, 1),
        "start_seconds": round(ready, 2),
        "server_rss_mb": memory["peak_rss_mb"],
        "target_seconds": 3.0,
    }

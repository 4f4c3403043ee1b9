"""``floe bench server`` drives whole games through real WebSocket clients and reports consistent figures."""

from __future__ import annotations

import json
import subprocess
import sys


def test_bench_server_plays_every_table_to_the_end_and_reports_latency() -> None:
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
    ]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300, check=True)
    figures = json.loads(done.stdout)
    assert figures["tables"] == 3 and figures["clients"] == 9 and figures["storage"] == "sqlite"
    assert figures["client_procs"] == 2
    # Who was busy: the clients' CPU and loop lag next to the server's, so a reader can tell.
    assert figures["server_cpu_pct"] > 0 and figures["client_cpu_pct"] > 0
    assert figures["client_lag_p99_ms"] >= 0
    assert figures["games_finished"] == 3 and figures["errors"] == 0
    assert figures["moves"] > 3 * 60  # a 3-player game takes well over 60 decisions
    assert 0 < figures["p50_ms"] <= figures["p99_ms"] <= figures["max_ms"]
    assert (
        abs(figures["moves_per_sec"] - figures["moves"] / figures["seconds"])
        < 0.05 * figures["moves_per_sec"]
    )


def test_bench_server_refuses_bad_arguments() -> None:
    cmd = [sys.executable, "-m", "floe", "bench", "server", "--tables", "0"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--tables" in done.stderr and "Traceback" not in done.stderr


def test_startup_bench_stores_finished_tables_and_times_the_start() -> None:
    cmd = [sys.executable, "-m", "floe", "bench", "server", "--startup", "30", "--json"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300, check=True)
    figures = json.loads(done.stdout)
    assert (
        figures["finished_tables"] == 30 and figures["actions_per_game"] > 20 and figures["database_mb"] > 0
    )
    assert 0 < figures["ready_s"] < 300 and figures["rss_mb"] > 30
    # The second start's figures, and the lobby's list of them: the 15 public ones.
    assert figures["listed"] == 15 and figures["loaded_status"] == "finished"
    too_many = [sys.executable, "-m", "floe", "bench", "server", "--startup", "100001"]
    refused = subprocess.run(too_many, capture_output=True, text=True, timeout=60)
    assert refused.returncode != 0 and "--startup must be 1 to 100,000" in refused.stderr + refused.stdout

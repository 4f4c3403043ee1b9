"""``floe serve`` and its port, on real processes: a port in use is one line and exit 2; the address is
printed once the server answers there."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path

import httpx

from floe.bench.probe import free_port


def serve(port: int, data_dir: Path) -> list[str]:
    return [sys.executable, "-m", "floe", "serve", "--port", str(port), "--data-dir", str(data_dir)]


def test_a_port_in_use_is_one_line_and_exit_2(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            serve(port, tmp_path / "data"), capture_output=True, text=True, timeout=120, check=False
        )
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2, done.stderr
    assert len(lines) == 1, done.stderr
    assert f"port {port} is taken" in lines[0] and "--port" in lines[0], lines
    assert "http://" not in done.stderr + done.stdout, "no address for a server that is not there"
    assert not (tmp_path / "data").exists(), "nothing is opened before the port is known to be free"


def test_the_address_is_printed_once_the_server_answers_there(tmp_path: Path) -> None:
    port = free_port()
    proc = subprocess.Popen(
        serve(port, tmp_path / "data"),
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        start_new_session=True,
    )
    try:
        assert proc.stderr is not None
        first: list[str] = []
        reader = threading.Thread(target=lambda: first.append(proc.stderr.readline()), daemon=True)
        reader.start()
        reader.join(120)
        assert first and first[0].startswith(f"Floe web table on http://localhost:{port}/"), first
        # One try, no waiting: the line says the server is there.
        assert httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=30).status_code == 200
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)

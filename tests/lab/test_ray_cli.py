"""``--ray``, ``--ray-address`` and ``--batch`` on ``floe simulate`` and ``floe tournament``: bad input, the
missing extra, and Ctrl-C during a run on a local Ray instance started for it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from floe.bench.probe import default_sigint
from floe.cli import app
from floe.lab import where
from floe.lab.raybackend import ray_log_path
from floe.lab.tournament import load_results, make_tournament, run_tournament
from floe.lab.where import Backend

from .raycluster import group_pids, kill_group, listening, need_ray, on_loopback


def _invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--batch", "8"], "--batch goes with --ray or --ray-address"),
        (["--ray", "--batch", "0"], "the batch must be from 1 to 100,000 games"),
        (["--ray-address", "127.0.0.1:1", "--workers", "2"], "a cluster (--ray-address) has its own"),
        (["--ray-address", "host :1"], "the Ray address must be a host:port"),
        (["--ray-address", "x" * 300], "the Ray address must be a host:port"),
        (["--ray", "--workers", "0"], "--workers must be positive"),
        (["--workers", "5000"], "workers must be from 1 to 1024"),
    ],
)
def test_bad_ray_options_say_so_in_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    out = tmp_path / "r.jsonl"
    for command in (
        ["simulate", "arctic", "--games", "2", *args],
        ["tournament", "arctic", "--bots", "random", "--games", "4", "--out", str(out), *args],
    ):
        code, stderr = _invoke(*command)
        assert code == 2 and message in stderr and "Traceback" not in stderr, (command, stderr)
        assert len(stderr.strip().splitlines()) == 1
    assert not out.exists()


def test_without_the_extra_ray_says_how_to_install_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(where, "ray_installed", lambda: False)
    out = tmp_path / "r.jsonl"
    for command in (
        ["simulate", "arctic", "--games", "2", "--ray"],
        [
            "tournament",
            "arctic",
            "--bots",
            "random",
            "--games",
            "4",
            "--out",
            str(out),
            "--ray-address",
            "h:1",
        ],
    ):
        code, stderr = _invoke(*command)
        assert code == 2, stderr
        assert stderr.strip() == f"error: {where.RAY_INSTALL}"
    assert not out.exists()
    # Without --ray nothing asks for Ray.
    assert _invoke("simulate", "arctic", "--games", "2", "--workers", "2")[0] == 0


ENDLESS = 20_000  # games: at a few hundred random games a second on two workers, over a minute


def test_ctrl_c_on_ray_leaves_a_resumable_file(tmp_path: Path) -> None:
    need_ray()
    path = tmp_path / "interrupted.jsonl"
    floe = str(Path(sys.executable).with_name("floe"))
    # A run that does not end by itself while the test watches: the interrupt, sent once the file shows that
    # games are being played, always finds it running.
    command = [floe, "tournament", "arctic", "--bots", "random", "--games", str(ENDLESS), "--seed", "7"]
    command += ["--ray", "--workers", "2", "--batch", "4", "--out", str(path), "--json"]
    env = {k: v for k, v in os.environ.items() if k != "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"}
    # Ray's worst case for a terminal: its C++ core (GCS, raylet, core worker) and its processes write every
    # log line to the standard error they inherit, as they do with their error lines on a Ctrl-C.
    env["RAY_LOG_TO_STDERR"] = "1"
    proc = subprocess.Popen(
        command,
        # Ray's loopback switch left to the command (only the tests' auth token in the environment).
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # a group of its own, as a terminal's foreground job, for its Ctrl-C
        preexec_fn=default_sigint,  # ...with Ctrl-C's default action, whatever this test run inherited
    )
    sockets: set[str] = set()
    try:
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline and proc.poll() is None:
            if path.exists() and path.read_text().count("\n") > 60:
                break
            time.sleep(0.2)
        assert proc.poll() is None, proc.communicate()
        sockets = set(listening(group_pids(proc.pid)))
        os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C in a terminal does
        _, stderr = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
        kill_group(proc.pid, graceful=False)  # whatever Ray left (nothing to save), the test leaves nothing
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr and "Error" not in stderr, stderr  # (Typer exits 130 quietly)
    # None of Ray's own lines reach the person: they are in the run's Ray log (issue 27, item 11); what
    # the person reads is the command's own words.
    log = ray_log_path(proc.pid)
    try:
        kept = log.read_text(errors="replace")
    finally:
        log.unlink(missing_ok=True)
    assert "raylet" in kept and "gcs" in kept.lower(), kept[:2000]
    assert stderr.strip().splitlines()[0].startswith("interrupted: the games played so far are in"), stderr
    assert "raylet" not in stderr and "gcs" not in stderr.lower() and " INFO " not in stderr, stderr
    # The local instance listened on 127.0.0.1 only (its GCS, raylet, workers and this driver).
    assert len(sockets) >= 4 and all(on_loopback(a) for a in sockets), sorted(sockets)

    t = make_tournament("arctic", 4, "random", 7, {})
    done = load_results(path, t)
    assert 60 <= len(done) < ENDLESS
    # Resumed (here in one process, on the first 40 deals): only the missing games are played, and the
    # results are those of a run never interrupted.
    resumed = run_tournament(t, 40, Backend(), path, resume=True, progress=False)
    fresh = run_tournament(t, 40, Backend(), tmp_path / "fresh.jsonl", progress=False)
    assert resumed.results == fresh.results
    assert resumed.resumed == sum(1 for key in done if key[0] < 40)
    assert json.loads(path.read_text().splitlines()[0])["type"] == "header"

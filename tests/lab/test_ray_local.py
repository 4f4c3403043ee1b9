"""The lab on a local Ray instance (one for the module, two CPUs): the same results as in one process and
on local processes, and a Ray worker killed mid-run loses no game and plays none twice."""

from __future__ import annotations

import io
import json
import os
import signal
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from rich.progress import Progress

from floe.bench.lab import bench_lab
from floe.lab.balance.command import run_balance_command
from floe.lab.raybackend import ray_session
from floe.lab.simulate import simulate
from floe.lab.tournament import make_tournament, run_tournament
from floe.lab.where import DEFAULT_BATCH, Backend

from .raycluster import descendants, need_ray, title

ray = need_ray()


@pytest.fixture(scope="module", autouse=True)
def local_ray() -> Iterator[Any]:
    """One local Ray instance for the module (starting one takes seconds); the runs below keep it."""
    assert not ray.is_initialized()  # no Ray left by a test before in this process
    with ray_session(Backend(2, ray=True)) as session:
        yield session
    assert not ray.is_initialized()


def _lines(path: Path) -> dict[tuple[int, int], dict[str, Any]]:
    """The game lines of a results file by (deal, rotation), without the time each game took."""
    lines = [json.loads(line) for line in path.read_text().splitlines()[1:]]
    return {(x["deal"], x["rotation"]): {k: v for k, v in x.items() if k != "seconds"} for x in lines}


def test_a_tournament_is_the_same_in_one_process_on_processes_and_on_ray(tmp_path: Path) -> None:
    t = make_tournament("arctic", 4, "baseline,random", 11, {})
    runs = {
        "serial": Backend(),
        "processes": Backend(2),
        "ray": Backend(2, ray=True, batch=3),  # 3 does not divide the 24 games: a short last batch
    }
    outcomes = {
        name: run_tournament(t, 6, b, tmp_path / f"{name}.jsonl", progress=False) for name, b in runs.items()
    }
    assert outcomes["ray"].results == outcomes["processes"].results == outcomes["serial"].results
    assert _lines(tmp_path / "ray.jsonl") == _lines(tmp_path / "serial.jsonl")
    assert len(_lines(tmp_path / "ray.jsonl")) == 24


def test_a_simulation_is_the_same_in_one_process_on_processes_and_on_ray() -> None:
    args: tuple[Any, ...] = ("arctic", 3, 10, ["baseline", "random"], 4, {"preset": "bga"})
    serial = simulate(*args)
    processes = simulate(*args, Backend(2))
    on_ray = simulate(*args, Backend(2, ray=True, batch=4))
    assert on_ray[1] == processes[1] == serial[1]
    assert [s.to_dict() for s in on_ray[0]] == [s.to_dict() for s in serial[0]]
    assert [r.seed for r in on_ray[1]] == list(range(4, 14))


def test_a_balance_run_is_the_same_in_one_process_and_on_ray(tmp_path: Path) -> None:
    def run(name: str, backend: Backend) -> dict[str, Any]:
        return run_balance_command(
            "arctic", 3, "baseline,random", 9, 5, backend, {}, out=tmp_path / f"{name}.jsonl", as_json=True
        )

    serial = run("serial", Backend())
    on_ray = run("ray", Backend(2, ray=True, batch=2))
    assert on_ray["variants"] == serial["variants"]
    assert serial["games"] == 9 and serial["variants"][0]["figures"]


def test_a_killed_worker_loses_no_game_and_plays_none_twice(tmp_path: Path) -> None:
    t = make_tournament("arctic", 4, "baseline", 2, {})
    path = tmp_path / "killed.jsonl"
    killed: list[str] = []
    stop = threading.Event()

    def kill_one_busy_worker() -> None:
        # Once games come back, kill a worker of this process's Ray that is playing a batch right now.
        while not stop.wait(0.05):
            if not path.exists() or path.read_text().count("\n") < 2:
                continue
            for pid in descendants(os.getpid()):
                busy = title(pid)
                if busy.startswith("ray::run_batch"):
                    os.kill(pid, signal.SIGKILL)
                    killed.append(f"{pid} {busy}")
                    return

    killer = threading.Thread(target=kill_one_busy_worker)
    killer.start()
    try:
        outcome = run_tournament(t, 10, Backend(2, ray=True, batch=2), path, progress=False)
    finally:
        stop.set()
        killer.join()
    assert killed, "no busy Ray worker was found to kill"
    lines = [json.loads(line) for line in path.read_text().splitlines()[1:]]
    keys = [(x["deal"], x["rotation"]) for x in lines]
    assert sorted(keys) == t.plan(10)  # each game exactly once
    alone = run_tournament(t, 10, Backend(), tmp_path / "alone.jsonl", progress=False)
    assert outcome.results == alone.results


def test_bench_lab_reports_both_ways_and_the_overhead() -> None:
    progress = Progress(console=Console(file=io.StringIO()))
    figures = bench_lab("arctic", 4, 24, 2, 0, batches=(1, DEFAULT_BATCH), progress=progress)
    # A person sees each way played as it goes: one finished task each.
    tasks = {task.description: task for task in progress.tasks}
    assert list(tasks) == [
        "2 processes",
        "starting Ray",
        "Ray warm-up",
        "Ray, batch 1",
        f"Ray, batch {DEFAULT_BATCH}",
    ]
    assert all(task.finished for task in tasks.values())
    assert (figures["game"], figures["players"], figures["games"], figures["batch"]) == ("arctic", 4, 24, 32)
    by_batch = {row["batch"]: row for row in figures["ray_by_batch"]}
    assert list(by_batch) == [1, DEFAULT_BATCH]
    for row in by_batch.values():
        assert row["games_per_sec"] > 0
        ray, processes = row["games_per_sec"], figures["processes_games_per_sec"]
        speed = ray / processes
        # Recomputed from figures rounded to 0.1 games/s: the ratio is off by at most that rounding (more, the
        # slower the machine), and the overhead itself is rounded to 0.001.
        slack = speed * (0.05 / ray + 0.05 / processes) * 1.01 + 0.0005
        assert row["overhead"] == pytest.approx(1 - speed, abs=slack)
    assert figures["ray_overhead"] == by_batch[DEFAULT_BATCH]["overhead"]

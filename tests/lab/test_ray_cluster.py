"""A real two-node Ray cluster on this machine's loopback: a tournament runs across both nodes.

The head is ``ray start --head`` and the second node ``ray start --address`` (Ray's own command, see
``raycluster.JOIN_ON_LOOPBACK``), each with its own raylet and one CPU. The test checks that both nodes
played games (the Ray node id of the task that played each game), that the results are those of a run in
one process, that every process of the cluster listened on 127.0.0.1 only, and stops the cluster after,
even when the test fails.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from floe.lab import tournament
from floe.lab.raybackend import ray_session
from floe.lab.tournament import make_tournament, run_tournament
from floe.lab.where import Backend

from .raycluster import LoopbackCluster, descendants, listening, need_ray, on_loopback, title

ray = need_ray()
from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy  # noqa: E402


def played_where(job: Any) -> dict[str, Any]:
    """The tournament's job, with the Ray node that played it added to its line."""
    line = tournament.play_one(job[0], *job[1])
    line["node"] = ray.get_runtime_context().get_node_id()
    return line


@ray.remote(num_cpus=1)
def ready() -> None:
    """Nothing: a task that has a worker started where it is scheduled."""


@pytest.fixture(scope="module")
def cluster() -> Iterator[LoopbackCluster]:
    # Not under pytest's tmp_path: Ray's socket files live in the temp dir, several levels down, and a Unix
    # socket's path has 107 bytes at most.
    started = LoopbackCluster(Path(tempfile.mkdtemp(prefix="floe-ray-")))
    try:
        started.start()
        yield started
    finally:
        started.stop()
        shutil.rmtree(started.temp_dir, ignore_errors=True)
        assert started.pids() == [], "Ray processes left behind"


def test_a_tournament_runs_across_two_nodes(
    cluster: LoopbackCluster, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The workers of the other node import this test module by value (it is no installed package).
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    t = make_tournament("arctic", 4, "baseline,random", 5, {})
    # What the cluster listens on, sampled while it works (its daemons, then the workers of the run).
    sockets: set[str] = set(listening(cluster.pids()))
    done = threading.Event()

    def sample() -> None:
        while not done.wait(0.2):
            sockets.update(listening(cluster.pids()))

    sampler = threading.Thread(target=sample)
    sampler.start()
    path = tmp_path / "cluster.jsonl"
    backend = Backend(ray_address=cluster.address, batch=2)
    try:
        # Only for this run: played in this process, played_where would start a Ray of its own.
        with monkeypatch.context() as patched, ray_session(backend):  # the run below keeps this connection
            patched.setattr(tournament, "_play_job", played_where)
            # A worker started on each node first: a game takes milliseconds and a worker seconds to start
            # on a loaded machine, so a cold second node could find every game played when it is ready.
            for node in ray.nodes():
                where = NodeAffinitySchedulingStrategy(node["NodeID"], soft=False)
                ray.get(ready.options(scheduling_strategy=where).remote())
            run_tournament(t, 12, backend, path, progress=False)
            sockets.update(listening(cluster.pids()))
    finally:
        done.set()
        sampler.join()
    lines = [json.loads(line) for line in path.read_text().splitlines()[1:]]
    nodes = {line["node"] for line in lines}
    assert len(lines) == 48
    assert len(nodes) == 2, f"games played on {len(nodes)} node(s)"

    alone = run_tournament(t, 12, Backend(), tmp_path / "alone.jsonl", progress=False)
    played = {(x["deal"], x["rotation"]): (x["scores"], x["ranking"]) for x in lines}
    assert played == {
        (deal, rotation): (list(r.scores), list(r.ranking))
        for (deal, rotation), r in zip(t.plan(12), alone.results, strict=True)
    }
    assert len(sockets) >= 5 and all(on_loopback(a) for a in sockets), sorted(sockets)


def test_ray_starts_its_own_instance_beside_a_running_cluster(
    cluster: LoopbackCluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    # --ray promises a local instance for the run: not the cluster already on the machine, even where
    # Ray's own default would join it (RAY_ADDRESS set, as a shell that used the cluster may have it).
    monkeypatch.setenv("RAY_ADDRESS", cluster.address)
    assert not ray.is_initialized()
    with ray_session(Backend(1, ray=True)):
        assert len(ray.nodes()) == 1  # the cluster has two
        raylets = [pid for pid in descendants(os.getpid()) if "raylet" in title(pid)]
        assert len(raylets) == 1  # this process's, not one of the cluster's

"""Helpers of the Ray tests: the extra's check, a two-node Ray cluster on this machine's loopback, and the
processes and listening sockets of a process group (read from /proc, so no tool beyond Linux is needed).

The Ray tests skip when the extra ``ray`` is missing, unless ``FLOE_REQUIRE_RAY`` is set (as ``.ci/run`` sets
it): then a missing extra fails the run instead of being skipped silently.
"""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]


def need_ray() -> ModuleType:
    """The ``ray`` module, or skip the calling test module (fail the run under ``FLOE_REQUIRE_RAY``)."""
    if os.environ.get("FLOE_REQUIRE_RAY"):
        try:
            import ray
        except ImportError as exc:
            pytest.exit(f"FLOE_REQUIRE_RAY is set but the extra 'ray' is missing: {exc}", returncode=1)
        return ray
    return pytest.importorskip("ray")


# Ray's token authentication, with one token for every Ray process of this test process (the clusters it
# starts, their workers, this process as their driver, the floe commands it runs): without one in the
# environment, a local `ray.init` writes a new token to ~/.ray/auth_token, and a `ray start` that finds it
# turns authentication on for its node only, so a second node without it is refused.
os.environ.setdefault("RAY_AUTH_MODE", "token")
os.environ.setdefault("RAY_AUTH_TOKEN", secrets.token_hex(32))


def loopback_env() -> dict[str, str]:
    """The environment of every Ray process of the tests: Ray's cluster mode off (so 127.0.0.1 stays
    127.0.0.1 and its servers listen there only), no usage statistics, and the tests' token."""
    return {**os.environ, "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0", "RAY_USAGE_STATS_ENABLED": "0"}


def free_port() -> int:
    """A TCP port nothing listens on now, on 127.0.0.1 (the head's GCS port: never Ray's usual 6379)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def group_pids(pgid: int) -> list[int]:
    """The processes of process group ``pgid`` (Ray's daemons keep the group of the ``ray start`` that
    made them, and its workers that of their raylet)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            fields = stat.rpartition(")")[2].split()
            if int(fields[2]) == pgid and fields[0] != "Z":  # fields: state, ppid, pgrp, …
                pids.append(int(entry.name))
    return pids


def descendants(root: int) -> list[int]:
    """Every living process below ``root`` in the process tree."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rpartition(")")[2].split()
            except OSError:
                continue
            children.setdefault(int(fields[1]), []).append(int(entry.name))
    found, todo = [], [root]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def title(pid: int) -> str:
    """A process's command line as it shows itself (Ray's workers set theirs to ``ray::<task>``)."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return ""


def _socket_inodes(pid: int) -> set[str]:
    inodes = set()
    try:
        fds = list(Path(f"/proc/{pid}/fd").iterdir())
    except OSError:
        return inodes
    for fd in fds:
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    return inodes


def _decode(hex_address: str) -> str:
    host, _, port = hex_address.partition(":")
    raw = bytes.fromhex(host)
    if len(raw) == 4:
        ip = socket.inet_ntop(socket.AF_INET, raw[::-1])
    else:  # /proc writes IPv6 addresses as four little-endian 32-bit words
        words = b"".join(raw[i : i + 4][::-1] for i in range(0, 16, 4))
        ip = socket.inet_ntop(socket.AF_INET6, words)
    return f"{ip}:{int(port, 16)}"


def listening(pids: list[int]) -> list[str]:
    """Every TCP address (ip:port) on which one of ``pids`` listens, as ``ss -ltnp`` would list them."""
    inodes = set().union(*(_socket_inodes(pid) for pid in pids)) if pids else set()
    found = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A" and fields[9] in inodes:  # 0A: LISTEN
                found.append(_decode(fields[1]))
    return found


def on_loopback(address: str) -> bool:
    """Whether a listening address is on the loopback interface only (IPv4 127/8, ::1, or ::ffff:127.x)."""
    ip = address.rpartition(":")[0]
    return ip.startswith("127.") or ip == "::1" or ip.startswith("::ffff:127.")


def kill_group(pgid: int, graceful: bool = True) -> None:
    """Stop every process of group ``pgid``: SIGTERM, then SIGKILL for what is left after a few seconds
    (``graceful=False``: SIGKILL only)."""
    steps = ((signal.SIGTERM, 5.0), (signal.SIGKILL, 5.0)) if graceful else ((signal.SIGKILL, 5.0),)
    for sig, grace in steps:
        try:
            os.killpg(pgid, sig)
        except ProcessLookupError:
            return
        deadline = time.monotonic() + grace
        while group_pids(pgid) and time.monotonic() < deadline:
            time.sleep(0.1)
        if not group_pids(pgid):
            return


# The second node's `ray start`. Ray refuses a node that joins a cluster while its cluster mode is off
# (RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0: "Multi-node Ray clusters are not supported on Windows and OSX"), and
# with the mode on it replaces 127.0.0.1 by the machine's outward address, where its servers then listen on
# every interface. So this runs Ray's own `ray start` with the mode on for that one check, and 127.0.0.1 kept
# as the node's address; its raylet then listens on 127.0.0.1 only, as the head's does.
#
# Both nodes start through PATIENT_START: a node waits for its raylet to register for a fixed 30 s of
# `time.monotonic()` (a constant inside ray._private.node), which a busy machine can pass while nothing is
# wrong. The node module reads a clock that runs at a quarter of the real speed, so that wait bounds only a
# hang (two minutes), as every wait of the suite does.
PATIENT_START = """
import sys
import time
import types
import ray._private.node as node
from ray.scripts.scripts import main

node.time = types.SimpleNamespace(**{**vars(time), "monotonic": lambda: time.monotonic() / 4})
"""
JOIN_ON_LOOPBACK = (
    PATIENT_START
    + """
import ray._private.ray_constants as constants
import ray._private.services as services

constants.ENABLE_RAY_CLUSTER = True
services.get_node_ip_address = lambda address=None: "127.0.0.1"
"""
)


class LoopbackCluster:
    """A Ray cluster of two nodes on this machine, every process in one new process group."""

    def __init__(self, temp_dir: Path, cpus_per_node: int = 1) -> None:
        self.temp_dir = temp_dir
        self.port = free_port()
        self.cpus = cpus_per_node
        self.pgids: list[int] = []

    @property
    def address(self) -> str:
        """The head's GCS address, for ``--ray-address``."""
        return f"127.0.0.1:{self.port}"

    def _start(self, args: list[str], log: Path) -> None:
        # A session of its own: the group id is the `ray start` pid, and its daemons keep it after it exits.
        with log.open("w") as out:
            proc = subprocess.Popen(
                args, env=loopback_env(), stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )
        self.pgids.append(proc.pid)
        if proc.wait(timeout=120) != 0:
            raise RuntimeError(f"{' '.join(args[:4])} failed: {log.read_text()[-2000:]}")

    def start(self) -> None:
        """The head (``ray start --head``), then the second node (``ray start --address``)."""
        common = [
            "--node-ip-address=127.0.0.1",
            f"--temp-dir={self.temp_dir}",
            f"--num-cpus={self.cpus}",
            "--disable-usage-stats",
        ]
        head = [sys.executable, "-c", PATIENT_START + "sys.exit(main())", "start", "--head"]
        self._start(
            [*head, f"--port={self.port}", "--include-dashboard=false", *common], self.temp_dir / "head.log"
        )
        join = [sys.executable, "-c", JOIN_ON_LOOPBACK + "sys.exit(main())", "start"]
        self._start([*join, f"--address={self.address}", *common], self.temp_dir / "node.log")

    def pids(self) -> list[int]:
        """Every process of the cluster now."""
        return [pid for pgid in self.pgids for pid in group_pids(pgid)]

    def stop(self) -> None:
        """Stop both nodes: only this cluster's processes (never `ray stop`, which stops every Ray).

        SIGKILL at once: the cluster is thrown away with its temp dir, and Ray's daemons outlive a SIGTERM by
        the whole grace (5 s per node, 10 s of every run of the module)."""
        for pgid in self.pgids:
            kill_group(pgid, graceful=False)

"""Helpers for the server tests of bots: the bot worker processes of a running server (read from /proc), and
a watcher that records when each table's version changes (its bots' replies)."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import httpx


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid``."""
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # "pid (comm) state ppid ...": comm may hold spaces, so split after its closing parenthesis.
        if int(stat.rpartition(")")[2].split()[1]) == pid:
            out.append(int(entry.name))
    return out


def worker_pids(server_pid: int) -> list[int]:
    """The server's bot workers: its spawned children (not multiprocessing's resource tracker)."""
    pids = []
    for child in children(server_pid):
        try:
            cmdline = Path(f"/proc/{child}/cmdline").read_bytes()
        except OSError:
            continue
        if b"spawn_main" in cmdline:
            pids.append(child)
    return sorted(pids)


def alive(pid: int) -> bool:
    """Whether ``pid`` is a running process (not a zombie)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


@dataclass
class Watch:
    """When each watched table's version changed (``changes``: table -> [(monotonic time, version)])."""

    url: str
    tables: list[str]
    changes: dict[str, list[tuple[float, int]]] = field(default_factory=dict)
    finished: dict[str, float] = field(default_factory=dict)

    def until(
        self, done: Callable[[Watch], bool], what: str, timeout: float = 120, every: float = 0.05
    ) -> None:
        """Record the tables' versions until ``done(self)`` holds; ``timeout`` only bounds a hang."""
        end = time.monotonic() + timeout
        with httpx.Client(timeout=30) as client:
            while True:
                self._look(client)
                if done(self):
                    return
                assert time.monotonic() < end, f"{what}: not after {timeout} s: {self.changes}"
                time.sleep(every)

    def _look(self, client: httpx.Client) -> None:
        """One look at every watched table that is not over."""
        for table in self.tables:
            if table in self.finished:
                continue
            summary = client.get(f"{self.url}/api/tables/{table}").json()
            now = time.monotonic()
            seen = self.changes.setdefault(table, [])
            if not seen or seen[-1][1] != summary["version"]:
                seen.append((now, summary["version"]))
            if summary["status"] == "finished":
                self.finished[table] = now

    def version(self, table: str) -> int:
        """The last version seen of ``table``."""
        return self.changes[table][-1][1]

    def moves(self, table: str) -> int:
        """How far ``table``'s version went while watched."""
        seen = self.changes[table]
        return seen[-1][1] - seen[0][1]


def group_pids(pgid: int) -> list[int]:
    """The running processes of process group ``pgid`` (zombies excluded)."""
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rpartition(")")[2].split()
        except OSError:
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            out.append(int(entry.name))
    return out


def wait_until_group_gone(pgid: int, timeout: float = 60) -> None:
    """Wait until no process of group ``pgid`` runs; ``timeout`` only bounds a hang."""
    end = time.monotonic() + timeout
    while left := group_pids(pgid):
        assert time.monotonic() < end, f"still running: {left}"
        time.sleep(0.05)


def wait_until_gone(pids: list[int], timeout: float = 60) -> None:
    """Wait until none of ``pids`` runs; ``timeout`` only bounds a hang."""
    end = time.monotonic() + timeout
    while any(alive(pid) for pid in pids):
        assert time.monotonic() < end, f"still running: {[p for p in pids if alive(p)]}"
        time.sleep(0.05)


def pid_exists(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True

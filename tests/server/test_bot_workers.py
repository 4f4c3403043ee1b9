"""A bot worker killed with SIGKILL (what the OOM killer does) never stops the bots of a real ``floe serve``
(issue 11, item 4): the tables' bots and an away person's stand-in keep playing, a decision in flight is
retried on a new worker; and stopping the server leaves no worker behind and nothing for the resource
tracker to warn about (issue 13, item 3)."""

from __future__ import annotations

import json
import os
import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import connect

from .botwatch import alive, wait_until_gone, wait_until_group_gone, worker_pids
from .serverproc import ServerProcess, running_server

# What the server logs when a decision in flight lost its worker and is tried again.
RETRIED = "died (killed by signal 9); retrying on a new worker"


def bots(*specs: str) -> list[dict[str, str]]:
    return [{"kind": "bot", "bot": spec} for spec in specs]


def wait_for(check: Callable[[], Any], timeout: float = 60, what: str = "") -> Any:
    """Poll ``check`` until it gives something true; ``timeout`` only bounds a hang."""
    end = time.monotonic() + timeout
    while not (result := check()):
        assert time.monotonic() < end, f"timed out: {what}"
        time.sleep(0.05)
    return result


def version(server: ServerProcess, table: str) -> int:
    answer: int = server.get(f"/api/tables/{table}").json()["version"]
    return answer


def leave(server: ServerProcess, table: str, token: str) -> None:
    """Say hello with the seat's token (claiming it), then leave: the game's away bot plays for the seat."""
    with connect(f"{server.ws_url}/ws/tables/{table}") as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        ws.send(json.dumps({"type": "leave"}))
        while True:
            message = json.loads(ws.recv(timeout=20))
            mine = message["type"] == "state" and message["seat"] is not None
            if mine and message["table"]["seats"][message["seat"]]["away"]:
                return


def to_move(server: ServerProcess, table: str, seat: int) -> bool:
    """Whether it is ``seat``'s turn at ``table`` (its bot's decision is queued or running)."""
    state = server.get(f"/api/tables/{table}/state").json()
    return bool(state["status"] == "playing" and state["to_move"] == seat)


def create_from(server: ServerProcess, address: str, body: dict[str, Any]) -> str:
    """Create a table as the client at ``address`` (its own share of the search workers)."""
    transport = httpx.HTTPTransport(local_address=address)
    with httpx.Client(transport=transport, timeout=30) as client:
        answer = client.post(f"{server.url}/api/tables", json=body)
    assert answer.status_code == 201, answer.text
    table: str = answer.json()["table"]["id"]
    return table


def log_total(server: ServerProcess, table: str) -> int:
    answer: int = server.get(f"/api/tables/{table}/state").json()["log_total"]
    return answer


def seat_moves(server: ServerProcess, table: str, seat: int, after: int, timeout: float = 60) -> None:
    """Wait until the public log of ``table`` shows a move of ``seat`` at an index of at least ``after`` (or
    the game is over). The log, not a poll of whose turn it is: a fast bot may move between two polls."""
    end = time.monotonic() + timeout
    mark = f"P{seat + 1} "
    while True:
        state = server.get(f"/api/tables/{table}/state").json()
        if state["status"] == "finished":
            return
        if any(entry["index"] >= after and entry["text"].startswith(mark) for entry in state["log"]):
            return
        assert time.monotonic() < end, f"seat {seat} of {table} did not move since log entry {after}: {state}"
        time.sleep(0.05)


def test_killed_workers_are_replaced_and_every_bot_keeps_playing(tmp_path: Path) -> None:
    with running_server(tmp_path / "data", extra=["--bot-workers", "2"]) as server:
        assert server.proc is not None
        # Arctic: a search of 0.8 s a decision (a search worker) against greedy (the fast lane's worker).
        search = create_from(server, "127.0.0.5", {"seats": bots("ismcts:ms=800", "greedy")})
        # Arktia: mcts, which lives in its seat's search worker, against greedy.
        body = {"game": "arktia", "seats": bots("mcts:ms=300", "greedy", "mcts:ms=300", "greedy")}
        remembering = create_from(server, "127.0.0.6", body)
        # Arktia: two people, who will leave once the workers are dead (their stand-in is greedy, in the
        # fast lane).
        people = server.create([{"kind": "person"}, {"kind": "person"}], game="arktia")
        pid = server.proc.pid
        wait_for(lambda: len(worker_pids(pid)) == 3, what="the three workers")
        killed: list[int] = []
        before = version(server, remembering)
        # Kill every worker, both lanes, while the search's decision is in flight (0.8 s of the search's
        # turn). Whether the kill came before the decision ended is the machine's business: kill the new
        # workers again on the search's next turn until the server says it retried a decision in flight.
        for _ in range(20):
            wait_for(lambda: to_move(server, search, 0), what="the search's turn")
            in_flight = version(server, search)
            logged = log_total(server, search)
            current = worker_pids(pid)  # the first time all three; then those made again since
            for worker in current:
                os.kill(worker, signal.SIGKILL)
            killed += current
            wait_for(lambda v=in_flight: version(server, search) > v, what="the decision after the kill")
            if RETRIED in server.log_path.read_text():
                break
        # The decision in flight was tried again on a new worker, and the table plays on: both lanes.
        seat_moves(server, search, 0, logged)
        seat_moves(server, search, 1, logged)
        # ... and the search, on its new worker, decides again after that.
        later = log_total(server, search)
        seat_moves(server, search, 0, later)
        # The remembering bots are rebuilt from the log in their new worker, and play on (a seat that is out
        # of the game no longer moves: the table moving on is what counts).
        wait_for(
            lambda: (
                version(server, remembering) >= before + 4
                or server.get(f"/api/tables/{remembering}").json()["status"] == "finished"
            ),
            what="the remembering bots after the kill",
        )
        # The people leave: the stand-in plays both seats to the end.
        for seat in people["seats"]:
            leave(server, people["table"]["id"], seat["token"])
        wait_for(
            lambda: server.get(f"/api/tables/{people['table']['id']}").json()["status"] == "finished",
            what="the stand-ins finishing the game",
        )
        new_workers = worker_pids(pid)
        assert len(new_workers) == 3 and not set(new_workers) & set(killed)
        assert all(not alive(worker) for worker in killed)
        log = server.log_path.read_text()
        assert log.count(RETRIED) >= 1, log[-2000:]
        assert "Traceback" not in log, log[-3000:]


def stopped_cleanly(server: ServerProcess, how: Callable[[int], None]) -> str:
    """Stop ``server`` with ``how(pid)`` while a search is thinking; returns its log once it and every worker
    are gone."""
    assert server.proc is not None
    pid = server.proc.pid
    # The first seat (who starts) searches briefly, the second long: after a first search, the next one is
    # queued at once (bot against bot).
    seats = bots("ismcts:ms=300", "ismcts:ms=5000")
    table = server.create(seats, options={"first_player": 0})["table"]["id"]
    workers = wait_for(lambda: len(worker_pids(pid)) == 3 and worker_pids(pid))
    start = version(server, table)
    # Stopping after a first search stops a search in a worker, or one about to start in it (a slow machine
    # may make it the latter; both must stop clean).
    wait_for(lambda: version(server, table) > start, what="a first search")
    how(pid)
    server.proc.wait(timeout=60)
    server.proc = None
    wait_until_gone(workers)
    # Every process of the server's group gone, the resource tracker too: whatever it had to say is logged.
    wait_until_group_gone(pid)
    return server.log_path.read_text()


def test_sigterm_stops_the_server_and_its_workers_without_warnings(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "data")
    server.start()
    log = stopped_cleanly(server, lambda pid: os.kill(pid, signal.SIGTERM))
    assert "leaked" not in log and "Traceback" not in log and "died" not in log, log


def test_ctrl_c_and_a_group_sigterm_stop_it_without_warnings(tmp_path: Path) -> None:
    """Ctrl-C in a terminal and ``systemctl stop`` signal the whole process group, workers included."""
    for k, sig in enumerate((signal.SIGINT, signal.SIGTERM)):
        server = ServerProcess(tmp_path / f"data{k}")
        server.start()
        log = stopped_cleanly(server, lambda pid, s=sig: os.killpg(pid, s))
        assert "leaked" not in log and "Traceback" not in log and "died" not in log, (sig, log)


def test_workers_of_a_killed_server_exit_by_themselves(tmp_path: Path) -> None:
    """The OOM killer may kill the server itself: its workers notice their pipe closed and exit (after the
    decision in hand, at most the time cap), never left running for good."""
    server = ServerProcess(tmp_path / "data", extra=["--bot-time-cap", "2"])
    server.start()
    assert server.proc is not None
    pid = server.proc.pid
    try:
        server.create(bots("ismcts:ms=5000", "ismcts:ms=5000"))
        workers = wait_for(lambda: len(worker_pids(pid)) == 3 and worker_pids(pid))
        # A search is in a worker, or queued for one (bot against bot): either way the workers must exit.
        os.kill(pid, signal.SIGKILL)
        server.proc.wait(timeout=60)
        wait_until_gone(workers)
    finally:
        server.kill()  # whatever is left of the group

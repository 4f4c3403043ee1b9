"""Issue 24, item 3: search bots do not starve when the attacker uses many addresses.

The one-search-per-client rule held for one address; from 20 addresses × 2 tables of ``ismcts:ms=10000`` a
normal player's search bot made no move in 240 s: the tables took turns, so its turn came after every
attacker's ten seconds. Now a table of a person goes before bot-only tables, and searches shrink with the
load so every table's turn comes within about ``bot_search_round`` seconds. In process: the shares a lane
gives. Over a real server: attackers from six loopback addresses fill the one search worker with bot-only
tables, and a person's search bot answers after at most the one attacker search already running; and with
two workers both inside attackers' searches that began first, the person's bot answers once the last free
worker's slice of a bot-only search is over (``bot_last_worker_slice``), not after a whole search.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from floe.server.botlanes import Job, Lane
from floe.server.botworkers import Worker

from .serverproc import ServerProcess, running_server


class _Recorder(Worker):
    """A worker that records each job's arguments and answers at once."""

    def __init__(self, got: list[tuple[Any, ...]]) -> None:
        self.got = got

    async def call(self, fn: Callable[..., Any], args: tuple[Any, ...], limit: float | None) -> Any:
        self.got.append((*args, limit))
        await asyncio.sleep(0.001)
        return args[0]

    def close(self) -> None:
        pass


def _job(table: str, cap: float, *, person: bool = False) -> Job:
    job = Job(table, str, (table, cap), limit=cap + 5, person=person, cap=cap)
    job.retime = lambda seconds: (table, seconds)
    return job


def test_searches_shrink_with_the_load_and_people_go_first() -> None:
    async def scenario() -> list[tuple[Any, ...]]:
        got: list[tuple[Any, ...]] = []
        lane = Lane("search", lambda slot: _Recorder(got), 1, round_seconds=10.0, min_slice=0.1)
        bots = [asyncio.ensure_future(lane.run(_job(f"bot{k}", 10.0))) for k in range(9)]
        await asyncio.sleep(0)  # bot0 runs; eight bot-only tables wait
        person = asyncio.ensure_future(lane.run(_job("person", 10.0, person=True)))
        many = [asyncio.ensure_future(lane.run(_job(f"more{k}", 10.0))) for k in range(40)]
        await asyncio.gather(*bots, person, many[0], *many[1:])
        return got

    got = asyncio.run(scenario())
    order = [table for table, _, _ in got]
    # The person's table went right after the search that was running when it came.
    assert order.index("person") == 1, order[:5]
    caps = {table: cap for table, cap, _ in got}
    limits = {table: limit for table, _, limit in got}
    assert caps["bot0"] == 10.0  # alone: its whole time
    assert caps["person"] == 10.0  # the only person table: its whole time, whatever the bot-only load
    assert caps["bot1"] == 10.0 / 48  # 47 tables waited as it started: a share of the round
    assert caps["more39"] == 10.0  # the last, alone again
    assert limits["bot1"] == pytest.approx(caps["bot1"] + 5)  # the kill deadline moves with it


def test_the_floor_of_a_share() -> None:
    async def scenario() -> list[tuple[Any, ...]]:
        got: list[tuple[Any, ...]] = []
        lane = Lane("search", lambda slot: _Recorder(got), 1, round_seconds=1.0, min_slice=0.5)
        await asyncio.gather(*(lane.run(_job(f"t{k}", 10.0)) for k in range(10)))
        return got

    caps = [cap for _, cap, _ in asyncio.run(scenario())]
    # Alone, the first gets the whole round (1 s of its 10); the others' shares would be smaller than the
    # floor, which they get instead.
    assert caps[0] == 1.0 and min(caps) == 0.5, caps


def _bots(spec: str) -> list[dict[str, str]]:
    return [{"kind": "bot", "bot": spec}, {"kind": "bot", "bot": spec}]


def test_a_persons_search_bot_answers_before_many_addresses_bot_only_searches(tmp_path: Path) -> None:
    # The attackers' searches are long (4 s) and Ann's short: what the test counts is searches finished
    # between Ann's move and its seeing the reply, so on a busy machine the test's own polling lag (the
    # process starved for a second or two) must not let one more attacker search end in that window.
    extra = ["--bot-workers", "1", "--bot-time-cap", "4", "--set", "bot_search_round=0"]
    extra += ["--set", "bot_last_worker_slice=4"]  # with one worker a bot-only search is cut to it (1 s)
    with running_server(tmp_path / "data", extra=extra) as server:
        attackers = []
        for k in range(6):  # six addresses, one bot-only search table each: six searches take turns
            transport = httpx.HTTPTransport(local_address=f"127.0.0.{k + 2}")
            with httpx.Client(transport=transport, timeout=30) as client:
                body = {"seats": _bots("ismcts:ms=4000"), "game": "arktia"}
                answer = client.post(server.url + "/api/tables", json=body)
                assert answer.status_code == 201, answer.text
                attackers.append(answer.json()["table"]["id"])
        seats = [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "ismcts:ms=250"}]
        made = server.create(seats, game="arktia")
        table, token = made["table"]["id"], made["seats"][0]["token"]
        _person_turns(server, table, token, attackers)


def _versions(server: ServerProcess, tables: list[str]) -> list[int]:
    return [server.get(f"/api/tables/{t}").json()["version"] for t in tables]


def _person_turns(server: ServerProcess, table: str, token: str, attackers: list[str]) -> None:
    """Ann's bot replies twice; each of its decisions after at most the one attacker search running when it
    was asked for (before: after every attacker table's, six of them)."""
    replies = 0
    deadline = time.monotonic() + 120
    while replies < 2:
        assert time.monotonic() < deadline, "the person's bot never answered"
        state = server.get(f"/api/tables/{table}/state", token=token).json()
        if state["to_move"] != 0:
            time.sleep(0.05)
            continue
        before = _versions(server, attackers)
        move = {"action": state["legal"][0]["id"], "version": state["version"]}
        moved = server.post(f"/api/tables/{table}/moves", move, token)
        assert moved.status_code == 200, moved.text
        if server.get(f"/api/tables/{table}/state", token=token).json()["to_move"] == 0:
            continue  # Ann's turn goes on: no bot to wait for
        while True:
            assert time.monotonic() < deadline, "the person's bot never answered"
            now = server.get(f"/api/tables/{table}/state", token=token).json()
            if now["to_move"] == 0 or now["status"] == "finished":
                break
            time.sleep(0.05)
        after = _versions(server, attackers)
        searches = sum(1 for b, a in zip(before, after, strict=True) if a > b)
        decisions = now["version"] - moved.json()["version"]  # the bot's (an Arktia turn: mostly one)
        assert searches <= 1 + decisions, (decisions, before, after)
        replies += 1


HOUR = "ismcts:ms=3600000"  # a search no test outlasts: only the last free worker's slice ends it


def test_a_persons_search_bot_answers_while_attackers_searches_hold_every_worker(tmp_path: Path) -> None:
    """Two search workers, and from two addresses a bot-only table each whose searches are given an hour
    (search rounds off, so only the last free worker's slice, ``bot_last_worker_slice``, can shorten them).
    The first attacker's search has a worker for the hour; before the slice, the second's held the other for
    the hour too, and the person's search bot, asked after both had begun, never answered. Now the second
    search ends after its slice and the person's decision takes its worker: the bot answers twice while the
    first attacker's table has still not moved (an ordering: no clock is read)."""
    extra = ["--bot-workers", "2", "--bot-time-cap", "3600", "--set", "bot_max_ms=3600000"]
    extra += ["--set", "bot_search_round=0", "--set", "bot_last_worker_slice=0.2"]  # 0.2 s: a quicker test
    with running_server(tmp_path / "data", extra=extra) as server:
        attackers = []
        for k in range(2):
            transport = httpx.HTTPTransport(local_address=f"127.0.0.{k + 2}")
            with httpx.Client(transport=transport, timeout=30) as client:
                answer = client.post(server.url + "/api/tables", json={"seats": _bots(HOUR)})
                assert answer.status_code == 201, answer.text
                attackers.append(answer.json()["table"]["id"])
        started = _versions(server, attackers)
        seats = [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "ismcts:it=30"}]
        made = server.create(seats, game="arktia")
        table, token = made["table"]["id"], made["seats"][0]["token"]
        deadline = time.monotonic() + 120  # bounds a hang only (before the slice: no answer in an hour)

        def anns_turn() -> dict[str, Any]:
            """The table's state once Ann is to move (the bot has answered) or the game is over."""
            while True:
                state: dict[str, Any] = server.get(f"/api/tables/{table}/state", token=token).json()
                if state["to_move"] == 0 or state["status"] == "finished":
                    return state
                assert time.monotonic() < deadline, "the person's bot never answered"
                time.sleep(0.05)

        replies = 0
        state = anns_turn()
        while replies < 2 and state["status"] != "finished":
            move = {"action": state["legal"][0]["id"], "version": state["version"]}
            moved = server.post(f"/api/tables/{table}/moves", move, token)
            assert moved.status_code == 200, moved.text
            bots_turn = server.get(f"/api/tables/{table}/state", token=token).json()["to_move"] not in (
                0,
                None,
            )
            state = anns_turn()
            replies += bots_turn
        now = _versions(server, attackers)
    assert any(a == b for a, b in zip(started, now, strict=True)), (started, now)

"""kill -9 in the middle of play: every acknowledged move survives, at its place in the log.

Several tables are played at once by this test's own WebSocket clients (random legal moves, seeded), one
of them with ``baseline`` bots in it. Twice, at a moment picked by a seeded generator while moves are in
flight, the server's process group is killed with SIGKILL and restarted on the same data directory. After
each crash the database (read directly) and the restarted server must hold every acknowledged move at the
index it was made on, a move in flight must be stored entirely or not at all, and every table must be back
at or past its last acknowledged version. Then every game is played to its end over fresh connections, and
each published record must show every acknowledged move, in notation, at the index it was made on.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter, defaultdict
from typing import Any

from floe.core.record import Record
from floe.server.store import Store, database_url

from .serverproc import ServerProcess
from .wsclient import Acked, Closed, WsClient, play

SEED = 20240611
TABLES: list[list[dict[str, Any]]] = [
    [{"kind": "person"}, {"kind": "person"}],
    [{"kind": "person"}, {"kind": "person"}, {"kind": "person"}],
    [{"kind": "person"}, {"kind": "person"}, {"kind": "person"}, {"kind": "person"}],
    [{"kind": "person"}, {"kind": "person"}],
    [{"kind": "person"}, {"kind": "person"}, {"kind": "person"}],
    [{"kind": "bot", "bot": "baseline"}, {"kind": "person"}, {"kind": "bot", "bot": "baseline"}],
]
KILLS = 2
WITH_BOTS = [k for k, seats in enumerate(TABLES) if any(s["kind"] == "bot" for s in seats)]


def stored_logs(server: ServerProcess, table_ids: list[str]) -> dict[str, list[int]]:
    """Each table's action log as the database holds it (the server must be down)."""
    store = Store(database_url(None, server.data_dir))
    try:
        return {tid: store.load_actions(tid) for tid in table_ids}
    finally:
        store.close()


def check_acks_in(logs: dict[str, list[int]], acks: list[Acked]) -> None:
    """Every acknowledged move is in ``logs`` at the index it was made on, and the log reaches its version."""
    for ack in acks:
        log = logs[ack.table]
        assert len(log) >= ack.version, f"table {ack.table} lost moves: {len(log)} < acked {ack}"
        assert log[ack.made_on] == ack.action, f"acked {ack} but the log holds {log[ack.made_on]} there"


async def play_phase(
    server: ServerProcess,
    tokens: dict[str, list[tuple[int, str]]],
    acks: list[Acked],
    phase: int,
    *,
    cap: dict[str, int],
) -> tuple[list[WsClient], list[asyncio.Task[str]]]:
    """Connect every person seat and start playing: the tables with bots first (until a bot has moved and
    the worker pool is warm), then the others. A table pauses once it has made ``cap`` moves in the phase,
    so that no game can end before the last crash."""
    start = len(acks)
    clients = {
        tid: [WsClient(server.ws_url, tid, token, name=f"{tid}/P{seat + 1}") for seat, token in seats]
        for tid, seats in tokens.items()
    }
    everyone = [c for group in clients.values() for c in group]
    await asyncio.gather(*(c.connect() for c in everyone))
    for c in everyone:  # the last hello claims the last seat: everyone hears the game is on
        await c.until(lambda c=c: c.state["status"] == "playing")

    def paused(tid: str) -> bool:
        return sum(1 for a in acks[start:] if a.table == tid) >= cap[tid]

    def launch(tid: str) -> list[asyncio.Task[str]]:
        return [
            asyncio.create_task(
                play(c, random.Random(f"{SEED}/{c.name}/{phase}"), acks, pause=lambda: paused(tid))
            )
            for c in clients[tid]
        ]

    with_bots = [tid for k, tid in enumerate(tokens) if k in WITH_BOTS]
    tasks = [t for tid in with_bots for t in launch(tid)]
    deadline = time.monotonic() + 60
    while not all(any(a.table == tid for a in acks[start:]) for tid in with_bots):
        assert time.monotonic() < deadline, "the tables with bots made no progress"
        assert_still_playing(tasks)
        await asyncio.sleep(0.005)
    tasks += [t for tid in tokens if tid not in with_bots for t in launch(tid)]
    return everyone, tasks


def assert_still_playing(tasks: list[asyncio.Task[Any]]) -> None:
    """Clients may pause at their move cap (a fast table gets there first); none may fail, and not all may
    have paused before the crash point is reached."""
    done = [t for t in tasks if t.done()]
    failed = [t for t in done if t.exception() is not None or t.result() != "paused"]
    assert not failed, [t.exception() or t.result() for t in failed]
    assert len(done) < len(tasks), "every client reached its cap before the crash point"


async def crash_run(server: ServerProcess) -> dict[str, Any]:
    rng = random.Random(SEED)
    created = [server.create(seats) for seats in TABLES]
    ids = [c["table"]["id"] for c in created]
    players = {c["table"]["id"]: c["table"]["players"] for c in created}
    tokens = {c["table"]["id"]: [(s["seat"], s["token"]) for s in c["seats"]] for c in created}
    # Persons make at most 12 moves each per phase: fewer than any game lasts over the two first phases.
    cap = {tid: 12 * len(tokens[tid]) for tid in ids}
    with_bots = {ids[k] for k in WITH_BOTS}
    acks: list[Acked] = []
    stats: dict[str, Any] = {"in_flight": [], "in_flight_stored": []}

    for phase in range(KILLS):
        start = len(acks)
        clients, tasks = await play_phase(server, tokens, acks, phase, cap=cap)
        # Crash at a random moment once every table has made a few moves in this phase.
        target = start + rng.randint(4 * len(ids), 8 * len(ids))

        def ready(start: int = start, target: int = target) -> bool:
            per_table = Counter(a.table for a in acks[start:])
            return len(acks) >= target and all(per_table[tid] >= 3 for tid in ids)

        deadline = time.monotonic() + 60
        while not ready():
            assert time.monotonic() < deadline, f"no progress: {Counter(a.table for a in acks[start:])}"
            assert_still_playing(tasks)
            await asyncio.sleep(0.002)
        server.kill()
        in_flight = {c.table_id: c.pending for c in clients if c.pending is not None}
        stats["in_flight"].append(len(in_flight))
        results = await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 60)
        assert all(isinstance(r, Closed) or r == "paused" for r in results), results

        # What was acknowledged is on disk, at its index; a move in flight is there entirely or not at all.
        logs = stored_logs(server, ids)
        check_acks_in(logs, acks)
        for tid, (made_on, action) in in_flight.items():
            assert len(logs[tid]) == made_on or logs[tid][made_on] == action, (tid, made_on, action)
        stats["in_flight_stored"].append(
            sum(len(logs[tid]) > made_on for tid, (made_on, _) in in_flight.items())
        )

        server.start()
        for tid in ids:
            answer = server.get(f"/api/tables/{tid}")
            assert answer.status_code == 200, answer.text
            summary = answer.json()
            last = max((a.version for a in acks if a.table == tid), default=0)
            assert summary["version"] >= last, (tid, summary["version"], last)
            if tid in with_bots:  # its bots resume at once
                assert summary["version"] >= len(logs[tid]), (tid, summary["version"], len(logs[tid]))
            else:
                assert summary["version"] == len(logs[tid]), "the server replays exactly what is stored"
            assert summary["status"] == "playing", summary
            # Never resumed in the middle of a move's chance outcomes: someone is to decide.
            assert summary["to_move"] in range(players[tid]), summary

    # Reconnect and play every game to its end.
    clients, tasks = await play_phase(server, tokens, acks, KILLS, cap={tid: 10**6 for tid in ids})
    results = await asyncio.wait_for(asyncio.gather(*tasks), 120)
    assert set(results) == {"finished"}, results
    for c in clients:
        await c.close()

    # Each record shows each acknowledged move, in notation, at the index it was made on.
    by_table: dict[str, list[Acked]] = defaultdict(list)
    for ack in acks:
        by_table[ack.table].append(ack)
    for tid in ids:
        answer = server.get(f"/api/tables/{tid}/record")
        assert answer.status_code == 200, answer.text
        record = answer.json()
        actions = record["actions"]
        mine = by_table[tid]
        assert len({a.made_on for a in mine}) == len(mine), "two acknowledged moves on one version"
        for ack in mine:
            assert actions[ack.made_on] == ack.notation, (ack, actions[ack.made_on])
        final = Record.from_json(record).replay()
        assert final.is_terminal()
        state = server.get(f"/api/tables/{tid}/state").json()
        assert state["version"] == len(actions)
        assert state["result"]["scores"] == final.scores()
    stats["acks"] = len(acks)
    return stats


def test_acknowledged_moves_survive_kill_9(server: ServerProcess) -> None:
    stats = asyncio.run(crash_run(server))
    print(
        f"crash test: {stats['acks']} acknowledged moves; moves in flight at each kill: {stats['in_flight']},"
        f" of which stored: {stats['in_flight_stored']}"
    )

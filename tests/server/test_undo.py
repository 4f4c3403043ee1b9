"""Issue 13, item 9: undo within a turn, over a real server.

Two people play a whole Arctic game over the WebSocket, trying undo all along: an undo the table offers
(``can_undo``) restores the position the seat had before its decision (view, choices) as a new version;
one it does not offer is refused with a clear error and changes nothing — after a card was drawn in the
turn (a chance outcome followed the seat's decision), at the start of a turn, by the seat that is not to
move, by a spectator, on a stale version. The finished game's record holds the undos and replays to the
same final position, and the replay shows them.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

from floe.core.record import Record

from .serverproc import ServerProcess, running_server
from .wsclient import WsClient

PEOPLE = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bob"}]


async def _undo(client: WsClient, version: int) -> dict[str, Any]:
    """Send an undo and return its answer (``ack`` or ``error``)."""
    message_id = client.new_id()
    start = len(client.messages)
    await client.send({"type": "undo", "version": version, "id": message_id})
    return await client.reply(message_id, start)


async def _move(client: WsClient, state: dict[str, Any], choice: dict[str, Any]) -> dict[str, Any]:
    message_id = client.new_id()
    start = len(client.messages)
    await client.send({"type": "move", "action": choice["id"], "version": state["version"], "id": message_id})
    answer = await client.reply(message_id, start)
    assert answer["type"] == "ack", answer
    return answer


async def _state_at(client: WsClient, version: int) -> dict[str, Any]:
    return await client.until(lambda: client.state if client.state["version"] >= version else None)


def _refused(answer: dict[str, Any], code: str) -> None:
    assert answer["type"] == "error" and answer["code"] == code, answer
    assert answer["message"] and "Traceback" not in answer["message"]


async def _play(server: ServerProcess, table: str, tokens: list[str], rng: random.Random) -> dict[str, int]:
    seen = {"undone": 0, "after_chance": 0, "turn_start": 0, "mid_turn": 0, "other_seat": 0}
    clients = [WsClient(server.ws_url, table, token, name=f"P{k + 1}") for k, token in enumerate(tokens)]
    for client in clients:
        await client.connect()
    watcher = WsClient(server.ws_url, table, None, name="spectator")
    await watcher.connect()
    _refused(await _undo(watcher, watcher.state["version"]), "bad_token")
    turn_began = True
    while True:
        await asyncio.sleep(0)
        states = [c.state for c in clients]
        version = max(s["version"] for s in states)
        state = await _state_at(clients[0], version)
        if state["status"] == "finished":
            break
        mover = state["to_move"]
        me, other = clients[mover], clients[1 - mover]
        mine = await _state_at(me, version)
        if not mine["can_undo"]:
            # Nothing to take back: at the start of a turn, or after a draw; nothing changes.
            answer = await _undo(me, version)
            _refused(answer, "cannot_undo")
            seen["turn_start" if turn_began else "mid_turn"] += 1
            assert server.get(f"/api/tables/{table}").json()["version"] == version
        else:
            # The seat not to move may not undo the mover's decision, nor may a stale undo land.
            _refused(await _undo(other, version), "not_your_turn")
            _refused(await _undo(me, version - 1), "stale")
            seen["other_seat"] += 1
        choice = rng.choice(mine["legal"])
        ack = await _move(me, mine, choice)
        after = await _state_at(me, ack["version"])
        turn_began = after["to_move"] != mover
        if after["to_move"] == mover and ack["version"] > version + 1:
            # A chance outcome (a card drawn) followed the decision: it can no longer be taken back.
            assert not after["can_undo"], choice
            seen["after_chance"] += 1
        if after["can_undo"] and rng.random() < 0.5:
            answer = await _undo(me, ack["version"])
            assert answer["type"] == "ack" and answer["version"] == ack["version"] + 1, answer
            back = await _state_at(me, answer["version"])
            assert back["view"] == mine["view"]
            assert [c["id"] for c in back["legal"]] == [c["id"] for c in mine["legal"]]
            assert back["log"][-1]["text"] == "You take back the last move."
            seen["undone"] += 1
    for client in [*clients, watcher]:
        await client.close()
    return seen


# This test undoes far faster than a person would: the undo limits (test_abuse_undo.py) are out of its way.
UNDO_AT_WILL = ["--set", "undo_per_turn=1000", "--set", "undo_burst=1000"]


def test_undo_within_a_turn_over_a_real_server(tmp_path: Path) -> None:
    with running_server(tmp_path / "data", extra=UNDO_AT_WILL) as server:
        _undo_within_a_turn(server)


def _undo_within_a_turn(server: ServerProcess) -> None:
    created = server.create(PEOPLE, game="arctic")
    table = created["table"]["id"]
    tokens = [s["token"] for s in created["seats"]]
    seen = asyncio.run(_play(server, table, tokens, random.Random(13)))
    # Every kind of undo happened: taken back, refused after a draw, at a turn's start, for the other seat.
    assert all(count > 0 for count in seen.values()), seen

    record = server.get(f"/api/tables/{table}/record").json()
    assert record["actions"].count("undo") == seen["undone"]
    final = server.get(f"/api/tables/{table}/state").json()
    replayed = Record.from_json(record).replay()
    assert replayed.observation_dict(None) == final["view"]
    assert replayed.is_terminal() and record["result"]["scores"] == replayed.scores()

    frames = server.get(f"/api/tables/{table}/replay").json()["frames"]
    undo_lines = [line for frame in frames for line in frame["log"] if "takes back the last move" in line]
    assert len(undo_lines) == seen["undone"]
    assert frames[-1]["view"] == final["view"]

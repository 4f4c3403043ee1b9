"""Issue 24, item 1: undo spam cannot make a table's history unbounded.

One table moving and undoing used to reach 178,320 events in 120 s, and every reader of the table paid for
each of them. Over a real server with small bounds: a seat's undos in one turn are capped (``undo_per_turn``),
its undos over time are rate-limited per seat (``undo_burst``; a reconnect or another connection does not
refill it), and a table holds at most ``undos_per_game_length`` × its game's longest length of undos in all.
Each refusal is a short error and changes nothing.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from floe.server.store import TableRow
from floe.server.tables import Table

from .serverproc import ServerProcess, running_server
from .test_tables import make_table

PER_TURN = 3
BURST = 4
# Arctic's spec says a game lasts at most 4,000 actions: a share of 0.0015 is 6 undos per table.
PER_TABLE = 6
SETTINGS = {
    "undo_per_turn": PER_TURN,
    "undo_burst": BURST,
    "undo_per_second": 0.001,  # no token comes back during the test
    "undos_per_game_length": PER_TABLE / 4000,
}
PEOPLE = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bob"}]


def _state(server: ServerProcess, table: str, token: str) -> dict[str, Any]:
    answer = server.get(f"/api/tables/{table}/state", token=token)
    assert answer.status_code == 200, answer.text
    state: dict[str, Any] = answer.json()
    return state


def _to_undo_point(
    server: ServerProcess, table: str, tokens: list[str], seat: int, rng: random.Random
) -> int:
    """Play random moves until ``seat``, in a turn after the other seat's, has just made a decision it may
    take back; returns that action."""
    other_moved = False
    for _ in range(2000):
        mover = _state(server, table, tokens[0])["to_move"]
        other_moved = other_moved or mover != seat
        state = _state(server, table, tokens[mover])
        action = rng.choice(state["legal"])["id"]
        moved = server.post(
            f"/api/tables/{table}/moves", {"action": action, "version": state["version"]}, tokens[mover]
        )
        assert moved.status_code == 200, moved.text
        if other_moved and mover == seat and _state(server, table, tokens[seat])["can_undo"]:
            return int(action)
    raise AssertionError("no undoable decision in 2,000 moves")


def _undo(server: ServerProcess, table: str, token: str) -> tuple[int, dict[str, Any]]:
    version = _state(server, table, token)["version"]
    answer = server.post(f"/api/tables/{table}/undo", {"version": version}, token)
    return answer.status_code, answer.json()


def _undo_and_redo(server: ServerProcess, table: str, token: str, action: int) -> None:
    status, body = _undo(server, table, token)
    assert status == 200, body
    version = body["version"]
    redo = server.post(f"/api/tables/{table}/moves", {"action": action, "version": version}, token)
    assert redo.status_code == 200, redo.text


def _refused(server: ServerProcess, table: str, token: str, code: str) -> str:
    version = _state(server, table, token)["version"]
    status, body = _undo(server, table, token)
    assert status == 429 and body["error"]["code"] == code, body
    assert _state(server, table, token)["version"] == version  # nothing changed
    message: str = body["error"]["message"]
    return message


def test_undo_is_bounded_per_turn_per_seat_and_per_table(tmp_path: Path) -> None:
    extra = [arg for name, value in SETTINGS.items() for arg in ("--set", f"{name}={value}")]
    rng = random.Random(24)
    with running_server(tmp_path / "data", extra=extra) as server:
        made = server.create(PEOPLE, game="arctic")
        table = made["table"]["id"]
        joined = server.post(f"/api/tables/{table}/join", {"name": "Bob"})  # the game starts
        assert joined.status_code == 200, joined.text
        tokens = [made["seats"][0]["token"], joined.json()["token"]]
        # Per turn: Ann takes back and replays the same decision until the turn's cap.
        action = _to_undo_point(server, table, tokens, 0, rng)
        for _ in range(PER_TURN):
            _undo_and_redo(server, table, tokens[0], action)
        per_turn = _refused(server, table, tokens[0], "too_many_undos")
        # Per seat over time: in a later turn, Ann has one token of her burst left.
        action = _to_undo_point(server, table, tokens, 0, rng)
        for _ in range(BURST - PER_TURN):
            _undo_and_redo(server, table, tokens[0], action)
        _refused(server, table, tokens[0], "too_fast")
        # Per table: Bob's bucket is full, but the table has room for two more undos only.
        action = _to_undo_point(server, table, tokens, 1, rng)
        for _ in range(PER_TABLE - BURST):
            _undo_and_redo(server, table, tokens[1], action)
        per_table = _refused(server, table, tokens[1], "too_many_undos")
        assert per_turn != per_table


def test_a_log_told_a_slice_at_a_time_is_the_log_told_at_once() -> None:
    """``Lobby.log_ready`` tells a long history in slices: the lines are the same, undos included, and an
    undo costs the log no replay of the history (its state comes from the kept copies)."""
    table = make_table()
    undos, rng = 0, random.Random(7)
    while not table.state.is_terminal() and undos < 40:
        actions = table.state.legal_actions()
        action = rng.choice(actions)
        seat = table.state.current_player()
        table.commit(table.after(action), undoable=table.seats[seat].kind == "person")
        if table.may_undo(seat):
            table.take_back()
            table.commit(table.after(action), undoable=True)
            undos += 1
    assert undos > 0
    whole = [table.log(viewer, "pl") for viewer in (0, 1, None)]
    while table.log_behind("de") > 0:
        table.catch_up_log("de", 7)
    sliced = [table.log(viewer, "de") for viewer in (0, 1, None)]
    assert [len(lines) for lines in sliced] == [len(lines) for lines in whole]
    fresh = Table.from_row(TableRow(**{**table.row.__dict__, "actions": list(table.events)}))
    assert [fresh.log(viewer, "de") for viewer in (0, 1, None)] == sliced

"""The web table's API and WebSocket protocol against a real server process (docs/server.md)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from floe.core.record import Record

from .serverproc import ServerProcess, free_port, running_server

# A search budget no test waits for: the longest a bot may have (an hour), granted by this module's server.
HOUR_MS = 3_600_000


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server for this module's tests (each test makes its own tables); it grants a bot an hour a
    decision, so a test can hold a search that only a hang could outlast."""
    extra = ["--bot-time-cap", "3600", "--set", f"bot_max_ms={HOUR_MS}"]
    with running_server(tmp_path_factory.mktemp("api"), extra=extra) as srv:
        yield srv


def ws_open(server: ServerProcess, table: str, token: str | None) -> ClientConnection:
    ws = connect(f"{server.ws_url}/ws/tables/{table}", legacy=True)
    ws.send(json.dumps({"type": "hello", "token": token}))
    return ws


def sit(server: ServerProcess, table: str, token: str) -> None:
    """Open ``token``'s seat and leave once the server has answered the hello (the seat is claimed then: a
    connection closed at once may be gone before its hello is read)."""
    ws = ws_open(server, table, token)
    try:
        until(ws, lambda m: m["type"] == "state")
    finally:
        ws.close()


def recv(ws: ClientConnection, timeout: float = 20) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(ws.recv(timeout=timeout))
    return message


def until(
    ws: ClientConnection, done: Callable[[dict[str, Any]], bool], timeout: float = 30
) -> dict[str, Any]:
    """Read messages until one satisfies ``done``."""
    end = time.monotonic() + timeout
    while True:
        message = recv(ws, max(0.1, end - time.monotonic()))
        if done(message):
            return message


def wait_for(check: Callable[[], bool], timeout: float = 30) -> None:
    end = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.05)


def is_state(message: dict[str, Any]) -> bool:
    return message["type"] == "state"


def my_turn(message: dict[str, Any]) -> bool:
    return is_state(message) and bool(message["legal"])


def test_games_lists_arctic_with_bots_and_its_option_schema(server: ServerProcess) -> None:
    arctic = next(g for g in server.get("/api/games").json() if g["name"] == "arctic")
    assert arctic["title"] == "Arctic" and (arctic["min_players"], arctic["max_players"]) == (2, 4)
    assert {"random", "baseline", "greedy", "ismcts"} <= set(arctic["bot_names"])
    options = {o["name"]: o for o in arctic["options"]}
    assert [c["value"] for c in options["preset"]["choices"]] == ["rules", "bga"]
    fox = options["power_sides"]["items"][0]
    assert fox["name"] == "fox" and [c["value"] for c in fox["choices"]] == [0, 1, 2]
    assert fox["choices"][2]["text"].startswith("fox-under: ")
    assert "powers" not in options  # the text shortcut is for the command line


def test_create_gives_tokens_for_person_seats_only_and_never_shows_them_again(server: ServerProcess) -> None:
    created = server.create(
        [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "baseline"}, {"kind": "person"}],
        options={"preset": "bga"},
    )
    assert [s["seat"] for s in created["seats"]] == [0, 2]
    table = created["table"]
    assert table["status"] == "waiting" and table["players"] == 3
    # The preset is expanded into the rules it stands for (the preset itself is not stored).
    options = table["options"]
    assert "preset" not in options
    assert (options["end_trigger"], options["deck_selection"], options["wildcard_scoring"]) == (
        "bga",
        "first_n",
        "bga_adjacent",
    )
    for path in (f"/api/tables/{table['id']}", "/api/tables"):
        text = server.get(path).text
        assert all(s["token"] not in text for s in created["seats"])
    assert [s["name"] for s in table["seats"]] == ["Ann", "baseline", "P3"]


def test_join_claims_free_seats_but_never_the_creators_then_refuses(server: ServerProcess) -> None:
    created = server.create([{"kind": "person", "name": "Ann"}, {"kind": "person"}, {"kind": "person"}])
    table = created["table"]["id"]
    assert table in [t["id"] for t in server.get("/api/tables?status=waiting").json()]
    first = server.post(f"/api/tables/{table}/join", {"name": "Bob"}).json()
    second = server.post(f"/api/tables/{table}/join", {"name": "Cy"}).json()
    assert (first["seat"], second["seat"]) == (1, 2)  # seat 0 is the creator's
    assert first["link"] == f"/table/{table}#seat={first['token']}"
    third = server.post(f"/api/tables/{table}/join", {"name": "Di"})
    assert third.status_code == 409 and third.json()["error"]["code"] == "no_free_seat"
    summary = server.get(f"/api/tables/{table}").json()
    assert summary["status"] == "playing" and [s["name"] for s in summary["seats"]] == ["Ann", "Bob", "Cy"]
    # The creator's link still works; the invitation link of a seat taken by a join stopped working.
    assert server.get(f"/api/tables/{table}/state", token=created["seats"][0]["token"]).json()["seat"] == 0
    stale = server.get(f"/api/tables/{table}/state", token=created["seats"][1]["token"])
    assert stale.status_code == 403


def test_a_move_is_acknowledged_before_the_new_state_and_only_the_mover_gets_choices(
    server: ServerProcess,
) -> None:
    created = server.create([{"kind": "person"}, {"kind": "person"}])
    table = created["table"]["id"]
    tokens = [s["token"] for s in created["seats"]]
    sockets = [ws_open(server, table, t) for t in tokens]
    spectator = ws_open(server, table, None)
    try:
        assert recv(spectator)["type"] == "welcome"
        watched = until(spectator, is_state)  # read before the move is sent: built before it
        states = [until(ws, lambda m: is_state(m) and m["status"] == "playing") for ws in sockets]
        mover = states[0]["to_move"]
        assert bool(states[mover]["legal"]) and not states[1 - mover]["legal"]
        assert "hand" in states[mover]["view"]["players_view"][mover]
        assert "hand" not in states[mover]["view"]["players_view"][1 - mover]
        choice = states[mover]["legal"][0]
        assert {"id", "notation", "text", "verb", "card", "seat"} <= set(choice)
        version = states[mover]["version"]
        sockets[mover].send(
            json.dumps({"type": "move", "action": choice["id"], "version": version, "id": "m1"})
        )
        ack = recv(sockets[mover])
        while ack["type"] == "state":  # a state sent before the move arrived (e.g. a peer connecting)
            ack = recv(sockets[mover])
        assert ack == {"type": "ack", "id": "m1", "version": ack["version"]} and ack["version"] > version
        after = until(sockets[mover], is_state)
        assert after["version"] == ack["version"]
        # The move is in the log, in words: the mover reads it as theirs ("You place ..."), a spectator
        # reads the same line with the mover's seat (below).
        new = [line for line in after["log"] if line["index"] >= states[mover]["log_total"]]
        assert new and new[0]["text"].startswith("You place "), new
        placed = new[0]["text"].split()[2]
        seen = until(spectator, lambda m: is_state(m) and m["version"] == ack["version"])
        assert seen["seat"] is None and seen["legal"] == []
        told = [line["text"] for line in seen["log"] if line["index"] >= watched["log_total"]]
        assert told and told[0].startswith(f"P{mover + 1} places {placed} "), told
        assert all("hand" not in p for p in seen["view"]["players_view"])
    finally:
        for ws in [*sockets, spectator]:
            ws.close()


def test_refused_moves_change_nothing_and_say_why(server: ServerProcess) -> None:
    created = server.create([{"kind": "person"}, {"kind": "person"}])
    table = created["table"]["id"]
    tokens = [s["token"] for s in created["seats"]]
    for token in tokens:
        sit(server, table, token)  # claim both seats
    wait_for(lambda: server.get(f"/api/tables/{table}").json()["status"] == "playing")
    state = server.get(f"/api/tables/{table}/state", token=tokens[0]).json()
    mover = state["to_move"]
    mine, theirs = tokens[mover], tokens[1 - mover]
    mine_state = server.get(f"/api/tables/{table}/state", token=mine).json()
    legal = mine_state["legal"][0]["id"]
    version = mine_state["version"]
    cases = [
        (theirs, {"action": legal, "version": version}, 409, "not_your_turn"),
        (mine, {"action": legal, "version": version - 1}, 409, "stale"),
        (mine, {"action": 5000, "version": version}, 409, "illegal"),
        ("forged-token", {"action": legal, "version": version}, 403, "bad_token"),
        (None, {"action": legal, "version": version}, 401, "bad_token"),
        (mine, {"action": "17", "version": version}, 400, "malformed"),
    ]
    for token, body, status, code in cases:
        answer = server.post(f"/api/tables/{table}/moves", body, token=token)
        assert (answer.status_code, answer.json()["error"]["code"]) == (status, code), answer.text
    again = server.get(f"/api/tables/{table}/state", token=mine).json()
    assert again["version"] == version and again["view"] == mine_state["view"]
    ok = server.post(f"/api/tables/{table}/moves", {"action": legal, "version": version}, token=mine)
    assert ok.status_code == 200 and ok.json()["version"] > version


def play_http(
    server: ServerProcess, table: str, token: str, seed: int, timeout: float = 120
) -> dict[str, Any]:
    """Play one person seat through the HTTP API until the game is over; returns the final state."""
    rng = random.Random(seed)
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        state: dict[str, Any] = server.get(f"/api/tables/{table}/state", token=token).json()
        if state["status"] == "finished":
            return state
        if state["legal"]:
            action = rng.choice(state["legal"])["id"]
            answer = server.post(
                f"/api/tables/{table}/moves", {"action": action, "version": state["version"]}, token
            )
            assert answer.status_code == 200, answer.text
        else:
            time.sleep(0.01)
    raise AssertionError("the game did not finish in time")


def test_a_game_against_a_searching_bot_ends_with_a_record_and_replays(server: ServerProcess) -> None:
    created = server.create([{"kind": "person"}, {"kind": "bot", "bot": "ismcts:it=30"}])
    table, token = created["table"]["id"], created["seats"][0]["token"]
    assert server.get(f"/api/tables/{table}/record").status_code == 409  # no record (seed) before the end
    assert server.get(f"/api/tables/{table}/replay?reveal=true", token=token).status_code == 409
    sit(server, table, token)
    final = play_http(server, table, token, seed=3)
    result = final["result"]
    assert sorted(result["ranking"]) == [0, 1] and len(result["breakdowns"]) == 2
    assert [b["total"] for b in result["breakdowns"]] == result["scores"]
    record = Record.from_json(server.get(f"/api/tables/{table}/record").json())
    assert record.result == {"scores": result["scores"], "ranking": result["ranking"]}
    replay = server.get(f"/api/tables/{table}/replay?reveal=true", token=token).json()
    frames = replay["frames"]
    assert frames[-1]["version"] == final["version"] == len(record.actions)
    assert all(len(f["views"]) == 2 for f in frames)
    versions = [f["version"] for f in frames]
    assert versions == sorted(set(versions))
    assert {f["actor"] for f in frames[1:]} == {0, 1}


@pytest.fixture(scope="module")
def quick_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server that hands a disconnected person's turn to a bot after one second."""
    with running_server(tmp_path_factory.mktemp("quick"), extra=["--away-after", "1"]) as srv:
        yield srv


def test_leave_hands_the_seat_to_the_baseline_bot_and_back_takes_it_again(
    quick_server: ServerProcess,
) -> None:
    server = quick_server
    created = server.create([{"kind": "person"}, {"kind": "bot", "bot": "random"}])
    table, token = created["table"]["id"], created["seats"][0]["token"]
    ws = ws_open(server, table, token)
    try:
        start = until(ws, my_turn)
        ws.send(json.dumps({"type": "leave"}))
        moved = until(ws, lambda m: is_state(m) and m["version"] > start["version"] + 10)
        assert moved["table"]["seats"][0]["away"] is True
        ws.send(json.dumps({"type": "back"}))
        back = until(ws, lambda m: is_state(m) and m["table"]["seats"][0]["away"] is False)
        mine = back if back["legal"] else until(ws, my_turn)
        # The bot must not play for a seat whose person is back. A negative check: a slow machine can only
        # make it pass wrongly (the bot had no time to play), never fail wrongly (nobody else may move).
        time.sleep(0.5)
        assert server.get(f"/api/tables/{table}").json()["version"] == mine["version"]
    finally:
        ws.close()


def test_a_person_who_disconnects_is_replaced_and_takes_the_seat_back_on_return(
    quick_server: ServerProcess,
) -> None:
    server = quick_server
    created = server.create([{"kind": "person"}, {"kind": "bot", "bot": "random"}])
    table, token = created["table"]["id"], created["seats"][0]["token"]
    ws = ws_open(server, table, token)
    turn = until(ws, my_turn)
    ws.close()
    wait_for(lambda: server.get(f"/api/tables/{table}").json()["version"] > turn["version"] + 5, timeout=60)
    assert server.get(f"/api/tables/{table}").json()["seats"][0]["away"] is True
    ws = ws_open(server, table, token)  # reconnecting (a reload, another device) takes the seat back
    try:
        state = until(ws, lambda m: is_state(m) and m["table"]["seats"][0]["connected"])
        assert state["table"]["seats"][0]["away"] is False
        assert state["log_total"] == len(state["log"]) > 0  # the first state carries the whole log
    finally:
        ws.close()


# A short turn timer. Only its lower bound is checked here (a timer never fires early, so that holds on any
# machine); that the stand-in comes in at the deadline itself, not seconds after, is checked against an
# explicit clock in test_lobby.py (test_the_turn_timer_and_a_person_gone_too_long_bring_in_the_stand_in), and
# how soon it plays under load is a service figure (`floe bench server`), not a test.
TIMER = 1.5


def test_the_turn_timer_hands_a_slow_turn_to_the_bot_at_the_deadline_not_before(
    server: ServerProcess,
) -> None:
    asked = time.time()
    created = server.create([{"kind": "person"}, {"kind": "bot", "bot": "random"}], turn_timer=TIMER)
    table, token = created["table"]["id"], created["seats"][0]["token"]
    ws = ws_open(server, table, token)
    try:
        turn = until(ws, my_turn)
        seen_turn = time.time()
        deadline = turn["deadline"]
        assert deadline is not None and turn["table"]["seats"][0]["away"] is False
        # The deadline is the server's clock (time.time()), which is this machine's clock too: the turn
        # began after the table was asked for and before its state arrived, and lasts the timer.
        assert asked <= deadline - TIMER <= seen_turn, (asked, deadline, seen_turn)
        # Every message until the stand-in's move, with the time it arrived (60 s only bounds a hang).
        seen: list[tuple[float, dict[str, Any]]] = []
        while not seen or not (is_state(seen[-1][1]) and seen[-1][1]["version"] > turn["version"]):
            message = recv(ws, timeout=60)
            seen.append((time.time(), message))
        moved_at, moved = seen[-1]
        # Not before: nothing changed for the seat until the deadline had passed (a message that arrived
        # before the deadline was sent before it, however slow the machine).
        early = [
            (round(t - deadline, 2), m["version"], m["table"]["seats"][0]["away"])
            for t, m in seen
            if t < deadline and is_state(m)
        ]
        assert all(v == turn["version"] and not away for _, v, away in early), f"before the deadline: {early}"
        away_at = next(t for t, m in seen if is_state(m) and m["table"]["seats"][0]["away"])
        assert deadline <= away_at <= moved_at
        # The move is the person's seat's (its own log says "You ..."), made by its stand-in, which still
        # holds the seat.
        assert moved["table"]["seats"][0]["away"] is True
        new = [line["text"] for line in moved["log"] if line["index"] >= turn["log_total"]]
        assert new and new[0].startswith("You "), new
    finally:
        ws.close()


def test_a_second_server_on_the_same_database_is_refused(server: ServerProcess) -> None:
    cmd = [
        sys.executable,
        "-m",
        "floe",
        "serve",
        "--port",
        str(free_port()),
        "--data-dir",
        str(server.data_dir),
        "--set",
        "claim_wait=0.5",  # the default 5 s, for a server that just stopped, would only slow the test
    ]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "already serving this database" in done.stderr and "Traceback" not in done.stderr
    assert server.get("/api/games").status_code == 200  # the first one serves on


# Last in the module: its search goes on (in a worker, for an hour) until the module's server stops.
def test_a_thinking_bot_does_not_hold_up_other_tables(server: ServerProcess) -> None:
    """Five moves at another table are acknowledged while a bot's search is still pending: an ordering,
    not a race against the search's budget (an hour, which only a hang could outlast)."""
    bot = f"ismcts:ms={HOUR_MS}"
    slow = server.create([{"kind": "person"}, {"kind": "bot", "bot": bot}])
    assert slow["notices"] == [] and slow["table"]["seats"][1]["bot"] == bot
    fast = server.create([{"kind": "person"}, {"kind": "person"}])
    slow_id, slow_token = slow["table"]["id"], slow["seats"][0]["token"]
    sit(server, slow_id, slow_token)
    rng = random.Random(2)
    while (state := server.get(f"/api/tables/{slow_id}/state", token=slow_token).json())["to_move"] == 0:
        move = {"action": rng.choice(state["legal"])["id"], "version": state["version"]}
        assert server.post(f"/api/tables/{slow_id}/moves", move, slow_token).status_code == 200
    thinking_at = state["version"]  # the bot is now searching, for an hour
    fast_id = fast["table"]["id"]
    tokens = [s["token"] for s in fast["seats"]]
    for token in tokens:
        sit(server, fast_id, token)
    for _ in range(5):
        states = [server.get(f"/api/tables/{fast_id}/state", token=t).json() for t in tokens]
        mover = next(s for s in states if s["legal"])
        move = {"action": mover["legal"][0]["id"], "version": mover["version"]}
        assert server.post(f"/api/tables/{fast_id}/moves", move, tokens[mover["seat"]]).status_code == 200
    # Five moves were committed elsewhere while the bot's decision was still pending.
    assert server.get(f"/api/tables/{slow_id}").json()["version"] == thinking_at

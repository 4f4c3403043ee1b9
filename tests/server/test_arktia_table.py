"""Arktia at the web table over the real server API (docs/server.md, "Arktia"): the lobby lists it, tables
play to the end through HTTP moves, every legal item and log line has the documented shape, refused moves
change nothing, and an away person's seat is played by a bot that exists for Arktia."""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.sync.client import connect

from floe.core.record import Record

from .serverproc import ServerProcess, running_server

ITEM_KEYS = {"id", "notation", "text", "verb", "from", "to", "part", "colour", "group"}
# What a choice that ends the chooser's game costs (docs/server.md, "Arktia"), and its question.
OPTIONAL_KEYS = {"warning", "confirm"}
WARNINGS = {"ends your game", "ends the game: the turn limit is reached"}
VERBS = {"place", "neutral", "move", "keep", "melt", "stop"}
CELL = re.compile(r"^[a-z]\d+$")
PART = re.compile(r"^(g|d|t|dg|td|gt|tdg)$")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server for this module, with the default away time: the leave test sends `leave`, and the seats
    played over HTTP alone (no connection) must not be taken by the away bot on a busy machine, where one
    HTTP turn can take longer than a short away time (a stale move, red under load)."""
    with running_server(tmp_path_factory.mktemp("arktia")) as srv:
        yield srv


def check_item(item: dict[str, Any]) -> None:
    """A legal item has every documented key, and the ones its verb needs are filled in."""
    assert ITEM_KEYS <= set(item) <= ITEM_KEYS | OPTIONAL_KEYS, item
    verb = item["verb"]
    assert item.get("warning") in WARNINGS | {None}, item
    assert ("confirm" in item) <= ("warning" in item), item  # a question only where the game ends
    if verb == "stop":
        assert item["warning"] and item["confirm"], item
    assert verb in VERBS and item["text"] and item["notation"]
    if verb == "move":
        assert CELL.match(item["from"]) and CELL.match(item["to"]) and PART.match(item["part"]), item
        assert item["notation"] == f"{item['part']} {item['from']}-{item['to']}"
        assert re.match(r"^p[1-4]$", item["colour"])
    elif verb in ("place", "neutral"):
        assert item["from"] is None and CELL.match(item["to"]) and item["part"] in ("g", "d", "t"), item
        assert item["notation"].endswith(f"{item['part']}@{item['to']}")
        assert item["colour"] == "n" if verb == "neutral" else re.match(r"^p[1-4]$", item["colour"])
    elif verb == "keep":
        assert CELL.match(item["to"]) and item["to"] in item["group"], item
        assert item["notation"] == f"keep {item['colour']} {item['to']}"
    elif verb == "melt":
        assert item["notation"] == f"melt {item['to']}" and item["part"] is None
    else:
        assert item["notation"] == "stop" and item["to"] is None


def play_http(
    server: ServerProcess, table: str, tokens: list[str], seed: int, timeout: float = 120
) -> tuple[dict[str, Any], set[str]]:
    """Play every person seat with random legal moves over HTTP until the end; checks each item on the way.
    Returns the final state and the verbs played."""
    rng = random.Random(seed)
    verbs: set[str] = set()
    mover = 0  # the seat whose state is asked for: the one to move, as far as we know
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        state = server.get(f"/api/tables/{table}/state", token=tokens[mover]).json()
        if state["status"] == "finished":
            return state, verbs
        if not state["legal"]:
            to_move = state["to_move"]
            if to_move is not None and to_move < len(tokens) and to_move != mover:
                mover = to_move
            else:
                time.sleep(0.01)  # a bot is thinking
            continue
        for item in state["legal"]:
            check_item(item)
        assert state["deciding"] and state["to_move"] == state["seat"] == mover
        choice = rng.choice(state["legal"])
        verbs.add(choice["verb"])
        body = {"action": choice["id"], "version": state["version"]}
        answer = server.post(f"/api/tables/{table}/moves", body, tokens[mover])
        assert answer.status_code == 200, answer.text
    raise AssertionError("the game did not finish in time")


def test_the_lobby_lists_arktia_with_its_options_and_the_bots_it_has(server: ServerProcess) -> None:
    games = {g["name"]: g for g in server.get("/api/games").json()}
    assert {"arctic", "arktia"} <= set(games)
    arktia = games["arktia"]
    assert (arktia["min_players"], arktia["max_players"]) == (2, 4)
    assert "placeholder" in arktia["notice"] and arktia["board"] == "/games/arktia/board.js"
    assert "random" in arktia["bots"]
    assert all(spec.partition(":")[0] in arktia["bot_names"] for spec in arktia["bots"])
    options = {o["name"]: o for o in arktia["options"]}
    assert {"layout", "neutrals", "melt_start", "bridge_melt_ends", "out_pieces", "tie_break"} <= set(options)
    assert "placeholder-18" in [v["value"] for v in options["layout"]["choices"]]
    assert options["max_turns"]["kind"] == "int" and options["max_turns"]["high"] == 100_000


def test_a_bad_arktia_option_is_refused(server: ServerProcess) -> None:
    seats = [{"kind": "person"}] + [{"kind": "bot", "bot": "random"}] * 3
    answer = server.post("/api/tables", {"game": "arktia", "seats": seats, "options": {"neutrals": True}})
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "bad_option"
    answer = server.post("/api/tables", {"game": "arktia", "seats": seats[:1]})
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "bad_option"


def test_an_arktia_game_against_the_random_bot_plays_to_the_end(server: ServerProcess) -> None:
    created = server.create(
        [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "random"}],
        game="arktia",
        options={"layout": "placeholder-18", "max_turns": 120},
    )
    table, token = created["table"]["id"], created["seats"][0]["token"]
    assert created["table"]["game"] == "arktia" and created["table"]["options"]["layout"] == "placeholder-18"
    final, verbs = play_http(server, table, [token], seed=5)
    assert {"neutral", "place"} <= verbs
    result = final["result"]
    assert sorted(result["ranking"]) == [0, 1]
    assert [b["total"] for b in result["breakdowns"]] == result["scores"]
    assert all(b["total"] == b["captured"] + b["controlled"] + b["melted"] for b in result["breakdowns"])
    assert final["deciding"] == "the game is over" and final["legal"] == []
    # The log: one line per decision, in words, the same for everyone (perfect information).
    lines = [line["text"] for line in final["log"]]
    assert len(lines) == final["log_total"] == final["version"]
    assert all(re.match(r"^P[12] ", line) and line.endswith(".") for line in lines)
    assert "places a neutral" in lines[0]
    assert "The game is over" in lines[-1]
    spectator = server.get(f"/api/tables/{table}/state").json()
    assert [line["text"] for line in spectator["log"]] == lines
    record = Record.from_json(server.get(f"/api/tables/{table}/record").json())
    assert record.result == {"scores": result["scores"], "ranking": result["ranking"]}
    frames = server.get(f"/api/tables/{table}/replay").json()["frames"]
    assert len(frames) == final["version"] + 1 and frames[-1]["view"]["step"] == "over"
    assert [line for f in frames for line in f["log"]] == lines


def test_three_people_play_arktia_over_http_with_words_for_every_decision(server: ServerProcess) -> None:
    created = server.create(
        [{"kind": "person"}, {"kind": "person"}, {"kind": "person"}],
        game="arktia",
        options={"max_turns": 45, "out_pieces": "remove"},
    )
    table = created["table"]["id"]
    tokens = [s["token"] for s in created["seats"]]
    for token in tokens[1:]:
        ws = connect(f"{server.ws_url}/ws/tables/{table}", legacy=True)
        ws.send(json.dumps({"type": "hello", "token": token}))
        ws.recv(timeout=10)
        ws.close()
    final, verbs = play_http(server, table, tokens, seed=11)
    assert "move" in verbs
    assert len(final["result"]["scores"]) == 3


def test_a_stale_or_illegal_arktia_move_is_refused_and_changes_nothing(server: ServerProcess) -> None:
    created = server.create(
        [{"kind": "person"}, {"kind": "bot", "bot": "random"}], game="arktia", options={"max_turns": 200}
    )
    table, token = created["table"]["id"], created["seats"][0]["token"]
    # Play until the person has a move on the board (past the opening), then try refused moves.
    rng = random.Random(2)
    end = time.monotonic() + 60
    while True:
        assert time.monotonic() < end, "no move choice came up"
        state = server.get(f"/api/tables/{table}/state", token=token).json()
        assert state["status"] != "finished", "the game ended before a move choice came up"
        if not state["legal"]:
            time.sleep(0.01)
            continue
        if any(item["verb"] == "move" for item in state["legal"]):
            break
        choice = rng.choice(state["legal"])["id"]
        server.post(f"/api/tables/{table}/moves", {"action": choice, "version": state["version"]}, token)
    version = state["version"]
    legal_ids = {item["id"] for item in state["legal"]}
    move = next(item for item in state["legal"] if item["verb"] == "move")
    illegal = next(a for a in range(1, 100_000) if a not in legal_ids)
    cases = [
        ({"action": move["id"], "version": version - 1}, 409, "stale"),
        ({"action": move["id"], "version": version + 1}, 409, "stale"),
        ({"action": illegal, "version": version}, 409, "illegal"),
        ({"action": -1, "version": version}, 409, "illegal"),
        ({"action": 10**9, "version": version}, 409, "illegal"),
    ]
    for body, status, code in cases:
        answer = server.post(f"/api/tables/{table}/moves", body, token)
        assert (answer.status_code, answer.json()["error"]["code"]) == (status, code), answer.text
    again = server.get(f"/api/tables/{table}/state", token=token).json()
    assert again["version"] == version and again["view"] == state["view"] and again["legal"] == state["legal"]
    assert again["log_total"] == state["log_total"]
    ok = server.post(f"/api/tables/{table}/moves", {"action": move["id"], "version": version}, token)
    assert ok.status_code == 200 and ok.json()["version"] > version
    after = server.get(f"/api/tables/{table}/state", token=token).json()
    assert any(f"from {move['from']} to {move['to']}" in line["text"] for line in after["log"])


def test_an_away_person_is_played_by_a_bot_arktia_has(server: ServerProcess) -> None:
    created = server.create([{"kind": "person"}, {"kind": "bot", "bot": "random"}], game="arktia")
    table, token = created["table"]["id"], created["seats"][0]["token"]
    ws = connect(f"{server.ws_url}/ws/tables/{table}", legacy=True)
    try:
        ws.send(json.dumps({"type": "hello", "token": token}))
        version = 0
        while True:
            message = json.loads(ws.recv(timeout=60))
            if message["type"] == "state" and message["legal"]:
                version = message["version"]
                break
        ws.send(json.dumps({"type": "leave"}))
        end = time.monotonic() + 60  # only bounds a hang
        while time.monotonic() < end:
            message = json.loads(ws.recv(timeout=60))
            if message["type"] == "state" and message["version"] > version + 6:
                assert message["table"]["seats"][0]["away"] is True
                break
        else:
            raise AssertionError("the away seat was not played")
    finally:
        ws.close()


def test_every_arktia_decision_has_items_and_a_log_line_in_words() -> None:
    """In process, over many random games: every kind of decision comes up, every legal item has the
    documented fields, and every log line is words that end with a full stop and name what was taken."""
    from floe.core import present
    from floe.core.registry import make_game

    presenter = present.presenter_for("arktia")

    verbs: set[str] = set()
    taken = re.compile(r"P(\d) takes (\d+) Muglus?\.")
    for k in range(120):
        players = 2 + k % 3
        game = make_game("arktia", players, {"out_pieces": "remove"} if k % 4 == 0 else {})
        state = game.new_initial_state()
        rng = random.Random(k)
        while not state.is_terminal():
            seat = state.current_player()
            items = present.legal_choices(presenter, state, seat)
            assert [item["id"] for item in items] == state.legal_actions()
            for item in items:
                check_item(item)
            assert present.legal_choices(presenter, state, (seat + 1) % players) == []
            assert present.deciding(presenter, state)
            choice = rng.choice(items)
            verbs.add(choice["verb"])
            before = list(state.captured)  # type: ignore[attr-defined]
            line = present.log_line(presenter, state, choice["id"], None)
            assert line and line.startswith(f"P{seat + 1} ") and line.endswith("."), line
            assert present.log_line(presenter, state, choice["id"], seat) == line  # nothing is hidden
            state.apply(choice["id"])
            gained = [after - b for after, b in zip(state.captured, before, strict=True)]  # type: ignore[attr-defined]
            found = taken.search(line)
            assert (int(found.group(2)) if found else 0) == sum(gained), line
        assert present.deciding(presenter, state) == "the game is over"
    assert verbs == VERBS

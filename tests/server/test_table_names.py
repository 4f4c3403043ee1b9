"""Names on a real server: bots shown by friendly names with their budget and listed by measured strength,
and tables with a name (cleaned, bounded, stored, shown in the lobby's list and the table's summary)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from typing import Any

import pytest

from floe.server.names import MAX_TABLE_CHARS, BadName, clean_name, clean_table_name

from .serverproc import ServerProcess, running_server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with running_server(tmp_path_factory.mktemp("names")) as srv:
        yield srv


def arctic(server: ServerProcess) -> dict[str, Any]:
    found: dict[str, Any] = next(g for g in server.get("/api/games").json() if g["name"] == "arctic")
    return found


def test_the_lobby_gets_arctic_bots_by_strength_with_their_names(server: ServerProcess) -> None:
    game = arctic(server)
    assert game["bots"][:3] == ["random", "greedy", "baseline"]  # greedy is the weaker (docs/strength.md)
    assert game["bot_labels"]["baseline"] == "Baseline (BGA's automatic player)"
    assert game["bot_labels"]["ismcts:ms=500"] == "ISMCTS · 0.5 s"
    assert set(game["bot_labels"]) == set(game["bots"])
    assert game["default_bot"] == "baseline"


def test_a_named_table_with_bots_shows_their_names(server: ServerProcess) -> None:
    seats = [{"kind": "person"}, {"kind": "bot", "bot": "ismcts:ms=200"}, {"kind": "bot", "bot": "baseline"}]
    made = server.create(seats, name="  Friday\u202e\u200b   night ")
    table = made["table"]
    assert table["name"] == "Friday night"
    labels = [seat["label"] for seat in table["seats"]]
    assert labels == [None, "ISMCTS · 0.2 s", "Baseline (BGA's automatic player)"]
    listed = next(t for t in server.get("/api/tables").json() if t["id"] == table["id"])
    assert listed["name"] == "Friday night" and listed["seats"][2]["label"] == labels[2]
    state = server.get(f"/api/tables/{table['id']}/state", token=made["seats"][0]["token"]).json()
    assert state["table"]["name"] == "Friday night"
    unnamed = server.create([{"kind": "person"}, {"kind": "bot", "bot": "random"}])["table"]
    assert unnamed["name"] is None


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("\u200b\u202e \u200b", "bad_name"),  # nothing visible
        ("x" * (MAX_TABLE_CHARS + 1), "malformed"),
        ("é" * MAX_TABLE_CHARS * 2, "malformed"),
        ("", "malformed"),
    ],
)
def test_a_bad_table_name_is_refused_and_nothing_is_made(server: ServerProcess, name: str, code: str) -> None:
    before = len(server.get("/api/tables").json())
    answer = server.post("/api/tables", {"seats": [{"kind": "person"}, {"kind": "person"}], "name": name})
    assert answer.status_code == 400 and answer.json()["error"]["code"] == code, answer.text
    assert len(answer.text) < 400
    assert len(server.get("/api/tables").json()) == before


def test_tables_stored_before_table_names_still_load(tmp_path_factory: pytest.TempPathFactory) -> None:
    data = tmp_path_factory.mktemp("old-names")
    with running_server(data) as old:
        made = old.create([{"kind": "person"}, {"kind": "bot", "bot": "baseline"}], name="Soon gone")
    db = sqlite3.connect(data / "floe.sqlite3")
    db.execute("ALTER TABLE floe_tables DROP COLUMN name")  # the database as an older server left it
    db.commit()
    db.close()
    with running_server(data) as restarted:
        table = restarted.get(f"/api/tables/{made['table']['id']}").json()
        assert table["status"] == "playing" and table["name"] is None
        assert table["seats"][1]["label"] == "Baseline (BGA's automatic player)"


def test_a_table_name_is_cleaned_as_a_seat_name_and_may_use_the_table_labels() -> None:
    assert clean_table_name(" Bots\u00a0and\tme \u202e") == "Bots and me"
    with pytest.raises(BadName):
        clean_name("Bots and me")  # a seat's name may not: it sits next to the seat's badges
    assert clean_table_name("é" * MAX_TABLE_CHARS) == "é" * MAX_TABLE_CHARS  # 120 bytes
    with pytest.raises(BadName, match="at most 60 characters"):
        clean_table_name("x" * (MAX_TABLE_CHARS + 1))
    with pytest.raises(BadName, match="at most"):
        clean_table_name("😀" * 50)  # 50 characters, 200 bytes

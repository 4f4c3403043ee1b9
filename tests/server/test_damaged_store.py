"""One damaged stored table does not stop the server (issue 16, item 7).

A real server stores a few tables; with the server stopped, the test damages some of them in the SQLite
file the way a bad migration, a hand edit or a bug could: an illegal action in a log, options that are not
JSON, seats without their fields, a finished table whose options are not JSON. The restarted server must
start, serve the sound tables (a move is played on one), answer ``unknown_table`` for the damaged ones, and
say in one log line per damaged table which one it could not load, with no traceback.
"""

from __future__ import annotations

import json
from pathlib import Path

import sqlalchemy as sa

from floe.server.store import actions_t, tables_t

from .serverproc import ServerProcess

PEOPLE = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bob"}]


def damage(db_file: Path, illegal: str, not_json: str, no_fields: str, finished: str) -> None:
    """Damage four stored tables, one way each, directly in the database."""
    engine = sa.create_engine(f"sqlite:///{db_file}")
    try:
        with engine.begin() as conn:
            count = sa.select(sa.func.count()).where(actions_t.c.table_id == illegal)
            length = conn.execute(count).scalar_one()
            conn.execute(actions_t.insert().values(table_id=illegal, idx=length, action=10**6))
            conn.execute(tables_t.update().where(tables_t.c.id == not_json).values(options='{"preset": '))
            no_kind = json.dumps([{"name": "Ann"}, {"name": "Bob"}])
            conn.execute(tables_t.update().where(tables_t.c.id == no_fields).values(seats=no_kind))
            conn.execute(
                tables_t.update().where(tables_t.c.id == finished).values(finished=True, options="[oops")
            )
    finally:
        engine.dispose()


def test_a_damaged_table_is_skipped_with_one_line_and_the_others_are_served(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "data")
    server.start()
    try:
        made = {
            name: server.create(PEOPLE) for name in ("sound", "illegal", "not_json", "no_fields", "finished")
        }
    finally:
        server.stop()
    ids = {name: answer["table"]["id"] for name, answer in made.items()}
    damage(
        server.data_dir / "floe.sqlite3", ids["illegal"], ids["not_json"], ids["no_fields"], ids["finished"]
    )
    log_start = server.log_path.stat().st_size

    server.start()
    try:
        # The sound table is served and plays on: the second seat joins, the person to move moves.
        sound = ids["sound"]
        assert server.get(f"/api/tables/{sound}").json()["status"] == "waiting"
        joined = server.post(f"/api/tables/{sound}/join", {"name": "Cy"}).json()
        tokens = [made["sound"]["seats"][0]["token"], joined["token"]]
        states = [server.get(f"/api/tables/{sound}/state", token=t).json() for t in tokens]
        mover = next(s for s in states if s["legal"])
        move = {"action": mover["legal"][0]["id"], "version": mover["version"]}
        answer = server.post(f"/api/tables/{sound}/moves", move, token=tokens[mover["seat"]])
        assert answer.status_code == 200 and answer.json()["version"] > mover["version"]
        # The damaged ones are unknown, and the lobby's list (which holds finished tables) still works.
        for name in ("illegal", "not_json", "no_fields", "finished"):
            answer = server.get(f"/api/tables/{ids[name]}")
            assert (answer.status_code, answer.json()["error"]["code"]) == (404, "unknown_table"), name
        listed = server.get("/api/tables")
        assert listed.status_code == 200 and [t["id"] for t in listed.json()] == [sound]
    finally:
        server.stop()

    log = server.log_path.read_text(errors="replace")[log_start:]
    assert "Traceback" not in log, log
    for name in ("illegal", "not_json", "no_fields", "finished"):
        lines = [line for line in log.splitlines() if ids[name] in line]
        assert len(lines) == 1 and lines[0].startswith(f"cannot load table {ids[name]}: "), (name, log)
    assert ids["sound"] not in log
    said = {
        name: next(line for line in log.splitlines() if ids[name] in line) for name in ids if name != "sound"
    }
    assert "does not replay" in said["illegal"] and "not JSON" in said["not_json"]
    assert "KeyError" in said["no_fields"] and "not JSON" in said["finished"]

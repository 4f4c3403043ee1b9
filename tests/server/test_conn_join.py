"""Issue 11, item 7: private tables are private; a public table's lobby join gives one seat per browser.

The attack: the table id is in every invitation and spectator link, and ``POST /api/tables/{id}/join`` on a
``public: false`` table gave a seat to anyone who had it (the invited friend's link then got 403), and
repeated joins took every free seat.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from .serverproc import ServerProcess, running_server
from .wsclient import WsClient

PEOPLE = [{"kind": "person", "name": "Ann"}, {"kind": "person"}, {"kind": "person"}]


def test_a_private_table_is_joined_only_with_its_invitation_links(server: ServerProcess) -> None:
    created = server.create(PEOPLE, public=False)
    table = created["table"]["id"]
    before = server.get(f"/api/tables/{table}").json()
    assert table not in [t["id"] for t in server.get("/api/tables").json()]
    for name in ("Mallory", "Eve", "Trudy", "Mallory"):
        answer = server.post(f"/api/tables/{table}/join", {"name": name})
        assert answer.status_code == 403, answer.text
        assert answer.json()["error"]["code"] == "private_table"
    assert server.get(f"/api/tables/{table}").json() == before  # no seat taken, no name changed

    # The invited friends' links work: over HTTP, and over the WebSocket (which claims the seat).
    for seat in created["seats"]:
        state = server.get(f"/api/tables/{table}/state", token=seat["token"]).json()
        assert state["seat"] == seat["seat"]

    async def open_links() -> None:
        for seat in created["seats"][1:]:
            client = WsClient(server.ws_url, table, seat["token"])
            await client.connect()
            assert client.seat == seat["seat"]
            await client.close()

    asyncio.run(open_links())
    assert server.get(f"/api/tables/{table}").json()["status"] == "playing"


def test_a_browser_gets_one_seat_per_public_table(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with running_server(data) as server:
        created = server.create([*PEOPLE, {"kind": "person"}])
        table = created["table"]["id"]
        mine = "k" * 20
        first = server.post(f"/api/tables/{table}/join", {"name": "Bob", "key": mine})
        assert first.status_code == 200 and first.json()["seat"] == 1
        again = server.post(f"/api/tables/{table}/join", {"name": "Bob", "key": mine})
        assert again.status_code == 409, again.text
        assert again.json()["error"]["code"] == "already_joined" and "P2" in again.json()["error"]["message"]
        assert first.json()["token"] not in again.text
        # Bad keys are refused before anything else.
        for key in ("short", "x" * 65, "spaces are not allowed", 5):
            bad = server.post(f"/api/tables/{table}/join", {"name": "Bob", "key": key})
            assert bad.status_code == 400 and bad.json()["error"]["code"] == "malformed", bad.text
        seats = server.get(f"/api/tables/{table}").json()["seats"]
        assert [s["claimed"] for s in seats] == [True, True, False, False]
        assert (
            all("joined_by" not in s for s in seats) and mine not in server.get(f"/api/tables/{table}").text
        )
    # The key is kept with the seat: after a restart the same browser still has its one seat.
    with running_server(data) as server:
        again = server.post(f"/api/tables/{table}/join", {"name": "Bob", "key": mine})
        assert again.status_code == 409 and again.json()["error"]["code"] == "already_joined"
        other = server.post(f"/api/tables/{table}/join", {"name": "Cy", "key": "c" * 20})
        assert other.status_code == 200 and other.json()["seat"] == 2
        # The first join's link still opens its seat.
        assert server.get(f"/api/tables/{table}/state", token=first.json()["token"]).json()["seat"] == 1

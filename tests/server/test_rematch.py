"""Issue 13, item 10: rematch and recent tables, over a real server.

After a game, a person's ``rematch`` makes a new private table with the same game, options and seats (the
bot with its spec; the people by name, only the asker's seat taken); every connection of the old table
hears of it (no token), each person gets their own new link by accepting, and the game starts once every
person has opened theirs. A browser's key lists its recent tables (created, joined, rematched).
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

from .serverproc import ServerProcess
from .wsclient import Acked, WsClient, play

SEATS = [
    {"kind": "person", "name": "Ann"},
    {"kind": "person", "name": "Bob"},
    {"kind": "bot", "bot": "random", "name": "Robo"},
]
ANN_KEY, BOB_KEY = "a" * 20, "b" * 20


async def _rematch(client: WsClient, key: str | None = None) -> dict[str, Any]:
    """Send ``rematch``; the ``rematch_seat`` or ``error`` that answers it."""
    start = len(client.messages)
    await client.send({"type": "rematch", **({"key": key} if key else {})})
    return await client.next_message(lambda m: m["type"] in ("rematch_seat", "error"), start=start)


async def _scenario(server: ServerProcess, table: str, tokens: list[str]) -> dict[str, Any]:
    ann = WsClient(server.ws_url, table, tokens[0], name="ann")
    bob = WsClient(server.ws_url, table, tokens[1], name="bob")
    watcher = WsClient(server.ws_url, table, None, name="watcher")
    for client in (ann, bob, watcher):
        await client.connect()
    early = await _rematch(ann)
    assert early["type"] == "error" and early["code"] == "not_finished", early
    acks: list[Acked] = []
    await asyncio.gather(play(ann, random.Random(1), acks), play(bob, random.Random(2), acks))

    asked = await _rematch(ann, ANN_KEY)
    assert asked["type"] == "rematch_seat" and asked["seat"] == 0, asked
    new = asked["table"]
    assert asked["link"].startswith(f"/table/{new}#seat=")
    # Everyone at the old table hears of it, with no token; a spectator has no seat to bring.
    for client in (bob, watcher, ann):
        offer = await client.next_message(lambda m: m["type"] == "rematch_offer", start=0)
        # The private rematch's id only for the seats (issue 24, item 10).
        seen = {"table": new} if client is not watcher else {}
        assert offer == {"type": "rematch_offer", **seen, "by": 0}
    refused = await _rematch(watcher)
    assert refused["type"] == "error" and refused["code"] == "bad_token"
    accepted = await _rematch(bob, BOB_KEY)
    again = await _rematch(ann)
    assert accepted["table"] == again["table"] == new and accepted["seat"] == 1
    assert again["link"] == asked["link"] and accepted["link"] != asked["link"]
    for client in (ann, bob, watcher):
        await client.close()
    # A page opened later hears of the offer too.
    late = WsClient(server.ws_url, table, None, name="late")
    await late.connect()
    late_offer = await late.next_message(lambda m: m["type"] == "rematch_offer", start=0)
    assert "table" not in late_offer
    await late.close()
    return {"new": new, "ann": asked["link"].split("=", 1)[1], "bob": accepted["link"].split("=", 1)[1]}


def test_rematch_and_recent_tables(server: ServerProcess) -> None:
    created = server.create(SEATS, game="arktia", options={"max_turns": 40}, key=ANN_KEY)
    old = created["table"]
    tokens = [s["token"] for s in created["seats"]]
    got = asyncio.run(_scenario(server, old["id"], tokens))
    new = server.get(f"/api/tables/{got['new']}").json()
    assert new["game"] == old["game"] and new["options"] == old["options"] and new["public"] is False
    assert [(s["kind"], s["name"], s["bot"]) for s in new["seats"]] == [
        ("person", "Ann", None),
        ("person", "Bob", None),
        ("bot", "Robo", "random"),
    ]
    assert [s["claimed"] for s in new["seats"]] == [True, False, True] and new["status"] == "waiting"
    # Private: nobody takes Bob's seat from the lobby.
    assert server.post(f"/api/tables/{got['new']}/join", {"name": "Eve"}).status_code == 403

    async def open_links() -> None:
        for token in (got["ann"], got["bob"]):
            client = WsClient(server.ws_url, got["new"], token)
            await client.connect()
            await client.close()

    asyncio.run(open_links())
    assert server.get(f"/api/tables/{got['new']}").json()["status"] == "playing"

    ann_recent = server.post("/api/recent", {"key": ANN_KEY}).json()
    assert [(t["id"], t["my_seat"]) for t in ann_recent] == [(got["new"], 0), (old["id"], 0)]
    assert ann_recent[1]["status"] == "finished"
    bob_recent = server.post("/api/recent", {"key": BOB_KEY}).json()
    assert [(t["id"], t["my_seat"]) for t in bob_recent] == [(got["new"], 1)]
    assert "token" not in str(ann_recent) and got["ann"] not in str(ann_recent)
    assert server.post("/api/recent", {"key": "short"}).status_code == 400
    assert server.post("/api/recent", {"key": "c" * 20}).json() == []

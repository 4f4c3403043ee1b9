"""Issue 24, item 10, over a real server: the rematch offer does not tell spectators the private rematch
table's id; seat names that pass for a seat number spaced out (``P 2``) or in look-alike letters of another
script (a Cyrillic ``Р1``, a Greek ``ΥΟU``) are refused; a table name is bounded in the width it is drawn in
(60 × ``﷽`` is as wide as 720 letters), not only in characters.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from .serverproc import ServerProcess, running_server
from .wsclient import WsClient

PERSON_AND_BOT = [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "random"}]


def _refused_name(server: ServerProcess, **fields: object) -> str:
    answer = server.post("/api/tables", {"seats": PERSON_AND_BOT, "game": "arktia", **fields})
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "bad_name", answer.text
    message: str = answer.json()["error"]["message"]
    return message


def test_names_that_pass_for_labels_and_names_too_wide(server: ServerProcess) -> None:
    for name in ("P 2", "p.3", "\u04201", "\u03a5\u039fU"):  # P 2, p.3, Cyrillic Р1, Greek ΥΟ + Latin U
        seats = [{"kind": "person", "name": name}, {"kind": "bot", "bot": "random"}]
        answer = server.post("/api/tables", {"seats": seats, "game": "arktia"})
        assert answer.status_code == 400 and answer.json()["error"]["code"] == "bad_name", (name, answer.text)
    assert "wide" in _refused_name(server, name="\ufdfd" * 60)
    made = server.create(PERSON_AND_BOT, game="arktia", name="\ufdfd" * 5 + " Пётр")  # narrow enough
    assert made["table"]["name"] == "\ufdfd" * 5 + " Пётр"


def test_spectators_do_not_hear_the_rematch_table(tmp_path: Path) -> None:
    # The person is away at once once she left: the away bot plays the game out for her.
    with running_server(tmp_path / "data", extra=["--away-after", "0.1"]) as server:
        made = server.create(PERSON_AND_BOT, game="arktia", options={"max_turns": 10})
        table, token = made["table"]["id"], made["seats"][0]["token"]

        async def visit() -> None:  # Ann sits down and leaves: her away bot plays on
            ann = WsClient(server.ws_url, table, token, name="ann")
            await ann.connect()
            await ann.close()

        asyncio.run(visit())
        deadline = time.monotonic() + 120
        while server.get(f"/api/tables/{table}").json()["status"] != "finished":
            assert time.monotonic() < deadline, "the game did not finish"
            time.sleep(0.2)

        async def run() -> None:
            ann = WsClient(server.ws_url, table, token, name="ann")
            watcher = WsClient(server.ws_url, table, None, name="watcher")
            await ann.connect()
            await watcher.connect()
            await ann.send({"type": "rematch"})
            seat = await ann.next_message(lambda m: m["type"] == "rematch_seat", start=0)
            heard = await watcher.next_message(lambda m: m["type"] == "rematch_offer", start=0)
            assert heard == {"type": "rematch_offer", "by": 0}
            mine = await ann.next_message(lambda m: m["type"] == "rematch_offer", start=0)
            assert mine["table"] == seat["table"]
            late = WsClient(server.ws_url, table, None, name="late")
            await late.connect()
            offer = await late.next_message(lambda m: m["type"] == "rematch_offer", start=0)
            assert "table" not in offer and seat["table"] not in str(late.messages)
            for client in (ann, watcher, late):
                await client.close()

        asyncio.run(run())

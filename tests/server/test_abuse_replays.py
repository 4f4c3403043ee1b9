"""Issue 24, item 4: replays are cached and bounded.

Each replay request used to replay the whole log again (8 clients replaying pushed other players' ack p99
from 12.6 to 790 ms, and table creation, which shared its worker thread, took 865 ms). Over a real server:
a replay is built once and then sent from the cache (the same bytes); a client asking for several replays at
once gets ``too_many_replays`` for those past its one build in progress, and each of them later.
"""

from __future__ import annotations

import asyncio
import time

import httpx

from .serverproc import ServerProcess


def _finished_table(server: ServerProcess) -> str:
    table = server.create([{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}])["table"]["id"]
    deadline = time.monotonic() + 120
    while server.get(f"/api/tables/{table}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish their game"
        time.sleep(0.2)
    return table


def test_a_replay_is_built_once_and_replays_are_bounded_per_client(server: ServerProcess) -> None:
    table = _finished_table(server)
    first = server.get(f"/api/tables/{table}/replay")
    again = server.get(f"/api/tables/{table}/replay")
    assert first.status_code == again.status_code == 200
    assert (first.headers["X-Replay-Cache"], again.headers["X-Replay-Cache"]) == ("miss", "hit")
    assert first.json()["frames"] == again.json()["frames"] and len(first.json()["frames"]) > 10
    assert first.json()["table"]["id"] == table and first.json()["chat"] == []

    langs = ("de", "it", "pl")
    paths = [f"/api/tables/{table}/replay?reveal={r}&lang={x}" for r in ("true", "false") for x in langs]

    async def at_once() -> list[httpx.Response]:
        async with httpx.AsyncClient(base_url=server.url, timeout=60) as client:
            return list(await asyncio.gather(*(client.get(path) for path in paths)))

    answers = asyncio.run(at_once())
    refused = [a for a in answers if a.status_code == 429]
    assert all(a.status_code in (200, 429) for a in answers), [a.status_code for a in answers]
    assert refused, "six replays built at once for one client"
    assert all(
        a.json()["error"]["code"] == "too_many_replays" and "Retry-After" in a.headers for a in refused
    )
    for path in paths:  # one at a time, each is built (or sent from the cache)
        assert server.get(path).status_code == 200

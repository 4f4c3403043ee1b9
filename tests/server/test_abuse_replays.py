"""Issue 24, item 4: replays are cached and bounded.

Each replay request used to replay the whole log again (8 clients replaying pushed other players' ack p99
from 12.6 to 790 ms, and table creation, which shared its worker thread, took 865 ms). Over a real server:
a replay is built once and then sent from the cache (the same bytes); a client asking for several replays at
once gets ``too_many_replays`` for those past its one build in progress, and each of them later; every replay
request, cached or not, is bounded per address and in all.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import httpx

from .serverproc import ServerProcess, running_server


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


def _replay_from(server: ServerProcess, address: str, table: str) -> httpx.Response:
    transport = httpx.HTTPTransport(local_address=address)
    with httpx.Client(transport=transport, timeout=60) as client:
        return client.get(f"{server.url}/api/tables/{table}/replay")


def test_replay_requests_are_bounded_per_address_and_in_all_cached_or_not(tmp_path: Path) -> None:
    # A cached replay used to be sent as often as asked: 8 addresses asking 130 times a second kept the
    # event loop busy enough to push other tables' acks past 100 ms. (The buckets refill once in 1,000 s.)
    extra = ["--set", "replay_burst=3", "--set", "replays_per_minute=0.06"]
    extra += ["--set", "replay_total_burst=5", "--set", "replays_per_second=0.001"]
    with running_server(tmp_path / "data", extra=extra) as server:
        table = _finished_table(server)
        first = [_replay_from(server, "127.0.0.2", table) for _ in range(4)]
        assert [a.status_code for a in first] == [200, 200, 200, 429]
        assert first[1].headers["X-Replay-Cache"] == "hit"  # a cached replay counts too
        refused = first[3]
        assert (
            refused.json()["error"]["code"] == "too_many_replays" and int(refused.headers["Retry-After"]) > 60
        )
        # Another address has its own bucket, until the server's is empty.
        second = [_replay_from(server, "127.0.0.3", table) for _ in range(3)]
        assert [a.status_code for a in second] == [200, 200, 429]
        assert second[2].json()["error"]["code"] == "too_many_replays"

"""Issue 24, item 2: tables nobody sits at cannot lock the lobby.

200 addresses × 10 tables whose seats nobody claimed used to fill the 2,000 open tables in 26 s, and every new
client got 429 ``server_full``, still 90 s later and after a restart. Over a real server with small bounds,
the creators on loopback addresses of their own (127.0.0.x): a table nobody ever sat at does not count
against the server's cap, the oldest such tables make room for new ones, and they expire after
``unjoined_expiry`` seconds, also those a restarted server finds in its store; a table somebody sat at stays.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import httpx

from .serverproc import ServerProcess, running_server
from .wsclient import WsClient

TABLE = {"seats": [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "random"}], "game": "arktia"}


def _create_from(server: ServerProcess, address: str) -> httpx.Response:
    transport = httpx.HTTPTransport(local_address=address)
    with httpx.Client(transport=transport, timeout=30) as client:
        return client.post(server.url + "/api/tables", json=TABLE)


def _sit(server: ServerProcess, made: dict[str, Any]) -> None:
    """Open the creator's seat (a hello with its token)."""

    async def hello() -> None:
        client = WsClient(server.ws_url, made["table"]["id"], made["seats"][0]["token"])
        await client.connect()
        await client.close()

    asyncio.run(hello())


def _wait_gone(server: ServerProcess, table: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while server.get(f"/api/tables/{table}").status_code != 404:
        assert time.monotonic() < deadline, f"table {table} did not expire"
        time.sleep(0.2)


def test_unjoined_tables_never_block_a_real_one(tmp_path: Path) -> None:
    extra = ["--set", "open_tables_total=2", "--set", "unjoined_tables_total=3"]
    with running_server(tmp_path / "data", extra=extra) as server:
        # Three attackers' tables, from addresses of their own, that nobody opens.
        attacks = []
        for k in range(3):
            answer = _create_from(server, f"127.0.0.{k + 2}")
            assert answer.status_code == 201, answer.text
            attacks.append(answer.json()["table"]["id"])
        # A real client: its table is made (the oldest unclaimed one makes room) and it sits down.
        real = [server.create(TABLE["seats"], game="arktia") for _ in range(2)]
        for made in real:
            _sit(server, made)
        _wait_gone(server, attacks[0])
        _wait_gone(server, attacks[1])
        # Two tables somebody sat at fill the cap of 2: now the server is full, for real.
        full = _create_from(server, "127.0.0.9")
        assert full.status_code == 429 and full.json()["error"]["code"] == "server_full", full.text
        for made in real:
            assert server.get(f"/api/tables/{made['table']['id']}").status_code == 200


def test_unjoined_tables_expire_also_after_a_restart(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with running_server(data, extra=["--set", "unjoined_expiry=3600"]) as server:
        left = [_create_from(server, f"127.0.0.{k + 2}").json()["table"]["id"] for k in range(3)]
        real = server.create(TABLE["seats"], game="arktia")
        _sit(server, real)
    with running_server(data, extra=["--set", "unjoined_expiry=1"]) as server:
        for table in left:
            _wait_gone(server, table)
        assert server.get(f"/api/tables/{real['table']['id']}").status_code == 200


def test_a_restart_is_no_way_around_the_per_address_cap(tmp_path: Path) -> None:
    # The creator of a table was known only in memory: after a restart an address's stored tables counted
    # against nobody, and it could make as many again.
    data, attacker = tmp_path / "data", "127.0.0.5"
    cap = ["--set", "open_tables_per_client=2"]
    with running_server(data, extra=[*cap, "--set", "unjoined_expiry=3600"]) as server:
        made = [_create_from(server, attacker) for _ in range(2)]
        assert [a.status_code for a in made] == [201, 201]
        assert _create_from(server, attacker).json()["error"]["code"] == "too_many_tables"
    with running_server(data, extra=[*cap, "--set", "unjoined_expiry=3600"]) as server:
        again = _create_from(server, attacker)
        assert again.status_code == 429 and again.json()["error"]["code"] == "too_many_tables", again.text
        assert _create_from(server, "127.0.0.6").status_code == 201  # another address is not held up
    # They still expire after a restart, and then no longer count against their creator.
    with running_server(data, extra=[*cap, "--set", "unjoined_expiry=1"]) as server:
        for answer in made:
            _wait_gone(server, answer.json()["table"]["id"])
        assert _create_from(server, attacker).status_code == 201

"""Issue 24, item 9: refused malformed JSON bodies leave no memory behind.

Malformed bodies refused with ``400 malformed`` used to leave ~300 MB resident. The cause: the exception of
a refused request holds its traceback, whose frames hold the request's body and the exception itself (a
reference cycle), so each body stayed until the cyclic garbage collector ran, which this server runs seldom
(it raises the collector's thresholds so that moves are not stalled by it). The handlers now let the
exception's traceback and body go. Over a real server: a flood of malformed bodies of 250 KB leaves the
server's resident memory about where it was (before: about half a megabyte more per body).
"""

from __future__ import annotations

import asyncio

import httpx

from .connkit import rss_mb
from .serverproc import ServerProcess

BODIES, AT_ONCE, SIZE = 120, 20, 250_000


async def _flood(url: str) -> set[int]:
    body = b'{"seats": [' + b'{"kind": "person"},' * (SIZE // 19) + b"x"  # malformed at its very end
    gate = asyncio.Semaphore(AT_ONCE)
    async with httpx.AsyncClient(timeout=60) as client:

        async def one() -> int:
            async with gate:
                headers = {"content-type": "application/json"}
                return (await client.post(url + "/api/tables", content=body, headers=headers)).status_code

        return set(await asyncio.gather(*(one() for _ in range(BODIES))))


def test_refused_malformed_bodies_leave_no_memory_behind(server: ServerProcess) -> None:
    assert server.proc is not None
    assert asyncio.run(_flood(server.url)) == {400}  # warm: the first flood's buffers and caches
    before = rss_mb(server.proc.pid)
    assert asyncio.run(_flood(server.url)) == {400}
    grown = rss_mb(server.proc.pid) - before
    assert grown < 20, f"{grown:.0f} MB more after {BODIES} refused bodies of {SIZE // 1000} KB"

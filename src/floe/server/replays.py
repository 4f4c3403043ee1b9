"""Replays: built once, off the event loop and off the threads that create tables and write the store, kept in
a cache bounded in bytes, and bounded per client and in total while they are built.

A replay replays a table's whole log and renders a view per decision (issue 24, item 4: 8 clients replaying
pushed other players' ack p99 from 12.6 to 790 ms, and table creation, which shared its worker thread, took
865 ms). So the frames of one (table, version, viewer, reveal, language) are built once, in a thread of their
own, as the JSON text that is sent, and kept while the cache has room (``cache_bytes``, least recently used
out first); requests for the same replay while it is being built share that build. A client may have
``per_client`` builds running at once, and at most ``waiting`` builds wait for the ``threads`` that build
them: past either, the request gets ``TooMany`` (429) ``too_many_replays``.

Sending a replay, even a cached one, costs the event loop its megabytes: 8 addresses asking for a cached
replay over and over (130 a second) kept the loop busy enough to push a normal table's acks past 100 ms. So
every replay request, cached or not, also takes a token of its address's bucket (``client_burst``, then
``per_client_minute``) and of the server's (``total_burst``, then ``total_per_second``), and gets
``too_many_replays`` with the seconds to wait when either is empty.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter, OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from floe.core.i18n import L_
from floe.server.limits import RateLimiter, TooMany

ReplayKey = tuple[str, int, int | None, bool, str]  # table, version, viewer, reveal, language


@dataclass(frozen=True)
class ReplayLimits:
    """The bounds on replays (``Settings``: ``replay_cache_bytes`` … ``replay_threads``)."""

    cache_bytes: int = 64 * 1024 * 1024  # built replays kept, in bytes of JSON
    per_client: int = 1  # builds of one client running at once
    waiting: int = 8  # builds waiting for a thread, in all
    threads: int = 1  # threads that build replays
    per_client_minute: float = 30.0  # replay requests of one address, cached or not, after a burst of
    client_burst: int = 20
    total_per_second: float = 10.0  # replay requests of every address together, after a burst of
    total_burst: int = 20


class Replays:
    """The replay cache and the builds in progress."""

    def __init__(self, limits: ReplayLimits | None = None) -> None:
        self.limits = limits or ReplayLimits()
        self._cache: OrderedDict[ReplayKey, bytes] = OrderedDict()
        self.bytes = 0
        self._building: dict[ReplayKey, asyncio.Future[bytes]] = {}
        self._by_client: Counter[str] = Counter()
        self._pool = ThreadPoolExecutor(max_workers=self.limits.threads, thread_name_prefix="floe-replay")
        self._clients = RateLimiter(self.limits.per_client_minute, self.limits.client_burst)
        self._total = RateLimiter(self.limits.total_per_second * 60, self.limits.total_burst)

    def admit(self, client: str | None) -> None:
        """Take a token for one replay request of ``client`` (its address) and one of the server's;
        ``TooMany`` ``too_many_replays`` (nothing taken) if either bucket is empty."""
        who = client or "?"
        wait = self._clients.take(who)
        if not wait:
            wait = self._total.take("*")
            if wait:
                self._clients.give_back(who)
        if wait:
            said = L_("too many replays asked for; try again in a moment")
            raise TooMany("too_many_replays", said, wait)

    def cached(self, key: ReplayKey) -> bytes | None:
        """The built replay of ``key`` if it is kept (it becomes the most recently used)."""
        frames = self._cache.get(key)
        if frames is not None:
            self._cache.move_to_end(key)
        return frames

    async def frames(self, key: ReplayKey, client: str | None, build: Callable[[], bytes]) -> bytes:
        """The frames of ``key`` as JSON: from the cache, from a build already running, or built now by
        ``build`` in a replay thread (``TooMany`` past the limits)."""
        found = self.cached(key)
        if found is not None:
            return found
        running = self._building.get(key)
        if running is None:
            who = client or "?"
            if self._by_client[who] >= self.limits.per_client:
                said = L_("you are already watching a replay being prepared; wait for it")
                raise TooMany("too_many_replays", said, 2.0)
            if len(self._building) >= self.limits.threads + self.limits.waiting:
                said = L_("too many replays are being prepared; try again soon")
                raise TooMany("too_many_replays", said, 5.0)
            running = asyncio.get_running_loop().run_in_executor(self._pool, build)
            self._building[key] = running
            self._by_client[who] += 1
            running.add_done_callback(lambda done: self._built(key, who, done))
        return await asyncio.shield(running)

    def _built(self, key: ReplayKey, client: str, done: asyncio.Future[bytes]) -> None:
        self._building.pop(key, None)
        self._by_client[client] -= 1
        if not self._by_client[client]:
            del self._by_client[client]
        if done.cancelled() or done.exception() is not None:
            return
        frames = done.result()
        if len(frames) > self.limits.cache_bytes:
            return  # larger than the whole cache: sent, not kept
        self._cache[key] = frames
        self.bytes += len(frames)
        while self.bytes > self.limits.cache_bytes:
            _, old = self._cache.popitem(last=False)
            self.bytes -= len(old)

    def close(self) -> None:
        """Stop the replay threads (builds still waiting are cancelled)."""
        with contextlib.suppress(Exception):
            self._pool.shutdown(wait=False, cancel_futures=True)

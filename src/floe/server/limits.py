"""Bounds on table creation: how fast one client may create tables, and how many may be open at once.

A client is its remote address (behind a reverse proxy, let uvicorn take it from ``X-Forwarded-For``:
``FLOE_FORWARDED_ALLOW_IPS``). Each client has a token bucket (``create_burst`` tokens, refilled at
``create_per_minute``); a creation takes a token before any work is done and gives it back if the table
is refused (a bad option costs a client no quota, only the tables it really made count). Open tables —
created and not finished — are counted per client and in total; a creation reserves its place before the
game is built, so concurrent requests cannot overshoot. Every refusal is a ``TooMany`` (429) that says
when to try again. A limit of 0 turns that check off.

Who created an open table is stored with it: after a restart, the tables loaded from the store count
against their creators again (``adopt``), so a restart is no way around the per-client cap.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from dataclasses import dataclass, field

from floe.core.i18n import L_, NL_, Msg
from floe.server.refusal import Refusal


class TooMany(Refusal):
    """A 429 refusal; ``retry_after`` seconds until the same request may succeed (the ``Retry-After``)."""

    def __init__(self, code: str, message: str | Msg, retry_after: float) -> None:
        super().__init__(code, message, 429)
        self.retry_after = retry_after

    @property
    def retry_after_header(self) -> str:
        """Whole seconds, at least 1 (HTTP's ``Retry-After`` takes an integer)."""
        return str(max(1, math.ceil(self.retry_after)))


class RateLimiter:
    """A token bucket per key: ``burst`` at once, then ``per_minute``. At most ``max_keys`` buckets are
    kept (least recently used dropped first: a dropped bucket is a full one, the lenient side), so a
    client that changes address at every request costs a bounded amount of memory."""

    def __init__(self, per_minute: float, burst: int, max_keys: int = 10_000) -> None:
        self.rate = per_minute / 60.0
        self.burst = float(max(1, burst))
        self.max_keys = max_keys
        self._buckets: dict[str, tuple[float, float]] = {}  # key -> (tokens, when counted)

    @property
    def enabled(self) -> bool:
        return self.rate > 0

    def _tokens(self, key: str, now: float) -> float:
        tokens, at = self._buckets.pop(key, (self.burst, now))
        return min(self.burst, tokens + (now - at) * self.rate)

    def take(self, key: str, now: float | None = None) -> float:
        """Take a token: 0.0 if one was there, else the seconds until one will be (nothing is taken)."""
        if not self.enabled:
            return 0.0
        now = time.monotonic() if now is None else now
        tokens = self._tokens(key, now)
        taken = tokens >= 1.0
        self._buckets[key] = (tokens - 1.0 if taken else tokens, now)  # re-inserted: most recent last
        while len(self._buckets) > self.max_keys:
            del self._buckets[next(iter(self._buckets))]
        return 0.0 if taken else (1.0 - tokens) / self.rate

    def give_back(self, key: str, now: float | None = None) -> None:
        """Return a token taken for a request that was refused."""
        if self.enabled and key in self._buckets:
            now = time.monotonic() if now is None else now
            self._buckets[key] = (min(self.burst, self._tokens(key, now) + 1.0), now)


@dataclass
class Reservation:
    """A place for one table being created (``TableLimits.admit``), until it is opened or cancelled."""

    client: str | None
    done: bool = False


@dataclass
class TableLimits:
    """The creation rate per client and the caps on open tables (per client and in total)."""

    per_minute: float = 10.0
    burst: int = 10
    per_client: int = 20
    total: int = 2000
    rate: RateLimiter = field(init=False)
    open_by_client: Counter[str] = field(default_factory=Counter)
    creator: dict[str, str] = field(default_factory=dict)  # table id -> client, for tables made since start
    pending: int = 0
    pending_by_client: Counter[str] = field(default_factory=Counter)

    def __post_init__(self) -> None:
        self.rate = RateLimiter(self.per_minute, self.burst)

    def admit(self, client: str | None, open_now: int) -> Reservation:
        """Reserve a place for a new table, or ``TooMany``. ``open_now``: the open tables in memory."""
        if self.total and open_now + self.pending >= self.total:
            raise TooMany(
                "server_full",
                NL_(
                    "this server has its %(n)s open table; try again later",
                    "this server has its %(n)s open tables; try again later",
                    self.total,
                ),
                60.0,
            )
        if client is not None:
            if (
                self.per_client
                and self.open_by_client[client] + self.pending_by_client[client] >= self.per_client
            ):
                raise TooMany(
                    "too_many_tables",
                    NL_(
                        "you have %(n)s open table; finish it before starting another",
                        "you have %(n)s open tables; finish one before starting another",
                        self.per_client,
                    ),
                    60.0,
                )
            wait = self.rate.take(client)
            if wait:
                raise TooMany("rate_limited", L_("too many new tables; try again in a moment"), wait)
            self.pending_by_client[client] += 1
        self.pending += 1
        return Reservation(client)

    def _release(self, ticket: Reservation) -> None:
        if ticket.done:
            return
        ticket.done = True
        self.pending -= 1
        if ticket.client is not None:
            self.pending_by_client[ticket.client] -= 1
            if not self.pending_by_client[ticket.client]:
                del self.pending_by_client[ticket.client]

    def cancel(self, ticket: Reservation) -> None:
        """The table was not created: free its place and give the client its token back."""
        if not ticket.done and ticket.client is not None:
            self.rate.give_back(ticket.client)
        self._release(ticket)

    def opened(self, ticket: Reservation, table_id: str) -> None:
        """The table exists: it now counts as open (against its creator) until ``closed``."""
        self._release(ticket)
        if ticket.client is not None:
            self.creator[table_id] = ticket.client
            self.open_by_client[ticket.client] += 1

    def adopt(self, table_id: str, client: str) -> None:
        """A stored open table, loaded at start-up, counts against the client that created it."""
        if table_id not in self.creator:
            self.creator[table_id] = client
            self.open_by_client[client] += 1

    def closed(self, table_id: str) -> None:
        """The table finished: it no longer counts against its creator."""
        client = self.creator.pop(table_id, None)
        if client is not None:
            self.open_by_client[client] -= 1
            if not self.open_by_client[client]:
                del self.open_by_client[client]


@dataclass
class Connects:
    """How often WebSocket connections may be opened (issue 24, item 8: one seat token reconnecting 83 times
    a second made the server tell 100 spectators of each): a token bucket per seat token (its hash) and one
    per address. A refused hello costs the token's bucket nothing more and the address's nothing."""

    per_token_minute: float = 30.0
    token_burst: int = 10
    per_client_minute: float = 600.0
    client_burst: int = 120
    tokens: RateLimiter = field(init=False)
    clients: RateLimiter = field(init=False)

    def __post_init__(self) -> None:
        self.tokens = RateLimiter(self.per_token_minute, self.token_burst)
        self.clients = RateLimiter(self.per_client_minute, self.client_burst)

    def admit(self, token_key: str | None, client: str | None) -> None:
        """Take a token for a new connection of the seat ``token_key`` (None: a spectator) from ``client``;
        ``TooMany`` ``too_fast`` if either bucket is empty (nothing taken)."""
        wait = self.tokens.take(token_key) if token_key is not None else 0.0
        if not wait and client is not None:
            wait = self.clients.take(client)
            if wait and token_key is not None:
                self.tokens.give_back(token_key)
        if wait:
            raise TooMany("too_fast", L_("too many connections in a short time; try again in a moment"), wait)

"""The lobby: every table, its connections, its bots and its timers; the one path every move takes.

A move (from a person over HTTP or WebSocket, or from a bot) goes through ``Lobby.move``: under the
table's lock it is checked (version, seat, turn, legality), applied to a copy with the chance outcomes
it sets off, written to the store, and only then adopted, acknowledged and broadcast. Each connection
has its own outgoing queue, so a slow client never holds up a table.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import itertools
import json
import logging
import math
import random
import secrets
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any

from floe.bots.registry import make_bot
from floe.bots.specs import capped_spec
from floe.core.errors import FloeError
from floe.core.i18n import L_, NL_, SOURCE, text_of
from floe.core.registry import default_game, entry
from floe.server.archive import FinishedCache, stored_summary
from floe.server.botrunner import BotRunner, Decision, options_key, spec_facts
from floe.server.conns import Conn, ConnLimits, Sender
from floe.server.limits import Connects, Reservation, TableLimits
from floe.server.names import BadName, clean_name, clean_table_name
from floe.server.protocol import CreateTable, JoinTable
from floe.server.refusal import Refusal
from floe.server.store import Store, TableRow, UnreadableRow
from floe.server.tables import Seat, Table, new_token, token_hash
from floe.server.writer import Op, Writer

log = logging.getLogger("floe.server")

# The budgets a server grants by default: a table that asks for more plays with these, and is told so.
# (Every decision also stops at the bot runner's time cap, whatever its budget.)
MAX_BOT_MS = 10_000
MAX_BOT_ITERATIONS = 100_000
# How many events of a table's log are told in one go on the event loop (``Lobby.log_ready``): a few
# milliseconds of work.
LOG_SLICE = 200


# A test hook, not a setting: with FLOE_TEST_SEED=<n> in its environment, a server draws the secret seeds of
# its new tables from a generator seeded with n, so the tables a test creates deal the same way on every run
# (docs/testing.md). It is read by the server process alone, is not a field of the settings and nothing in
# the API can set it. Never set it on a server people play on: whoever knows n can work out every deal.
TEST_SEED_ENV = "FLOE_TEST_SEED"


def seeds_for_tests(environ: Mapping[str, str]) -> Callable[[], int] | None:
    """The source of new tables' seeds that ``FLOE_TEST_SEED`` asks for (None if it is not set); said in
    the server's log, since such seeds are not secret. A value that is not a whole number is a
    ``ValueError``."""
    value = environ.get(TEST_SEED_ENV)
    if value is None:
        return None
    if not value.strip().isdecimal():
        raise ValueError(f"{TEST_SEED_ENV} must be a whole number, not {value!r}")
    rng = random.Random(f"floe-test-seed/{int(value)}")
    log.warning("%s is set: the seeds of new tables are predictable (a test hook)", TEST_SEED_ENV)
    return lambda: rng.getrandbits(62)


def _derived_seed(*parts: object) -> int:
    digest = hashlib.sha256("/".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:7], "big")


class Lobby:
    """All tables of one server."""

    def __init__(
        self,
        store: Store,
        bots: BotRunner,
        *,
        away_after: float = 60.0,
        tick: float = 0.5,
        limits: TableLimits | None = None,
        finished_cache: int = 256,
        options_max_bytes: int = 8192,
        max_bot_ms: float = MAX_BOT_MS,
        max_bot_iterations: int = MAX_BOT_ITERATIONS,
        conn_limits: ConnLimits | None = None,
        connects: Connects | None = None,
        unjoined_expiry: float = 600.0,
        unjoined_total: int = 1000,
        seeds: Callable[[], int] | None = None,
    ) -> None:
        self.store = store
        self.seeds = seeds  # where new tables' seeds come from (tests: ``seeds_for_tests``); None: secrets
        self.writer = Writer(store)
        self.bots = bots
        self.away_after = away_after
        self.tick = tick
        # The open tables (waiting or playing) live here; finished ones move to ``finished`` (archive.py).
        self.tables: dict[str, Table] = {}
        self.finished = FinishedCache(finished_cache)
        self.limits = limits or TableLimits()
        self.options_max_bytes = options_max_bytes
        self._loading: dict[str, asyncio.Future[Table | None]] = {}
        # Stored tables that could not be loaded: each was named once in the log, and stays unknown (never
        # read, nor logged, again, however often it is asked for).
        self.unloadable: set[str] = set()
        # Building a new table and replaying a finished one run here, off the event loop. One thread: more
        # would only contend with the event loop for the GIL, and a flood of such requests queues here.
        self._work = ThreadPoolExecutor(max_workers=1, thread_name_prefix="floe-build")
        self._listing: tuple[float, list[tuple[TableRow, int]]] = (-1.0, [])
        self.conns: dict[str, set[Conn]] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.bot_tasks: dict[str, tuple[int, asyncio.Task[None]]] = {}
        self.max_bot_ms = max_bot_ms
        self.max_bot_iterations = max_bot_iterations
        # table -> the address of the client that created it, whose tables share the per-client limit of
        # searches (stored with the table: a restarted server reads it back, ``load``).
        self.owners: dict[str, str] = {}
        self._watchdog: asyncio.Task[None] | None = None
        self.on_change: list[Callable[[Table], None]] = [self._retire]
        self.conn_limits = conn_limits or ConnLimits()
        self.connects = connects or Connects()
        # When each table last told its connections of a seat's flags, and the news due (seats_changed).
        self._seats_told: dict[str, float] = {}
        self._seats_news_due: dict[str, asyncio.TimerHandle] = {}
        # Tables nobody ever sat at (``Table.unjoined``): they expire after ``unjoined_expiry`` seconds (0:
        # never), at most ``unjoined_total`` are kept (a new table pushes the oldest out), and they never
        # count against the server's cap on open tables (issue 24, item 2).
        self.unjoined_expiry = unjoined_expiry
        self.unjoined_total = unjoined_total
        self._expiring: set[str] = set()
        # The open tables that are unjoined, oldest first, kept as seats are taken and tables leave, so that
        # neither a creation nor the watchdog's tick looks at every table (issue 24: 2,000 unjoined tables
        # made each creation scan them all on the event loop, 40% of its time, and a move's ack waited).
        self.unjoined: dict[str, Table] = {}

    # --- life cycle ----------------------------------------------------------------------------------
    def load(self) -> int:
        """Replay every unfinished stored table (finished ones are loaded when asked for: ``fetch``). A table
        that cannot be loaded (a row that does not read, a log that does not replay, seats of the wrong
        shape) is skipped with one warning line naming it: the server serves the others, and that table
        stays unknown until it is repaired."""
        unreadable: list[UnreadableRow] = []
        rows = self.store.load_unfinished(unreadable)
        for bad in unreadable:
            self._unloadable(bad.table_id, bad)
        for row in rows:
            try:
                table = Table.from_row(row)
            except Exception as exc:  # one damaged table, whatever the damage, must not stop the server
                self._unloadable(row.id, exc)
                continue
            if table.status == "finished":  # its last move was stored, its flag not (an older server)
                self.writer.write_sync(partial(Store.set_finished, table_id=row.id))
                self.finished.put(table)
            else:
                self.tables[row.id] = table
                if table.unjoined:
                    self.unjoined[row.id] = table
                if row.creator:  # its creator's tables still count against it, and share its searches
                    self.limits.adopt(row.id, row.creator)
                    self.owners[row.id] = row.creator
        return len(self.tables)

    def _unloadable(self, table_id: str, exc: Exception) -> None:
        """Note a stored table that cannot be loaded, in one log line naming it."""
        self.unloadable.add(table_id)
        log.warning("cannot load table %s: %s", table_id, _one_line(exc, table_id))

    async def start(self) -> None:
        """Start the timers and the bots of every table that was waiting for one."""
        self._watchdog = asyncio.create_task(self._watch())
        for table in self.tables.values():
            self.schedule(table)

    async def stop(self) -> None:
        """Stop timers, bots, connections and the writer (pending writes are finished first)."""
        if self._watchdog:
            self._watchdog.cancel()
        for _, task in self.bot_tasks.values():
            task.cancel()
        for due in self._seats_news_due.values():
            due.cancel()
        for conns in self.conns.values():
            for conn in conns:
                conn.close()
        self._work.shutdown(wait=False, cancel_futures=True)
        await asyncio.to_thread(self.writer.close)

    # --- tables --------------------------------------------------------------------------------------
    def get(self, table_id: str) -> Table:
        """The table if it is in memory (open, or a finished one in the cache); ``Refusal`` (404)
        otherwise. ``fetch`` also loads a finished table from the store."""
        table = self.tables.get(table_id) or self.finished.get(table_id)
        if table is None:
            raise Refusal("unknown_table", L_("no table with that id"), 404)
        return table

    async def fetch(self, table_id: str) -> Table:
        """The table, a finished one loaded from the store (in a worker thread) if it is not in memory;
        ``Refusal`` (404) if there is none. Concurrent requests for one table share one load."""
        with contextlib.suppress(Refusal):
            return self.get(table_id)
        if len(table_id) > 32 or table_id in self.unloadable:  # no need to ask the database
            raise Refusal("unknown_table", L_("no table with that id"), 404)
        loading = self._loading.get(table_id)
        if loading is None:
            loading = asyncio.get_running_loop().run_in_executor(self._work, self._read_finished, table_id)
            self._loading[table_id] = loading
            loading.add_done_callback(lambda _: self._loading.pop(table_id, None))
        loaded = await asyncio.shield(loading)
        table = self.tables.get(table_id) or self.finished.get(table_id)  # another request's copy wins
        if table is None and loaded is not None:
            self.finished.put(loaded)
            table = loaded
        if table is None:
            raise Refusal("unknown_table", L_("no table with that id"), 404)
        return table

    def _read_finished(self, table_id: str) -> Table | None:
        """A finished table replayed from the store (worker thread); None if there is none. An unfinished
        table not in memory is one whose log did not replay at start-up: it stays unknown."""
        try:
            row = self.store.load_table(table_id)
            if row is None or not row.finished:
                return None
            return Table.from_row(row)
        except Exception as exc:  # a damaged table is unknown, not a server error
            self._unloadable(table_id, exc)
            return None

    def _retire(self, table: Table) -> None:
        """A table that has just finished leaves the open tables for the finished cache."""
        if table.status == "finished" and self.tables.get(table.id) is table:
            del self.tables[table.id]
            self.unjoined.pop(table.id, None)
            self.finished.put(table)
            self.limits.closed(table.id)
            self._seats_told.pop(table.id, None)

    async def public_tables(self, status: str | None = None, limit: int = 200) -> list[dict[str, Any]]:
        """The lobby's list: the newest ``limit`` public tables (with ``status``, if given). Open tables
        come from memory, finished ones from the store's rows (not replayed; the list of rows is read at
        most once a second) and the finished cache."""
        found: dict[str, dict[str, Any]] = {}
        in_memory = [*self.tables.values(), *(self.finished.values() if status in (None, "finished") else ())]
        for table in sorted(in_memory, key=lambda t: t.row.created, reverse=True):
            if len(found) == limit:  # only the newest are summarised
                break
            if table.row.public and (status is None or table.status == status):
                found.setdefault(table.id, table.summary())
        if status in (None, "finished"):
            for row, version in await self._finished_listing(limit):
                found.setdefault(row.id, stored_summary(row, version))
        listed = sorted(found.values(), key=lambda s: s["created"], reverse=True)
        return listed[:limit]

    async def _finished_listing(self, limit: int) -> list[tuple[TableRow, int]]:
        at, rows = self._listing
        if time.monotonic() - at > 1.0:
            rows = await asyncio.to_thread(self.store.finished_rows, limit)
            self._listing = (time.monotonic(), rows)
        return rows

    async def log_ready(self, table: Table, lang: str) -> None:
        """Catch ``table``'s log in ``lang`` up before a new reader of it is answered, ``LOG_SLICE`` events
        at a time with the other tables' work in between: a long history (issue 24, item 1: 62,000 events
        told in Polish for one request froze every table for 3 s) never holds up the event loop for
        more than one slice. The readers already connected then only add the newest events."""
        while table.log_behind(lang) > LOG_SLICE:
            table.catch_up_log(lang, LOG_SLICE)
            await asyncio.sleep(0)

    def lock(self, table_id: str) -> asyncio.Lock:
        return self.locks.setdefault(table_id, asyncio.Lock())

    async def create(
        self, request: CreateTable, client: str | None = None
    ) -> tuple[Table, list[tuple[int, str]], list[str]]:
        """A new table, the tokens of its person seats and the notices for its creator (a bot budget lowered
        to this server's); ``Refusal`` (400) for a bad request, ``TooMany`` (429) past the creation
        limits of ``client`` (its address) or of the server.

        The limits and the options' size are checked before anything is built; the game, its initial
        state, its chance outcomes and its bots are then built in the worker thread (``build_table``), so
        no creation holds up the tables in play; the table joins the lobby once it is stored."""
        check_options_size(request.options, self.options_max_bytes)
        ticket = self.limits.admit(client, len(self.tables) - len(self.unjoined))
        # The new table is unjoined until its creator opens it: the oldest unjoined tables make room.
        over = len(self.unjoined) + self.limits.pending - self.unjoined_total
        for oldest in itertools.islice(self.unjoined.values(), max(0, over)):
            self.expire(oldest)
        # Drawn here, on the event loop, so a test's seeds go to its tables in the order they were asked for.
        seed = self.seeds() if self.seeds is not None else None
        try:
            table, tokens, notices = await asyncio.get_running_loop().run_in_executor(
                self._work, build_table, request, self._grant_bot, seed
            )
            table.row.creator = client  # stored: after a restart the table still counts against its creator
            await self.commit(
                lambda conn: Store.insert_table(conn, table.row),
                lambda: self._register(table, ticket, client),
                bulk=True,
            )
        except BaseException:
            self.limits.cancel(ticket)  # no-op if the table was registered
            raise
        return table, tokens, notices

    def _grant_bot(self, spec: str | None, game: Any, seat: int) -> tuple[str, str | None]:
        """The bot a seat gets: ``spec`` checked (``Refusal`` 400 for a malformed one or a parameter out
        of the bot's own bounds), with a budget above this server's lowered to it, and the notice saying so.
        A budget is lowered rather than refused: the table plays as asked as far as the server allows.
        (Called from the creation thread: it only reads the lobby's settings.)"""
        spec = _check_bot(spec, game, seat)
        max_ms = self.max_bot_ms
        if self.bots.limits.time_cap is not None:  # a longer ms would be cut by the time cap anyway
            max_ms = min(max_ms, self.bots.limits.time_cap * 1000)
        granted, lowered = capped_spec(spec, max_ms, self.max_bot_iterations)
        if not lowered:
            return spec, None
        return granted, f"seat {seat + 1}: {spec} plays with {', '.join(lowered)} on this server"

    def _register(self, table: Table, ticket: Reservation, client: str | None) -> None:
        self.tables[table.id] = table
        if table.unjoined:
            self.unjoined[table.id] = table
        self.owners[table.id] = client or ""
        self.limits.opened(ticket, table.id)
        self.schedule(table)

    async def join(self, table_id: str, request: JoinTable) -> tuple[int, str]:
        """Claim the first unclaimed person seat of a public table with a fresh token (the seat's old link
        stops working). A private table's seats are taken only with their invitation links. A browser gets
        one seat per table: a second join with the same ``key`` is refused and names the seat it has."""
        table = self.get(table_id)
        if not table.row.public:
            raise Refusal(
                "private_table",
                L_("this table is private: its seats are taken with their invitation links"),
                403,
            )
        name = _name(request.name, None)
        key = None if request.key is None else token_hash(request.key)
        async with self.lock(table_id):
            mine = next((k for k, s in enumerate(table.seats) if key and s.joined_by == key), None)
            if mine is not None:
                raise Refusal(
                    "already_joined",
                    L_("you already have seat P%(seat)s at this table: open its link", seat=mine + 1),
                    409,
                )
            free = [k for k, s in enumerate(table.seats) if s.kind == "person" and not s.claimed]
            if not free or table.status == "finished":
                raise Refusal("no_free_seat", L_("no free seat at this table"), 409)
            seat = table.seats[free[0]]
            token = new_token()
            seat.token_hash, seat.claimed, seat.name, seat.joined_by = token_hash(token), True, name, key
            await self.save_seats(table)
        self.changed(table)
        return free[0], token

    async def hello(self, table: Table, token: str | None) -> int | None:
        """The seat ``token`` opens; None for a spectator. The first opening of an invitation link claims the
        seat (the game may start: everyone gets the new state); ``connect`` takes a seat back if away."""
        if token is None:
            return None
        seat = table.seat_of(token)
        info = table.seats[seat]
        if not info.claimed or not info.seen:
            claimed = info.claimed
            async with self.lock(table.id):
                info.claimed = info.seen = True  # somebody sits here: the table no longer expires
                self.unjoined.pop(table.id, None)
                await self.save_seats(table)
            if not claimed:
                # Nothing awaits between this and ``connect``, so the others' states are still waiting to be
                # written when it tells them the seat is connected: that news is part of those states.
                self.changed(table)
        return seat

    async def save_seats(self, table: Table) -> None:
        """Store ``table``'s seats as they are now (and keep them in its row)."""
        seats = [s.stored() for s in table.seats]
        table.row.seats = seats
        await self.writer.write(lambda conn: Store.set_seats(conn, table.id, seats))

    # --- moves ---------------------------------------------------------------------------------------
    async def move(
        self,
        table: Table,
        seat: int,
        action: Any,
        version: Any,
        *,
        by_bot: bool = False,
        ack: Callable[[int], None] | None = None,
    ) -> int:
        """Check, apply, store and adopt a move; returns the new version. ``Refusal`` changes nothing.

        ``ack`` is called with the new version once the move is committed, before anyone is sent the new
        state, so the mover hears "done" before "here is the table"."""
        async with self.lock(table.id):
            table.check_move(seat, action, version)
            if by_bot and table.plays_by_bot(seat) is None:
                raise Refusal("stale", L_("the person took the seat back"))
            new = table.after(action)
            start, added = table.version, table.added(new)
            finished = new.is_terminal()
            seats = None
            if not by_bot and not table.seats[seat].seen:  # a move over HTTP, its token's first use
                table.seats[seat].seen = True
                self.unjoined.pop(table.id, None)
                seats = table.row.seats = [s.stored() for s in table.seats]

            def write(conn: Any) -> None:
                Store.append(conn, table.id, start, added)
                if seats is not None:
                    Store.set_seats(conn, table.id, seats)
                if finished:
                    Store.set_finished(conn, table.id)

            await self.commit(write, partial(table.commit, new, undoable=not by_bot))
            if finished:
                self.bots.forget(table.id)  # its remembering bots have nothing left to decide
                self.owners.pop(table.id, None)
            if not by_bot:
                table.seats[seat].away = False
            if ack is not None:
                ack(table.version)
        self.changed(table)
        return table.version

    async def commit(self, write: Op, adopt: Callable[[], None], *, bulk: bool = False) -> None:
        """Store ``write``, then ``adopt`` what it stored in memory: the one step by which a new table, a move
        and an undo take effect. Shielded: once the write is queued, it is adopted if it commits, even if the
        caller is cancelled meanwhile (a closed connection, a shutdown), so memory never lags the store; a
        write that fails adopts nothing and raises. ``bulk``: a write no player waits for (``Writer``)."""
        pending = asyncio.ensure_future(self.writer.write(write, bulk=bulk))
        try:
            await asyncio.shield(pending)
        except asyncio.CancelledError:
            with contextlib.suppress(Exception):
                await pending
                adopt()
            raise
        adopt()

    async def set_away(self, table: Table, seat: int, away: bool) -> None:
        """Mark a person away (the game's away bot plays for them) or back. Under the table's lock, so a bot
        move being committed for the seat lands before the person is back, never after."""
        async with self.lock(table.id):
            if table.seats[seat].away == away:
                return
            table.seats[seat].away = away
        self.changed(table)

    def changed(self, table: Table) -> None:
        """Tell every connection of ``table`` and start its bot if one is to move."""
        table.decision_started()  # a new decision (the game started, a move, a seat back) starts its clock
        self.broadcast(table)
        self.schedule(table)
        for callback in self.on_change:
            callback(table)

    def broadcast(self, table: Table) -> None:
        """Send each connection its seat's ``state`` (coalesced: a connection has at most one waiting, built
        when it is written, so a connection that does not read costs no more however often this is called)."""
        for conn in self.conns.get(table.id, ()):
            conn.send_state()

    def seats_changed(self, table: Table, but: Conn | None = None) -> None:
        """Tell every connection (but ``but``) that the seats' flags changed: a small ``seats`` message, or
        nothing if a ``state`` is already waiting for it. At most one such message a table every
        ``seats_news_interval`` seconds: news in between waits for the interval's end and goes out once,
        so a seat that reconnects as fast as it can costs the table's spectators nothing more (issue 24,
        item 8)."""
        if table.id in self._seats_news_due:
            return  # already due: it will say the flags as they are then
        loop = asyncio.get_running_loop()
        wait = self._seats_told.get(table.id, -math.inf) + self.conn_limits.seats_news_interval - loop.time()
        if wait > 0:
            self._seats_news_due[table.id] = loop.call_later(wait, self._tell_seats, table, None)
        else:
            self._tell_seats(table, but)

    def _tell_seats(self, table: Table, but: Conn | None) -> None:
        self._seats_news_due.pop(table.id, None)
        self._seats_told[table.id] = asyncio.get_running_loop().time()
        for conn in self.conns.get(table.id, ()):
            if conn is not but:
                conn.send_seats()

    # --- connections ---------------------------------------------------------------------------------
    def open_conn(
        self,
        table: Table,
        sender: Sender,
        seat: int | None,
        lang: str | None = None,
        client: str | None = None,
    ) -> Conn:
        """A connection of ``table`` for ``seat`` reading ``lang``, from the address ``client`` (not yet
        registered: see ``connect``)."""
        return Conn(
            sender,
            seat,
            state_of=lambda viewer, log_from: table.state_message(viewer, log_from, lang),
            seats_of=lambda: {"type": "seats", "table": table.summary()},
            limits=self.conn_limits,
            lang=lang or SOURCE,
            client=client,
        )

    def connect(self, table: Table, conn: Conn) -> None:
        """Register ``conn`` (``Refusal`` if the table has as many spectators, or the seat as many
        connections, as it may); it gets its welcome and its state. A seat that was away is taken back; if
        the seat's flags changed, the others hear of it in a ``seats`` message."""
        conns = self.conns.setdefault(table.id, set())
        if conn.seat is None:
            if sum(1 for c in conns if c.seat is None) >= self.conn_limits.spectators:
                raise Refusal(
                    "too_many_connections",
                    NL_(
                        "this table has %(n)s spectator, the most it takes; try later",
                        "this table has %(n)s spectators, the most it takes; try later",
                        self.conn_limits.spectators,
                    ),
                    429,
                )
        elif table.seats[conn.seat].connections >= self.conn_limits.seat_connections:
            raise Refusal(
                "too_many_connections",
                NL_(
                    "this seat is open in %(n)s place already; close one",
                    "this seat is open in %(n)s places already; close one",
                    self.conn_limits.seat_connections,
                ),
                429,
            )
        conns.add(conn)
        changed = False
        if conn.seat is not None:
            info = table.seats[conn.seat]
            changed = info.connections == 0 or info.away
            info.connections += 1
            info.away = False
        conn.send({"type": "welcome", "seat": conn.seat, "table": table.summary()})
        conn.send_state()
        if changed:
            self.seats_changed(table, but=conn)

    def disconnect(self, table: Table, conn: Conn) -> None:
        """Forget ``conn``; a person with no connection left may be replaced by a bot (see ``_watch``)."""
        conns = self.conns.get(table.id, set())
        if conn not in conns:
            return
        conns.discard(conn)
        conn.close()
        if conn.seat is not None:
            info = table.seats[conn.seat]
            info.connections -= 1
            if info.connections == 0:
                info.left_at = time.time()
                self.seats_changed(table)

    # --- bots and timers -----------------------------------------------------------------------------
    def schedule(self, table: Table) -> None:
        """Start a bot decision if a bot (or a bot standing in for an away person) is to move."""
        seat = table.to_move
        if seat is None or table.plays_by_bot(seat) is None:
            return
        running = self.bot_tasks.get(table.id)
        if running and running[0] == table.version and not running[1].done():
            return
        task = asyncio.create_task(self._bot_turn(table, seat, table.version))
        self.bot_tasks[table.id] = (table.version, task)

    async def _bot_turn(self, table: Table, seat: int, version: int) -> None:
        seat_spec = spec = table.plays_by_bot(seat)
        if spec is None:
            return
        if not spec_facts(table.game, spec)[0]:
            # Stored before this server's bounds (or by another version): the game's away bot plays instead.
            spec = table.entry.away_bot
        state = table.state
        decision = Decision(
            game=table.row.game,
            players=table.row.players,
            options=options_key(table.row.options),
            spec=spec,
            seat=seat,
            seed=_derived_seed("bot", table.row.seed, version),
            observation=state.observation(seat),
            legal=tuple(state.legal_actions()),
            # For a bot that remembers: which live bot it is, and the log to rebuild it from if it is gone.
            table=table.id,
            history=tuple(state.history),
        )

        def wanted() -> bool:  # asked when the decision's turn in the queue comes
            return table.version == version and table.plays_by_bot(seat) == seat_spec

        client = self.owners.get(table.id) or f"table:{table.id}"
        try:
            action = await self.bots.choose(
                decision, game=table.game, client=client, wanted=wanted, person=table.attended
            )
            if action is None:
                return  # dropped unrun: the table moved on while it waited
            if table.version == version and table.plays_by_bot(seat) is not None:
                await self.move(table, seat, action, version, by_bot=True)
        except Refusal:
            pass  # the table moved on (the person came back and played): the bot's move is stale
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("bot %s failed at table %s; retrying on the next tick", spec, table.id)

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(self.tick)
            now = time.time()
            if self.unjoined_expiry:
                # Oldest first: stop at the first still young. (``expire`` only starts a task: nothing leaves
                # the index while it is read.)
                for table in self.unjoined.values():
                    if now - table.row.created < self.unjoined_expiry:
                        break
                    self.expire(table)
            for table in list(self.tables.values()):
                with contextlib.suppress(Exception):
                    self._check_timers(table, now)

    def expire(self, table: Table) -> None:
        """Forget an unjoined table (``_expire``, in a task of its own; once)."""
        if table.id not in self._expiring:
            self._expiring.add(table.id)
            task = asyncio.create_task(self._expire(table))
            task.add_done_callback(lambda _: self._expiring.discard(table.id))

    async def _expire(self, table: Table) -> None:
        """Delete a table nobody ever sat at, from the store and memory: its seats, its place in the limits,
        its bots; its spectators are told and closed. Nothing happens if somebody sat down meanwhile."""
        async with self.lock(table.id):
            if self.tables.get(table.id) is not table or not table.unjoined:
                return
            try:
                await self.writer.write(lambda db: Store.delete_table(db, table.id), bulk=True)
            except Exception as exc:  # the database is down: the table stays, and is tried again later
                log.warning("could not expire table %s: %s", table.id, exc)
                return
            del self.tables[table.id]
            self.unjoined.pop(table.id, None)
        log.info("table %s expired: nobody sat at it", table.id)
        self.limits.closed(table.id)
        self.owners.pop(table.id, None)
        self.bots.forget(table.id)
        self._seats_told.pop(table.id, None)
        self.locks.pop(table.id, None)
        running = self.bot_tasks.pop(table.id, None)
        if running is not None:
            running[1].cancel()
        gone = Refusal("expired", L_("nobody sat at this table: it expired"), 410)
        for conn in self.conns.pop(table.id, ()):
            conn.send({"type": "error", "id": None, **gone.body(conn.lang)})
            conn.close()

    def _check_timers(self, table: Table, now: float) -> None:
        seat = table.to_move
        if seat is None:
            return
        info = table.seats[seat]
        if info.kind == "person" and not info.away:
            deadline = table.deadline()
            gone_since = max(info.left_at or now, table.decision_started())
            if (deadline is not None and now >= deadline) or (
                info.connections == 0 and now - gone_since >= self.away_after
            ):
                info.away = True
                self.changed(table)
                return
        self.schedule(table)


def _one_line(exc: Exception, table_id: str) -> str:
    """What went wrong loading a table, for one log line: the error's first line, without the table's id in
    front (the line names it already); an error that is not Floe's own also gets its type."""
    text = str(exc).splitlines()[0] if str(exc).strip() else ""
    text = text.removeprefix(f"table {table_id}: ")
    if isinstance(exc, FloeError | UnreadableRow):
        return text
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _name(raw: str, seat: int | None) -> str:
    """``raw`` cleaned (``names.clean_name``); else ``Refusal`` ``bad_name``, naming the seat."""
    try:
        return clean_name(raw)
    except BadName as exc:
        reason = text_of(exc)
        if seat is not None:
            reason = L_("seat %(seat)s: %(reason)s", seat=seat + 1, reason=reason)
        raise Refusal("bad_name", reason, 400) from None


def check_options_size(options: dict[str, Any], limit: int) -> None:
    """Refuse options whose JSON is longer than ``limit`` (before any game reads them)."""
    try:
        size = len(json.dumps(options))
    except (ValueError, TypeError, RecursionError):
        raise Refusal("bad_option", L_("the options are not plain JSON"), 400) from None
    if size > limit:
        said = L_("the options take %(size)s bytes; at most %(limit)s are allowed", size=size, limit=limit)
        raise Refusal("bad_option", said, 400)


Grant = Callable[[str | None, Any, int], tuple[str, str | None]]


def build_table(
    request: CreateTable, grant: Grant, seed: int | None = None
) -> tuple[Table, list[tuple[int, str]], list[str]]:
    """A new table for ``request``, the tokens of its person seats and the notices for its creator, not yet
    stored or in the lobby; ``Refusal`` (400) for a bad request. ``grant`` checks a bot seat's spec and
    gives the spec it plays with (and a notice if its budget was lowered); ``seed``: the table's secret seed
    (None: a fresh one from ``secrets``). Runs in a worker thread: it touches no lobby state."""
    try:
        info = entry(request.game or default_game())
    except FloeError as exc:
        raise Refusal("bad_option", text_of(exc), 400) from exc
    players = len(request.seats)
    if not info.min_players <= players <= info.max_players:
        raise Refusal(
            "bad_option",
            L_(
                "%(game)s is for %(low)s to %(high)s seats",
                game=info.name,
                low=info.min_players,
                high=info.max_players,
            ),
            400,
        )
    try:
        game = info.new_game(players, request.options)
    except FloeError as exc:
        raise Refusal("bad_option", text_of(exc), 400) from exc
    seats: list[Seat] = []
    tokens: list[tuple[int, str]] = []
    notices: list[str] = []
    for k, req in enumerate(request.seats):
        if req.kind == "bot":
            spec, notice = grant(req.bot, game, k)
            notices += [notice] if notice else []
            seats.append(Seat(kind="bot", name=_name(req.name, k) if req.name else spec, bot=spec))
        else:
            if req.bot is not None:
                raise Refusal("bad_option", L_("seat %(seat)s is a person and has no bot", seat=k + 1), 400)
            token = new_token()
            # The creator sits in the first person seat: it is theirs from the start, so a stranger
            # joining from the lobby can never take it before they open their link.
            creator = not tokens
            tokens.append((k, token))
            name = _name(req.name, k) if req.name else f"P{k + 1}"
            seats.append(Seat(kind="person", name=name, token_hash=token_hash(token), claimed=creator))
    table_name = None
    if request.name is not None:
        try:
            table_name = clean_table_name(request.name)
        except BadName as exc:
            raise Refusal("bad_name", text_of(exc), 400) from None
    if seed is None:
        seed = secrets.randbits(62)
    state = game.new_initial_state()
    Table.resolve_chance(state, seed)
    row = TableRow(
        id=secrets.token_hex(6),
        game=game.name,
        players=players,
        options=game.options_dict(),
        seed=seed,
        created=time.time(),
        public=request.public,
        turn_timer=request.turn_timer,
        seats=[s.stored() for s in seats],
        actions=list(state.history),
        name=table_name,
    )
    return Table(row=row, entry=info, game=game, state=state, seats=seats), tokens, notices


def _check_bot(spec: str | None, game: Any, seat: int) -> str:
    """``spec`` if the bot exists for ``game`` and takes its parameters (each within the bot's own bounds,
    checked before anything is built); ``Refusal`` (400) otherwise."""
    if not spec:
        raise Refusal("bad_option", L_("seat %(seat)s is a bot and needs a bot name", seat=seat + 1), 400)
    try:
        make_bot(spec, game, seat, 0)
    except FloeError as exc:
        raise Refusal("bad_option", text_of(exc), 400) from exc
    return spec

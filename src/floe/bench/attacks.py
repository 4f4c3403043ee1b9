"""The attacks of ``floe bench abuse``: each hole of the hostile-client report, at its size.

Every attack is an async function of an ``Arena`` (the server, its memory watch, the sizes, the games the
server lists) returning what it saw: the status codes of its requests, whether it was refused or limited,
and figures of its own. Games, options and bots are found through ``GET /api/games`` (the server's own
list): an attack on "a text option" goes to every game whose schema has one, a bot attack to the first game
that offers the bot, so the benchmark names no game. An attack stops early when the server is gone (it
crashed, or the watch killed it for passing the memory limit).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import time
import unicodedata
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import httpx

from floe.bench.probe import MB, ProcWatch, RawWebSocket, Served, cmdline, descendants


@dataclass(frozen=True)
class Sizes:
    """How big each attack is: the issue's sizes, or small ones (``--quick``) for a test."""

    hold: float = 20.0  # seconds an attack window lasts at least (the bot attacks: how long they run)
    layout_cells: int = 5_200
    layout_requests: int = 18
    few_tables: int = 4
    many_tables: int = 10
    quiet_spectators: int = 50
    toggles: int = 16_000
    crowd: int = 1_000
    body_mb: int = 300
    creations: int = 3_491
    creation_seconds: float = 25.0
    joins: int = 3
    utf8_connections: int = 20
    addresses: int = 200  # loopback addresses (127.0.x.y) the many-address attacks come from
    unjoined_per_address: int = 10
    search_addresses: int = 20
    search_tables_per_address: int = 2
    fleet_addresses: int = 20  # the other two shapes of item 3: many tables per address ...
    fleet_tables_per_address: int = (
        40  # ... each asking for this many (the server keeps what it lets one have)
    )
    board_cells: int = 64  # the big board of the mcts fleet (the largest the attacker used)
    chat_lines: int = 2_000
    reconnects: int = 2_000
    reconnect_watchers: int = 100
    replayers: int = 8
    idle_sockets: int = 20_000
    cap: float = 180.0  # no attack's own traffic runs longer than this


QUICK = Sizes(
    hold=3.0,
    layout_cells=520,
    layout_requests=3,
    few_tables=1,
    many_tables=2,
    quiet_spectators=5,
    toggles=400,
    crowd=40,
    body_mb=8,
    creations=40,
    creation_seconds=1.0,
    joins=2,
    utf8_connections=3,
    addresses=10,
    unjoined_per_address=3,
    search_addresses=3,
    search_tables_per_address=1,
    fleet_addresses=3,
    fleet_tables_per_address=2,
    chat_lines=60,
    reconnects=40,
    reconnect_watchers=5,
    replayers=3,
    idle_sockets=100,
    cap=30.0,
)


@dataclass
class Arena:
    """What an attack works with."""

    server: Served
    watch: ProcWatch
    sizes: Sizes
    http: httpx.AsyncClient
    games: list[dict[str, Any]]

    def alive(self) -> bool:
        """The server runs and the watch has not stopped it."""
        return self.server.alive() and not self.watch.exceeded.is_set()

    async def hold(self, seconds: float) -> None:
        """Wait ``seconds`` (less if the server goes)."""
        end = time.monotonic() + seconds
        while self.alive() and time.monotonic() < end:
            await asyncio.sleep(min(0.2, max(0.0, end - time.monotonic())))

    async def post(self, path: str, body: Any, statuses: Counter[str]) -> httpx.Response | None:
        """POST JSON (``body`` already text, or an object); the status is counted (``error`` if none came)."""
        content = body if isinstance(body, str | bytes) else json.dumps(body)
        headers = {"Content-Type": "application/json"}
        for attempt in (1, 2):
            try:
                answer = await self.http.post(path, content=content, headers=headers)
            except (httpx.ReadError, httpx.RemoteProtocolError, httpx.WriteError) as exc:
                # A kept-alive connection the server closed (as it does after a 500) fails the next
                # request before it reaches the app: once, that is the client's problem, not an answer.
                if attempt == 1 and self.alive():
                    continue
                statuses[type(exc).__name__] += 1
                return None
            except httpx.HTTPError as exc:
                statuses[type(exc).__name__] += 1
                return None
            statuses[str(answer.status_code)] += 1
            return answer
        return None

    def first_game(self) -> dict[str, Any]:
        return self.games[0]

    async def open_ws(self, table: str) -> RawWebSocket:
        return await RawWebSocket.open("127.0.0.1", self.server.port, f"/ws/tables/{table}")


PERSON = {"kind": "person"}
Attack = Callable[[Arena], Awaitable[dict[str, Any]]]


def refused(statuses: Counter[str]) -> bool:
    """Every request was answered, and none was accepted (no 2xx) nor failed (no 5xx)."""
    return bool(statuses) and all(s.isdigit() and 400 <= int(s) < 500 for s in statuses)


def hex_cells(n: int) -> list[list[int]]:
    """``n`` axial hex coordinates spiralling out from [0, 0]: a connected board of any size."""
    cells = [[0, 0]]
    ring = 1
    steps = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
    while len(cells) < n:
        q, r = -ring, ring  # start of the ring, then walk its six sides
        for dq, dr in steps:
            for _ in range(ring):
                if len(cells) < n:
                    cells.append([q, r])
                q, r = q + dq, r + dr
        ring += 1
    return cells


# --- 1: options without a size limit ------------------------------------------------------------------------
async def big_layout(a: Arena) -> dict[str, Any]:
    """``layout_requests`` table requests whose text options hold a ``layout_cells``-cell board (the issue:
    5,200 cells, ~130 KB, ×18), spread over every game's text options; one more per list option."""
    value = hex_cells(a.sizes.layout_cells)
    texts = [(g, o) for g in a.games for o in g["options"] if o["kind"] == "text"]
    lists = [(g, o) for g in a.games for o in g["options"] if o["kind"] == "list"]
    targets = [texts[k % len(texts)] for k in range(a.sizes.layout_requests)] if texts else []
    statuses: Counter[str] = Counter()
    slowest = 0.0
    size = 0
    for game, option in targets + lists:
        if not a.alive():
            break
        body = json.dumps(
            {
                "game": game["name"],
                "seats": [PERSON] * game["min_players"],
                "options": {option["name"]: value},
            }
        )
        size = max(size, len(body))
        started = time.monotonic()
        await a.post("/api/tables", body, statuses)
        slowest = max(slowest, time.monotonic() - started)
    return {
        "requests": sum(statuses.values()),
        "statuses": dict(statuses),
        "refused": refused(statuses),
        "body_kb": round(size / 1024, 1),
        "slowest_answer_s": round(slowest, 2),
        "options": sorted({f"{g['name']}.{o['name']}" for g, o in targets + lists}),
    }


# --- 2 and 3: bot budgets and bot compute -------------------------------------------------------------------
async def bot_tables(
    a: Arena, spec: str, tables: int, options: dict[str, Any] | None = None
) -> dict[str, Any]:
    """``tables`` tables of bots ``spec`` only (they think at once and without end), on the first game that
    accepts them; then ``hold`` seconds of them thinking."""
    bot = spec.split(":", 1)[0]
    statuses: Counter[str] = Counter()
    made = 0
    used = ""
    for game in a.games:
        if bot not in game["bot_names"] or made:
            continue
        names = {o["name"] for o in game["options"]}
        chosen = {k: v for k, v in (options or {}).items() if k in names}
        body = {"game": game["name"], "seats": [{"kind": "bot", "bot": spec}] * game["min_players"]}
        body["options"] = chosen
        for _ in range(tables):
            answer = await a.post("/api/tables", body, statuses)
            if answer is not None and answer.status_code == 201:
                made += 1
                used = game["name"]
    await a.hold(a.sizes.hold)
    return {
        "spec": spec,
        "tables": made,
        "game": used,
        "statuses": dict(statuses),
        "refused": refused(statuses),
    }


async def greedy_worlds(a: Arena) -> dict[str, Any]:
    return await bot_tables(a, "greedy:worlds=99999999999999999999", 1)


async def ismcts_iterations(a: Arena) -> dict[str, Any]:
    return await bot_tables(a, "ismcts:it=100000", 1)


async def mcts_to_the_end(a: Arena) -> dict[str, Any]:
    return await bot_tables(a, "mcts:it=100000,depth=end", 1, {"max_turns": 100_000})


async def ismcts_few(a: Arena) -> dict[str, Any]:
    return await bot_tables(a, "ismcts:ms=10000", a.sizes.few_tables)


async def ismcts_many(a: Arena) -> dict[str, Any]:
    return await bot_tables(a, "ismcts:ms=10000", a.sizes.many_tables)


# --- 4: a bot worker killed ---------------------------------------------------------------------------------
def bot_workers(server_pid: int) -> list[int]:
    """The server's worker processes (multiprocessing children, not its resource tracker)."""
    found = []
    for pid in descendants(server_pid):
        line = cmdline(pid)
        if "multiprocessing" in line and "resource_tracker" not in line:
            found.append(pid)
    return found


async def kill_worker(a: Arena) -> dict[str, Any]:
    """kill -9 of one bot worker (what the OOM killer does); then the normal table's bot must go on."""
    workers = bot_workers(a.server.proc.pid)
    if workers:
        os.kill(workers[0], signal.SIGKILL)
    killed_at = time.monotonic()
    await a.hold(a.sizes.hold)
    return {"workers": len(workers), "killed": workers[:1], "killed_at": killed_at}


# --- 5: the bad options -------------------------------------------------------------------------------------
def bad_option_bodies(games: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """(label, JSON text) of the issue's five bad options, for every game and option of their kind: seat
    and number options at ``Infinity`` and ``1e400``, text options as a number, a boolean and 100,000
    ``[``; a bot parameter in a Unicode digit."""
    out: list[tuple[str, str]] = []
    for g in games:
        game, seats = json.dumps(g["name"]), json.dumps([PERSON] * g["min_players"])
        for o in g["options"]:
            values = {"seat": ["Infinity", "1e400"], "int": ["Infinity", "1e400"]}.get(o["kind"], [])
            if o["kind"] == "text":
                values = ["7", "true", json.dumps("[" * 100_000)]
            for raw in values:  # written by hand: json.dumps would never write 1e400
                body = f'{{"game": {game}, "seats": {seats}, "options": {{{json.dumps(o["name"])}: {raw}}}}}'
                out.append((f"{g['name']}.{o['name']}={raw[:12]}", body))
        if "greedy" in g["bot_names"]:
            bot = json.dumps([PERSON, {"kind": "bot", "bot": "greedy:worlds=¹"}])
            out.append((f"{g['name']} greedy:worlds=¹", f'{{"game": {game}, "seats": {bot}}}'))
    return out


async def bad_options(a: Arena) -> dict[str, Any]:
    statuses: Counter[str] = Counter()
    failed = []
    for label, body in bad_option_bodies(a.games):
        answer = await a.post("/api/tables", body, statuses)
        if answer is None or answer.status_code >= 500:
            failed.append(label)
    await a.hold(a.sizes.hold / 3)
    return {
        "requests": sum(statuses.values()),
        "statuses": dict(statuses),
        "refused": refused(statuses),
        "answered_5xx": failed,
    }


# --- 6: state broadcasts and send queues --------------------------------------------------------------------
async def quiet_spectators(a: Arena) -> dict[str, Any]:
    """Spectators that never read, and a seat that toggles leave/back as fast as the server takes it."""
    game = a.first_game()
    statuses: Counter[str] = Counter()
    made = await a.post(
        "/api/tables", {"game": game["name"], "seats": [PERSON] * game["min_players"]}, statuses
    )
    if made is None or made.status_code != 201:
        return {"statuses": dict(statuses), "refused": True}
    table, token = made.json()["table"]["id"], made.json()["seats"][0]["token"]
    spectators: list[RawWebSocket] = []
    failed = 0
    for _ in range(a.sizes.quiet_spectators):
        try:
            ws = await a.open_ws(table)
            ws.send(json.dumps({"type": "hello"}))
            spectators.append(ws)
        except (OSError, ConnectionError, TimeoutError):
            failed += 1
    seat = await a.open_ws(table)
    seat.send(json.dumps({"type": "hello", "token": token}))
    seat.drain_forever(watch=b'"type":"pong"')
    started = time.monotonic()
    sent = 0
    leave, back = json.dumps({"type": "leave"}).encode(), json.dumps({"type": "back"}).encode()
    with contextlib.suppress(OSError, TimeoutError):
        while sent < a.sizes.toggles and a.alive() and time.monotonic() - started < a.sizes.cap:
            for _ in range(min(100, a.sizes.toggles - sent)):
                seat.send(leave if sent % 2 == 0 else back)
                sent += 1
            await asyncio.wait_for(seat.flush(), 30)
        # A ping after the toggles: its pong comes once the server has worked through them all.
        seat.send(json.dumps({"type": "ping"}))
        await asyncio.wait_for(seat.flush(), 30)
    sending = time.monotonic() - started
    while not seat.seen.is_set() and a.alive() and time.monotonic() - started < a.sizes.cap:
        await asyncio.sleep(0.1)
    caught_up = time.monotonic() - started if seat.seen.is_set() else None
    during = a.watch.sample()
    for ws in [*spectators, seat]:
        ws.abort()
    await a.hold(min(3.0, a.sizes.hold))  # what the server keeps once they are gone
    return {
        "spectators": len(spectators),
        "spectators_refused": failed,
        "toggles_sent": sent,
        "send_seconds": round(sending, 2),
        # When the server had answered every toggle (None: not within the cap, or it died).
        "server_caught_up_s": None if caught_up is None else round(caught_up, 2),
        "seat_received_mb": round(seat.received / MB, 1),
        "rss_before_close_mb": round(during / MB, 1),
        "rss_after_close_mb": round(a.watch.sample() / MB, 1),
        "statuses": dict(statuses),
    }


async def spectator_crowd(a: Arena) -> dict[str, Any]:
    """Spectators connecting one after another to one table, each reading everything it is sent."""
    game = a.first_game()
    statuses: Counter[str] = Counter()
    made = await a.post(
        "/api/tables", {"game": game["name"], "seats": [PERSON] * game["min_players"]}, statuses
    )
    if made is None or made.status_code != 201:
        return {"statuses": dict(statuses), "refused": True}
    table = made.json()["table"]["id"]
    crowd: list[RawWebSocket] = []
    failed = 0
    started = time.monotonic()
    for _ in range(a.sizes.crowd):
        if not a.alive() or time.monotonic() - started > a.sizes.cap:
            break
        try:
            ws = await a.open_ws(table)
        except (OSError, ConnectionError, TimeoutError):
            failed += 1
            continue
        ws.send(json.dumps({"type": "hello"}))
        ws.drain_forever(watch=b"too_many_connections")  # the refusal of a spectator past the cap
        crowd.append(ws)
    connecting = time.monotonic() - started
    await a.hold(min(5.0, a.sizes.hold))
    received = sum(ws.received for ws in crowd)
    closed = sum(1 for ws in crowd if ws.reader.at_eof())
    refused = sum(1 for ws in crowd if ws.seen.is_set())
    for ws in crowd:
        ws.abort()
    return {
        "spectators": len(crowd),
        "refused_at_connect": failed,
        "closed_by_server": closed,
        "refused_past_the_cap": refused,
        "watching": len(crowd) - refused,
        "connect_seconds": round(connecting, 2),
        "received_mb": round(received / MB, 1),
        "statuses": dict(statuses),
    }


# --- 7: private tables --------------------------------------------------------------------------------------
async def private_join(a: Arena) -> dict[str, Any]:
    """A private table's id is all a stranger has: its joins must be refused, its invitations must work."""
    game = a.first_game()
    statuses: Counter[str] = Counter()
    seats = [PERSON] * max(2, game["min_players"])
    made = await a.post("/api/tables", {"game": game["name"], "seats": seats, "public": False}, Counter())
    if made is None or made.status_code != 201:
        return {"refused": None, "note": "could not create the private table"}
    table = made.json()["table"]["id"]
    invitation = made.json()["seats"][1]["token"]
    for k in range(a.sizes.joins):
        await a.post(f"/api/tables/{table}/join", {"name": f"Stranger {k}"}, statuses)
    # The invited friend opens their link.
    friend = await a.open_ws(table)
    friend.send(json.dumps({"type": "hello", "token": invitation}))
    first = await friend.read_some(5.0)
    friend.abort()
    welcomed = b'"welcome"' in first
    await a.hold(a.sizes.hold / 3)
    return {
        "joins": a.sizes.joins,
        "statuses": dict(statuses),
        "refused": refused(statuses),
        "invitation_works": welcomed,
    }


# --- 8: a huge body -----------------------------------------------------------------------------------------
async def big_body(a: Arena) -> dict[str, Any]:
    """A ``body_mb`` MB body streamed (never built in memory) with its Content-Length: the server should
    refuse it before reading it."""
    total = a.sizes.body_mb * MB
    head = b'{"seats": [{"kind": "person"}, {"kind": "person"}], "options": {"x": "'
    tail = b'"}}'
    chunk = b"a" * (256 * 1024)
    reader, writer = await asyncio.open_connection("127.0.0.1", a.server.port)
    writer.write(
        b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        + f"Content-Length: {total}\r\nConnection: close\r\n\r\n".encode()
        + head
    )
    answer: asyncio.Task[bytes] = asyncio.create_task(reader.read(4096))
    sent = len(head)
    started = time.monotonic()
    with contextlib.suppress(OSError, TimeoutError):
        while sent < total - len(tail) and not answer.done() and a.alive():
            piece = chunk[: min(len(chunk), total - len(tail) - sent)]
            writer.write(piece)
            sent += len(piece)
            await asyncio.wait_for(writer.drain(), 60)
            if time.monotonic() - started > a.sizes.cap:
                break
        if not answer.done():
            writer.write(tail)
            sent += len(tail)
            await asyncio.wait_for(writer.drain(), 60)
    status = ""
    with contextlib.suppress(OSError, TimeoutError):
        first = await asyncio.wait_for(answer, 60)
        status = first.split(b" ", 2)[1].decode() if first.startswith(b"HTTP/") else ""
    seconds = time.monotonic() - started
    writer.transport.abort()
    await a.hold(a.sizes.hold / 3)
    return {
        "body_mb": a.sizes.body_mb,
        "sent_mb": round(sent / MB, 1),
        "status": status,
        "answer_seconds": round(seconds, 2),
        "refused": status.startswith("4") and sent < total,
    }


# --- 9: creating tables without end -------------------------------------------------------------------------
async def table_flood(a: Arena) -> dict[str, Any]:
    """``creations`` tables in ``creation_seconds`` (the issue: 3,491 in 25 s), paced evenly, 32 at a time."""
    game = a.first_game()
    body = json.dumps({"game": game["name"], "seats": [PERSON] * game["min_players"]})
    statuses: Counter[str] = Counter()
    gate = asyncio.Semaphore(32)
    started = time.monotonic()
    gap = a.sizes.creation_seconds / a.sizes.creations

    async def one(k: int) -> None:
        await asyncio.sleep(max(0.0, started + k * gap - time.monotonic()))
        if not a.alive() or time.monotonic() - started > a.sizes.cap:
            return
        async with gate:
            await a.post("/api/tables", body, statuses)

    await asyncio.gather(*(one(k) for k in range(a.sizes.creations)))
    took = time.monotonic() - started
    await a.hold(max(0.0, a.sizes.hold - took))
    return {
        "requests": sum(statuses.values()),
        "created": statuses.get("201", 0),
        "seconds": round(took, 2),
        "statuses": dict(statuses),
        "limited": statuses.get("201", 0) < a.sizes.creations,
    }


# --- 10: names ----------------------------------------------------------------------------------------------
NAMES = ["\u202eevil\u202c P2 (you)", "a\x00b", "P2 (you)", "\u200fP1", "Ann\u200b", "x" * 40]


def name_is_clean(name: str) -> bool:
    """No control or format (bidi, zero-width) characters and nothing that reads as the UI's own label."""
    return not any(unicodedata.category(c) in ("Cc", "Cf") for c in name) and "(you)" not in name.lower()


async def names(a: Arena) -> dict[str, Any]:
    """Tables created and joined with names that imitate the UI or hide text; what the server stores."""
    game = a.first_game()
    statuses: Counter[str] = Counter()
    stored: list[str] = []
    for name in NAMES:
        seats = [{"kind": "person", "name": name}] + [PERSON] * (max(2, game["min_players"]) - 1)
        made = await a.post("/api/tables", {"game": game["name"], "seats": seats}, statuses)
        if made is not None and made.status_code == 201:
            table = made.json()["table"]
            stored.append(table["seats"][0]["name"])
            joined = await a.post(f"/api/tables/{table['id']}/join", {"name": name}, statuses)
            if joined is not None and joined.status_code == 200:
                summary = await a.http.get(f"/api/tables/{table['id']}")
                stored.append(summary.json()["seats"][1]["name"])
    await a.hold(a.sizes.hold / 3)
    clean = all(name_is_clean(n) for n in stored)
    return {
        "names": len(NAMES),
        "statuses": dict(statuses),
        "stored": [ascii(n) for n in stored],
        "limited": clean,
        "refused": refused(statuses),
    }


# --- 11: a text frame that is not UTF-8 ---------------------------------------------------------------------
async def bad_utf8(a: Arena) -> dict[str, Any]:
    """Connections that say hello and then send a text frame that is not UTF-8: a close each, and at most
    a line of log each (the issue: a traceback per connection)."""
    game = a.first_game()
    made = await a.post(
        "/api/tables", {"game": game["name"], "seats": [PERSON] * game["min_players"]}, Counter()
    )
    if made is None or made.status_code != 201:
        return {"refused": None, "note": "could not create the table"}
    table = made.json()["table"]["id"]
    log_from = a.server.log_size()
    codes: Counter[str] = Counter()
    for _ in range(a.sizes.utf8_connections):
        ws = await a.open_ws(table)
        ws.send(json.dumps({"type": "hello"}))
        ws.send(b"\xff\xfe\xfd")
        codes[str(await ws.close_code(10.0))] += 1
        ws.abort()
    await asyncio.sleep(0.5)
    log = a.server.log_since(log_from)
    await a.hold(a.sizes.hold / 3)
    return {
        "connections": a.sizes.utf8_connections,
        "close_codes": dict(codes),
        "log_lines": log.count("\n"),
        "tracebacks": log.count("Traceback"),
        "limited": log.count("\n") <= a.sizes.utf8_connections and "Traceback" not in log,
    }


# --- issue 24: many addresses, the same connection over and over, the table's own history ------------------
def address(k: int) -> str:
    """The ``k``-th attacker's loopback address (127.0.x.y: every one reaches the server on this machine)."""
    return f"127.0.{10 + k // 250}.{1 + k % 250}"


# A new client, from an address no attack uses: is the lobby still open to it?
NEWCOMER = "127.0.9.1"


def client_at(a: Arena, k: int | str) -> httpx.AsyncClient:
    """An HTTP client of the server whose requests come from ``address(k)`` (or the address ``k``)."""
    transport = httpx.AsyncHTTPTransport(local_address=k if isinstance(k, str) else address(k))
    return httpx.AsyncClient(base_url=a.server.base, timeout=60, transport=transport)


async def lockout(a: Arena) -> bool:
    """Whether a new client (an address no attack uses) is refused a table because the server is full."""
    game = a.first_game()
    body = {"game": game["name"], "seats": [PERSON] * game["min_players"]}
    async with client_at(a, NEWCOMER) as client:
        answer = await client.post("/api/tables", json=body)
    return answer.status_code == 429 and answer.json()["error"]["code"] == "server_full"


async def unjoined_tables(a: Arena) -> dict[str, Any]:
    """``addresses`` × ``unjoined_per_address`` tables whose seats nobody opens (the issue: 200 × 10 filled
    the 2,000 open tables in 26 s); then: may a new client still create a table?"""
    game = a.first_game()
    body = {"game": game["name"], "seats": [PERSON] * game["min_players"]}
    statuses: Counter[str] = Counter()

    async def one(k: int) -> None:
        async with client_at(a, k) as client:
            for _ in range(a.sizes.unjoined_per_address):
                if not a.alive():
                    return
                try:
                    statuses[str((await client.post("/api/tables", json=body)).status_code)] += 1
                except httpx.HTTPError as exc:
                    statuses[type(exc).__name__] += 1

    started = time.monotonic()
    await asyncio.gather(*(one(k) for k in range(a.sizes.addresses)))
    locked = await lockout(a)
    await a.hold(max(0.0, a.sizes.hold - (time.monotonic() - started)))
    return {"statuses": dict(statuses), "lockout": locked or await lockout(a)}


async def search_addresses(a: Arena) -> dict[str, Any]:
    """``search_addresses`` × ``search_tables_per_address`` bot-only tables of ``ismcts:ms=10000`` (the
    issue: from 20 addresses × 2 a normal player's search bot made no move in 240 s)."""
    game = next((g for g in a.games if "ismcts" in g["bot_names"]), a.first_game())
    body = {"game": game["name"], "seats": [{"kind": "bot", "bot": "ismcts:ms=10000"}] * game["min_players"]}
    statuses: Counter[str] = Counter()
    for k in range(a.sizes.search_addresses):
        async with client_at(a, k) as client:
            for _ in range(a.sizes.search_tables_per_address):
                statuses[str((await client.post("/api/tables", json=body)).status_code)] += 1
    await a.hold(a.sizes.hold)
    return {"statuses": dict(statuses), "game": game["name"]}


async def _first_accepted(
    a: Arena, bodies: list[dict[str, Any]], statuses: Counter[str]
) -> dict[str, Any] | None:
    """The first of ``bodies`` the server accepts a table of (made from ``address(0)``: its first table)."""
    async with client_at(a, 0) as client:
        for body in bodies:
            if not a.alive():
                return None
            answer = await client.post("/api/tables", json=body)
            if answer.status_code == 201:
                statuses["201"] += 1
                return body
    return None


async def _fleet(a: Arena, body: dict[str, Any], statuses: Counter[str], first: int) -> dict[str, Any]:
    """From each of ``fleet_addresses`` addresses, up to ``fleet_tables_per_address`` tables of ``body``
    (``first`` of address 0's are made): a refusal for the rate is waited out as its ``Retry-After`` says,
    one for the address's cap on open tables ends that address (it has all the server lets it have); then
    ``hold`` seconds of their bots thinking. Statuses are counted with the refusal's code."""
    end = time.monotonic() + a.sizes.cap
    made: list[int] = []

    async def one(k: int) -> None:
        count = first if k == 0 else 0
        async with client_at(a, k) as client:
            while count < a.sizes.fleet_tables_per_address and a.alive() and time.monotonic() < end:
                try:
                    answer = await client.post("/api/tables", json=body)
                except httpx.HTTPError as exc:
                    statuses[type(exc).__name__] += 1
                    break
                if answer.status_code == 201:
                    statuses["201"] += 1
                    count += 1
                    continue
                code = answer.json().get("error", {}).get("code", "") if answer.status_code == 429 else ""
                statuses[f"{answer.status_code} {code}".strip()] += 1
                if code != "rate_limited":
                    break
                wait = float(answer.headers.get("Retry-After", 1))
                await asyncio.sleep(max(0.0, min(wait, end - time.monotonic())))
        made.append(count)

    await asyncio.gather(*(one(k) for k in range(a.sizes.fleet_addresses)))
    await a.hold(a.sizes.hold)
    return {"statuses": dict(statuses), "tables": sum(made), "most_per_address": max(made, default=0)}


# The strongest mcts a client may ask for within the server's default bounds (bot_max_ms, bot_time_cap).
FLEET_MCTS = "mcts:ms=10000"
FLEET_GREEDY = "greedy:worlds=1000"


async def mcts_big_boards(a: Arena) -> dict[str, Any]:
    """``fleet_addresses`` × ``fleet_tables_per_address`` bot-only tables of ``FLEET_MCTS`` on a
    ``board_cells``-cell board (the issue: 20 × 40 of 64-field boards, one reply then 23-37 s of nothing):
    the board goes into the first text option of a game with mcts bots that takes it."""
    board = hex_cells(a.sizes.board_cells)
    bodies = [
        {
            "game": g["name"],
            "seats": [{"kind": "bot", "bot": FLEET_MCTS}] * g["min_players"],
            "options": {o["name"]: board},
        }
        for g in a.games
        if "mcts" in g["bot_names"]
        for o in g["options"]
        if o["kind"] == "text"
    ]
    statuses: Counter[str] = Counter()
    body = await _first_accepted(a, bodies, statuses)
    if body is None:
        return {"note": "no game took the board", "statuses": dict(statuses)}
    fleet = await _fleet(a, body, statuses, 1)
    option = next(iter(body["options"]))
    return {**fleet, "spec": FLEET_MCTS, "game": body["game"], "board": f"{option}: {len(board)} cells"}


async def greedy_fleet(a: Arena) -> dict[str, Any]:
    """``fleet_addresses`` × ``fleet_tables_per_address`` bot-only tables of ``FLEET_GREEDY`` on the first
    game whose greedy bot takes it (the issue: 20 × 40, one reply then 23-37 s of nothing)."""
    bodies = [
        {"game": g["name"], "seats": [{"kind": "bot", "bot": FLEET_GREEDY}] * g["min_players"]}
        for g in a.games
        if "greedy" in g["bot_names"]
    ]
    statuses: Counter[str] = Counter()
    body = await _first_accepted(a, bodies, statuses)
    if body is None:
        return {"note": "no game took the bot", "statuses": dict(statuses)}
    return {**await _fleet(a, body, statuses, 1), "spec": FLEET_GREEDY, "game": body["game"]}


async def undo_spam(a: Arena) -> dict[str, Any]:
    """One table whose person moves and undoes as fast as the server lets it, for ``hold`` seconds (the
    issue: 178,320 events in 120 s), then a reader of its log in every language."""
    game = a.first_game()
    made = await a.post("/api/tables", {"game": game["name"], "seats": [PERSON, PERSON]}, Counter())
    if made is None or made.status_code != 201:
        return {"note": "could not create the table"}
    table = made.json()["table"]["id"]
    tokens = [made.json()["seats"][0]["token"]]
    joined = await a.post(f"/api/tables/{table}/join", {"name": "Two"}, Counter())
    if joined is not None and joined.status_code == 200:
        tokens.append(joined.json()["token"])
    statuses: Counter[str] = Counter()
    end = time.monotonic() + a.sizes.hold
    while a.alive() and time.monotonic() < end and len(tokens) == 2:
        state = (await a.http.get(f"/api/tables/{table}/state", headers=_bearer(tokens[0]))).json()
        mover = state.get("to_move")
        if mover is None:
            break
        mine = (await a.http.get(f"/api/tables/{table}/state", headers=_bearer(tokens[mover]))).json()
        if mine["can_undo"]:
            path, body = f"/api/tables/{table}/undo", {"version": mine["version"]}
        else:
            path, body = (
                f"/api/tables/{table}/moves",
                {"action": mine["legal"][0]["id"], "version": mine["version"]},
            )
        answer = await a.http.post(path, json=body, headers=_bearer(tokens[mover]))
        statuses[f"{path.rsplit('/', 1)[1]} {answer.status_code}"] += 1
        if answer.status_code == 429:  # the undo limits: play on
            move = {"action": mine["legal"][0]["id"], "version": mine["version"]}
            played = await a.http.post(
                f"/api/tables/{table}/moves", json=move, headers=_bearer(tokens[mover])
            )
            statuses[f"moves {played.status_code}"] += 1
    version = (await a.http.get(f"/api/tables/{table}")).json()["version"]
    readers: Counter[str] = Counter()
    for lang in ("pl", "de", "it"):  # a reader of its log in a language nobody read it in yet
        readers[str((await a.http.get(f"/api/tables/{table}/state?lang={lang}")).status_code)] += 1
    return {"statuses": dict(statuses), "events": version, "readers": dict(readers)}


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def _ws(a: Arena, table: str, k: int, token: str | None = None) -> Any:
    """A WebSocket from ``address(k)`` that said hello (None if it was refused)."""
    import websockets

    try:
        ws = await websockets.connect(
            f"ws://127.0.0.1:{a.server.port}/ws/tables/{table}", local_addr=(address(k), 0), open_timeout=30
        )
    except (OSError, websockets.InvalidStatus, TimeoutError):
        return None
    await ws.send(json.dumps({"type": "hello", "token": token}))
    return ws


async def chat_flood(a: Arena) -> dict[str, Any]:
    """``chat_lines`` chat lines into every public table (the normal players' included) from spectators of
    ``addresses`` addresses, each reconnecting after every line (the issue: 565 lines/s went in)."""
    tables = [t["id"] for t in (await a.http.get("/api/tables")).json() if t["status"] != "finished"]
    game = a.first_game()
    made = await a.post(
        "/api/tables", {"game": game["name"], "seats": [PERSON] * game["min_players"]}, Counter()
    )
    if made is not None and made.status_code == 201:
        tables.append(made.json()["table"]["id"])
    answers: Counter[str] = Counter()
    started = time.monotonic()
    for k in range(a.sizes.chat_lines):
        if not a.alive() or time.monotonic() - started > a.sizes.cap or not tables:
            break
        ws = await _ws(a, tables[k % len(tables)], k % a.sizes.addresses)
        if ws is None:
            answers["refused"] += 1
            continue
        await ws.send(json.dumps({"type": "chat", "text": f"spam {k}"}))
        await ws.send(json.dumps({"type": "ping"}))
        with contextlib.suppress(Exception):
            async with asyncio.timeout(10):
                async for raw in ws:
                    message = json.loads(raw)
                    if message["type"] == "error":
                        answers[message["code"]] += 1
                    if message["type"] == "pong":
                        break
        await ws.close()
    took = time.monotonic() - started
    await a.hold(max(0.0, a.sizes.hold - took))
    return {"statuses": dict(answers), "lines": a.sizes.chat_lines, "seconds": round(took, 1)}


async def reconnect_flood(a: Arena) -> dict[str, Any]:
    """One seat token reconnecting ``reconnects`` times as fast as it can while ``reconnect_watchers``
    spectators (of several addresses) watch its table (the issue: 83 a second, 200 messages each)."""
    game = a.first_game()
    made = await a.post(
        "/api/tables", {"game": game["name"], "seats": [PERSON] * game["min_players"]}, Counter()
    )
    if made is None or made.status_code != 201:
        return {"note": "could not create the table"}
    table, token = made.json()["table"]["id"], made.json()["seats"][0]["token"]
    watchers = [await _ws(a, table, k % a.sizes.addresses) for k in range(a.sizes.reconnect_watchers)]
    answers: Counter[str] = Counter()
    started = time.monotonic()
    for _ in range(a.sizes.reconnects):
        if not a.alive() or time.monotonic() - started > a.sizes.cap:
            break
        ws = await _ws(a, table, 0, token)
        if ws is None:
            answers["refused"] += 1
            continue
        with contextlib.suppress(Exception):
            async with asyncio.timeout(10):
                first = json.loads(await ws.recv())
                answers[first.get("code", first["type"])] += 1
        await ws.close()
    took = time.monotonic() - started
    heard = 0
    for ws in watchers:
        if ws is None:
            continue
        with contextlib.suppress(Exception):
            async with asyncio.timeout(0.5):
                async for _ in ws:
                    heard += 1
        await ws.close()
    await a.hold(max(0.0, a.sizes.hold - took))
    return {"statuses": dict(answers), "seconds": round(took, 1), "watcher_messages": heard}


async def replays(a: Arena) -> dict[str, Any]:
    """``replayers`` clients of their own addresses replaying a finished game over and over, in every
    language and with every seat's cards, for ``hold`` seconds (the issue: 8 pushed ack p99 to 790 ms); a
    refused one waits as long as its ``Retry-After`` says."""
    game = a.first_game()
    bots = [{"kind": "bot", "bot": "random"}] * game["min_players"]
    made = await a.post("/api/tables", {"game": game["name"], "seats": bots}, Counter())
    if made is None or made.status_code != 201:
        return {"note": "could not create the table"}
    table = made.json()["table"]["id"]
    while a.alive() and (await a.http.get(f"/api/tables/{table}")).json()["status"] != "finished":
        await asyncio.sleep(0.2)
    statuses: Counter[str] = Counter()
    end = time.monotonic() + a.sizes.hold

    async def replayer(k: int) -> None:
        async with client_at(a, k) as client:
            n = 0
            while a.alive() and time.monotonic() < end:
                lang = ("en", "pl", "de", "it")[n % 4]
                answer = await client.get(f"/api/tables/{table}/replay?reveal=true&lang={lang}")
                statuses[f"{answer.status_code} {answer.headers.get('X-Replay-Cache', '')}".strip()] += 1
                n += 1
                if answer.status_code == 429:  # told when to ask again (ignoring it is a request flood)
                    await asyncio.sleep(
                        min(float(answer.headers.get("Retry-After", 1)), end - time.monotonic())
                    )

    await asyncio.gather(*(replayer(k) for k in range(a.sizes.replayers)))
    return {"statuses": dict(statuses)}


# Longer than the server's default time for a request head (10 s): the idle sockets' fate is seen.
IDLE_WAIT = 12.0


async def idle_sockets(a: Arena) -> dict[str, Any]:
    """``idle_sockets`` connections from ``addresses`` addresses that send nothing (the issue: 20,000 filled
    the file limit); how many the server closed by the end of the window."""
    opened: list[asyncio.StreamWriter] = []
    readers: list[asyncio.StreamReader] = []
    failed = 0
    for k in range(a.sizes.idle_sockets):
        if not a.alive():
            break
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection(
                    "127.0.0.1", a.server.port, local_addr=(address(k % a.sizes.addresses), 0)
                ),
                10,
            )
        except (OSError, TimeoutError):
            failed += 1
            continue
        opened.append(writer)
        readers.append(reader)
    await a.hold(max(a.sizes.hold, IDLE_WAIT))
    closed = sum(1 for r in readers if r.at_eof() or r.exception() is not None)
    for w in opened:
        w.close()
    return {
        "opened": len(opened),
        "failed": failed,
        "closed_by_server": closed,
        "limited": closed == len(opened),
    }


async def nothing(a: Arena) -> dict[str, Any]:
    """No attack: the normal table alone, for comparison."""
    await a.hold(a.sizes.hold)
    return {}


# The attacks in the order of the holes, each with the words the report prints.
ATTACKS: dict[str, tuple[Attack, str]] = {
    "none": (nothing, "no attack: the normal table alone"),
    "big_layout": (big_layout, "×18 table requests with a 5,200-cell board in a text option (hole 1)"),
    "greedy_worlds": (greedy_worlds, "a table of greedy:worlds=99999999999999999999 bots (hole 2)"),
    "ismcts_iterations": (ismcts_iterations, "a table of ismcts:it=100000 bots (hole 2)"),
    "mcts_to_the_end": (mcts_to_the_end, "mcts:it=100000,depth=end bots with max_turns=100000 (hole 2)"),
    "ismcts_4_tables": (ismcts_few, "4 tables of ismcts:ms=10000 bots (hole 3)"),
    "ismcts_10_tables": (ismcts_many, "10 tables of ismcts:ms=10000 bots (hole 3)"),
    "kill_worker": (kill_worker, "kill -9 of a bot worker (hole 4)"),
    "bad_options": (bad_options, "the five bad options, for every game and option of their kind (hole 5)"),
    "quiet_spectators": (quiet_spectators, "50 never-reading spectators + 16,000 leave/back (hole 6)"),
    "spectator_crowd": (spectator_crowd, "1,000 spectators connecting one after another (hole 6)"),
    "private_join": (private_join, "joins of a private table by its id (hole 7)"),
    "big_body": (big_body, "a 300 MB request body, streamed (hole 8)"),
    "table_flood": (table_flood, "3,491 table creations in 25 s (hole 9)"),
    "names": (names, "names with bidi controls, NUL and 'P2 (you)' (hole 10)"),
    "bad_utf8": (bad_utf8, "text frames that are not UTF-8 (hole 11)"),
    "unjoined_tables": (unjoined_tables, "200 addresses × 10 tables nobody opens (issue 24, item 2)"),
    "search_addresses": (search_addresses, "20 addresses × 2 tables of ismcts:ms=10000 (issue 24, item 3)"),
    "mcts_big_boards": (
        mcts_big_boards,
        "20 addresses × 40 tables of mcts on 64-field boards (issue 24, item 3)",
    ),
    "greedy_fleet": (greedy_fleet, "20 addresses × 40 tables of greedy:worlds=1000 (issue 24, item 3)"),
    "undo_spam": (undo_spam, "one table moving and undoing without end (issue 24, item 1)"),
    "chat_flood": (chat_flood, "chat into every table, reconnecting after each line (issue 24, item 7)"),
    "reconnect_flood": (reconnect_flood, "a seat reconnecting without end, 100 watching (issue 24, item 8)"),
    "replays": (replays, "8 addresses replaying a finished game without end (issue 24, item 4)"),
    "idle_sockets": (idle_sockets, "20,000 idle sockets from 200 addresses (issue 24, item 5)"),
}

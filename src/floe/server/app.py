"""The FastAPI application: the JSON API, the WebSocket per client, and the browser client's files.

Every refusal is a short JSON error ``{"error": {"code", "message"}}`` with a 4xx status; malformed input
never reaches a table. See docs/server.md for the protocol.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import os
from collections import Counter
from collections.abc import AsyncIterator, Callable
from importlib.resources import files
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Header, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import Field, ValidationError
from pydantic_core import to_json
from pydantic_settings import BaseSettings, SettingsConfigDict
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException as StarletteHTTPException

from floe.bots.labels import bot_label, lobby_bots
from floe.bots.params import MAX_ITERATIONS, MAX_MS
from floe.bots.registry import bot_names
from floe.core import i18n
from floe.core.entry import GameEntry
from floe.core.i18n import L_, NL_
from floe.core.registry import entries
from floe.server.botrunner import BotLimits, BotRunner
from floe.server.chat import ChatLimits, ChatRooms
from floe.server.conns import CLOSE_GRACE, DROPPED, Conn, ConnLimits
from floe.server.gamefiles import game_file
from floe.server.httplimits import BodyLimit
from floe.server.languages import catalog_json, languages_json, reader_language
from floe.server.limits import Connects, TableLimits, TooMany
from floe.server.manager import Lobby, seeds_for_tests
from floe.server.protocol import (
    MAX_MESSAGE_BYTES,
    Back,
    Chat,
    CreateTable,
    Hello,
    JoinTable,
    Leave,
    Move,
    Ping,
    RecentTables,
    Rematch,
    Undo,
    WsMove,
    WsUndo,
    client_message,
    error_line,
    short_error,
)
from floe.server.recent import note_recent, recent_rows, stored_summaries
from floe.server.rematch import Rematches
from floe.server.replays import ReplayLimits, Replays
from floe.server.store import Store, database_url
from floe.server.tables import MoveError, Table, token_hash
from floe.server.undo import UndoLimits, undo

WEB = Path(str(files("floe") / "web"))
log = logging.getLogger("floe.server")


Count = Annotated[int, Field(ge=0)]  # a limit; 0 turns it off where docs/security.md says so
Size = Annotated[int, Field(ge=1024)]  # a size in bytes


class Settings(BaseSettings):
    """How the server runs. Each field has a default, which a ``FLOE_<FIELD>`` environment variable
    overrides (``FLOE_MAX_BODY_BYTES=65536``), which a ``floe serve`` option overrides (``--port``, or
    ``--set max_body_bytes=65536`` for any field). docs/security.md lists every limit."""

    model_config = SettingsConfigDict(env_prefix="FLOE_", extra="forbid", arbitrary_types_allowed=True)

    data_dir: Path = Path("floe-data")
    db: str | None = None
    bot_workers: Annotated[int, Field(ge=1, le=64)] = 2  # search worker processes
    bot_processes: bool = True
    away_after: Annotated[float, Field(gt=0, le=86_400)] = 60.0
    tick: Annotated[float, Field(gt=0, le=60)] = 0.5
    store: Store | None = None  # an already opened (and claimed) store; else opened at start-up
    # How long a new server waits for the database to be free before it refuses to start (another server
    # serves it, or one just stopped: PostgreSQL notices a dead connection's lock after a moment).
    claim_wait: Annotated[float, Field(ge=0, le=300)] = 5.0
    # --- bots (issue 11 items 2-4: budgets, decision time, fair sharing of the workers; docs/server.md) ---
    bot_time_cap: Annotated[float, Field(gt=0, le=3600)] = (
        10.0  # seconds one bot decision may take, whatever its bot's parameters
    )
    bot_max_ms: Annotated[int, Field(ge=1, le=MAX_MS)] = (
        10_000  # a larger ms budget is granted at this (the creator is told)
    )
    bot_max_iterations: Annotated[int, Field(ge=1, le=MAX_ITERATIONS)] = (
        100_000  # a larger it/iterations budget is granted at this (told)
    )
    bot_fast_workers: Annotated[int, Field(ge=1, le=16)] = (
        1  # worker processes for cheap decisions only (random, rule bots, small greedy)
    )
    bot_cheap_seconds: Annotated[float, Field(ge=0, le=60)] = (
        0.05  # a decision its bot estimates at most this is cheap (Bot.cost)
    )
    bot_inline_seconds: Annotated[float, Field(ge=0, le=0.1)] = (
        0.001  # ... at most this, it runs in the server process itself
    )
    bot_searches_per_client: Annotated[int, Field(ge=1, le=64)] = (
        1  # searches of one client's tables running at once
    )
    bot_search_round: Annotated[float, Field(ge=0, le=3600)] = (
        10.0  # seconds within which every search table gets a turn: searches shrink with load (0: off)
    )
    bot_min_slice: Annotated[float, Field(gt=0, le=60)] = 0.05  # ... but none is cut shorter than this
    bot_last_worker_slice: Annotated[float, Field(ge=0, le=3600)] = (
        1.0  # seconds a bot-only table's search may take on the last free search worker (0: no bound)
    )
    bot_search_nice: Annotated[int, Field(ge=0, le=19)] = (
        10  # how much lower the search workers' CPU priority is than the server's (Unix nice; 0: the same)
    )
    # --- connections (issue 11, item 6): what one table, seat and connection may cost (conns.py) -------
    max_spectators: Count = 100  # spectator connections per table; more are refused
    max_seat_connections: Annotated[int, Field(ge=1)] = 4  # connections per seat (tabs, devices)
    ws_queue_limit: Annotated[int, Field(ge=1)] = 64  # messages waiting for a connection besides its state
    ws_send_timeout: Annotated[float, Field(gt=0)] = 20.0  # seconds a write may wait for a client to read
    away_toggles_per_second: Annotated[float, Field(gt=0)] = 1.0  # leave/back per connection, after ...
    away_toggle_burst: Annotated[float, Field(ge=1)] = 5.0  # ... a burst of this many
    # --- reconnects (issue 24, item 8: limits.Connects, Lobby.seats_changed) ---------------------------
    seat_connects_per_minute: Annotated[float, Field(gt=0)] = 30.0  # new connections per seat token ...
    seat_connect_burst: Annotated[int, Field(ge=1)] = 10  # ... after a burst of this many
    client_connects_per_minute: Annotated[float, Field(gt=0)] = 600.0  # new connections per address ...
    client_connect_burst: Annotated[int, Field(ge=1)] = 120  # ... after a burst of this many
    seats_news_interval: Annotated[float, Field(ge=0, le=60)] = 1.0  # seconds between two seats messages

    def connects(self) -> Connects:
        """The reconnect settings, for the lobby."""
        return Connects(
            per_token_minute=self.seat_connects_per_minute,
            token_burst=self.seat_connect_burst,
            per_client_minute=self.client_connects_per_minute,
            client_burst=self.client_connect_burst,
        )

    def conn_limits(self) -> ConnLimits:
        """The connection settings, for the lobby."""
        return ConnLimits(
            spectators=self.max_spectators,
            seat_connections=self.max_seat_connections,
            queue=self.ws_queue_limit,
            send_timeout=self.ws_send_timeout,
            toggles_per_second=self.away_toggles_per_second,
            toggle_burst=self.away_toggle_burst,
            seats_news_interval=self.seats_news_interval,
        )

    # --- resources and limits: HTTP, table creation, finished tables (issue 11 items 1, 8, 9) ---------
    host: str = "127.0.0.1"  # where floe serve listens
    port: Annotated[int, Field(ge=1, le=65535)] = 8000
    # Behind a reverse proxy: the proxies' addresses (comma-separated, or "*") whose X-Forwarded-For
    # names the client. None: the client is the connection's peer, and no header can claim otherwise.
    forwarded_allow_ips: str | None = None
    # Sockets (issue 24, item 5: listen.bounded_h11; WebSockets in the app's socket handler).
    http_head_timeout: Annotated[float, Field(gt=0, le=3600)] = 10.0  # seconds for a request line + headers
    http_keep_alive: Annotated[int, Field(ge=1, le=3600)] = 5  # seconds idle after a response
    http_connections_per_client: Annotated[int, Field(ge=1)] = 64  # open HTTP connections per address
    max_connections: Annotated[int, Field(ge=1)] = 10_000  # open sockets (at most the file limit allows)
    ws_per_client: Annotated[int, Field(ge=1)] = 200  # open WebSockets per address (seats and spectators)
    ws_total: Annotated[int, Field(ge=1)] = 5000  # open WebSockets in all
    max_body_bytes: Size = 256 * 1024  # an HTTP request body (the largest is a table creation)
    max_header_bytes: Size = 16 * 1024  # an HTTP request line and headers (uvicorn's h11 parser)
    ws_max_bytes: Size = 64 * 1024  # a WebSocket frame (uvicorn's ws_max_size)
    max_message_bytes: Size = MAX_MESSAGE_BYTES  # a WebSocket message's JSON text
    options_max_bytes: Size = 8192  # a new table's options, as JSON
    create_per_minute: Annotated[float, Field(ge=0)] = 10.0  # new tables per client (0: no rate limit)
    create_burst: Annotated[int, Field(ge=1)] = 10  # ... of which at once
    open_tables_per_client: Count = 20  # unfinished tables one client created
    open_tables_total: Count = 2000  # unfinished tables on the server
    finished_cache: Count = 256  # finished tables kept in memory (others are read when asked for)
    # Tables nobody ever sat at (issue 24, item 2): they expire, and never count in open_tables_total.
    unjoined_expiry: Annotated[float, Field(ge=0)] = 600.0  # seconds (0: never)
    unjoined_tables_total: Annotated[int, Field(ge=1)] = 1000  # kept at once; a new one pushes the oldest out
    # --- chat, rematch, recent tables (issue 13 items 10, 11: chat.py, rematch.py, recent.py) ---------
    chat_max_chars: Annotated[int, Field(ge=1, le=2000)] = 300  # characters of one chat line
    chat_per_second: Annotated[float, Field(gt=0, le=100)] = 0.5  # lines per seat / spectator address ...
    chat_burst: Annotated[float, Field(ge=1, le=1000)] = 5.0  # ... after a burst of this many
    chat_client_per_second: Annotated[float, Field(gt=0, le=1000)] = 2.0  # lines per address, all tables ...
    chat_client_burst: Annotated[float, Field(ge=1, le=10_000)] = 20.0  # ... after a burst of this many
    chat_history: Annotated[int, Field(ge=1, le=10_000)] = 200  # chat lines kept per table
    chat_memory_bytes: Size = 64 * 1024 * 1024  # chat lines kept in memory, all tables together
    rematch_offers: Annotated[int, Field(ge=1, le=1_000_000)] = 1000  # rematch invitations kept (memory)
    # --- replays (issue 24, item 4: replays.py) ---------------------------------------------------------
    replay_cache_bytes: Size = 64 * 1024 * 1024  # built replays kept, in bytes of JSON
    replays_per_client: Annotated[int, Field(ge=1, le=64)] = 1  # replays one address may have in the making
    replays_waiting: Annotated[int, Field(ge=0, le=10_000)] = 8  # replays waiting to be built, in all
    replay_threads: Annotated[int, Field(ge=1, le=16)] = 1  # threads that build replays
    replays_per_minute: Annotated[float, Field(gt=0, le=60_000)] = 30.0  # replay requests of one address ...
    replay_burst: Annotated[int, Field(ge=1, le=10_000)] = 20  # ... after a burst of this many
    replays_per_second: Annotated[float, Field(gt=0, le=10_000)] = 10.0  # replay requests in all ...
    replay_total_burst: Annotated[int, Field(ge=1, le=100_000)] = 20  # ... after a burst of this many

    def replay_limits(self) -> ReplayLimits:
        """The replay settings."""
        return ReplayLimits(
            cache_bytes=self.replay_cache_bytes,
            per_client=self.replays_per_client,
            waiting=self.replays_waiting,
            threads=self.replay_threads,
            per_client_minute=self.replays_per_minute,
            client_burst=self.replay_burst,
            total_per_second=self.replays_per_second,
            total_burst=self.replay_total_burst,
        )

    recent_per_browser: Annotated[int, Field(ge=1, le=1000)] = 20  # recent tables kept per browser key

    # --- undo (issue 24, item 1: undo.py) --------------------------------------------------------------
    undo_per_turn: Annotated[int, Field(ge=1, le=1000)] = 20  # undos of one seat in one turn
    undo_per_second: Annotated[float, Field(gt=0, le=100)] = 1.0  # undos per seat, after ...
    undo_burst: Annotated[float, Field(ge=1, le=1000)] = 30.0  # ... a burst of this many
    undos_per_game_length: Annotated[float, Field(ge=0, le=10)] = (
        1.0  # undos per table, as a share of its game's longest length (max_game_length)
    )

    def undo_limits(self) -> UndoLimits:
        """The undo settings, for the lobby."""
        return UndoLimits(
            per_turn=self.undo_per_turn,
            per_second=self.undo_per_second,
            burst=self.undo_burst,
            per_game_length=self.undos_per_game_length,
        )

    def chat_limits(self) -> ChatLimits:
        """The chat settings, for the chat rooms."""
        return ChatLimits(
            max_chars=self.chat_max_chars,
            per_second=self.chat_per_second,
            burst=self.chat_burst,
            client_per_second=self.chat_client_per_second,
            client_burst=self.chat_client_burst,
            history=self.chat_history,
            memory_bytes=self.chat_memory_bytes,
        )


def bot_limits(settings: Settings) -> BotLimits:
    """How the bot workers are shared (``BotLimits``), from the settings."""
    return BotLimits(
        time_cap=settings.bot_time_cap,
        cheap_seconds=settings.bot_cheap_seconds,
        inline_seconds=settings.bot_inline_seconds,
        fast_workers=settings.bot_fast_workers,
        per_client=settings.bot_searches_per_client,
        search_round=settings.bot_search_round or None,
        min_slice=settings.bot_min_slice,
        last_slice=settings.bot_last_worker_slice or None,
        search_nice=settings.bot_search_nice,
    )


def _error(exc: MoveError, request: Request) -> JSONResponse:
    """The refusal as a short JSON error, in the requester's language (``?lang=``, else Accept-Language)."""
    headers = {"Retry-After": exc.retry_after_header} if isinstance(exc, TooMany) else None
    lang = reader_language(request.query_params.get("lang"), request)
    return JSONResponse({"error": exc.body(lang)}, status_code=exc.status, headers=headers)


def _client(request: Request) -> str | None:
    """Who is asking, for the per-client limits: the peer's address (or the one a trusted proxy names)."""
    return request.client.host if request.client else None


def _bearer(authorization: str | None) -> str | None:
    if authorization is None:
        return None
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise MoveError("bad_token", L_("the Authorization header must be 'Bearer <seat token>'"), 401)
    return token.strip()


def _english_labels(game: GameEntry, specs: list[str]) -> dict[str, str]:
    """The bots' labels in English, whatever reader is served: the page translates them (``botWords``)."""
    with i18n.using("en"):
        return {spec: bot_label(game, spec) for spec in specs}


def game_info(game: GameEntry) -> dict[str, Any]:
    """A game for the lobby: its entry's facts and option schema, the bots this server has for it (the
    entry's suggestions, weakest first by measured strength, with the name people see for each; then every
    bot name), where its board module and icon are served (``/games/<name>/…``, from the folder the entry
    names), and its rules help module if its web folder has one (``help.js``: the "How to play" panel and the
    terms of its prompts)."""
    names = bot_names(game.name)
    suggested = lobby_bots(game, set(names))
    web = game.web_dir()
    return {
        **game.info(),
        "bots": suggested,
        "bot_labels": _english_labels(game, suggested),
        # The bot a new seat of the lobby's form starts with: the game's default opponent if suggested.
        "default_bot": game.default_bot if game.default_bot in suggested else None,
        "bot_names": names,
        "board": f"/games/{game.name}/board.js" if game.web else None,
        "icon": f"/games/{game.name}/icon.svg" if game.web else None,
        "help": f"/games/{game.name}/help.js" if web is not None and (web / "help.js").is_file() else None,
    }


def create_app(settings: Settings | None = None) -> FastAPI:
    """The web table, storing in ``settings.db`` or SQLite under ``settings.data_dir``."""
    settings = settings or Settings()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        _one_line_for_bad_utf8()
        store = settings.store or Store(database_url(settings.db, settings.data_dir))
        store.claim(settings.data_dir, settings.claim_wait)
        bots = BotRunner(settings.bot_workers, processes=settings.bot_processes, limits=bot_limits(settings))
        limits = TableLimits(
            per_minute=settings.create_per_minute,
            burst=settings.create_burst,
            per_client=settings.open_tables_per_client,
            total=settings.open_tables_total,
        )
        lobby = Lobby(
            store,
            bots,
            away_after=settings.away_after,
            tick=settings.tick,
            limits=limits,
            finished_cache=settings.finished_cache,
            options_max_bytes=settings.options_max_bytes,
            max_bot_ms=settings.bot_max_ms,
            max_bot_iterations=settings.bot_max_iterations,
            conn_limits=settings.conn_limits(),
            undo_limits=settings.undo_limits(),
            connects=settings.connects(),
            unjoined_expiry=settings.unjoined_expiry,
            unjoined_total=settings.unjoined_tables_total,
            seeds=seeds_for_tests(os.environ),
        )
        await asyncio.to_thread(lobby.load)
        # The loaded tables live as long as the server: keep them out of the collector's scans, and collect
        # young objects less often (each move allocates thousands of small dicts), so a full collection
        # does not stall every table for tens of milliseconds.
        gc.collect()
        gc.freeze()
        gc.set_threshold(50_000, 20, 100)
        await lobby.start()
        app.state.lobby = lobby
        app.state.chat = ChatRooms(store, lobby.writer, settings.chat_limits())
        app.state.rematches = Rematches(settings.rematch_offers)
        app.state.replays = Replays(settings.replay_limits())
        try:
            yield
        finally:
            app.state.replays.close()
            await lobby.stop()
            bots.close()
            store.close()

    app = FastAPI(title="Floe", lifespan=lifespan, docs_url="/api/docs", openapi_url="/api/openapi.json")
    app.state.settings = settings
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes)

    def lobby_of(request: Request | WebSocket) -> Lobby:
        lobby: Lobby = request.app.state.lobby
        return lobby

    @app.exception_handler(MoveError)
    async def move_error(request: Request, exc: MoveError) -> JSONResponse:
        answer = _error(exc, request)
        _let_go(exc)
        return answer

    @app.exception_handler(SQLAlchemyError)
    async def storage_error(request: Request, exc: SQLAlchemyError) -> JSONResponse:
        log.error("storage error: %s", exc)
        return _error(MoveError("storage", L_("the table could not be saved; try again"), 503), request)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        answer = _error(MoveError("malformed", error_line(first, "body", skip=("body",)), 400), request)
        _let_go(exc)
        return answer

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        codes = {400: "malformed", 404: "not_found", 405: "method_not_allowed", 413: "too_large"}
        code = codes.get(exc.status_code, "http_error")
        answer = _error(MoveError(code, str(exc.detail), exc.status_code), request)
        _let_go(exc)
        return answer

    # --- pages ---------------------------------------------------------------------------------------
    @app.get("/", include_in_schema=False)
    async def lobby_page() -> FileResponse:
        return FileResponse(WEB / "index.html")

    @app.get("/table/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return FileResponse(WEB / "table.html")

    @app.get("/replay/{table_id}", include_in_schema=False)
    async def replay_page(table_id: str) -> FileResponse:
        return FileResponse(WEB / "replay.html")

    if WEB.is_dir():
        app.mount("/static", StaticFiles(directory=WEB), name="static")

    @app.get("/games/{game}/{path:path}", include_in_schema=False)
    async def game_files(game: str, path: str) -> FileResponse:
        # A game's board module and its files, from the folder its entry names (gamefiles.py).
        target, media = game_file(game, path)
        headers = {"Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff"}
        return FileResponse(target, media_type=media, headers=headers)

    # --- API -----------------------------------------------------------------------------------------
    @app.get("/api/i18n")
    async def languages() -> list[dict[str, str]]:
        return languages_json()

    @app.get("/api/i18n/{lang}")
    async def messages(lang: str, domain: str = "floe") -> JSONResponse:
        # The catalogs change only with the code: the browser may keep them for a while.
        return JSONResponse(catalog_json(lang, domain), headers={"Cache-Control": "max-age=300"})

    @app.get("/api/games")
    async def games() -> list[dict[str, Any]]:
        return [game_info(e) for e in entries()]

    async def remember(request: Request, key: str | None, table_id: str, seat: int) -> None:
        """The browser ``key`` (if given) took ``seat`` at ``table_id``: one of its recent tables."""
        if key is not None:
            keep = settings.recent_per_browser
            await lobby_of(request).writer.write(lambda db: note_recent(db, key, table_id, seat, keep))

    @app.post("/api/tables", status_code=201)
    async def create_table(body: CreateTable, request: Request) -> dict[str, Any]:
        table, tokens, notices = await lobby_of(request).create(body, _client(request))
        if tokens:
            await remember(request, body.key, table.id, tokens[0][0])
        return {
            "table": table.summary(),
            "seats": [{"seat": k, "token": t, "link": f"/table/{table.id}#seat={t}"} for k, t in tokens],
            "notices": notices,
        }

    @app.get("/api/tables")
    async def list_tables(request: Request, status: str | None = None) -> list[dict[str, Any]]:
        return await lobby_of(request).public_tables(status, 200)

    @app.get("/api/tables/{table_id}")
    async def get_table(table_id: str, request: Request) -> dict[str, Any]:
        return (await lobby_of(request).fetch(table_id)).summary()

    @app.post("/api/tables/{table_id}/join")
    async def join(table_id: str, body: JoinTable, request: Request) -> dict[str, Any]:
        await lobby_of(request).fetch(table_id)  # a finished table answers "no free seat", not "unknown"
        seat, token = await lobby_of(request).join(table_id, body)
        await remember(request, body.key, table_id, seat)
        return {"seat": seat, "token": token, "link": f"/table/{table_id}#seat={token}"}

    def seat_for(table: Table, authorization: str | None) -> int | None:
        token = _bearer(authorization)
        return None if token is None else table.seat_of(token)

    def acting_seat(table: Table, authorization: str | None, refusal: i18n.Msg) -> int:
        """The seat whose token came with a request that acts for it (``refusal``: what a request without
        one is told)."""
        seat = seat_for(table, authorization)
        if seat is None:
            raise MoveError("bad_token", refusal, 401)
        return seat

    @app.get("/api/tables/{table_id}/state")
    async def state(
        table_id: str, request: Request, lang: str | None = None, authorization: str | None = Header(None)
    ) -> dict[str, Any]:
        lobby = lobby_of(request)
        table = await lobby.fetch(table_id)
        seat, reader = seat_for(table, authorization), reader_language(lang, request)
        await lobby.log_ready(table, reader)
        return table.state_message(seat, 0, reader)

    @app.post("/api/tables/{table_id}/moves")
    async def move(
        table_id: str, body: Move, request: Request, authorization: str | None = Header(None)
    ) -> dict[str, Any]:
        lobby = lobby_of(request)
        table = await lobby.fetch(table_id)
        seat = acting_seat(
            table, authorization, L_("a move needs the seat's token (Authorization: Bearer ...)")
        )
        return {"version": await lobby.move(table, seat, body.action, body.version)}

    @app.post("/api/tables/{table_id}/undo")
    async def take_back(
        table_id: str, body: Undo, request: Request, authorization: str | None = Header(None)
    ) -> dict[str, Any]:
        lobby = lobby_of(request)
        table = await lobby.fetch(table_id)
        seat = acting_seat(
            table, authorization, L_("an undo needs the seat's token (Authorization: Bearer ...)")
        )
        return {"version": await undo(lobby, table, seat, body.version)}

    @app.post("/api/recent")
    async def recent(body: RecentTables, request: Request) -> list[dict[str, Any]]:
        """The tables of a browser key, newest first, each with the key's seat (no token)."""
        lobby = lobby_of(request)
        rows = await asyncio.to_thread(recent_rows, lobby.store, body.key, settings.recent_per_browser)
        known = {}
        for table_id, _ in rows:
            with contextlib.suppress(MoveError):
                known[table_id] = lobby.get(table_id).summary()
        missing = [table_id for table_id, _ in rows if table_id not in known]
        known |= await asyncio.to_thread(stored_summaries, lobby.store, missing)
        return [{**known[t], "my_seat": seat} for t, seat in rows if t in known]

    @app.get("/api/tables/{table_id}/replay")
    async def replay(
        table_id: str,
        request: Request,
        reveal: bool = False,
        lang: str | None = None,
        authorization: str | None = Header(None),
    ) -> Response:
        table = await lobby_of(request).fetch(table_id)
        seat = seat_for(table, authorization)
        if reveal and table.status != "finished":
            raise MoveError("not_finished", L_("a game is revealed only once it is over"), 409)
        reader = reader_language(lang, request)
        events = list(table.events)  # the log as it is now: an open table plays on while this is built

        def build() -> bytes:
            with i18n.using(reader):
                return to_json(table.replay_frames(seat, reveal, events))

        replays: Replays = request.app.state.replays
        replays.admit(_client(request))
        key = (table.id, len(events), seat, reveal, reader)
        hit = replays.cached(key) is not None
        frames = await replays.frames(key, _client(request), build)
        chat = [line.message() for line in await request.app.state.chat.history(table.id)]
        # The frames go out as they were built (the same bytes for every reader of them), around them the
        # table's summary and chat as they are now.
        body = b"".join(
            [
                b'{"table":',
                to_json(table.summary()),
                b',"seat":',
                to_json(seat),
                b',"frames":',
                frames,
                b',"chat":',
                to_json(chat),
                b"}",
            ]
        )
        headers = {"X-Replay-Cache": "hit" if hit else "miss"}
        return Response(body, media_type="application/json", headers=headers)

    @app.get("/api/tables/{table_id}/record")
    async def record(table_id: str, request: Request) -> dict[str, Any]:
        table = await lobby_of(request).fetch(table_id)
        if table.status != "finished":
            raise MoveError("not_finished", L_("the record is published once the game is over"), 409)
        # A finished table's log no longer changes: its notation is written off the event loop.
        record: dict[str, Any] = await asyncio.to_thread(lambda: table.record().to_json())
        return record

    # --- WebSocket -----------------------------------------------------------------------------------
    sockets: Counter[str] = Counter()  # open WebSockets by address ("" for all): ws_per_client, ws_total

    @app.websocket("/ws/tables/{table_id}")
    async def socket(ws: WebSocket, table_id: str) -> None:
        address = ws.client.host if ws.client else "?"
        if sockets[""] >= settings.ws_total or sockets[address] >= settings.ws_per_client:
            # Refused before it is accepted: the handshake is answered 403 and nothing is kept.
            await ws.close(code=4429)
            return
        sockets[""] += 1
        sockets[address] += 1
        try:
            await serve_socket(ws, table_id)
        finally:
            sockets[""] -= 1
            sockets[address] -= 1
            if not sockets[address]:
                del sockets[address]

    async def serve_socket(ws: WebSocket, table_id: str) -> None:
        await ws.accept()
        lobby = lobby_of(ws)
        lang = reader_language(None, ws)  # until the hello says
        chat: ChatRooms = ws.app.state.chat
        client = ws.client.host if ws.client else None
        try:
            table = await lobby.fetch(table_id)
            hello = await _first_hello(ws)
            lang = reader_language(hello.lang, ws)
            lobby.connects.admit(None if hello.token is None else token_hash(hello.token), client)
            # Everything the hello reads from the store is read before the connection is registered: a
            # failing database refuses the hello and leaves no connection behind (issue 24, item 6).
            history = await chat.history(table.id)
            await lobby.log_ready(table, lang)
            seat = await lobby.hello(table, hello.token)
            conn = lobby.open_conn(table, ws, seat, lang, client)
            lobby.connect(table, conn)
        except MoveError as exc:
            await _send_error(ws, exc, None, lang)
            await ws.close(code=4000 + min(exc.status, 999) % 1000)
            return
        except SQLAlchemyError as exc:
            log.error("storage error: %s", exc)
            refused = MoveError("storage", L_("the table could not be read; try again"), 503)
            await _send_error(ws, refused, None, lang)
            await ws.close(code=4503)
            return
        except WebSocketDisconnect:
            return
        # From here on the connection is registered: every way out goes through the ``finally`` below.
        # Reading and writing run side by side: the connection ends when the client goes (reading ends) or
        # when the server gives up on a client that does not read (writing ends, ``conn.dropped``).
        pump = conn.start()
        serve: asyncio.Task[None] | None = None
        try:
            if history:
                conn.send({"type": "chat", "lines": [line.message() for line in history]})
            offer = ws.app.state.rematches.offer(table.id)
            if offer is not None:
                conn.send(offer.message(conn.seat is not None))
            serve = asyncio.create_task(_serve(ws, lobby, table, conn))
            await asyncio.wait({pump, serve}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            lobby.disconnect(table, conn)
            tasks = [pump] if serve is None else [serve, pump]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        if conn.dropped is not None:
            log.info("dropped a connection of table %s: %s", table.id, conn.dropped)
            await _close(ws, DROPPED, "not reading; reconnect", CLOSE_GRACE)
        elif serve.cancelled():  # the writing ended first: the server is stopping (or the client broke)
            await _close(ws, 1001, "the server is stopping", lobby.conn_limits.send_timeout)

    return app


class _BadUtf8(logging.Filter):
    """uvicorn logs a traceback for every WebSocket text frame that is not UTF-8 (and closes the connection
    with 1007, as it should): a client's mistake, worth one line, not a server error with a traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.msg == "Invalid UTF-8 sequence received from client.":
            record.msg = "a WebSocket client sent a text frame that is not UTF-8: closed it (1007)"
            record.exc_info, record.exc_text = None, None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def _one_line_for_bad_utf8() -> None:
    """Install ``_BadUtf8`` on uvicorn's logger (once; after uvicorn has set its logging up)."""
    logger = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, _BadUtf8) for f in logger.filters):
        logger.addFilter(_BadUtf8())


def _let_go(exc: BaseException) -> None:
    """Drop what a refused request's exception holds: its traceback, whose frames hold the request's body
    (and the exception itself: a reference cycle), and the exceptions it came from. Left to the cyclic
    collector, which this server runs seldom (``gc.set_threshold`` in ``create_app``), the bodies of refused
    requests piled up: 400 malformed 250 KB bodies left 200 MB resident (issue 24, item 9)."""
    exc.__traceback__ = None
    exc.__context__ = exc.__cause__ = None
    if isinstance(exc, RequestValidationError):
        exc.body = None


def _acknowledge(conn: Conn, message_id: Any) -> Callable[[int], None]:
    def ack(version: int) -> None:
        conn.send({"type": "ack", "id": message_id, "version": version})

    return ack


async def _close(ws: WebSocket, code: int, reason: str, timeout: float) -> None:
    """Close with ``code``. The close frame waits behind what the client has not read yet; a client that
    still reads nothing within ``timeout`` seconds gets no close frame (the connection is ended anyway)."""
    with contextlib.suppress(Exception):
        async with asyncio.timeout(timeout):
            await ws.close(code=code, reason=reason)


async def _send_error(ws: WebSocket, exc: MoveError, message_id: Any, lang: str) -> None:
    await ws.send_text(json.dumps({"type": "error", "id": message_id, **exc.body(lang)}))


async def _receive(ws: WebSocket) -> Any:
    """The next client message, parsed; ``MoveError`` for anything that is not a valid one."""
    event = await ws.receive()
    if event["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(event.get("code", 1000))
    text = event.get("text")
    if text is None:
        raise MoveError("malformed", L_("messages must be JSON text"), 400)
    settings: Settings | None = getattr(ws.app.state, "settings", None)
    limit = settings.max_message_bytes if settings else MAX_MESSAGE_BYTES
    if len(text.encode()) > limit:
        raise MoveError(
            "malformed",
            NL_("messages are at most %(n)s byte", "messages are at most %(n)s bytes", limit),
            400,
        )
    try:
        return client_message.validate_json(text)
    except ValidationError as exc:
        raise MoveError("malformed", short_error(exc), 400) from None


async def _first_hello(ws: WebSocket) -> Hello:
    message = await _receive(ws)
    if not isinstance(message, Hello):
        raise MoveError("malformed", L_("the first message must be hello"), 400)
    return message


async def _rematch(ws: WebSocket, lobby: Lobby, table: Table, conn: Conn, message: Rematch) -> None:
    """Ask for (or accept) the rematch of a finished table: the seat's new link goes to this connection
    only; a new offer is told to every connection of the table."""
    if conn.seat is None:
        raise MoveError("bad_token", L_("spectators have no seat to play again with"), 403)
    rematches: Rematches = ws.app.state.rematches
    offer, new = await rematches.ask(lobby, table, conn.seat, ws.client.host if ws.client else None)
    if new:
        for other in lobby.conns.get(table.id, ()):
            other.send(offer.message(other.seat is not None))
    token = offer.tokens[conn.seat]
    if message.key is not None:
        keep = ws.app.state.settings.recent_per_browser
        key = message.key
        seat = conn.seat
        await lobby.writer.write(lambda db: note_recent(db, key, offer.table_id, seat, keep))
    link = f"/table/{offer.table_id}#seat={token}"
    conn.send({"type": "rematch_seat", "table": offer.table_id, "seat": conn.seat, "link": link})


async def _serve(ws: WebSocket, lobby: Lobby, table: Table, conn: Conn) -> None:
    """Answer one connection's messages until it closes; a bad message gets an error and changes nothing."""
    while True:
        message_id = None
        try:
            try:
                message = await _receive(ws)
            except WebSocketDisconnect:
                return
            if isinstance(message, WsMove):
                message_id = message.id
                if conn.seat is None:
                    raise MoveError("bad_token", L_("spectators cannot move"), 403)
                acknowledge = _acknowledge(conn, message_id)
                await lobby.move(table, conn.seat, message.action, message.version, ack=acknowledge)
            elif isinstance(message, WsUndo):
                message_id = message.id
                if conn.seat is None:
                    raise MoveError("bad_token", L_("spectators cannot undo"), 403)
                await undo(lobby, table, conn.seat, message.version, ack=_acknowledge(conn, message_id))
            elif isinstance(message, Chat):
                chat: ChatRooms = ws.app.state.chat
                await chat.say(table, conn, message.text, message.name, lobby.conns.get(table.id, ()))
            elif isinstance(message, Rematch):
                await _rematch(ws, lobby, table, conn, message)
            elif isinstance(message, Leave | Back):
                if conn.seat is None:
                    raise MoveError("bad_token", L_("spectators have no seat"), 403)
                if not conn.toggles.allow():
                    # Each leave/back tells every connection of the table: a few a second are plenty.
                    rate = conn.limits.toggles_per_second
                    raise MoveError(
                        "too_fast",
                        L_("leave/back at most %(rate)s a second; wait a moment", rate=f"{rate:g}"),
                        429,
                    )
                await lobby.set_away(table, conn.seat, isinstance(message, Leave))
            elif isinstance(message, Ping):
                conn.send({"type": "pong"})
            else:
                raise MoveError("malformed", L_("hello was already said"), 400)
        except MoveError as exc:
            conn.send({"type": "error", "id": message_id, **exc.body(conn.lang)})
        except SQLAlchemyError as exc:
            log.error("storage error: %s", exc)
            refused = MoveError("storage", L_("the table could not be saved; try again"), 503)
            conn.send({"type": "error", "id": message_id, **refused.body(conn.lang)})

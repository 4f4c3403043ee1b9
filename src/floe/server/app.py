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
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Header, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException as StarletteHTTPException

from floe.bots.base import bot_names, parse_bot_spec
from floe.core.entry import GameEntry
from floe.core.registry import entries
from floe.server.botrunner import BotRunner
from floe.server.gamefiles import game_file
from floe.server.manager import Conn, Lobby
from floe.server.protocol import (
    MAX_MESSAGE_BYTES,
    Back,
    CreateTable,
    Hello,
    JoinTable,
    Leave,
    Move,
    Ping,
    WsMove,
    client_message,
    error_line,
    short_error,
)
from floe.server.store import Store, database_url
from floe.server.tables import MoveError, Table

WEB = Path(str(files("floe") / "web"))
log = logging.getLogger("floe.server")


@dataclass
class Settings:
    """How the server runs (``floe serve`` options)."""

    data_dir: Path = Path("floe-data")
    db: str | None = None
    bot_workers: int = 2
    bot_processes: bool = True
    away_after: float = 60.0
    tick: float = 0.5
    store: Store | None = None  # an already opened (and claimed) store; else opened at start-up


def _error(exc: MoveError) -> JSONResponse:
    return JSONResponse({"error": {"code": exc.code, "message": exc.message}}, status_code=exc.status)


def _bearer(authorization: str | None) -> str | None:
    if authorization is None:
        return None
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise MoveError("bad_token", "the Authorization header must be 'Bearer <seat token>'", 401)
    return token.strip()


def game_info(game: GameEntry) -> dict[str, Any]:
    """A game for the lobby: its entry's facts and option schema, the bots this server has for it (the
    entry's suggestions, weakest first; then every bot name), and where its board module and icon are
    served (``/games/<name>/…``, from the folder the entry names)."""
    names = bot_names(game.name)
    return {
        **game.info(),
        "bots": [spec for spec in game.lobby_bots if parse_bot_spec(spec)[0] in names],
        "bot_names": names,
        "board": f"/games/{game.name}/board.js" if game.web else None,
        "icon": f"/games/{game.name}/icon.svg" if game.web else None,
    }


def create_app(settings: Settings | None = None) -> FastAPI:
    """The web table, storing in ``settings.db`` or SQLite under ``settings.data_dir``."""
    settings = settings or Settings()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = settings.store or Store(database_url(settings.db, settings.data_dir))
        store.claim(settings.data_dir)
        bots = BotRunner(settings.bot_workers, processes=settings.bot_processes)
        lobby = Lobby(store, bots, away_after=settings.away_after, tick=settings.tick)
        await asyncio.to_thread(lobby.load)
        # The loaded tables live as long as the server: keep them out of the collector's scans, and collect
        # young objects less often (each move allocates thousands of small dicts), so a full collection
        # does not stall every table for tens of milliseconds.
        gc.collect()
        gc.freeze()
        gc.set_threshold(50_000, 20, 100)
        await lobby.start()
        app.state.lobby = lobby
        try:
            yield
        finally:
            await lobby.stop()
            bots.close()
            store.close()

    app = FastAPI(title="Floe", lifespan=lifespan, docs_url="/api/docs", openapi_url="/api/openapi.json")

    def lobby_of(request: Request | WebSocket) -> Lobby:
        lobby: Lobby = request.app.state.lobby
        return lobby

    @app.exception_handler(MoveError)
    async def move_error(_: Request, exc: MoveError) -> JSONResponse:
        return _error(exc)

    @app.exception_handler(SQLAlchemyError)
    async def storage_error(_: Request, exc: SQLAlchemyError) -> JSONResponse:
        log.error("storage error: %s", exc)
        return _error(MoveError("storage", "the table could not be saved; try again", 503))

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        return _error(MoveError("malformed", error_line(first, "body", skip=("body",)), 400))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        codes = {404: "not_found", 405: "method_not_allowed"}
        return _error(MoveError(codes.get(exc.status_code, "http_error"), str(exc.detail), exc.status_code))

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
    @app.get("/api/games")
    async def games() -> list[dict[str, Any]]:
        return [game_info(e) for e in entries()]

    @app.post("/api/tables", status_code=201)
    async def create_table(body: CreateTable, request: Request) -> dict[str, Any]:
        table, tokens = await lobby_of(request).create(body)
        return {
            "table": table.summary(),
            "seats": [{"seat": k, "token": t, "link": f"/table/{table.id}#seat={t}"} for k, t in tokens],
        }

    @app.get("/api/tables")
    async def list_tables(request: Request, status: str | None = None) -> list[dict[str, Any]]:
        tables = [t for t in lobby_of(request).tables.values() if t.row.public]
        if status is not None:
            tables = [t for t in tables if t.status == status]
        tables.sort(key=lambda t: t.row.created, reverse=True)
        return [t.summary() for t in tables[:200]]

    @app.get("/api/tables/{table_id}")
    async def get_table(table_id: str, request: Request) -> dict[str, Any]:
        return lobby_of(request).get(table_id).summary()

    @app.post("/api/tables/{table_id}/join")
    async def join(table_id: str, body: JoinTable, request: Request) -> dict[str, Any]:
        seat, token = await lobby_of(request).join(table_id, body.name)
        return {"seat": seat, "token": token, "link": f"/table/{table_id}#seat={token}"}

    def seat_for(table: Table, authorization: str | None) -> int | None:
        token = _bearer(authorization)
        return None if token is None else table.seat_of(token)

    @app.get("/api/tables/{table_id}/state")
    async def state(
        table_id: str, request: Request, authorization: str | None = Header(None)
    ) -> dict[str, Any]:
        table = lobby_of(request).get(table_id)
        return table.state_message(seat_for(table, authorization), 0)

    @app.post("/api/tables/{table_id}/moves")
    async def move(
        table_id: str, body: Move, request: Request, authorization: str | None = Header(None)
    ) -> dict[str, Any]:
        lobby = lobby_of(request)
        table = lobby.get(table_id)
        seat = seat_for(table, authorization)
        if seat is None:
            raise MoveError("bad_token", "a move needs the seat's token (Authorization: Bearer ...)", 401)
        return {"version": await lobby.move(table, seat, body.action, body.version)}

    @app.get("/api/tables/{table_id}/replay")
    async def replay(
        table_id: str, request: Request, reveal: bool = False, authorization: str | None = Header(None)
    ) -> dict[str, Any]:
        table = lobby_of(request).get(table_id)
        seat = seat_for(table, authorization)
        if reveal and table.status != "finished":
            raise MoveError("not_finished", "a game is revealed only once it is over", 409)
        frames = await asyncio.to_thread(table.replay_frames, seat, reveal)
        return {"table": table.summary(), "seat": seat, "frames": frames}

    @app.get("/api/tables/{table_id}/record")
    async def record(table_id: str, request: Request) -> dict[str, Any]:
        table = lobby_of(request).get(table_id)
        if table.status != "finished":
            raise MoveError("not_finished", "the record is published once the game is over", 409)
        return table.record().to_json()

    # --- WebSocket -----------------------------------------------------------------------------------
    @app.websocket("/ws/tables/{table_id}")
    async def socket(ws: WebSocket, table_id: str) -> None:
        await ws.accept()
        lobby = lobby_of(ws)
        try:
            table = lobby.get(table_id)
            hello = await _first_hello(ws)
            seat = await lobby.hello(table, hello.token)
        except MoveError as exc:
            await _send_error(ws, exc, None)
            await ws.close(code=4000 + min(exc.status, 999) % 1000)
            return
        except WebSocketDisconnect:
            return
        conn = Conn(ws, seat)
        pump = asyncio.create_task(conn.pump())
        lobby.connect(table, conn)
        try:
            await _serve(ws, lobby, table, conn)
        except WebSocketDisconnect:
            pass
        finally:
            lobby.disconnect(table, conn)
            pump.cancel()

    return app


def _acknowledge(conn: Conn, message_id: Any) -> Callable[[int], None]:
    def ack(version: int) -> None:
        conn.send({"type": "ack", "id": message_id, "version": version})

    return ack


async def _send_error(ws: WebSocket, exc: MoveError, message_id: Any) -> None:
    await ws.send_text(
        json.dumps({"type": "error", "id": message_id, "code": exc.code, "message": exc.message})
    )


async def _receive(ws: WebSocket) -> Any:
    """The next client message, parsed; ``MoveError`` for anything that is not a valid one."""
    event = await ws.receive()
    if event["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(event.get("code", 1000))
    text = event.get("text")
    if text is None:
        raise MoveError("malformed", "messages must be JSON text", 400)
    if len(text.encode()) > MAX_MESSAGE_BYTES:
        raise MoveError("malformed", f"messages are at most {MAX_MESSAGE_BYTES} bytes", 400)
    try:
        return client_message.validate_json(text)
    except ValidationError as exc:
        raise MoveError("malformed", short_error(exc), 400) from None


async def _first_hello(ws: WebSocket) -> Hello:
    message = await _receive(ws)
    if not isinstance(message, Hello):
        raise MoveError("malformed", "the first message must be hello", 400)
    return message


async def _serve(ws: WebSocket, lobby: Lobby, table: Table, conn: Conn) -> None:
    """Answer one connection's messages until it closes; a bad message gets an error and changes nothing."""
    while True:
        message_id = None
        try:
            message = await _receive(ws)
            if isinstance(message, WsMove):
                message_id = message.id
                if conn.seat is None:
                    raise MoveError("bad_token", "spectators cannot move", 403)
                acknowledge = _acknowledge(conn, message_id)
                await lobby.move(table, conn.seat, message.action, message.version, ack=acknowledge)
            elif isinstance(message, Leave | Back):
                if conn.seat is None:
                    raise MoveError("bad_token", "spectators have no seat", 403)
                await lobby.set_away(table, conn.seat, isinstance(message, Leave))
            elif isinstance(message, Ping):
                conn.send({"type": "pong"})
            else:
                raise MoveError("malformed", "hello was already said", 400)
        except MoveError as exc:
            conn.send({"type": "error", "id": message_id, "code": exc.code, "message": exc.message})
        except SQLAlchemyError as exc:
            log.error("storage error: %s", exc)
            message = "the table could not be saved; try again"
            conn.send({"type": "error", "id": message_id, "code": "storage", "message": message})

"""The WebSocket session of one connection (``/ws/tables/{id}``): its hello, then its messages (moves,
undos, chat, rematch, leave/back, ping) until it closes. docs/server.md describes the protocol."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import Counter
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import ValidationError
from sqlalchemy.exc import SQLAlchemyError

from floe.core.i18n import L_, NL_
from floe.server.chat import ChatRooms
from floe.server.conns import CLOSE_GRACE, DROPPED, Conn
from floe.server.languages import reader_language
from floe.server.manager import Lobby
from floe.server.protocol import (
    MAX_MESSAGE_BYTES,
    Back,
    Chat,
    Hello,
    Leave,
    Ping,
    Rematch,
    WsMove,
    WsUndo,
    client_message,
    short_error,
)
from floe.server.refusal import Refusal
from floe.server.rematch import Rematches
from floe.server.routes.common import client_of, lobby_of, remember, settings_of, undos_of
from floe.server.settings import Settings
from floe.server.tables import Table, token_hash

log = logging.getLogger("floe.server")

router = APIRouter()


@router.websocket("/ws/tables/{table_id}")
async def socket(ws: WebSocket, table_id: str) -> None:
    """One WebSocket of a table, within the per-address and total bounds on open sockets."""
    settings = settings_of(ws)
    sockets: Counter[str] = ws.app.state.sockets  # open WebSockets by address ("" for all)
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
    """The session: the hello (a seat's token or a spectator), then the connection registered with its table
    until either side ends it."""
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
    except Refusal as exc:
        await _send_error(ws, exc, None, lang)
        await ws.close(code=4000 + min(exc.status, 999) % 1000)
        return
    except SQLAlchemyError as exc:
        log.error("storage error: %s", exc)
        refused = Refusal("storage", L_("the table could not be read; try again"), 503)
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


async def _send_error(ws: WebSocket, exc: Refusal, message_id: Any, lang: str) -> None:
    await ws.send_text(json.dumps({"type": "error", "id": message_id, **exc.body(lang)}))


async def _receive(ws: WebSocket) -> Any:
    """The next client message, parsed; ``Refusal`` for anything that is not a valid one."""
    event = await ws.receive()
    if event["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(event.get("code", 1000))
    text = event.get("text")
    if text is None:
        raise Refusal("malformed", L_("messages must be JSON text"), 400)
    settings: Settings | None = getattr(ws.app.state, "settings", None)
    limit = settings.max_message_bytes if settings else MAX_MESSAGE_BYTES
    if len(text.encode()) > limit:
        raise Refusal(
            "malformed",
            NL_("messages are at most %(n)s byte", "messages are at most %(n)s bytes", limit),
            400,
        )
    try:
        return client_message.validate_json(text)
    except ValidationError as exc:
        raise Refusal("malformed", short_error(exc), 400) from None


async def _first_hello(ws: WebSocket) -> Hello:
    message = await _receive(ws)
    if not isinstance(message, Hello):
        raise Refusal("malformed", L_("the first message must be hello"), 400)
    return message


async def _rematch(ws: WebSocket, lobby: Lobby, table: Table, conn: Conn, message: Rematch) -> None:
    """Ask for (or accept) the rematch of a finished table: the seat's new link goes to this connection
    only; a new offer is told to every connection of the table."""
    if conn.seat is None:
        raise Refusal("bad_token", L_("spectators have no seat to play again with"), 403)
    rematches: Rematches = ws.app.state.rematches
    offer, new = await rematches.ask(table, conn.seat, client_of(ws))
    if new:
        for other in lobby.conns.get(table.id, ()):
            other.send(offer.message(other.seat is not None))
    token = offer.tokens[conn.seat]
    await remember(ws, message.key, offer.table_id, conn.seat)
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
                    raise Refusal("bad_token", L_("spectators cannot move"), 403)
                acknowledge = _acknowledge(conn, message_id)
                await lobby.move(table, conn.seat, message.action, message.version, ack=acknowledge)
            elif isinstance(message, WsUndo):
                message_id = message.id
                if conn.seat is None:
                    raise Refusal("bad_token", L_("spectators cannot undo"), 403)
                await undos_of(ws).undo(table, conn.seat, message.version, ack=_acknowledge(conn, message_id))
            elif isinstance(message, Chat):
                chat: ChatRooms = ws.app.state.chat
                await chat.say(table, conn, message.text, message.name, lobby.conns.get(table.id, ()))
            elif isinstance(message, Rematch):
                await _rematch(ws, lobby, table, conn, message)
            elif isinstance(message, Leave | Back):
                if conn.seat is None:
                    raise Refusal("bad_token", L_("spectators have no seat"), 403)
                if not conn.toggles.allow():
                    # Each leave/back tells every connection of the table: a few a second are plenty.
                    rate = conn.limits.toggles_per_second
                    raise Refusal(
                        "too_fast",
                        L_("leave/back at most %(rate)s a second; wait a moment", rate=f"{rate:g}"),
                        429,
                    )
                await lobby.set_away(table, conn.seat, isinstance(message, Leave))
            elif isinstance(message, Ping):
                conn.send({"type": "pong"})
            else:
                raise Refusal("malformed", L_("hello was already said"), 400)
        except Refusal as exc:
            conn.send({"type": "error", "id": message_id, **exc.body(conn.lang)})
        except SQLAlchemyError as exc:
            log.error("storage error: %s", exc)
            refused = Refusal("storage", L_("the table could not be saved; try again"), 503)
            conn.send({"type": "error", "id": message_id, **refused.body(conn.lang)})

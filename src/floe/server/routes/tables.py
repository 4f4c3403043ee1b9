"""The tables over HTTP: create, list, read, join, and play (moves and undos) with a seat's token."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from fastapi import APIRouter, Header, Request

from floe.core.i18n import L_
from floe.server.languages import reader_language
from floe.server.protocol import CreateTable, JoinTable, Move, RecentTables, Undo
from floe.server.recent import recent_rows, stored_summaries
from floe.server.refusal import Refusal
from floe.server.routes.common import (
    acting_seat,
    client_of,
    lobby_of,
    remember,
    seat_for,
    settings_of,
    undos_of,
)

router = APIRouter()


@router.post("/api/tables", status_code=201)
async def create_table(body: CreateTable, request: Request) -> dict[str, Any]:
    table, tokens, notices = await lobby_of(request).create(body, client_of(request))
    if tokens:
        await remember(request, body.key, table.id, tokens[0][0])
    return {
        "table": table.summary(),
        "seats": [{"seat": k, "token": t, "link": f"/table/{table.id}#seat={t}"} for k, t in tokens],
        "notices": notices,
    }


@router.get("/api/tables")
async def list_tables(request: Request, status: str | None = None) -> list[dict[str, Any]]:
    return await lobby_of(request).public_tables(status, 200)


@router.get("/api/tables/{table_id}")
async def get_table(table_id: str, request: Request) -> dict[str, Any]:
    return (await lobby_of(request).fetch(table_id)).summary()


@router.post("/api/tables/{table_id}/join")
async def join(table_id: str, body: JoinTable, request: Request) -> dict[str, Any]:
    await lobby_of(request).fetch(table_id)  # a finished table answers "no free seat", not "unknown"
    seat, token = await lobby_of(request).join(table_id, body)
    await remember(request, body.key, table_id, seat)
    return {"seat": seat, "token": token, "link": f"/table/{table_id}#seat={token}"}


@router.get("/api/tables/{table_id}/state")
async def state(
    table_id: str, request: Request, lang: str | None = None, authorization: str | None = Header(None)
) -> dict[str, Any]:
    lobby = lobby_of(request)
    table = await lobby.fetch(table_id)
    seat, reader = seat_for(table, authorization), reader_language(lang, request)
    await lobby.log_ready(table, reader)
    return table.state_message(seat, 0, reader)


@router.post("/api/tables/{table_id}/moves")
async def move(
    table_id: str, body: Move, request: Request, authorization: str | None = Header(None)
) -> dict[str, Any]:
    lobby = lobby_of(request)
    table = await lobby.fetch(table_id)
    seat = acting_seat(table, authorization, L_("a move needs the seat's token (Authorization: Bearer ...)"))
    return {"version": await lobby.move(table, seat, body.action, body.version)}


@router.post("/api/tables/{table_id}/undo")
async def take_back(
    table_id: str, body: Undo, request: Request, authorization: str | None = Header(None)
) -> dict[str, Any]:
    lobby = lobby_of(request)
    table = await lobby.fetch(table_id)
    seat = acting_seat(table, authorization, L_("an undo needs the seat's token (Authorization: Bearer ...)"))
    return {"version": await undos_of(request).undo(table, seat, body.version)}


@router.post("/api/recent")
async def recent(body: RecentTables, request: Request) -> list[dict[str, Any]]:
    """The tables of a browser key, newest first, each with the key's seat (no token)."""
    lobby = lobby_of(request)
    keep = settings_of(request).recent_per_browser
    rows = await asyncio.to_thread(recent_rows, lobby.store, body.key, keep)
    known = {}
    for table_id, _ in rows:
        with contextlib.suppress(Refusal):
            known[table_id] = lobby.get(table_id).summary()
    missing = [table_id for table_id, _ in rows if table_id not in known]
    known |= await asyncio.to_thread(stored_summaries, lobby.store, missing)
    return [{**known[t], "my_seat": seat} for t, seat in rows if t in known]

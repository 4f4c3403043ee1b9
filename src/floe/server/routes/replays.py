"""A table's replay (frames for one seat or a spectator, revealed once the game is over) and its record."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Header, Request
from fastapi.responses import Response
from pydantic_core import to_json

from floe.core import i18n
from floe.core.i18n import L_
from floe.server.chat import ChatRooms
from floe.server.languages import reader_language
from floe.server.refusal import Refusal
from floe.server.replays import Replays
from floe.server.routes.common import client_of, lobby_of, seat_for

router = APIRouter()


@router.get("/api/tables/{table_id}/replay")
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
        raise Refusal("not_finished", L_("a game is revealed only once it is over"), 409)
    reader = reader_language(lang, request)
    events = list(table.events)  # the log as it is now: an open table plays on while this is built

    def build() -> bytes:
        with i18n.using(reader):
            return to_json(table.replay_frames(seat, reveal, events))

    replays: Replays = request.app.state.replays
    replays.admit(client_of(request))
    key = (table.id, len(events), seat, reveal, reader)
    hit = replays.cached(key) is not None
    frames = await replays.frames(key, client_of(request), build)
    chat: ChatRooms = request.app.state.chat
    lines = [line.message() for line in await chat.history(table.id)]
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
            to_json(lines),
            b"}",
        ]
    )
    headers = {"X-Replay-Cache": "hit" if hit else "miss"}
    return Response(body, media_type="application/json", headers=headers)


@router.get("/api/tables/{table_id}/record")
async def record(table_id: str, request: Request) -> dict[str, Any]:
    table = await lobby_of(request).fetch(table_id)
    if table.status != "finished":
        raise Refusal("not_finished", L_("the record is published once the game is over"), 409)
    # A finished table's log no longer changes: its notation is written off the event loop.
    record: dict[str, Any] = await asyncio.to_thread(lambda: table.record().to_json())
    return record

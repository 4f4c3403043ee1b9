"""What every route needs of a request: the lobby and the services it reaches, who asks, and the seat its
token opens."""

from __future__ import annotations

from fastapi import Request, WebSocket

from floe.core import i18n
from floe.core.i18n import L_
from floe.server.manager import Lobby
from floe.server.recent import note_recent
from floe.server.refusal import Refusal
from floe.server.settings import Settings
from floe.server.tables import Table
from floe.server.undo import Undos


def lobby_of(request: Request | WebSocket) -> Lobby:
    """The lobby of the application serving ``request``."""
    lobby: Lobby = request.app.state.lobby
    return lobby


def undos_of(request: Request | WebSocket) -> Undos:
    """The undo service of the application serving ``request``."""
    undos: Undos = request.app.state.undos
    return undos


def settings_of(request: Request | WebSocket) -> Settings:
    """The settings of the application serving ``request``."""
    settings: Settings = request.app.state.settings
    return settings


def client_of(request: Request | WebSocket) -> str | None:
    """Who is asking, for the per-client limits: the peer's address (or the one a trusted proxy names)."""
    return request.client.host if request.client else None


def bearer(authorization: str | None) -> str | None:
    """The seat token of an ``Authorization: Bearer <token>`` header (None without one); ``Refusal`` (401)
    for a header of another shape."""
    if authorization is None:
        return None
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Refusal("bad_token", L_("the Authorization header must be 'Bearer <seat token>'"), 401)
    return token.strip()


def seat_for(table: Table, authorization: str | None) -> int | None:
    """The seat the request's token opens at ``table``; None without a token (a spectator)."""
    token = bearer(authorization)
    return None if token is None else table.seat_of(token)


def acting_seat(table: Table, authorization: str | None, refusal: i18n.Msg) -> int:
    """The seat whose token came with a request that acts for it (``refusal``: what a request without one is
    told)."""
    seat = seat_for(table, authorization)
    if seat is None:
        raise Refusal("bad_token", refusal, 401)
    return seat


async def remember(request: Request | WebSocket, key: str | None, table_id: str, seat: int) -> None:
    """The browser ``key`` (if given) took ``seat`` at ``table_id``: one of its recent tables."""
    if key is not None:
        keep = settings_of(request).recent_per_browser
        await lobby_of(request).writer.write(lambda db: note_recent(db, key, table_id, seat, keep))

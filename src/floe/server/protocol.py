"""The shapes of what clients send (pydantic): table creation, joining, moves, WebSocket messages.

Anything that does not fit is refused with a short ``malformed`` error before it reaches a table.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, TypeAdapter, ValidationError

from floe.server.names import MAX_TABLE_CHARS

Name = Annotated[str, Field(min_length=1, max_length=40)]
# A random string the lobby keeps in the browser's storage: one seat per table and browser, recent tables.
BrowserKey = Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]{16,64}$")]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SeatRequest(_Strict):
    """One seat of a new table: a person (by name) or a bot (by spec)."""

    kind: Literal["person", "bot"]
    name: Name | None = None
    bot: Annotated[str, Field(min_length=1, max_length=80)] | None = None


class CreateTable(_Strict):
    """``POST /api/tables``."""

    game: Annotated[str, Field(min_length=1, max_length=32)] | None = None  # None: the first game listed
    seats: Annotated[list[SeatRequest], Field(min_length=1, max_length=8)]
    options: dict[str, Any] = Field(default_factory=dict)
    turn_timer: Annotated[float, Field(gt=0, le=24 * 3600)] | None = None
    public: bool = True
    # The table's name, if its creator gives one (then cleaned: names.clean_table_name).
    name: Annotated[str, Field(min_length=1, max_length=MAX_TABLE_CHARS)] | None = None
    key: BrowserKey | None = None  # the creator's browser key: the table joins its recent tables


class RecentTables(_Strict):
    """``POST /api/recent``: the browser's key, whose tables (created, joined, rematched) are listed."""

    key: BrowserKey


class JoinTable(_Strict):
    """``POST /api/tables/{id}/join``: the name to sit under and the browser's key (a random string the lobby
    keeps in the browser's storage), so that one browser gets one seat per table."""

    name: Name = "Guest"
    key: BrowserKey | None = None


class Move(_Strict):
    """``POST /api/tables/{id}/moves``."""

    action: StrictInt
    version: StrictInt


class Hello(_Strict):
    type: Literal["hello"]
    token: Annotated[str, Field(max_length=200)] | None = None
    # The language the connection reads (de, it, pl, en; else its Accept-Language decides): docs/languages.md
    lang: Annotated[str, Field(max_length=16)] | None = None


class WsMove(_Strict):
    type: Literal["move"]
    action: StrictInt
    version: StrictInt
    id: Annotated[str, Field(max_length=64)] | StrictInt | None = None


class WsUndo(_Strict):
    """Take back the seat's last decision (docs/server.md, "Undo")."""

    type: Literal["undo"]
    version: StrictInt
    id: Annotated[str, Field(max_length=64)] | StrictInt | None = None


class Undo(_Strict):
    """``POST /api/tables/{id}/undo``."""

    version: StrictInt


class Chat(_Strict):
    """A chat line (docs/server.md, "Chat"); its length is checked against the server's setting after
    cleaning, this bound only keeps the work small. ``name``: a spectator's name (seats have theirs)."""

    type: Literal["chat"]
    text: Annotated[str, Field(max_length=2000)]
    name: Name | None = None


class Rematch(_Strict):
    """After the game: ask for a new table with the same seats, or accept the one asked for; ``key``: the
    browser's key, so the new table shows in its recent tables."""

    type: Literal["rematch"]
    key: BrowserKey | None = None


class Leave(_Strict):
    type: Literal["leave"]


class Back(_Strict):
    type: Literal["back"]


class Ping(_Strict):
    type: Literal["ping"]


AnyMessage = Hello | WsMove | WsUndo | Chat | Rematch | Leave | Back | Ping
ClientMessage = Annotated[AnyMessage, Field(discriminator="type")]
client_message: TypeAdapter[AnyMessage] = TypeAdapter(ClientMessage)

MAX_MESSAGE_BYTES = 4096


def short_error(exc: ValidationError) -> str:
    """The first problem pydantic found, in one line (no input echoed back)."""
    return error_line(exc.errors(include_url=False, include_input=False)[0], "message")


def error_line(error: Mapping[str, Any], default: str, skip: tuple[str, ...] = ()) -> str:
    """One pydantic error as ``where: what``, short whatever the input: a client's own keys in the location
    are cut to a few characters, and an unknown message type is named by the types allowed, not by the
    value sent (pydantic's message quotes it, and it may be a 4 KB object)."""
    where = ".".join(_cut(str(p), 40) for p in error.get("loc", ()) if p not in skip) or default
    ctx = error.get("ctx") or {}
    if error.get("type") == "union_tag_invalid" and "expected_tags" in ctx:
        field = _cut(str(ctx.get("discriminator", "type")), 40)
        return f"{where}: {field} must be one of {_cut(str(ctx['expected_tags']), 200)}"
    return f"{where}: {_cut(str(error.get('msg', 'invalid')), 200)}"


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"

"""The FastAPI application: the JSON API (``routes/``), the WebSocket per client (``session.py``) and the
browser client's files, around one lobby and its services that live as long as the application.

Every refusal is a short JSON error ``{"error": {"code", "message"}}`` with a 4xx status (``handlers.py``);
malformed input never reaches a table. See docs/server.md for the protocol.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
from collections import Counter
from collections.abc import AsyncIterator

from fastapi import FastAPI

from floe.server.botrunner import BotRunner
from floe.server.chat import ChatRooms
from floe.server.handlers import answer_refusals, one_line_for_bad_utf8
from floe.server.httplimits import BodyLimit
from floe.server.limits import TableLimits
from floe.server.manager import Lobby, seeds_for_tests
from floe.server.rematch import Rematches
from floe.server.replays import Replays
from floe.server.routes import games, pages, replays, tables
from floe.server.session import router as session
from floe.server.settings import Settings
from floe.server.store import Store, database_url
from floe.server.undo import Undos


def new_lobby(settings: Settings, store: Store, bots: BotRunner) -> Lobby:
    """The lobby ``settings`` describe, over ``store`` and ``bots`` (its tables not loaded yet)."""
    limits = TableLimits(
        per_minute=settings.create_per_minute,
        burst=settings.create_burst,
        per_client=settings.open_tables_per_client,
        total=settings.open_tables_total,
    )
    return Lobby(
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
        connects=settings.connects(),
        unjoined_expiry=settings.unjoined_expiry,
        unjoined_total=settings.unjoined_tables_total,
        seeds=seeds_for_tests(os.environ),
    )


@contextlib.asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    """Open the store, load the tables and start the lobby and its services; stop them all at the end."""
    settings: Settings = app.state.settings
    one_line_for_bad_utf8()
    store = settings.store or Store(database_url(settings.db, settings.data_dir))
    store.claim(settings.data_dir, settings.claim_wait)
    bots = BotRunner(settings.bot_workers, processes=settings.bot_processes, limits=settings.bot_limits())
    lobby = new_lobby(settings, store, bots)
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
    app.state.undos = Undos(lobby, settings.undo_limits())
    app.state.rematches = Rematches(lobby, settings.rematch_offers)
    app.state.replays = Replays(settings.replay_limits())
    try:
        yield
    finally:
        app.state.replays.close()
        await lobby.stop()
        bots.close()
        store.close()


def create_app(settings: Settings | None = None) -> FastAPI:
    """The web table, storing in ``settings.db`` or SQLite under ``settings.data_dir``."""
    app = FastAPI(title="Floe", lifespan=lifespan, docs_url="/api/docs", openapi_url="/api/openapi.json")
    app.state.settings = settings or Settings()
    app.state.sockets = Counter()  # open WebSockets by address ("" for all): ws_per_client, ws_total
    app.add_middleware(BodyLimit, max_bytes=app.state.settings.max_body_bytes)
    answer_refusals(app)
    pages.serve_pages(app)
    for router in (games.router, tables.router, replays.router, session):
        app.include_router(router)
    return app

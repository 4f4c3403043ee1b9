"""The server's settings: every field with its default, read from ``FLOE_<FIELD>`` environment variables and
``floe serve`` options (docs/security.md lists every limit), and the limits objects each part is given."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from floe.bots.params import MAX_ITERATIONS, MAX_MS
from floe.server.botrunner import BotLimits
from floe.server.chat import ChatLimits
from floe.server.conns import ConnLimits
from floe.server.limits import Connects
from floe.server.protocol import MAX_MESSAGE_BYTES
from floe.server.replays import ReplayLimits
from floe.server.store import Store
from floe.server.undo import UndoLimits

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

    def bot_limits(self) -> BotLimits:
        """How the bot workers are shared (``BotLimits``), for the bot runner."""
        return BotLimits(
            time_cap=self.bot_time_cap,
            cheap_seconds=self.bot_cheap_seconds,
            inline_seconds=self.bot_inline_seconds,
            fast_workers=self.bot_fast_workers,
            per_client=self.bot_searches_per_client,
            search_round=self.bot_search_round or None,
            min_slice=self.bot_min_slice,
            last_slice=self.bot_last_worker_slice or None,
            search_nice=self.bot_search_nice,
        )

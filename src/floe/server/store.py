"""Where tables live between restarts: SQLite by default, PostgreSQL on request (SQLAlchemy Core).

A table is stored as its record — game, players, options, seed, seats — plus its action log, one row per
action (chance outcomes included). The state is never stored: it is a replay of the log. The log's
primary key (table, index) makes a double append impossible, so a move can only be committed once.

The ``Store`` is synchronous; the server calls it from one writer thread (see ``writer.py``) that commits
several tables' moves in one transaction when they arrive together (group commit).

A server replays only its unfinished tables at start-up (``load_unfinished``); a finished table is read
when it is asked for (``load_table``), and the lobby lists finished tables from their rows alone
(``finished_rows``). An SQLite database holds the seeds of running games: its directory is made private
(0700) and the database and its -wal/-shm files are created, and kept, readable by their owner only (0600).
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

metadata = sa.MetaData()

tables_t = sa.Table(
    "floe_tables",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("game", sa.String(32), nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("options", sa.Text, nullable=False),  # JSON
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("public", sa.Boolean, nullable=False),
    sa.Column("turn_timer", sa.Float, nullable=True),
    sa.Column("seats", sa.Text, nullable=False),  # JSON list of seat rows
    sa.Column("finished", sa.Boolean, nullable=False, default=False),
    # The name its creator gave the table (cleaned: names.clean_table_name), or NULL. A column added after
    # the first release: ``add_missing_columns`` adds it to an older database, whose tables have none.
    sa.Column("name", sa.Text, nullable=True),
    # The address of the client that created an open table, so that its tables still count against it after a
    # restart (issue 24: a restart reset every address's count); NULL once the table finishes (the address
    # is kept no longer than it is needed), and for the tables of an older server. Added later, as ``name``.
    sa.Column("creator", sa.Text, nullable=True),
)
# Columns a database made by an older server may lack, with the SQL type to add them with.
LATER_COLUMNS = {"name": "TEXT", "creator": "TEXT"}
# Start-up reads the unfinished tables and the lobby the newest finished ones: neither scans every table.
finished_index = sa.Index("floe_tables_finished_created", tables_t.c.finished, tables_t.c.created)

actions_t = sa.Table(
    "floe_actions",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("floe_tables.id"), primary_key=True),
    sa.Column("idx", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("action", sa.Integer, nullable=False),
)

# Table chat (server/chat.py): kept beside the tables, never in a game's log or record; the newest lines of
# each table only. And the tables a browser key took part in (server/recent.py). Both are created in a
# database made before them by ``create_all`` (they are new tables, nothing else changes).
chat_t = sa.Table(
    "floe_chat",
    metadata,
    sa.Column("table_id", sa.String(32), primary_key=True),
    sa.Column("idx", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Column("version", sa.Integer, nullable=False),  # the table's version when it was said
    sa.Column("seat", sa.Integer, nullable=True),  # None: a spectator
    sa.Column("name", sa.String(200), nullable=False),
    sa.Column("text", sa.Text, nullable=False),
)
recent_t = sa.Table(
    "floe_recent",
    metadata,
    sa.Column("key_hash", sa.String(64), primary_key=True),
    sa.Column("table_id", sa.String(32), primary_key=True),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)


@dataclass
class TableRow:
    """A table as stored: everything but the log."""

    id: str
    game: str
    players: int
    options: dict[str, Any]
    seed: int
    created: float
    public: bool
    turn_timer: float | None
    seats: list[dict[str, Any]]
    finished: bool = False
    actions: list[int] = field(default_factory=list)
    name: str | None = None
    creator: str | None = None  # the creating client's address, while the table is open


def database_url(db: str | None, data_dir: Path) -> str:
    """The SQLAlchemy URL for ``--db`` (a ``postgresql://`` URL) or the SQLite file in ``data_dir`` (made
    private: ``private_dir``)."""
    if not db:
        private_dir(data_dir)
        return f"sqlite:///{(data_dir / 'floe.sqlite3').resolve()}"
    for prefix in ("postgresql://", "postgres://"):
        if db.startswith(prefix):
            return "postgresql+psycopg://" + db[len(prefix) :]
    if db.startswith(("postgresql+psycopg://", "sqlite:///")):
        return db
    raise ValueError(f"--db must be a postgresql:// URL (or sqlite:///path), not {db.split(':', 1)[0]!r}")


# Only the owner may read what the server keeps (the seeds of running games, seat token hashes).
DIR_MODE = 0o700
FILE_MODE = 0o600


def private_dir(path: Path) -> None:
    """Create the server's data directory readable by its owner only, or make an existing one so."""
    path.mkdir(mode=DIR_MODE, parents=True, exist_ok=True)
    if path.stat().st_mode & 0o777 != DIR_MODE:
        path.chmod(DIR_MODE)


def private_sqlite_files(url: str) -> None:
    """Create the SQLite file of ``url`` with mode 0600 before SQLite opens it (SQLite gives its -wal and
    -shm files the database's mode), and take group and other access from files an older server made."""
    path = url.removeprefix("sqlite:///").split("?", 1)[0]
    if not url.startswith("sqlite:///") or not path or path == ":memory:":
        return
    os.close(os.open(path, os.O_RDWR | os.O_CREAT, FILE_MODE))
    for name in (path, path + "-wal", path + "-shm", path + "-journal"):
        try:
            if os.stat(name).st_mode & 0o777 != FILE_MODE:
                os.chmod(name, FILE_MODE)
        except FileNotFoundError:
            continue


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # WAL lets readers go on while the writer commits; FULL makes every acknowledged commit durable.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def add_missing_columns(engine: Engine) -> None:
    """Add the ``LATER_COLUMNS`` an older server's ``floe_tables`` lacks (NULL in its rows): its tables load
    as they were."""
    present = {column["name"] for column in sa.inspect(engine).get_columns("floe_tables")}
    missing = [(name, kind) for name, kind in LATER_COLUMNS.items() if name not in present]
    if missing:
        with engine.begin() as conn:
            for name, kind in missing:
                conn.execute(sa.text(f"ALTER TABLE floe_tables ADD COLUMN {name} {kind}"))


class StoreBusy(Exception):
    """Another server already serves this database."""


class UnreadableRow(ValueError):
    """A stored table whose row cannot be read (its options or seats are not the JSON they should be): one
    damaged row, which must not stop the server from reading the others."""

    def __init__(self, table_id: str, reason: str) -> None:
        super().__init__(f"table {table_id}: {reason}")
        self.table_id = table_id
        self.reason = reason


# The advisory lock key every Floe server takes on its PostgreSQL database ("floe" in ASCII).
_PG_LOCK_KEY = 0x666C6F65


class Store:
    """Tables and their action logs in a SQL database."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._lock_conn: Connection | None = None
        self._lock_file: Any = None
        kwargs: dict[str, Any] = {"pool_pre_ping": True}  # a restarted PostgreSQL costs no batch
        if url.startswith("sqlite"):
            kwargs = {"connect_args": {"check_same_thread": False}}
            private_sqlite_files(url)
        self.engine: Engine = sa.create_engine(url, **kwargs)
        if url.startswith("sqlite"):
            sa.event.listen(self.engine, "connect", _sqlite_pragmas)
        metadata.create_all(self.engine)
        finished_index.create(self.engine, checkfirst=True)  # a database made before the index existed
        add_missing_columns(self.engine)

    @property
    def kind(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return self.engine.dialect.name

    def claim(self, data_dir: Path, wait: float = 5.0) -> None:
        """Make this process the database's only server (``StoreBusy`` otherwise): two servers would each
        hold their own copy of the tables in memory. SQLite: a lock file beside the database; PostgreSQL:
        a session advisory lock. Both vanish with the process, so a killed server never blocks its
        restart (a little waiting covers PostgreSQL noticing the dead connection)."""
        import time

        deadline = time.monotonic() + wait
        while not self._try_claim(data_dir):
            if time.monotonic() > deadline:
                raise StoreBusy("another floe server is already serving this database")
            time.sleep(0.2)

    def _try_claim(self, data_dir: Path) -> bool:
        if self.kind == "postgresql":
            if self._lock_conn is None:
                self._lock_conn = self.engine.connect()
            got = self._lock_conn.execute(sa.select(sa.func.pg_try_advisory_lock(_PG_LOCK_KEY))).scalar()
            self._lock_conn.commit()
            return bool(got)
        import fcntl

        data_dir.mkdir(parents=True, exist_ok=True)
        if self._lock_file is None:
            fd = os.open(data_dir / "floe.lock", os.O_WRONLY | os.O_CREAT, FILE_MODE)
            os.fchmod(fd, FILE_MODE)  # one an older server made
            self._lock_file = os.fdopen(fd, "w")
        try:
            fcntl.flock(self._lock_file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    def close(self) -> None:
        """Release the claim and every connection."""
        if self._lock_conn is not None:
            self._lock_conn.close()
            self._lock_conn = None
        if self._lock_file is not None:
            self._lock_file.close()
            self._lock_file = None
        self.engine.dispose()

    # --- writes (each takes the open transaction's connection) ---------------------------------------
    @staticmethod
    def insert_table(conn: Connection, row: TableRow) -> None:
        """Store a new table with its first actions (the setup's chance outcomes)."""
        conn.execute(
            tables_t.insert().values(
                id=row.id,
                game=row.game,
                players=row.players,
                options=json.dumps(row.options),
                seed=row.seed,
                created=row.created,
                public=row.public,
                turn_timer=row.turn_timer,
                seats=json.dumps(row.seats),
                finished=row.finished,
                name=row.name,
                creator=None if row.finished else row.creator,
            )
        )
        Store.append(conn, row.id, 0, row.actions)

    @staticmethod
    def append(conn: Connection, table_id: str, start: int, actions: Sequence[int]) -> None:
        """Append ``actions`` at log index ``start``; a duplicate index fails the transaction."""
        if actions:
            conn.execute(
                actions_t.insert(),
                [{"table_id": table_id, "idx": start + k, "action": a} for k, a in enumerate(actions)],
            )

    @staticmethod
    def set_seats(conn: Connection, table_id: str, seats: list[dict[str, Any]]) -> None:
        """Replace the stored seats (a seat claimed, a name given)."""
        conn.execute(tables_t.update().where(tables_t.c.id == table_id).values(seats=json.dumps(seats)))

    @staticmethod
    def set_finished(conn: Connection, table_id: str) -> None:
        """Mark the table finished (and forget its creator's address)."""
        conn.execute(tables_t.update().where(tables_t.c.id == table_id).values(finished=True, creator=None))

    @staticmethod
    def delete_table(conn: Connection, table_id: str) -> None:
        """Forget a table: its log, chat, the browsers' notes of it and its row (an expired table)."""
        for t in (actions_t, chat_t, recent_t):
            conn.execute(t.delete().where(t.c.table_id == table_id))
        conn.execute(tables_t.delete().where(tables_t.c.id == table_id))

    def run(self, ops: Sequence[Callable[[Connection], None]]) -> None:
        """Run ``ops`` in one transaction: all are committed or none."""
        with self.engine.begin() as conn:
            for op in ops:
                op(conn)

    # --- reads ---------------------------------------------------------------------------------------
    def load_all(self) -> list[TableRow]:
        """Every table with its action log, oldest first (``UnreadableRow`` if one cannot be read)."""
        return self._load(None)

    def load_unfinished(self, unreadable: list[UnreadableRow] | None = None) -> list[TableRow]:
        """Every table not finished, with its action log, oldest first (what a server replays at start). A
        row that cannot be read raises ``UnreadableRow``, or, given the list ``unreadable``, is added to it
        and left out."""
        return self._load(tables_t.c.finished == sa.false(), unreadable)

    def load_table(self, table_id: str) -> TableRow | None:
        """One table with its action log, or None."""
        rows = self._load(tables_t.c.id == table_id)
        return rows[0] if rows else None

    def _load(self, where: Any, unreadable: list[UnreadableRow] | None = None) -> list[TableRow]:
        rows: dict[str, TableRow] = {}
        query = sa.select(tables_t).order_by(tables_t.c.created)
        with self.engine.connect() as conn:
            for r in conn.execute(query if where is None else query.where(where)):
                try:
                    rows[r.id] = _table_row(r)
                except UnreadableRow as exc:
                    if unreadable is None:
                        raise
                    unreadable.append(exc)
            if not rows:
                return []
            actions = sa.select(actions_t.c.table_id, actions_t.c.action)
            if where is not None:
                actions = actions.where(actions_t.c.table_id.in_(sa.select(tables_t.c.id).where(where)))
            for table_id, action in conn.execute(actions.order_by(actions_t.c.table_id, actions_t.c.idx)):
                row = rows.get(table_id)
                if row is not None:  # None: an unreadable table's log
                    row.actions.append(action)
        return list(rows.values())

    def finished_rows(self, limit: int, *, public_only: bool = True) -> list[tuple[TableRow, int]]:
        """The ``limit`` newest finished tables (public ones only, by default), newest first, each with the
        length of its log; the logs themselves are not read."""
        query = sa.select(tables_t).where(tables_t.c.finished == sa.true())
        if public_only:
            query = query.where(tables_t.c.public == sa.true())
        query = query.order_by(tables_t.c.created.desc()).limit(limit)
        with self.engine.connect() as conn:
            rows = []
            for r in conn.execute(query):
                # An unreadable finished table is left out of the list (``load_table`` names it when it
                # is asked for): one damaged row must not take the lobby's list down.
                with contextlib.suppress(UnreadableRow):
                    rows.append(_table_row(r))
            if not rows:
                return []
            counts: dict[str, int] = dict(
                conn.execute(
                    sa.select(actions_t.c.table_id, sa.func.count())
                    .where(actions_t.c.table_id.in_([r.id for r in rows]))
                    .group_by(actions_t.c.table_id)
                ).all()
            )
        return [(row, int(counts.get(row.id, 0))) for row in rows]

    def rows_of(self, table_ids: list[str]) -> list[tuple[TableRow, int]]:
        """The stored rows of ``table_ids`` (those that exist and read), each with the length of its log;
        the logs themselves are not read."""
        if not table_ids:
            return []
        with self.engine.connect() as conn:
            rows = []
            for r in conn.execute(sa.select(tables_t).where(tables_t.c.id.in_(table_ids))):
                with contextlib.suppress(UnreadableRow):  # a damaged row is left out, as in finished_rows
                    rows.append(_table_row(r))
            counts: dict[str, int] = dict(
                conn.execute(
                    sa.select(actions_t.c.table_id, sa.func.count())
                    .where(actions_t.c.table_id.in_(table_ids))
                    .group_by(actions_t.c.table_id)
                ).all()
            )
        return [(row, int(counts.get(row.id, 0))) for row in rows]

    def load_actions(self, table_id: str) -> list[int]:
        """One table's action log."""
        with self.engine.connect() as conn:
            query = sa.select(actions_t.c.action).where(actions_t.c.table_id == table_id)
            return [a for (a,) in conn.execute(query.order_by(actions_t.c.idx))]


def _table_row(r: Any) -> TableRow:
    """A ``floe_tables`` row as a ``TableRow`` (its log still empty); ``UnreadableRow`` if its JSON columns
    do not hold an options object and a list of seat objects."""
    try:
        options, seats = json.loads(r.options), json.loads(r.seats)
    except (ValueError, TypeError) as exc:  # JSONDecodeError is a ValueError; NULL or bytes a TypeError
        raise UnreadableRow(r.id, f"its options or seats are not JSON ({exc})") from None
    if not isinstance(options, dict):
        raise UnreadableRow(r.id, "its options are not a JSON object")
    if not isinstance(seats, list) or not all(isinstance(seat, dict) for seat in seats):
        raise UnreadableRow(r.id, "its seats are not a JSON list of objects")
    return TableRow(
        id=r.id,
        game=r.game,
        players=r.players,
        options=options,
        seed=int(r.seed),
        created=r.created,
        public=bool(r.public),
        turn_timer=r.turn_timer,
        seats=seats,
        finished=bool(r.finished),
        name=r.name if isinstance(r.name, str) else None,
        creator=r.creator if isinstance(r.creator, str) else None,
    )

"""A table's name is stored with it; a database made before table names existed gets the column, and its
tables load without a name (SQLite and PostgreSQL)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from floe.server.store import Store, TableRow, database_url


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield database_url(None, tmp_path / "data")
    else:
        fresh: str = request.getfixturevalue("fresh_pg_url")
        yield database_url(fresh, tmp_path)


def old_database(url: str) -> None:
    """``floe_tables`` and ``floe_actions`` as a server before table names made them, with one table."""
    old = sa.MetaData()
    tables = sa.Table(
        "floe_tables",
        old,
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("public", sa.Boolean, nullable=False),
        sa.Column("turn_timer", sa.Float, nullable=True),
        sa.Column("seats", sa.Text, nullable=False),
        sa.Column("finished", sa.Boolean, nullable=False, default=False),
    )
    sa.Table(
        "floe_actions",
        old,
        sa.Column("table_id", sa.String(32), sa.ForeignKey("floe_tables.id"), primary_key=True),
        sa.Column("idx", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("action", sa.Integer, nullable=False),
    )
    engine = sa.create_engine(url)
    old.create_all(engine)
    seats = [{"kind": "bot", "name": "random", "bot": "random"}] * 2
    with engine.begin() as conn:
        conn.execute(
            tables.insert().values(
                id="old", game="arctic", players=2, options="{}", seed=1, created=1.0, public=True,
                turn_timer=None, seats=json.dumps(seats), finished=False,
            )
        )  # fmt: skip
    engine.dispose()


def test_an_older_database_gets_the_column_and_its_tables_load_unnamed(url: str) -> None:
    old_database(url)
    store = Store(url)
    try:
        old = store.load_table("old")
        assert old is not None and old.name is None
        named = TableRow(
            id="new", game="arctic", players=2, options={}, seed=2, created=2.0, public=True, turn_timer=None,
            seats=old.seats, name="Friday night",
        )  # fmt: skip
        store.run([lambda conn: Store.insert_table(conn, named)])
        again = store.load_table("new")
        assert again is not None and again.name == "Friday night"
        assert [row.name for row in store.load_unfinished()] == [None, "Friday night"]
    finally:
        store.close()
    Store(url).close()  # a second start finds the column there: nothing to add

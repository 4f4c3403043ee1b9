"""Fixtures for the server tests: a real server process on 127.0.0.1 with a fresh SQLite data directory,
and a throwaway PostgreSQL cluster (``pg.py``) for the tests that store in PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from .pg import PgCluster, postgres_cluster
from .serverproc import ServerProcess, running_server


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    """A running ``floe serve`` with its own SQLite database."""
    with running_server(tmp_path / "data") as srv:
        yield srv


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[PgCluster]:
    """One PostgreSQL cluster per test session (per xdist worker), started on first use; skipped if
    PostgreSQL is not installed, unless FLOE_REQUIRE_POSTGRES is set."""
    with postgres_cluster() as cluster:
        yield cluster


@pytest.fixture(scope="session")
def pg_url(pg_cluster: PgCluster) -> str:
    """``postgresql://postgres@127.0.0.1:<port>/floe``: a database shared by the whole session. A test
    that must not see other tests' tables takes ``fresh_pg_url`` instead."""
    return pg_cluster.create_database("floe")


@pytest.fixture
def fresh_pg_url(pg_cluster: PgCluster) -> str:
    """The URL of a new, empty database in the session's cluster (one per test)."""
    return pg_cluster.create_database()

"""A throwaway PostgreSQL cluster for the server tests: ``initdb`` in a temp dir, ``pg_ctl`` on 127.0.0.1.

The server binaries come from Debian's ``postgresql`` package (``/usr/lib/postgresql/<version>/bin``; CI
installs it, see ``.ci/run``). PostgreSQL refuses to run as root, so when the tests run as root the cluster
is made and run by the ``postgres`` user (``runuser``) in a temp dir it owns. Authentication is ``trust``
and the server listens only on 127.0.0.1 (a free port) and on a unix socket inside the temp dir, so it
never meets the machine's own PostgreSQL. Missing binaries or a missing ``postgres`` user skip the tests,
unless ``FLOE_REQUIRE_POSTGRES`` is set (CI), which makes them fail instead.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import NoReturn

import psycopg
import pytest

from .serverproc import free_port

REQUIRE_ENV = "FLOE_REQUIRE_POSTGRES"
BIN_ENV = "FLOE_PG_BIN"  # a directory holding initdb and pg_ctl, to use another installation
USER = "postgres"
# --no-sync: a throwaway cluster need not fsync its template files (the server itself still fsyncs).
INITDB_OPTIONS = ("-E", "UTF8", "--no-locale", "--no-sync")


def find_bin_dir() -> Path | None:
    """The directory of ``initdb``/``pg_ctl``: ``$FLOE_PG_BIN``, else Debian's newest installed version."""
    if os.environ.get(BIN_ENV):
        candidates = [Path(os.environ[BIN_ENV])]
    else:
        found = Path("/usr/lib/postgresql").glob("*/bin")
        candidates = sorted(found, key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0)[::-1]
    for path in candidates:
        if (path / "initdb").is_file() and (path / "pg_ctl").is_file():
            return path
    return None


def unavailable(reason: str) -> NoReturn:
    """Skip (or fail, if PostgreSQL is required) because the cluster cannot be made on this machine."""
    if os.environ.get(REQUIRE_ENV):
        pytest.fail(f"{reason} ({REQUIRE_ENV} is set, so the PostgreSQL tests may not be skipped)")
    pytest.skip(f"{reason}; install Debian's postgresql package (or set {BIN_ENV}) to run these tests")


class PgCluster:
    """A running cluster; ``create_database`` makes a fresh database and returns its URL."""

    def __init__(self, bin_dir: Path, root: Path, as_user: str | None) -> None:
        self.bin_dir = bin_dir
        self.root = root  # temp dir: data/, the socket and the server log
        self.data = root / "data"
        self.log = root / "server.log"
        self.as_user = as_user  # run the binaries as this user (None: as ourselves)
        self.port = 0
        self._names = itertools.count(1)

    def _run(self, *args: str, timeout: float = 120) -> None:
        cmd = [str(self.bin_dir / args[0]), *args[1:]]
        if self.as_user is not None:
            cmd = ["runuser", "-u", self.as_user, "--", *cmd]
        # cwd: the postgres user may not be allowed into ours; LC_ALL: initdb fails on a missing locale.
        env = {**os.environ, "LC_ALL": "C", "LANG": "C"}
        done = subprocess.run(
            cmd, cwd=self.root, env=env, capture_output=True, text=True, timeout=timeout, check=False
        )
        if done.returncode != 0:
            server_log = self.log.read_text(errors="replace")[-3000:] if self.log.exists() else ""
            raise RuntimeError(
                f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}\n{server_log}"
            )

    def start(self) -> None:
        """``initdb`` then ``pg_ctl start`` on a free port (a few tries: the port may be taken meanwhile)."""
        self._run("initdb", "-D", str(self.data), "-U", USER, "-A", "trust", *INITDB_OPTIONS)
        for attempt in range(3):
            self.port = free_port()
            options = f"-c listen_addresses=127.0.0.1 -c port={self.port}"
            options += f" -c unix_socket_directories='{self.root}'"  # not /var/run/postgresql
            try:
                self._run("pg_ctl", "start", "-w", "-D", str(self.data), "-l", str(self.log), "-o", options)
                return
            except RuntimeError:
                if attempt == 2:
                    raise

    def stop(self) -> None:
        """Stop at once (nothing in it is worth a clean shutdown)."""
        with contextlib.suppress(RuntimeError, subprocess.TimeoutExpired):
            self._run("pg_ctl", "stop", "-m", "immediate", "-w", "-D", str(self.data), timeout=60)

    def url(self, database: str) -> str:
        """The ``postgresql://`` URL of ``database`` (what ``floe serve --db`` takes)."""
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str | None = None) -> str:
        """Create a new, empty database and return its URL."""
        name = name or f"floe_test_{next(self._names)}"
        with psycopg.connect(self.url("postgres"), autocommit=True, connect_timeout=30) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)


@contextlib.contextmanager
def postgres_cluster() -> Iterator[PgCluster]:
    """A started cluster, stopped and deleted at the end; skips (or fails) if PostgreSQL is missing."""
    bin_dir = find_bin_dir()
    if bin_dir is None:
        where = os.environ.get(BIN_ENV) or "/usr/lib/postgresql/*/bin"
        unavailable(f"no PostgreSQL server binaries (initdb, pg_ctl) in {where}")
    as_user: str | None = None
    owner: pwd.struct_passwd | None = None
    if os.geteuid() == 0:  # initdb refuses root: hand the cluster to the postgres user
        try:
            owner = pwd.getpwnam(USER)
        except KeyError:
            unavailable(f"running as root and there is no {USER!r} user to run PostgreSQL as")
        if shutil.which("runuser") is None:
            unavailable("running as root and there is no runuser to start PostgreSQL as another user")
        as_user = USER
    # In the system temp dir, not pytest's tmp_path: that one is private to root, postgres could not enter.
    root = Path(tempfile.mkdtemp(prefix="floe-pg-"))
    cluster = PgCluster(bin_dir, root, as_user)
    try:
        if owner is not None:
            os.chown(root, owner.pw_uid, owner.pw_gid)
        cluster.start()
        yield cluster
    finally:
        cluster.stop()
        shutil.rmtree(root, ignore_errors=True)

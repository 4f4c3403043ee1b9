"""Issue 11 item 11 (files): what the server keeps on disk is readable by its owner only.

The SQLite database holds the seeds of running games; it used to be created world-readable (0644), so any
local user could read them and know every hidden card. Now the data directory is 0700 and the database,
its -wal and -shm files and the lock file are 0600 — whatever the umask, and also when an older server
made them with looser modes.
"""

from __future__ import annotations

import os
import sqlite3
import stat
from pathlib import Path

from floe.server.store import Store, database_url

from .serverproc import ServerProcess, running_server

PERSON = {"kind": "person"}
FILES = ("floe.sqlite3", "floe.sqlite3-wal", "floe.sqlite3-shm", "floe.lock")


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def assert_private(data: Path) -> None:
    assert mode(data) == 0o700, oct(mode(data))
    for name in FILES:
        assert (data / name).exists(), name
        assert mode(data / name) == 0o600, (name, oct(mode(data / name)))


def play_a_little(server: ServerProcess) -> None:
    """Create a table and join it, so the database has written (its -wal and -shm files exist)."""
    table = server.create([PERSON, PERSON])["table"]["id"]
    assert server.post(f"/api/tables/{table}/join", {"name": "Bo"}).status_code == 200


def test_a_new_data_directory_and_database_are_private_even_with_umask_0(tmp_path: Path) -> None:
    data = tmp_path / "data"
    old = os.umask(0)  # the server inherits it: every file it makes would be world-writable by default
    try:
        server = ServerProcess(data)
        server.start()  # which makes the data directory first, 0777 under this umask
    finally:
        os.umask(old)
    try:
        play_a_little(server)
        assert_private(data)
    finally:
        server.stop()


def test_an_older_servers_files_are_made_private_at_start(tmp_path: Path) -> None:
    data = tmp_path / "data"
    Store(database_url(None, data)).close()  # a database as an older server left it ...
    db = sqlite3.connect(data / "floe.sqlite3")
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("CREATE TABLE keep_wal_open (x)")  # ... with its -wal and -shm files still there
    for name in FILES:
        (data / name).touch()
        (data / name).chmod(0o644)
    data.chmod(0o755)
    try:
        with running_server(data) as server:
            play_a_little(server)
            assert_private(data)
    finally:
        db.close()


def test_an_explicit_sqlite_url_gets_a_private_file(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir(mode=0o755)
    url = f"sqlite:///{shared / 'tables.db'}"
    with running_server(tmp_path / "data", db=url) as server:
        play_a_little(server)
        assert mode(shared / "tables.db") == 0o600
        assert mode(shared) == 0o755  # a directory the server was only pointed into is left alone

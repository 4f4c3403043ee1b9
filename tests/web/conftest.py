"""Fixtures for the browser test: a real `floe serve` process and Debian's headless Chromium."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from floe.bench.server import free_port
from floe.testing.zygote import Forked, start_floe

from .webkit import get_json

# Every wait of the browser tests only bounds a hang (a loaded machine is slow, never wrong); Playwright's
# `expect` would give up after 5 s (the pages' own waits are set where each page is made).
try:
    from playwright.sync_api import expect
except ImportError:  # the browser tests skip themselves
    pass
else:
    expect.set_options(timeout=60_000)

CHROMIUM = Path("/usr/bin/chromium")
# Playwright's own browser download does not work here; these flags keep Debian's Chromium quiet and offline.
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).parent / "artifacts"
# The browser tests' server seeds its tables from this (the FLOE_TEST_SEED test hook, docs/testing.md), so
# each test plays the same deal on every run: the person's clicks are seeded too, so the whole game is.
TEST_SEED = "20261122"


class Server:
    """`floe serve` on a free port with its own data directory; `restart` keeps the port and the data."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = data_dir / "server.log"
        self.proc: subprocess.Popen[bytes] | Forked | None = None

    def start(self) -> None:
        cmd = ["serve", "--port", str(self.port), "--data-dir", str(self.data_dir)]
        self.proc = start_floe(cmd, {"FLOE_TEST_SEED": TEST_SEED}, self.log_path)
        deadline = time.monotonic() + 120  # bounds a hang only: a busy machine may take many seconds
        while True:
            if self.proc.poll() is not None:
                pytest.fail(f"floe serve exited with {self.proc.returncode}:\n{self.log_tail()}")
            try:
                get_json(f"{self.base}/api/games")
                return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                if time.monotonic() > deadline:
                    pytest.fail(f"floe serve did not answer in 120 s:\n{self.log_tail()}")
                time.sleep(0.2)

    def stop(self) -> None:
        if self.proc is None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)
        self.proc = None

    def kill(self) -> None:
        """``kill -9`` of the server and its bot workers (the end of a module: its data is thrown away, and a
        clean stop waits for the workers to leave)."""
        if self.proc is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=60)
            self.proc = None

    def restart(self) -> None:
        self.stop()
        self.start()

    def log_tail(self) -> str:
        return self.log_path.read_text(errors="replace")[-3000:]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    server = Server(tmp_path_factory.mktemp("floe-data"))
    try:
        server.start()
        yield server
    finally:
        server.kill()


# One Playwright and one Chromium per test process, whichever definition of the `browser` fixture asks first:
# a module outside tests/web that imports the fixture makes a second fixture of it, and a second sync
# Playwright in one thread fails and leaves the thread's event loop marked as running (every later
# asyncio.run of that test process then failed).
_CHROMIUM: dict[str, Any] = {}


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's Chromium through Playwright; skipped without it unless FLOE_REQUIRE_BROWSER is set (CI). One
    per test process: each test opens its own context (cookies, storage), so tests share only the program."""
    required = bool(os.environ.get("FLOE_REQUIRE_BROWSER"))
    if not CHROMIUM.exists():
        if required:
            pytest.fail(f"FLOE_REQUIRE_BROWSER is set but {CHROMIUM} is missing (apt-get install chromium)")
        pytest.skip(f"{CHROMIUM} is missing: install Debian's chromium to run the browser test")
    if required:
        from playwright.sync_api import sync_playwright
    else:
        sync_playwright = pytest.importorskip("playwright.sync_api").sync_playwright
    if not _CHROMIUM:
        playwright = sync_playwright().start()
        _CHROMIUM.update(playwright=playwright, users=0)
        _CHROMIUM["browser"] = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
    _CHROMIUM["users"] += 1
    try:
        yield _CHROMIUM["browser"]
    finally:
        _CHROMIUM["users"] -= 1
        if not _CHROMIUM["users"]:
            _CHROMIUM.pop("browser").close()
            _CHROMIUM.pop("playwright").stop()
            _CHROMIUM.clear()


@pytest.fixture(scope="module")
def artifacts() -> Path:
    """Where screenshots go (git-ignored)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS

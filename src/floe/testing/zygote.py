"""Quick ``floe serve`` processes for tests: a zygote that has imported the server once forks each of them.

Starting ``python -m floe serve`` costs a couple of seconds, most of it importing FastAPI, SQLAlchemy, uvicorn
and the games; a suite that starts a hundred servers pays that a hundred times. The zygote is a process that
imports all of it once and then waits. Each server is a fork of the zygote that runs ``floe serve``'s own
command line (``floe.cli.main`` with the given arguments) in a session of its own, with its own environment,
log, port and data: the real server, started from memory instead of from disk. Its bot workers are spawned
as usual (fresh interpreters), and a signal or ``kill -9`` reaches it and its workers as it would a server
started by ``Popen``.

``Zygote.spawn`` returns a ``Forked``, which has the part of ``subprocess.Popen`` the tests use (``pid``,
``poll``, ``wait``, ``returncode``, ``terminate``, ``kill``). The zygote reaps its children and reports each
exit status, so ``wait`` works although the server is not the caller's child.

Protocol (JSON lines): the caller writes ``{"argv": [...], "env": {...}, "log": path}``; the zygote answers
``{"started": pid}`` and, whenever a child ends, ``{"exited": pid, "code": n}`` (a negative ``n``: killed by
that signal, as ``Popen.returncode``).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import select
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO, Any

from floe.bench.probe import default_sigint


class Forked:
    """A process the zygote forked: what the tests use of ``subprocess.Popen``."""

    def __init__(self, zygote: Zygote, pid: int) -> None:
        self._zygote = zygote
        self.pid = pid

    @property
    def returncode(self) -> int | None:
        return self._zygote.exit_code(self.pid)

    def poll(self) -> int | None:
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        """The exit status, once the process has ended; ``subprocess.TimeoutExpired`` after ``timeout``."""
        code = self._zygote.wait_exit(self.pid, timeout)
        if code is None:
            raise subprocess.TimeoutExpired(["floe", "serve"], timeout or 0.0)
        return code

    def send_signal(self, sig: int) -> None:
        if self.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, sig)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


class Zygote:
    """The caller's side: starts the zygote on first use; ``spawn`` forks a ``floe`` command from it."""

    def __init__(self) -> None:
        self._proc: subprocess.Popen[bytes] | None = None
        self._lock = threading.Lock()
        self._changed = threading.Condition()
        self._exits: dict[int, int] = {}
        self._started: list[int] = []
        self._pythonpath: str | None = None

    def finds_the_same_modules(self, env: dict[str, str]) -> bool:
        """Whether a process with ``env`` would import what the zygote imported: a fork has the zygote's
        modules, so a test that puts a plug-in on PYTHONPATH after the zygote started needs a fresh
        interpreter."""
        return self._proc is None or env.get("PYTHONPATH") == self._pythonpath

    def _start(self) -> subprocess.Popen[bytes]:
        if self._proc is None or self._proc.poll() is not None:
            self._pythonpath = os.environ.get("PYTHONPATH")
            self._proc = subprocess.Popen(
                [sys.executable, "-m", "floe.testing.zygote"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                start_new_session=True,  # a Ctrl-C of the test run is the tests' to pass on, not the zygote's
            )
            threading.Thread(target=self._read, args=(self._proc.stdout,), daemon=True).start()
        return self._proc

    def _read(self, stream: IO[bytes]) -> None:
        for raw in stream:
            message = json.loads(raw)
            with self._changed:
                if "started" in message:
                    self._started.append(message["started"])
                else:
                    self._exits[message["exited"]] = message["code"]
                self._changed.notify_all()
        with self._changed:  # the zygote is gone: nobody will report anything again
            self._started.append(-1)
            self._changed.notify_all()

    def spawn(self, argv: list[str], env: dict[str, str], log: Path) -> Forked:
        """``floe ARGV...`` in a fork of the zygote, with ``env`` as its whole environment and its output
        appended to ``log``."""
        with self._lock:
            proc = self._start()
            assert proc.stdin is not None
            request = {"argv": argv, "env": env, "log": str(log)}
            proc.stdin.write(json.dumps(request).encode() + b"\n")
            proc.stdin.flush()
            with self._changed:
                # Bounds only a hang: a fork answers at once.
                if not self._changed.wait_for(lambda: bool(self._started), timeout=120):
                    raise RuntimeError("the test zygote did not answer")
                pid = self._started.pop(0)
            if pid < 0:
                raise RuntimeError("the test zygote died")
            return Forked(self, pid)

    def exit_code(self, pid: int) -> int | None:
        with self._changed:
            return self._exits.get(pid)

    def wait_exit(self, pid: int, timeout: float | None) -> int | None:
        with self._changed:
            self._changed.wait_for(lambda: pid in self._exits, timeout=timeout)
            return self._exits.get(pid)


_shared: Zygote | None = None


def shared() -> Zygote:
    """This process's zygote (one per test process)."""
    global _shared
    if _shared is None:
        _shared = Zygote()
    return _shared


def start_floe(argv: list[str], env: dict[str, str], log_path: Path) -> subprocess.Popen[bytes] | Forked:
    """``floe ARGV...`` in a process group of its own, ``env`` added to this environment, its output appended
    to ``log_path``, with Ctrl-C's default action (as a terminal's foreground job). Forked from this process's
    zygote (the same server, without paying its imports again) unless ``FLOE_TEST_ZYGOTE=0``, which starts
    ``python -m floe`` instead."""
    environ = {**os.environ, "PYTHONUNBUFFERED": "1", **env}
    zygote = shared()
    if os.environ.get("FLOE_TEST_ZYGOTE", "1") != "0" and zygote.finds_the_same_modules(environ):
        return zygote.spawn(argv, environ, log_path)
    with log_path.open("ab") as log:
        return subprocess.Popen(
            [sys.executable, "-m", "floe", *argv],
            stdout=log,
            stderr=subprocess.STDOUT,
            env=environ,
            start_new_session=True,
            preexec_fn=default_sigint,
        )


# --- the zygote process ---------------------------------------------------------------------------------
def _warm() -> None:
    """Import what ``floe serve`` imports, without starting a thread (a fork copies only the forking one)."""
    import sqlalchemy.dialects.postgresql.psycopg
    import sqlalchemy.dialects.sqlite  # noqa: F401
    import uvicorn.lifespan.on
    import uvicorn.loops.auto
    import uvicorn.protocols.http.auto
    import uvicorn.protocols.websockets.auto  # noqa: F401

    import floe.cli
    import floe.server.app  # noqa: F401
    from floe.core import registry
    from floe.core.entry import resolve

    for found in registry.entries():  # each game's engine, and its view modules
        for ref in (found.presenter, found.search):
            if ref is not None:
                resolve(ref)


def _become(request: dict[str, Any]) -> None:
    """In the forked child: become ``floe ARGV...`` as if started by ``Popen``, and never return."""
    code = 1
    try:
        os.setsid()
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        log = os.open(request["log"], os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(log, 1)
        os.dup2(log, 2)
        os.closerange(3, 1024)  # the zygote's pipes are not the server's
        sys.stdout = io.TextIOWrapper(open(1, "wb", closefd=False), line_buffering=True)  # noqa: SIM115
        sys.stderr = io.TextIOWrapper(open(2, "wb", closefd=False), line_buffering=True)  # noqa: SIM115
        os.environ.clear()
        os.environ.update(request["env"])
        random.seed()  # not the zygote's sequence, shared by every fork
        sys.argv = ["floe", *request["argv"]]
        from floe.cli import main

        main()
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except KeyboardInterrupt:
        code = 130
    except BaseException:
        import traceback

        traceback.print_exc()
    finally:
        with contextlib.suppress(Exception):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(code)


def _serve_forks() -> None:
    """The zygote's loop: fork a child per request, report each child's exit, end when stdin closes."""
    _warm()
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_write, False)
    signal.set_wakeup_fd(wake_write)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    out = sys.stdout.buffer
    stdin = sys.stdin.fileno()
    pending = b""  # read from stdin, not yet a whole line

    def say(message: dict[str, int]) -> None:
        out.write(json.dumps(message).encode() + b"\n")
        out.flush()

    def reap() -> None:
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            say({"exited": pid, "code": os.waitstatus_to_exitcode(status)})

    while True:
        ready, _, _ = select.select([stdin, wake_read], [], [])
        if wake_read in ready:
            os.read(wake_read, 4096)
            reap()
        if stdin in ready:
            chunk = os.read(stdin, 65536)
            if not chunk:
                return
            pending += chunk
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                out.flush()
                pid = os.fork()
                if pid == 0:
                    _become(json.loads(line))
                say({"started": pid})
            reap()


if __name__ == "__main__":
    # The children outlive the zygote (each test stops its own server).
    with contextlib.suppress(KeyboardInterrupt, BrokenPipeError):
        _serve_forks()

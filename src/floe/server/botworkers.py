"""One bot worker: a process (or, for tests that want none, a thread) that runs one call at a time.

A ``ProcessWorker`` is a spawned process answering calls over a pipe. Unlike a process pool it can be told
apart from its siblings, killed on its own (a decision that overruns its hard limit) and seen dying (the
OOM killer, a ``kill -9``): a call it cannot answer raises ``WorkerDied``, and whoever owns the worker
replaces it. A pipe needs no semaphores, so nothing is left for the resource tracker to warn about when the
server stops.

The worker process ignores SIGINT and SIGTERM: Ctrl-C in a terminal and ``systemctl stop`` reach the whole
process group, and the server, not each worker, decides when its workers stop (``close``). A worker the
server stops while it is still starting leaves without a word.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import multiprocessing
import os
import pickle
import signal
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from multiprocessing.connection import Connection
from typing import Any

# How long a stopping worker may take to notice its pipe closed before it is killed.
STOP_GRACE = 0.5


class WorkerDied(Exception):
    """The worker process died before answering (killed, out of memory)."""


class WorkerOverrun(Exception):
    """The call ran past its hard limit; the worker was killed."""


class Worker:
    """What a lane needs of a worker: one call at a time, and a way to stop it."""

    pid: int | None = None

    async def call(self, fn: Callable[..., Any], args: tuple[Any, ...], limit: float | None) -> Any:
        """``fn(*args)`` in the worker; ``WorkerOverrun`` if ``limit`` seconds pass first (a worker that
        can be killed is), ``WorkerDied`` if the worker dies."""
        raise NotImplementedError

    def close(self) -> None:
        """Stop the worker (a running call is abandoned)."""


# --- in the worker process ---------------------------------------------------------------------------------
def _portable(exc: BaseException) -> BaseException:
    """``exc`` if it survives pickling, else a ``RuntimeError`` that says what it was."""
    try:
        pickle.loads(pickle.dumps(exc))
    except Exception:
        return RuntimeError(f"{type(exc).__name__}: {exc}")
    return exc


def _serve(conn: Connection, preload: tuple[str, ...]) -> None:
    """The worker process: import ``preload`` ("module" or "module:function" to call), say ready, then
    answer calls until the pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    for ref in preload:
        module, _, function = ref.partition(":")
        loaded = importlib.import_module(module)
        if function:
            getattr(loaded, function)()
    try:
        conn.send(("ready", os.getpid()))
    except (EOFError, OSError):  # the server stopped while this worker was starting: nothing to say
        return
    while True:
        try:
            fn, args = conn.recv()
        except (EOFError, OSError):
            return
        try:
            answer: tuple[str, Any] = ("ok", fn(*args))
        except Exception as exc:
            answer = ("error", _portable(exc))
        try:
            conn.send(answer)
        except (EOFError, OSError):
            return
        except Exception as exc:  # an answer that does not pickle
            conn.send(("error", RuntimeError(f"the answer could not be sent: {exc}")))


# --- on the server ---------------------------------------------------------------------------------------
class ProcessWorker(Worker):
    """A spawned process answering calls over a pipe (see the module docstring)."""

    def __init__(self, name: str, preload: tuple[str, ...] = ()) -> None:
        ctx = multiprocessing.get_context("spawn")
        self.conn, child = ctx.Pipe(duplex=True)
        self.process = ctx.Process(target=_serve, args=(child, preload), name=name, daemon=True)
        self.process.start()
        child.close()
        self.pid = self.process.pid
        self.ready = False  # the worker has imported what it preloads and waits for calls

    async def _readable(self, limit: float | None) -> bool:
        """Wait until the pipe has something to read (an answer, or EOF: the worker died); False if
        ``limit`` seconds pass first."""
        loop = asyncio.get_running_loop()
        if self.conn.poll():
            return True
        news: asyncio.Future[None] = loop.create_future()
        fd = self.conn.fileno()

        def readable() -> None:
            if not news.done():
                news.set_result(None)

        loop.add_reader(fd, readable)
        try:
            await asyncio.wait_for(news, limit)
            return True
        except TimeoutError:
            return False
        finally:
            loop.remove_reader(fd)

    def _receive(self) -> Any:
        try:
            return self.conn.recv()
        except (EOFError, OSError):
            raise self._died() from None

    def _died(self) -> WorkerDied:
        self.process.join(STOP_GRACE)
        code = self.process.exitcode
        how = f"killed by signal {-code}" if code is not None and code < 0 else f"exit code {code}"
        return WorkerDied(f"bot worker {self.pid} died ({how})")

    async def call(self, fn: Callable[..., Any], args: tuple[Any, ...], limit: float | None) -> Any:
        if not self.ready:
            # Sent only once the worker listens, so a large call never blocks the event loop on a full pipe.
            await self._readable(None)
            kind, _ = self._receive()
            self.ready = kind == "ready"
        try:
            self.conn.send((fn, args))
        except (EOFError, OSError):
            raise self._died() from None
        if not await self._readable(limit):
            self.kill()
            raise WorkerOverrun(f"bot worker {self.pid} ran past {limit:.1f} s and was stopped")
        kind, value = self._receive()
        if kind == "error":
            raise value
        return value

    def kill(self) -> None:
        """Kill the process at once (a call in flight is lost)."""
        with contextlib.suppress(OSError):
            self.process.kill()
        self.process.join(STOP_GRACE)

    def close(self) -> None:
        # Closing the pipe lets an idle worker leave its loop; one busy with a decision is killed.
        with contextlib.suppress(OSError):
            self.conn.close()
        self.process.join(STOP_GRACE)
        if self.process.is_alive():
            self.kill()
        with contextlib.suppress(ValueError):
            self.process.close()


class ThreadWorker(Worker):
    """A thread of the server's own process (tests that want no processes): no limit can be enforced, and it
    never dies on its own."""

    def __init__(self, name: str) -> None:
        self.executor = ThreadPoolExecutor(1, thread_name_prefix=name)

    async def call(self, fn: Callable[..., Any], args: tuple[Any, ...], limit: float | None) -> Any:
        return await asyncio.wrap_future(self.executor.submit(fn, *args))

    def close(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)

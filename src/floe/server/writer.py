"""The one thread that writes to the store, committing what arrives together in one transaction.

Moves from many tables reach the writer at once under load; committing them as one transaction pays one
fsync instead of dozens (group commit). If the shared transaction fails, each write is retried alone, so
one bad write (a duplicate log index) never costs another table its move.
"""

from __future__ import annotations

import asyncio
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import cast

from sqlalchemy.engine import Connection

from floe.server.store import Store

Op = Callable[[Connection], None]

_STOP = object()


def _together(ops: tuple[Op, ...]) -> Op:
    def run(conn: Connection) -> None:
        for op in ops:
            op(conn)

    return run


class Writer:
    """Serialises every write; ``await writer.write(op)`` returns once ``op`` is committed."""

    def __init__(self, store: Store, max_batch: int = 256) -> None:
        self.store = store
        self.max_batch = max_batch
        self._queue: queue.SimpleQueue[tuple[Op, Future[None]] | object] = queue.SimpleQueue()
        self._closing = threading.Lock()  # no write may be queued behind _STOP: it would wait forever
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="floe-writer", daemon=True)
        self._thread.start()

    def _submit(self, ops: tuple[Op, ...]) -> Future[None]:
        future: Future[None] = Future()
        with self._closing:
            if self._closed:
                raise RuntimeError("the writer is closed")
            self._queue.put((_together(ops), future))
        return future

    async def write(self, *ops: Op) -> None:
        """Commit ``ops`` together; raises the database's error if they could not be committed."""
        await asyncio.wrap_future(self._submit(ops))

    def write_sync(self, *ops: Op) -> None:
        """Commit ``ops`` from a thread that is not the event loop (start-up, tests)."""
        self._submit(ops).result()

    def close(self) -> None:
        """Finish pending writes and stop the thread; a write after this raises ``RuntimeError``."""
        with self._closing:
            if not self._closed:
                self._closed = True
                self._queue.put(_STOP)
        self._thread.join(timeout=10)

    def _run(self) -> None:
        while True:
            first = self._queue.get()
            if first is _STOP:
                return
            batch = [first]
            stop = False
            while len(batch) < self.max_batch:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is _STOP:
                    stop = True
                    break
                batch.append(item)
            # A write whose caller was cancelled while it waited is dropped (never committed, like a refused
            # move). The others are marked running: a later cancel then cannot make set_result fail here.
            writes = cast(list[tuple[Op, Future[None]]], batch)
            live = [(op, future) for op, future in writes if future.set_running_or_notify_cancel()]
            if live:
                self._commit(live)
            if stop:
                return

    def _commit(self, batch: list[tuple[Op, Future[None]]]) -> None:
        try:
            self.store.run([op for op, _ in batch])
        except Exception as exc:
            if len(batch) > 1:
                for item in batch:
                    self._commit([item])
            else:
                batch[0][1].set_exception(exc)
            return
        for _, future in batch:
            future.set_result(None)

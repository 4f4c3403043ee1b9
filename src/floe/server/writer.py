"""The one thread that writes to the store, committing what arrives together in one transaction.

Moves from many tables reach the writer at once under load; committing them as one transaction pays one
fsync instead of dozens (group commit). If the shared transaction fails, each write is retried alone, so
one bad write (a duplicate log index) never costs another table its move.

Writes come in two kinds. The moves, seats and chat of tables in play go first; ``bulk`` writes (a new
table's row, an expired table's deletion) only fill what room a transaction has left, at most
``bulk_batch`` of them in one. A flood of creations or expiries (issue 24: 200 addresses making 2,000 tables)
then never puts a move behind more than a few of them: a move waits at most for the transaction being
committed, not for the queue.
"""

from __future__ import annotations

import asyncio
import threading
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future

from sqlalchemy.engine import Connection

from floe.server.store import Store

Op = Callable[[Connection], None]


def _together(ops: tuple[Op, ...]) -> Op:
    def run(conn: Connection) -> None:
        for op in ops:
            op(conn)

    return run


class Writer:
    """Serialises every write; ``await writer.write(op)`` returns once ``op`` is committed."""

    def __init__(self, store: Store, max_batch: int = 256, bulk_batch: int = 8) -> None:
        self.store = store
        self.max_batch = max_batch
        self.bulk_batch = bulk_batch
        self._urgent: deque[tuple[Op, Future[None]]] = deque()
        self._bulk: deque[tuple[Op, Future[None]]] = deque()
        self._ready = threading.Condition()  # guards both queues and ``_closed``
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="floe-writer", daemon=True)
        self._thread.start()

    @property
    def queued(self) -> int:
        """How many writes wait for the thread (not the ones being committed)."""
        with self._ready:
            return len(self._urgent) + len(self._bulk)

    @property
    def closed(self) -> bool:
        """Whether ``close`` was called (the writes queued before it are still committed)."""
        return self._closed

    def _submit(self, ops: tuple[Op, ...], bulk: bool) -> Future[None]:
        future: Future[None] = Future()
        with self._ready:
            if self._closed:  # no write may be queued after close: nothing would commit it
                raise RuntimeError("the writer is closed")
            (self._bulk if bulk else self._urgent).append((_together(ops), future))
            self._ready.notify()
        return future

    async def write(self, *ops: Op, bulk: bool = False) -> None:
        """Commit ``ops`` together; raises the database's error if they could not be committed. ``bulk``: a
        write no player waits for (a new or expired table), which goes after the others."""
        await asyncio.wrap_future(self._submit(ops, bulk))

    def write_sync(self, *ops: Op) -> None:
        """Commit ``ops`` from a thread that is not the event loop (start-up, tests)."""
        self._submit(ops, False).result()

    def close(self) -> None:
        """Finish pending writes and stop the thread; a write after this raises ``RuntimeError``."""
        with self._ready:
            self._closed = True
            self._ready.notify()
        self._thread.join(timeout=10)

    def _next_batch(self) -> list[tuple[Op, Future[None]]] | None:
        """The writes of the next transaction (waiting for one); None once closed with nothing left."""
        with self._ready:
            while not self._urgent and not self._bulk:
                if self._closed:
                    return None
                self._ready.wait()
            batch = [self._urgent.popleft() for _ in range(min(self.max_batch, len(self._urgent)))]
            room = min(self.bulk_batch, self.max_batch - len(batch), len(self._bulk))
            batch += [self._bulk.popleft() for _ in range(room)]
            return batch

    def _run(self) -> None:
        while (batch := self._next_batch()) is not None:
            # A write whose caller was cancelled while it waited is dropped (never committed, like a refused
            # move). The others are marked running: a later cancel then cannot make set_result fail here.
            live = [(op, future) for op, future in batch if future.set_running_or_notify_cancel()]
            if live:
                self._commit(live)

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

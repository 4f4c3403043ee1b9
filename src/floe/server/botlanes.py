"""A lane: a few bot workers and the fair queue in front of them.

Decisions wait per table, and the tables take turns: a free worker takes the first job of the first table
in the rotation that it may run, and that table goes to the back (round robin by table, not first come
first served, so a table whose bot decides often never crowds out one whose bot decides rarely). A job may
be pinned to one worker (a bot that remembers lives there), and a lane may limit how many jobs of one
client (the creator of the table) run at once, so one client's tables never hold every worker.

Two things keep every table's wait bounded whatever the number of tables (issue 24, item 3: from 20
addresses a normal player's search bot made no move in 240 s). The tables of a person come first: a job of a
table where a person sits is always taken before one of a bot-only table (the caller says which: the
server counts only a person who opened their seat and is not away, ``Table.attended``). And with a
``round``, a search's time shrinks with the load: a job that may be shortened (``Job.retime``) gets at
most ``round`` × workers ÷ the tables waiting or running in its class (person tables count only each
other), but never less than ``min_slice`` seconds, so each table's turn comes within about ``round``
seconds while fewer than ``round`` × workers ÷ ``min_slice`` tables search.

Going first is not enough when every worker is already inside a bot-only search that began before the
person's job came: the person waits for one of them to end, a wait bounded by that search's time, not by the
person's bot's budget (issue 24: 6.2 s for an ``ismcts:ms=1000`` bot beside 40 bot-only tables of 10 s
searches). So, with a ``last_slice``, a bot-only job that takes the last free worker is cut to at most
``last_slice`` seconds (if it may be shortened). A longer bot-only search starts only while another worker
is free, so at most ``len(workers) - 1`` workers ever hold one; unless people's own searches hold the
others, a worker frees within ``last_slice`` and the person's job (first in line) takes it. A person's job is
never cut by this. Why a slice and not the other ways:

- keeping a worker idle for people would leave bot-only tables one worker fewer even while no person plays,
  and with two workers one client's bot-only search would hold every worker bot-only tables may use (the
  per-client limit is there so that it never does);
- preempting a running search would mean killing its worker process (the remembering bots it keeps lost, a
  new process to start) or a stop signal into every bot's search loop; the slice needs neither, since every
  search already stops at its time cap.

What it costs: a bot-only search that starts while only one worker is free searches at most ``last_slice``
(when both of two workers are free, the first search takes its whole time). With one worker, that worker is
always the last: every bot-only search is cut to ``last_slice``, even on an idle server, and a person's job
waits at most one slice. A person's remembering bot is pinned to its own worker and waits for it: if a long
bot-only search took that worker while another was free, the wait is that search's share of the round.

A job that is no longer wanted when its turn comes (the table moved on, the person came back) is dropped
unrun. A worker that dies is replaced, and the job it was running is tried once more on the new one; a job
that overran its hard limit (its worker was killed) is not.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter, OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from floe.server.botworkers import Worker, WorkerDied, WorkerOverrun

log = logging.getLogger("floe.server")


class Stale(Exception):
    """The job was dropped unrun: it was no longer wanted when its turn came."""


def _always() -> bool:
    return True


@dataclass(eq=False)
class Job:
    """One call to run in a lane's worker.

    ``table`` is the key the rotation serves; ``client`` the key of the per-client limit (None: not
    limited, e.g. housekeeping); ``slot`` the one worker that may run it (None: any); ``limit`` the wall time
    after which its worker is killed (None: none); ``wanted`` is asked when its turn comes. ``person``: a
    person sits at the table (it goes first); ``cap`` the seconds the job asks for and ``retime(seconds)`` the
    arguments that give it fewer (None: it cannot be shortened)."""

    table: str
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    client: str | None = None
    slot: int | None = None
    limit: float | None = None
    wanted: Callable[[], bool] = _always
    person: bool = False
    cap: float | None = None
    retime: Callable[[float], tuple[Any, ...]] | None = None
    future: asyncio.Future[Any] = field(default_factory=lambda: asyncio.get_running_loop().create_future())


class Lane:
    """``len(workers)`` workers behind one fair queue (see the module docstring)."""

    def __init__(
        self,
        name: str,
        make_worker: Callable[[int], Worker],
        size: int,
        *,
        per_client: int | None = None,
        round_seconds: float | None = None,
        min_slice: float = 0.05,
        last_slice: float | None = None,
    ) -> None:
        self.name = name
        self.make_worker = make_worker
        self.workers = [make_worker(slot) for slot in range(size)]
        self.running: list[Job | None] = [None] * size
        self.per_client = per_client
        self.round = round_seconds
        self.min_slice = min_slice
        self.last_slice = last_slice
        self.clients: Counter[str] = Counter()  # client -> its jobs running now
        # table -> its jobs, in rotation order: the tables of a person, then the bot-only ones.
        self.people: OrderedDict[str, deque[Job]] = OrderedDict()
        self.waiting: OrderedDict[str, deque[Job]] = OrderedDict()
        self.replaced = 0  # workers replaced after dying or overrunning (diagnostics, tests)
        self.closed = False
        self._tasks: set[asyncio.Task[None]] = set()

    def __len__(self) -> int:
        return len(self.workers)

    @property
    def queued(self) -> int:
        """Jobs waiting for a worker."""
        return sum(len(jobs) for queue in (self.people, self.waiting) for jobs in queue.values())

    async def run(self, job: Job) -> Any:
        """Queue ``job`` and return its result; ``Stale`` if it was dropped unrun. Cancelling the caller
        takes a waiting job out of the queue (a running one finishes in its worker, unheeded)."""
        if self.closed:
            raise RuntimeError(f"the {self.name} lane is closed")
        (self.people if job.person else self.waiting).setdefault(job.table, deque()).append(job)
        self._dispatch()
        return await job.future

    def _dispatch(self) -> None:
        """Give every free worker the next job it may run."""
        for slot, busy in enumerate(self.running):
            if busy is None and not self.closed:
                job = self._next(slot)
                if job is not None:
                    self._start(slot, job)

    def _next(self, slot: int) -> Job | None:
        return self._next_of(self.people, slot) or self._next_of(self.waiting, slot)

    def _next_of(self, waiting: OrderedDict[str, deque[Job]], slot: int) -> Job | None:
        for table in list(waiting):
            jobs = waiting[table]
            while jobs and (jobs[0].future.done() or not jobs[0].wanted()):
                dropped = jobs.popleft()
                if not dropped.future.done():
                    dropped.future.set_exception(Stale())
            if not jobs:
                del waiting[table]
                continue
            job = jobs[0]
            if job.slot is not None and job.slot != slot:
                continue
            if self._at_limit(job.client):
                continue
            jobs.popleft()
            del waiting[table]
            if jobs:  # served: to the back of the rotation
                waiting[table] = jobs
            return job
        return None

    def _share(self, job: Job) -> None:
        """Shorten ``job`` to its share of the round, and a bot-only job on the last free worker to
        ``last_slice`` (see the module docstring), if it may be shortened. Called before ``job`` runs."""
        if job.retime is None or job.cap is None:
            return
        share = job.cap
        if self.round is not None:
            running = [j for j in self.running if j is not None and j is not job]
            if job.person:
                tables = len(self.people) + sum(j.person for j in running)
            else:
                tables = len(self.people) + len(self.waiting) + len(running)
            share = max(self.min_slice, self.round * len(self.workers) / (tables + 1))
        if self.last_slice is not None and not job.person and self.running.count(None) <= 1:
            share = min(share, self.last_slice)
        if share < job.cap:
            job.args = job.retime(share)
            if job.limit is not None:
                job.limit -= job.cap - share
            job.cap = share

    def _at_limit(self, client: str | None) -> bool:
        """Whether ``client`` has as many jobs running as it may."""
        if client is None or self.per_client is None:
            return False
        return self.clients[client] >= self.per_client

    def _start(self, slot: int, job: Job) -> None:
        self._share(job)
        self.running[slot] = job
        if job.client is not None:
            self.clients[job.client] += 1
        task = asyncio.get_running_loop().create_task(self._execute(slot, job))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _execute(self, slot: int, job: Job) -> None:
        try:
            result = await self._call(slot, job)
        except Exception as exc:
            if not job.future.done():
                job.future.set_exception(exc)
        else:
            if not job.future.done():
                job.future.set_result(result)
        finally:
            self.running[slot] = None
            if job.client is not None:
                self.clients[job.client] -= 1
                if not self.clients[job.client]:
                    del self.clients[job.client]
            self._dispatch()

    async def _call(self, slot: int, job: Job) -> Any:
        """Run ``job`` on worker ``slot``; a worker that died is replaced and the job tried once more."""
        for attempt in (1, 2):
            worker = self.workers[slot]
            try:
                return await worker.call(job.fn, job.args, job.limit)
            except WorkerDied as exc:
                self._replace(slot, worker)
                if attempt == 2 or self.closed:
                    raise
                log.warning("%s; retrying on a new worker", exc)
            except WorkerOverrun:
                self._replace(slot, worker)
                raise
        raise AssertionError("unreachable")

    def _replace(self, slot: int, broken: Worker) -> None:
        if self.workers[slot] is broken and not self.closed:
            broken.close()
            self.workers[slot] = self.make_worker(slot)
            self.replaced += 1

    def close(self) -> None:
        """Stop the workers; waiting jobs are cancelled and running ones abandoned."""
        self.closed = True
        for waiting in (self.people, self.waiting):
            for jobs in waiting.values():
                for job in jobs:
                    job.future.cancel()
            waiting.clear()
        for worker in self.workers:
            worker.close()

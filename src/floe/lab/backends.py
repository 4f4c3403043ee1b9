"""Where the lab's games run: in this process, in local worker processes, or (later) on a cluster.

Every lab command plays games that depend only on their own job (a seed, a seating), so they can run
anywhere and in any order. ``execute`` is the one place that decides where: the commands describe their
jobs and a top-level (picklable) function that plays one, and receive each result in this process, in the
order the games finish, through ``keep``. Whatever ``keep`` has stored survives an interrupt.
"""

from __future__ import annotations

import multiprocessing
import signal
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any, TypeVar

from floe.core.errors import OptionError

Job = TypeVar("Job")
Result = TypeVar("Result")

MAX_WORKERS = 1024  # local processes; far above any machine's cores, a bound on a mistyped number


@dataclass(frozen=True)
class Backend:
    """How independent games are executed: ``workers`` local processes (1: in this process)."""

    workers: int = 1

    def __post_init__(self) -> None:
        if not 1 <= self.workers <= MAX_WORKERS:
            raise OptionError(f"workers must be from 1 to {MAX_WORKERS}")


def _ignore_sigint() -> None:
    # Ctrl-C is the parent's to handle (it cancels the run); workers printing their own
    # KeyboardInterrupt tracebacks would bury the one-line message.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def execute(
    fn: Callable[[Job], Result],
    jobs: Sequence[Job],
    backend: Backend,
    keep: Callable[[Result], None],
) -> None:
    """Run ``fn(job)`` for every job on ``backend``, calling ``keep`` with each result as it finishes.

    ``fn`` must be a module-level function and the jobs picklable when ``backend`` is not in-process.
    """
    if backend.workers == 1 or len(jobs) <= 1:
        for job in jobs:
            keep(fn(job))
        return
    _execute_processes(fn, jobs, min(backend.workers, len(jobs)), keep)


def _execute_processes(
    fn: Callable[[Job], Result], jobs: Sequence[Job], workers: int, keep: Callable[[Result], None]
) -> None:
    # "spawn" rather than fork: the same behaviour on every platform, and no fork of a process whose
    # progress-bar thread may hold a lock.
    pool = ProcessPoolExecutor(
        max_workers=workers, mp_context=multiprocessing.get_context("spawn"), initializer=_ignore_sigint
    )
    try:
        futures: list[Future[Result]] = [pool.submit(fn, job) for job in jobs]
        for future in as_completed(futures):
            keep(future.result())
    except BaseException:
        # Games already running would otherwise hold up the exit until they finish; their results are
        # not kept anyway, and a resumed run plays them again. (shutdown() forgets the processes: take
        # them first.)
        processes: Mapping[int, Any] = getattr(pool, "_processes", None) or {}
        running = list(processes.values())
        pool.shutdown(wait=False, cancel_futures=True)
        for process in running:
            process.terminate()
        raise
    pool.shutdown(wait=True)

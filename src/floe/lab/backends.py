"""Where the lab's games run: in this process, in local worker processes, or on Ray (``raybackend.py``).

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
from typing import Any, TypeVar

from floe.lab.where import Backend

Job = TypeVar("Job")
Result = TypeVar("Result")

# Games of one run (`floe simulate | tournament | balance`, per variant): a run plans its games before it
# plays (about 140 MB for a million); a larger study is several runs, each with its own seed.
MAX_RUN_GAMES = 1_000_000


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
    if backend.on_ray:
        from floe.lab.raybackend import execute_ray

        execute_ray(fn, jobs, backend, keep)
        return
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

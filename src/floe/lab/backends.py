"""Where the lab's games run: in this process, in local worker processes, or on Ray (``raybackend.py``).

Every lab command plays games that depend only on their own job (a seed, a seating), so they can run
anywhere and in any order. ``execute`` is the one place that decides where: the commands describe their
jobs and a top-level (picklable) function that plays one, and receive each result in this process, in the
order the games finish, through ``keep``. Whatever ``keep`` has stored survives an interrupt.
"""

from __future__ import annotations

import importlib.util
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
# Games of one run (`floe simulate | tournament | balance`, per variant): a run plans its games before it
# plays (about 140 MB for a million); a larger study is several runs, each with its own seed.
MAX_RUN_GAMES = 1_000_000
# Games per Ray task. One task costs Ray about a millisecond of scheduling and transfer, a random 4-player
# game of random play about as much: 32 games keep that overhead under the 10% `floe bench lab` checks (see
# docs/performance.md), and a slow bot's batch still reports (and, if its worker dies, replays) little.
DEFAULT_BATCH = 32
MAX_BATCH = 100_000
MAX_ADDRESS = 255  # a host name and port, or ray://host:port
RAY_INSTALL = "Ray is not installed: add the extra ray (uv sync --extra ray, or pip install 'floe[ray]')"


def ray_installed() -> bool:
    """Whether the optional extra ``ray`` is importable (looked up without importing Ray, which is slow)."""
    return importlib.util.find_spec("ray") is not None


@dataclass(frozen=True)
class Backend:
    """How independent games are executed: ``workers`` local processes (1: in this process), or on Ray.

    ``ray``: a local Ray instance started for the run with ``workers`` CPUs; ``ray_address``: an existing
    cluster (which then decides the CPUs); ``batch``: games per Ray task.
    """

    workers: int = 1
    ray: bool = False
    ray_address: str | None = None
    batch: int = DEFAULT_BATCH

    def __post_init__(self) -> None:
        if not 1 <= self.workers <= MAX_WORKERS:
            raise OptionError(f"workers must be from 1 to {MAX_WORKERS}")
        if not 1 <= self.batch <= MAX_BATCH:
            raise OptionError(f"the batch must be from 1 to {MAX_BATCH:,} games")
        if self.ray_address is not None and (
            not self.ray_address
            or len(self.ray_address) > MAX_ADDRESS
            or not self.ray_address.isprintable()
            or any(c.isspace() for c in self.ray_address)
        ):
            raise OptionError(f"the Ray address must be a host:port of at most {MAX_ADDRESS} characters")
        # Checked here, before a results file is made, so a missing extra costs one line and no state.
        if self.on_ray and not ray_installed():
            raise OptionError(RAY_INSTALL)

    @property
    def on_ray(self) -> bool:
        """Whether the games run on Ray (a local instance or the cluster at ``ray_address``)."""
        return self.ray or self.ray_address is not None


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

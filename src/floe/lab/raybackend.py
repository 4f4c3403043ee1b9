"""The lab's games on Ray: a local instance started for one run (``--ray``) or a cluster (``--ray-address``).

The jobs go out in batches: one Ray task plays ``backend.batch`` games and returns their results, which
``keep`` receives in this process as each batch finishes, so the results file holds every finished batch.
Ray replays a task whose worker process or node died (``MAX_RETRIES``); a game that fails by itself is not
replayed (it would fail again). At most ``IN_FLIGHT_PER_CPU`` tasks per CPU of the cluster are submitted at
a time, so a million-game run does not queue a million jobs in Ray's memory.

On this machine Ray stays on the loopback interface. Ray reads ``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER`` once, at
import: "0" makes every process of a local instance (and a driver of a cluster on 127.0.0.1) use
127.0.0.1, and Ray's servers then listen on 127.0.0.1 only; with cluster mode on (Linux's default), Ray
replaces 127.0.0.1 by the machine's outward address and its servers listen on every interface. See
docs/scaling.md for a cluster on one machine's loopback.
"""

from __future__ import annotations

import logging
import os
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TextIO, TypeVar

from floe.core.errors import FloeError
from floe.lab.where import Backend

Job = TypeVar("Job")
Result = TypeVar("Result")

MAX_RETRIES = 3  # replays of a task whose worker died; Ray's own default, stated because we rely on it
IN_FLIGHT_PER_CPU = 4  # enough queued tasks that no CPU waits for the driver, few enough to bound memory
OBJECT_STORE_BYTES = 128 * 1024 * 1024  # a local instance's shared memory: results are small lists
LOOPBACK_HOSTS = ("localhost", "[::1]", "::1")


class RayRunError(FloeError):
    """Ray could not be started or reached."""


def batches(jobs: Sequence[Job], size: int) -> list[list[Job]]:
    """The jobs cut into consecutive batches of ``size`` (the last one shorter)."""
    return [list(jobs[i : i + size]) for i in range(0, len(jobs), size)]


def run_batch(fn: Callable[[Job], Result], batch: Sequence[Job]) -> list[Result]:
    """One Ray task: ``fn`` on every job of the batch, in order."""
    return [fn(job) for job in batch]


def is_loopback(address: str) -> bool:
    """Whether a Ray address (``host:port``, ``ray://host:port``) names this machine's loopback."""
    host = address.removeprefix("ray://").rpartition(":")[0] or address
    return host.startswith("127.") or host in LOOPBACK_HOSTS


def _keep_to_loopback() -> None:
    # Set in the environment for the processes Ray starts, and in the constant Ray read at its import if
    # this process imported it already (the tests run several kinds of run in one process).
    os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"
    constants = sys.modules.get("ray._private.ray_constants")
    if constants is not None:
        constants.ENABLE_RAY_CLUSTER = False  # type: ignore[attr-defined]


def ray_log_path(pid: int | None = None) -> Path:
    """Where Ray's own output of the run in process ``pid`` (default: this one) goes
    (``ray_output_to_log``)."""
    return Path(tempfile.gettempdir()) / f"floe-ray-{os.getpid() if pid is None else pid}.log"


def _stream_to(fd: int, current: TextIO) -> TextIO | None:
    """A new text stream on a copy of ``fd`` standing for ``current`` (Python's ``sys.stdout`` or
    ``sys.stderr``), or None when ``current`` is not that descriptor's stream (a test's capture)."""
    try:
        if current.fileno() != fd:
            return None
    except (AttributeError, OSError, ValueError):
        return None
    return os.fdopen(
        os.dup(fd), "w", buffering=1, encoding=current.encoding, errors=current.errors, closefd=True
    )


def _log_note() -> str:
    """Where Ray's own output is, for a message, if it wrote any."""
    path = ray_log_path()
    return f" (Ray's own output: {path})" if path.exists() and path.stat().st_size else ""


@contextmanager
def ray_output_to_log(path: Path) -> Iterator[None]:
    """Ray's own lines kept out of the user's terminal and in ``path``: its C++ core in this process (the
    GCS, raylet and core-worker error lines it prints on a shutdown or a Ctrl-C) and any process Ray starts
    write to the file descriptors 1 and 2, which point at ``path`` meanwhile, while this program's own
    output (``sys.stdout``, ``sys.stderr``: the results, progress, messages) goes on to the terminal through
    copies of the old descriptors. An empty log is removed at the end."""
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    log = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    saved = {fd: os.dup(fd) for fd in (1, 2)}
    streams = {1: sys.stdout, 2: sys.stderr}
    ours = {fd: _stream_to(fd, streams[fd]) for fd in (1, 2)}
    try:
        for fd in (1, 2):
            os.dup2(log, fd)
        if ours[1] is not None:
            sys.stdout = ours[1]
        if ours[2] is not None:
            sys.stderr = ours[2]
        yield
    finally:
        for fd in (1, 2):
            stream = ours[fd]
            if stream is not None:
                stream.flush()
            os.dup2(saved[fd], fd)
            os.close(saved[fd])
        sys.stdout, sys.stderr = streams[1], streams[2]
        for stream in ours.values():
            if stream is not None:
                stream.close()
        os.close(log)
        if path.exists() and path.stat().st_size == 0:
            path.unlink()


@contextmanager
def ray_session(backend: Backend) -> Iterator[Any]:
    """Ray, connected for one run: to ``backend.ray_address``, else to a local instance started now with
    ``backend.workers`` CPUs (loopback only, no dashboard, no usage statistics) and shut down after. A
    process already connected (``ray.init`` called before) keeps its connection."""
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    if backend.ray_address is None or is_loopback(backend.ray_address):
        _keep_to_loopback()
    import ray

    if ray.is_initialized():
        yield ray
        return
    common: dict[str, Any] = {"logging_level": logging.ERROR, "log_to_driver": False}
    with ray_output_to_log(ray_log_path()):
        yield from _connected(ray, backend, common)


def _connected(ray: Any, backend: Backend, common: dict[str, Any]) -> Iterator[Any]:
    try:
        if backend.ray_address is not None:
            ray.init(address=backend.ray_address, **common)
        else:
            ray.init(
                # "local": always a new instance; without it Ray joins any Ray already running on this
                # machine (a `ray start` cluster, RAY_ADDRESS), which is not what --ray promises.
                address="local",
                num_cpus=backend.workers,
                include_dashboard=False,
                object_store_memory=OBJECT_STORE_BYTES,
                **common,
            )
    except (ConnectionError, RuntimeError, ValueError) as exc:
        where = backend.ray_address or "a local instance"
        raise RayRunError(
            f"cannot start Ray ({where}): {str(exc).splitlines()[0] if str(exc) else exc}" + _log_note()
        ) from None
    try:
        yield ray
    finally:
        ray.shutdown()


def execute_ray(
    fn: Callable[[Job], Result], jobs: Sequence[Job], backend: Backend, keep: Callable[[Result], None]
) -> None:
    """``execute`` on Ray: the jobs in batches of ``backend.batch``, each batch's results kept as it
    finishes; on an interrupt or an error the tasks not finished are cancelled (a resumed run plays them)."""
    if not jobs:
        return
    with ray_session(backend) as ray:
        # SPREAD: over every node from the start, rather than filling the driver's node first.
        play = ray.remote(num_cpus=1, max_retries=MAX_RETRIES, scheduling_strategy="SPREAD")(run_batch)
        todo = batches(jobs, backend.batch)
        cpus = int(ray.cluster_resources().get("CPU", 1))
        window = max(2, IN_FLIGHT_PER_CPU * cpus)
        pending: list[Any] = []
        submitted = 0
        try:
            while submitted < len(todo) or pending:
                while submitted < len(todo) and len(pending) < window:
                    pending.append(play.remote(fn, todo[submitted]))
                    submitted += 1
                ready, pending = ray.wait(pending, num_returns=1)
                for result in _results(ray, ready[0]):
                    keep(result)
        except BaseException as exc:
            # The tasks left would play on for nothing: cancel them; but not after a Ctrl-C on a local
            # instance, which is shut down whole just after, and whose processes received the Ctrl-C
            # too: asking each of them first would only wait on them.
            if backend.ray_address is not None or not isinstance(exc, KeyboardInterrupt):
                for ref in pending:
                    ray.cancel(ref, force=True)
            raise


def _results(ray: Any, ref: Any) -> list[Any]:
    """A finished task's results; a game's own error as itself (as on local processes), and Ray's failures
    (a task whose retries ran out, a lost node) as one line, not Ray's page of traceback."""
    try:
        return list(ray.get(ref))
    except ray.exceptions.RayTaskError as exc:
        if isinstance(exc.cause, Exception):
            raise exc.cause from None
        raise RayRunError(f"Ray: {_first_line(exc)}{_log_note()}") from None
    except ray.exceptions.RayError as exc:
        raise RayRunError(f"Ray: {_first_line(exc)}{_log_note()}") from None


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__

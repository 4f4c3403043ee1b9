"""Where the lab's games run, as a run describes it: ``Backend`` (local processes, a local Ray instance or a
Ray cluster) with its bounds, checked before any work. ``backends.execute`` runs the games on it; the Ray
part (``raybackend.py``) reads it too, so it lives apart from both (no import circle between them).
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass

from floe.core.errors import OptionError

MAX_WORKERS = 1024  # local processes; far above any machine's cores, a bound on a mistyped number
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

"""``floe bench lab``: the lab's throughput in games per second, on local processes and on local Ray.

The same seeded games (of the game named, at its most players unless told; random bots unless ``bots`` names
others, one per seat or fewer, the seats left filled as ``floe simulate --bots`` fills them) are played three
ways in one run: on ``workers`` local processes (``execute``'s default way, the pool's start included), then
on a local Ray instance with as many CPUs, once per batch size (games per Ray task), after one warm-up run so
that Ray's workers have started and imported the game. Ray's overhead at a batch size is how much slower than
the processes it played: ``1 - ray games/s ÷ processes games/s`` (negative: faster). The figures name the
default batch size's figures (``batch``, ``ray_games_per_sec``, ``ray_overhead``, to hold at most
``TARGET_OVERHEAD``) and the smallest batch size within it. Ray's own start (seconds, once per run) is
reported apart.
"""

from __future__ import annotations

import os
import platform
import time
from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.progress import Progress

from floe.bench.engine import print_figures
from floe.bots.registry import make_bot
from floe.bots.specs import parse_bot_list
from floe.core.registry import make_game
from floe.lab.backends import execute
from floe.lab.raybackend import ray_session
from floe.lab.runner import fill_seats
from floe.lab.simulate import SeatedGame, play_seated
from floe.lab.where import DEFAULT_BATCH, Backend

BATCHES = (1, 8, DEFAULT_BATCH, 128)
TARGET_OVERHEAD = 0.10


def _jobs(game_name: str, players: int, games: int, seed: int, bots: Sequence[str]) -> list[SeatedGame]:
    return [SeatedGame(i, game_name, players, {}, tuple(bots), seed + i) for i in range(games)]


def _games_per_sec(
    jobs: Sequence[SeatedGame], backend: Backend, progress: Progress | None, what: str
) -> float:
    """Play ``jobs`` on ``backend``; games per second. ``progress`` (if any) shows ``what`` and a bar."""
    played = 0
    task = progress.add_task(what, total=len(jobs)) if progress is not None else None

    def keep(_: Any) -> None:
        nonlocal played
        played += 1
        if progress is not None and task is not None:
            progress.advance(task)

    start = time.perf_counter()
    execute(play_seated, jobs, backend, keep)
    elapsed = time.perf_counter() - start
    return played / elapsed


def bench_lab(
    game_name: str,
    players: int,
    games: int,
    workers: int,
    seed: int,
    batches: Sequence[int] = BATCHES,
    bots: str = "random",
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Measure ``games`` games of ``bots`` on ``workers`` local processes and on local Ray per batch size;
    ``progress`` (if any) gets one task per way played, so a person sees how far the run is."""
    import ray

    game = make_game(game_name, players)  # a bad player count or bot fails here, before anything starts
    seats = fill_seats(parse_bot_list(bots), players)
    for seat, spec in enumerate(seats):
        make_bot(spec, game, seat, seed)
    jobs = _jobs(game_name, players, games, seed, seats)
    processes = _games_per_sec(jobs, Backend(workers), progress, f"{workers} processes")
    rows = []
    start = time.perf_counter()
    starting = progress.add_task("starting Ray", total=None) if progress is not None else None
    with ray_session(Backend(workers, ray=True)):
        ray_start = time.perf_counter() - start
        if progress is not None and starting is not None:
            progress.update(starting, total=1, completed=1)
        warm = jobs[: 4 * workers]
        _games_per_sec(
            warm, Backend(workers, ray=True, batch=1), progress, "Ray warm-up"
        )  # start every worker
        for batch in batches:
            speed = _games_per_sec(
                jobs, Backend(workers, ray=True, batch=batch), progress, f"Ray, batch {batch}"
            )
            rows.append(
                {
                    "batch": batch,
                    "games_per_sec": round(speed, 1),
                    "overhead": round(1 - speed / processes, 3),
                }
            )
    default = next(row for row in rows if row["batch"] == DEFAULT_BATCH)
    fitting = [row["batch"] for row in rows if row["overhead"] <= TARGET_OVERHEAD]
    return {
        "game": game_name,
        "players": players,
        "bots": ",".join(parse_bot_list(bots)),
        "games": games,
        "workers": workers,
        "processes_games_per_sec": round(processes, 1),
        "ray_start_seconds": round(ray_start, 2),
        "ray_by_batch": rows,
        "batch": DEFAULT_BATCH,
        "ray_games_per_sec": default["games_per_sec"],
        "ray_overhead": default["overhead"],
        "overhead_at_most": TARGET_OVERHEAD,
        "smallest_batch_within": min(fitting, default=None),
        "cpus": os.cpu_count(),
        "load_average_1min": round(os.getloadavg()[0], 2),
        "python": platform.python_version(),
        "ray": ray.__version__,
        "machine": platform.machine(),
    }


def run_bench_lab(
    game_name: str, players: int, games: int, workers: int, seed: int, as_json: bool, bots: str = "random"
) -> None:
    """The ``floe bench lab`` command: print the figures (JSON with ``as_json``)."""
    # The progress goes to stderr and disappears at the end: stdout stays the figures (or one JSON).
    with Progress(transient=True, console=Console(stderr=True)) as progress:
        figures = bench_lab(game_name, players, games, workers, seed, bots=bots, progress=progress)
    print_figures(figures, as_json)

"""Bots think in worker processes, so a search of half a second never stalls the event loop or other tables.

A bot gets exactly what a person in its seat would: the seat's observation and its legal actions. It is
rebuilt for every decision from its spec and a seed derived from the table's seed and version, so a bot's
move is reproducible and survives a restart.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from functools import lru_cache
from typing import Any

from floe.bots.base import make_bot
from floe.core.game import Game
from floe.core.registry import make_game


@lru_cache(maxsize=64)
def _game(name: str, players: int, options_key: tuple[tuple[str, str], ...]) -> Game:
    import json

    return make_game(name, players, {k: json.loads(v) for k, v in options_key})


def options_key(options: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    """A hashable form of a table's options (for the per-process game cache)."""
    import json

    return tuple(sorted((k, json.dumps(v)) for k, v in options.items()))


def choose(
    game: str,
    players: int,
    options: tuple[tuple[str, str], ...],
    spec: str,
    seat: int,
    seed: int,
    observation: Any,
    legal: list[int],
) -> int:
    """Run in a worker: the bot ``spec`` for ``seat`` picks one of ``legal`` from ``observation``."""
    bot = make_bot(spec, _game(game, players, options), seat, seed)
    return bot.choose(observation, legal)


class BotRunner:
    """A pool of worker processes (or threads, for tests that want no processes) running bot decisions."""

    def __init__(self, workers: int = 2, *, processes: bool = True) -> None:
        self.executor: Executor
        if processes:
            self.executor = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))
        else:
            self.executor = ThreadPoolExecutor(workers, thread_name_prefix="floe-bot")

    async def choose(
        self,
        game: str,
        players: int,
        options: dict[str, Any],
        spec: str,
        seat: int,
        seed: int,
        observation: Any,
        legal: list[int],
    ) -> int:
        """The bot's action, computed off the event loop."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self.executor, choose, game, players, options_key(options), spec, seat, seed, observation, legal
        )

    def close(self) -> None:
        """Stop the workers (running decisions are abandoned: their tables resume on the next start)."""
        self.executor.shutdown(wait=False, cancel_futures=True)

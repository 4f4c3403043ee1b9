"""Bots think in worker processes, so a search of half a second never stalls the event loop or other tables.

A bot gets exactly what a person in its seat would: the seat's observation and its legal actions. There are
``workers`` worker slots, each one process (or one thread, for tests that want no processes), so that a
decision can be sent to a chosen worker:

- A bot that **remembers nothing** (``Bot.remembers`` false: random, ismcts, most game bots) is built
  afresh for every decision from its spec and a seed derived from the table's seed and version, in the least
  busy worker. Its move is a function of that seed and the observation: reproducible, and unchanged by a
  restart.
- A bot that **remembers** (mcts keeps its search tree and the positions it has met) lives for the whole
  game: every decision of one (table, seat, bot spec) goes to the worker a stable hash of table and seat
  picks, and that worker keeps the live bot in a small LRU cache (``live_per_worker``), dropped when the
  table finishes. When the worker has no bot for the seat (its first decision, after a restart, an eviction
  or a worker that died), it builds one with the same seed rule and replays the table's log in the worker,
  telling the bot every earlier decision of its seat through ``Bot.recall``; the same replay tells a kept bot
  the decisions its seat made without it (a person who played between two turns of their away bot).

What is reproducible for a remembering bot: with an iteration budget (``it=``), a bot kept from its first
decision plays the same moves for the same table seed and log, run after run; a bot rebuilt mid-game starts
from the seed of the version it was rebuilt at and from what ``recall`` restores (mcts: the positions met,
not the tree), so it may choose differently from the bot it replaces. With a time budget (``ms=``) no search
is reproducible in any case.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import zlib
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from floe.bots.base import Bot, make_bot
from floe.core.game import Game, State
from floe.core.registry import make_game

OptionsKey = tuple[tuple[str, str], ...]
LIVE_PER_WORKER = 16  # live remembering bots per worker; an mcts tree may hold many positions


@lru_cache(maxsize=64)
def _game(name: str, players: int, options_key: OptionsKey) -> Game:
    return make_game(name, players, {k: json.loads(v) for k, v in options_key})


def options_key(options: dict[str, Any]) -> OptionsKey:
    """A hashable form of a table's options (for the per-process game cache)."""
    return tuple(sorted((k, json.dumps(v)) for k, v in options.items()))


@lru_cache(maxsize=256)
def remembers(game: str, players: int, options: OptionsKey, spec: str) -> bool:
    """Whether the bot ``spec`` keeps memory between decisions (``Bot.remembers``)."""
    return type(make_bot(spec, _game(game, players, options), 0, 0)).remembers


@dataclass(frozen=True)
class Decision:
    """One bot decision, as sent to a worker: what the seat sees and may do, and who is asking.

    ``seed`` is derived from the table's seed and version; ``table`` and ``history`` (the table's whole log,
    chance outcomes included) are filled in for a remembering bot only, which may have to be rebuilt."""

    game: str
    players: int
    options: OptionsKey
    spec: str
    seat: int
    seed: int
    observation: Any
    legal: tuple[int, ...]
    table: str = ""
    history: tuple[int, ...] = ()


# --- in the worker -------------------------------------------------------------------------------------
def choose(decision: Decision) -> int:
    """A fresh bot for ``decision.seat`` picks one of the legal actions (a bot that remembers nothing)."""
    d = decision
    bot = make_bot(d.spec, _game(d.game, d.players, d.options), d.seat, d.seed)
    return bot.choose(d.observation, list(d.legal))


@dataclass
class LiveBot:
    """A remembering bot kept in a worker, with the position it has been told about (``state``)."""

    bot: Bot
    state: State
    built_at: int  # the table version it was built at (its seed is that version's)
    own: dict[int, int] = field(default_factory=dict)  # version -> the action it chose there
    decisions: int = 0
    recalled: int = 0

    def catch_up(self, history: tuple[int, ...], seat: int) -> None:
        """Replay ``history`` past what the bot knows, recalling each decision of ``seat`` it did not make."""
        state = self.state
        for action in history[len(state.history) :]:
            version = len(state.history)
            if state.current_player() == seat and self.own.get(version) != action:
                self.bot.recall(state.observation(seat), action)
                self.recalled += 1
            state.apply_unchecked(action)

    def follows(self, history: tuple[int, ...]) -> bool:
        """Whether ``history`` continues the log this bot was told about (a table's log only grows)."""
        known = self.state.history
        return len(known) <= len(history) and list(history[: len(known)]) == list(known)


# Per worker slot (one per process; several when the slots are threads of one process): key -> live bot.
_LIVE: dict[int, OrderedDict[tuple[str, int, str], LiveBot]] = {}


def choose_remembered(slot: int, decision: Decision, capacity: int = LIVE_PER_WORKER) -> int:
    """The live bot of (table, seat, spec) in this worker picks an action; built (and told the seat's
    earlier decisions) if the worker has none."""
    d = decision
    cache = _LIVE.setdefault(slot, OrderedDict())
    key = (d.table, d.seat, d.spec)
    live = cache.get(key)
    if live is None or not live.follows(d.history):
        game = _game(d.game, d.players, d.options)
        bot = make_bot(d.spec, game, d.seat, d.seed)
        live = cache[key] = LiveBot(bot, game.new_initial_state(), built_at=len(d.history))
    cache.move_to_end(key)
    while len(cache) > capacity:
        cache.popitem(last=False)
    live.catch_up(d.history, d.seat)
    action = live.bot.choose(d.observation, list(d.legal))
    live.own[len(d.history)] = action
    live.decisions += 1
    return action


def forget(slot: int, table: str) -> int:
    """Drop this worker's live bots of ``table`` (it finished); returns how many."""
    cache = _LIVE.get(slot, OrderedDict())
    gone = [key for key in cache if key[0] == table]
    for key in gone:
        del cache[key]
    return len(gone)


def live_report(slot: int) -> list[dict[str, Any]]:
    """This worker's live bots, for diagnostics and tests: which bot object serves which seat, how often."""
    return [
        {
            "table": table,
            "seat": seat,
            "spec": spec,
            "slot": slot,
            "bot_id": id(live.bot),
            "built_at": live.built_at,
            "decisions": live.decisions,
            "recalled": live.recalled,
        }
        for (table, seat, spec), live in _LIVE.get(slot, {}).items()
    ]


# --- on the server ---------------------------------------------------------------------------------------
class BotRunner:
    """``workers`` single-worker executors: processes, or threads for tests that want no processes."""

    def __init__(
        self, workers: int = 2, *, processes: bool = True, live_per_worker: int = LIVE_PER_WORKER
    ) -> None:
        self.processes = processes
        self.capacity = live_per_worker
        self.slots: list[Executor] = [self._executor(k) for k in range(max(1, workers))]
        self.busy = [0] * len(self.slots)
        self.homes: dict[str, set[int]] = {}  # table -> the slots that may hold live bots of it

    def _executor(self, slot: int) -> Executor:
        if self.processes:
            return ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
        return ThreadPoolExecutor(1, thread_name_prefix=f"floe-bot-{slot}")

    def slot_of(self, table: str, seat: int) -> int:
        """The worker that keeps the remembering bots of ``table``'s ``seat`` (stable across restarts)."""
        return zlib.crc32(f"{table}/{seat}".encode()) % len(self.slots)

    async def choose(self, decision: Decision) -> int:
        """The bot's action, computed off the event loop (in the seat's own worker if the bot remembers)."""
        d = decision
        if d.table and remembers(d.game, d.players, d.options, d.spec):
            slot = self.slot_of(d.table, d.seat)
            self.homes.setdefault(d.table, set()).add(slot)
            action: int = await self._run(slot, choose_remembered, slot, d, self.capacity)
            return action
        plain = Decision(d.game, d.players, d.options, d.spec, d.seat, d.seed, d.observation, d.legal)
        slot = min(range(len(self.slots)), key=lambda k: self.busy[k])
        action = await self._run(slot, choose, plain)
        return action

    async def _run(self, slot: int, fn: Callable[..., Any], *args: Any) -> Any:
        """Run ``fn`` in worker ``slot``; a worker that died is replaced and the call tried once more there
        (a remembering bot is then rebuilt from the log)."""
        for attempt in (1, 2):
            executor = self.slots[slot]
            self.busy[slot] += 1
            try:
                return await asyncio.wrap_future(executor.submit(fn, *args))
            except BrokenProcessPool:
                if attempt == 2:
                    raise
                self._replace(slot, executor)
            finally:
                self.busy[slot] -= 1
        raise AssertionError("unreachable")

    def _replace(self, slot: int, broken: Executor) -> None:
        if self.slots[slot] is broken:
            broken.shutdown(wait=False, cancel_futures=True)
            self.slots[slot] = self._executor(slot)

    def forget(self, table: str) -> None:
        """Drop the live bots of a finished table (in the background; an error only means nothing to drop)."""
        for slot in sorted(self.homes.pop(table, ())):
            try:
                future = self.slots[slot].submit(forget, slot, table)
            except RuntimeError:  # shut down or broken: it holds no bots
                continue
            future.add_done_callback(lambda f: f.exception())

    async def live(self) -> list[dict[str, Any]]:
        """Every worker's live remembering bots (``live_report``): diagnostics, and what the tests read."""
        out: list[dict[str, Any]] = []
        for slot in range(len(self.slots)):
            out.extend(await self._run(slot, live_report, slot))
        return out

    def close(self) -> None:
        """Stop the workers (running decisions are abandoned: their tables resume on the next start)."""
        for executor in self.slots:
            executor.shutdown(wait=False, cancel_futures=True)

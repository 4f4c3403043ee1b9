"""Bots think in worker processes, so a search of half a second never stalls the event loop or other tables.

A bot gets exactly what a person in its seat would: the seat's observation and its legal actions. Workers
are processes (or threads, for tests that want no processes) in two lanes (``BotRunner``): a fast lane for
the decisions a bot says are cheap (``Bot.cost``), which no search can hold up, and a search lane for the
rest, where the tables take turns (``botlanes``). Every decision's wall time is capped (``BotLimits``).

- A bot that **remembers nothing** (``Bot.remembers`` false: random, ismcts, most game bots) is built
  afresh for every decision from its spec and a seed derived from the table's seed and version, in the next
  free worker of its lane (the quickest ones in the server process itself). Its move is a function of that
  seed and the observation: reproducible, and unchanged by a restart.
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
not the tree), so it may choose differently from the bot it replaces. With a time budget (``ms=``), or an
iteration budget cut short by the server's time cap, no search is reproducible in any case.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import random
import time
import zlib
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from floe.bots.base import Bot
from floe.bots.registry import bot_cost, make_bot
from floe.core.errors import FloeError
from floe.core.game import Game, State
from floe.core.registry import entries, shared_game
from floe.server.botlanes import Job, Lane, Stale
from floe.server.botworkers import ProcessWorker, ThreadWorker, Worker, WorkerOverrun

log = logging.getLogger("floe.server")

OptionsKey = tuple[tuple[str, str], ...]
LIVE_PER_WORKER = 16  # live remembering bots per worker; an mcts tree may hold many positions


def _game(name: str, players: int, options_key: OptionsKey) -> Game:
    return shared_game(name, players, {k: json.loads(v) for k, v in options_key})


def options_key(options: dict[str, Any]) -> OptionsKey:
    """A hashable form of a table's options (for the per-process game cache)."""
    return tuple(sorted((k, json.dumps(v)) for k, v in options.items()))


# (game, players, spec) -> (the bot can be built, it remembers): what the server asks before each decision.
# A bot's parameters are checked by its game and player count, never by the table's other options.
_FACTS: OrderedDict[tuple[str, int, str], tuple[bool, bool]] = OrderedDict()
FACTS_KEPT = 1024


def spec_facts(game: Game, spec: str) -> tuple[bool, bool]:
    """Whether the bot ``spec`` can be built for ``game`` (a table stored before the bounds of today's bots
    may name one that no longer can), and whether it remembers (``Bot.remembers``)."""
    key = (game.name, game.players, spec)
    facts = _FACTS.get(key)
    if facts is None:
        try:
            facts = (True, type(make_bot(spec, game, 0, 0)).remembers)
        except FloeError as exc:
            log.warning("bot %r cannot play here (%s); the game's away bot plays instead", spec, exc)
            facts = (False, False)
        _FACTS[key] = facts
        while len(_FACTS) > FACTS_KEPT:
            _FACTS.popitem(last=False)
    return facts


def remembers(game: str, players: int, options: OptionsKey, spec: str) -> bool:
    """Whether the bot ``spec`` keeps memory between decisions (``Bot.remembers``)."""
    return spec_facts(_game(game, players, options), spec)[1]


@dataclass(frozen=True)
class Decision:
    """One bot decision, as sent to a worker: what the seat sees and may do, and who is asking.

    ``seed`` is derived from the table's seed and version; ``table`` and ``history`` (the table's whole log,
    chance outcomes included) are filled in for a remembering bot only, which may have to be rebuilt;
    ``time_cap`` is the server's cap on the decision's wall time, set by the runner."""

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
    time_cap: float | None = None  # seconds the whole decision may take in the worker (None: no cap)


# --- in the worker -------------------------------------------------------------------------------------
def choose(decision: Decision) -> int:
    """A fresh bot for ``decision.seat`` picks one of the legal actions (a bot that remembers nothing)."""
    d = decision
    started = time.perf_counter()
    bot = make_bot(d.spec, _game(d.game, d.players, d.options), d.seat, d.seed)
    bot.time_cap = _remaining(d.time_cap, started)
    return bot.choose(d.observation, list(d.legal))


def _remaining(time_cap: float | None, started: float) -> float | None:
    """What is left of ``time_cap`` after the time spent since ``started`` (building a bot, replaying a log);
    a little is always left, so a search makes at least one iteration."""
    if time_cap is None:
        return None
    return max(0.01, time_cap - (time.perf_counter() - started))


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
    started = time.perf_counter()
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
    live.bot.time_cap = _remaining(d.time_cap, started)
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
@dataclass(frozen=True)
class BotLimits:
    """How a server shares its bot workers (see "Bot lanes" in docs/server.md).

    ``time_cap``: seconds one decision may take, whatever its bot's parameters (None: no cap); a search stops
    at it (``Bot.time_cap``), and a worker still busy ``overrun_grace`` seconds later is killed and the
    decision played at random. ``cheap_seconds``: decisions whose bot says (``Bot.cost``) they take at most
    this go to the fast lane; at most ``inline_seconds``, they run in the server process itself.
    ``fast_workers``: the fast lane's workers. ``per_client``: searches of one client's tables running at
    once (None: no limit). ``last_slice``: seconds a search of a bot-only table may take when it starts on
    the last free search worker, so that a person's search waits at most about this for one (None: no
    bound; see ``botlanes``). ``search_nice``: how much lower than the server's the search workers' CPU
    priority is (Unix ``nice``; 0: the same), so that moves, acks and cheap bots are not starved of CPU by
    searches on a busy machine."""

    time_cap: float | None = None
    overrun_grace: float = 5.0
    cheap_seconds: float = 0.05
    inline_seconds: float = 0.001
    fast_workers: int = 1
    per_client: int | None = None
    search_round: float | None = None  # seconds within which every search table gets a turn (botlanes)
    min_slice: float = 0.05  # ... but no search is cut shorter than this
    last_slice: float | None = None
    search_nice: int = 0


@lru_cache(maxsize=1024)
def decision_cost(game: str, spec: str) -> float | None:
    """What one decision of ``spec`` costs in ``game``, by its bot's own estimate (``Bot.cost``)."""
    return bot_cost(spec, game)


def warm() -> None:
    """Load every installed game in a new worker before its first decision (its first answer is then
    as quick as the others)."""
    for game in entries():
        try:
            game.new_game(game.min_players, {})
        except Exception:  # a game that cannot be warmed is loaded on its first decision, as before
            log.warning("could not preload %s in a bot worker", game.name, exc_info=True)


def fallback(decision: Decision) -> int:
    """A legal action for a decision whose bot could not answer in time: one at random, seeded like the
    bot (so a replayed table takes the same one)."""
    return random.Random(decision.seed).choice(decision.legal)


def lower_priority(pid: int | None, steps: int) -> None:
    """Make process ``pid``'s CPU priority ``steps`` lower than this process's (Unix ``nice``, at most
    the lowest). Where that cannot be done (no such call, or refused), the worker keeps the server's."""
    if pid is None or steps <= 0 or not hasattr(os, "setpriority"):
        return
    try:
        mine = os.getpriority(os.PRIO_PROCESS, 0)
        os.setpriority(os.PRIO_PROCESS, pid, min(19, mine + steps))
    except OSError as exc:
        log.warning("could not lower the priority of bot worker %s: %s", pid, exc)


class BotRunner:
    """The bot workers of a server, in two lanes (see the module docstring and ``BotLimits``):

    - the **fast lane** (``limits.fast_workers`` workers) runs the decisions whose bot says they are cheap
      (random, a game's rule-based bots, a small greedy), so no search can ever hold them up; those that
      take microseconds run in the server process itself;
    - the **search lane** (``workers`` workers) runs everything else (the searches, and any bot that does
      not say what it costs), the tables taking turns, at most ``limits.per_client`` at once for the tables
      of one client, a bot-only table's search on the last free worker cut to ``limits.last_slice`` (a
      person's table waits for a worker at most that long); a remembering bot always in its seat's worker.

    Workers are processes, or threads for tests that want no processes (``processes=False``)."""

    def __init__(
        self,
        workers: int = 2,
        *,
        processes: bool = True,
        live_per_worker: int = LIVE_PER_WORKER,
        limits: BotLimits | None = None,
    ) -> None:
        self.processes = processes
        self.capacity = live_per_worker
        self.limits = limits or BotLimits()
        self.search = Lane(
            "search",
            self._worker("search"),
            max(1, workers),
            per_client=self.limits.per_client,
            round_seconds=self.limits.search_round,
            min_slice=self.limits.min_slice,
            last_slice=self.limits.last_slice,
        )
        self.fast = Lane("fast", self._worker("fast"), max(1, self.limits.fast_workers))
        self.homes: dict[str, set[int]] = {}  # table -> the search slots that may hold live bots of it
        self.overruns = 0  # decisions played at random because their worker overran (diagnostics, tests)

    def _worker(self, lane: str) -> Callable[[int], Worker]:
        def make(slot: int) -> Worker:
            name = f"floe-bot-{lane}-{slot}"
            if self.processes:
                worker = ProcessWorker(name, preload=("floe.server.botrunner:warm",))
                if lane == "search":
                    lower_priority(worker.pid, self.limits.search_nice)
                return worker
            return ThreadWorker(name)

        return make

    @property
    def slots(self) -> list[Worker]:
        """The search lane's workers (where remembering bots live)."""
        return self.search.workers

    def slot_of(self, table: str, seat: int) -> int:
        """The worker that keeps the remembering bots of ``table``'s ``seat`` (stable across restarts)."""
        return zlib.crc32(f"{table}/{seat}".encode()) % len(self.search)

    def lane_of(self, decision: Decision) -> str:
        """``"inline"``, ``"fast"`` or ``"search"``: where a decision of a bot that remembers nothing runs."""
        cost = decision_cost(decision.game, decision.spec)
        if cost is not None and cost <= self.limits.inline_seconds:
            return "inline"
        if cost is not None and cost <= self.limits.cheap_seconds:
            return "fast"
        return "search"

    async def choose(
        self,
        decision: Decision,
        *,
        game: Game | None = None,
        client: str | None = None,
        wanted: Callable[[], bool] | None = None,
        person: bool = False,
    ) -> int | None:
        """The bot's action, computed off the event loop (in the seat's own worker if the bot remembers);
        None if the decision was dropped unrun because ``wanted()`` turned false while it waited. ``game``:
        the table's game, if at hand (else one is made from the decision); ``client``: whose tables the
        per-client limit counts it with; ``person``: a person sits at the table (its searches go first)."""
        d = replace(decision, time_cap=self.limits.time_cap)
        if game is None:
            game = _game(d.game, d.players, d.options)
        limit = None if d.time_cap is None else d.time_cap + self.limits.overrun_grace
        table = d.table or f"?{id(d)}"
        if d.table and spec_facts(game, d.spec)[1]:
            slot = self.slot_of(d.table, d.seat)
            self.homes.setdefault(d.table, set()).add(slot)
            job = Job(table, choose_remembered, (slot, d, self.capacity), client, slot, limit)
            job.retime = lambda cap: (slot, replace(d, time_cap=cap), self.capacity)
            lane = self.search
        else:
            plain = replace(d, table="", history=())
            where = self.lane_of(plain)
            if where == "inline":  # microseconds: quicker here than a round trip to a worker
                bot = make_bot(plain.spec, game, plain.seat, plain.seed)
                return bot.choose(plain.observation, list(plain.legal))
            job = Job(table, choose, (plain,), client if where == "search" else None, None, limit)
            job.retime = lambda cap: (replace(plain, time_cap=cap),)
            lane = self.search if where == "search" else self.fast
        if wanted is not None:
            job.wanted = wanted
        job.person, job.cap = person, d.time_cap
        try:
            action: int = await lane.run(job)
        except Stale:
            return None
        except WorkerOverrun as exc:
            self.overruns += 1
            log.warning("%s: bot %s played at random at table %s", exc, d.spec, d.table)
            return fallback(d)
        return action

    def forget(self, table: str) -> None:
        """Drop the live bots of a finished table (in the background; an error only means nothing to drop)."""
        for slot in sorted(self.homes.pop(table, ())):
            if self.search.closed:
                return
            job = Job(table, forget, (slot, table), slot=slot)
            task = asyncio.get_running_loop().create_task(self.search.run(job))
            task.add_done_callback(lambda t: t.cancelled() or t.exception())

    async def live(self) -> list[dict[str, Any]]:
        """Every worker's live remembering bots (``live_report``): diagnostics, and what the tests read."""
        out: list[dict[str, Any]] = []
        for slot in range(len(self.search)):
            out.extend(await self.search.run(Job(f"~live/{slot}", live_report, (slot,), slot=slot)))
        return out

    def pids(self) -> dict[str, list[int | None]]:
        """The process id of every worker, by lane (None for a thread): what the tests kill."""
        return {lane.name: [w.pid for w in lane.workers] for lane in (self.fast, self.search)}

    def close(self) -> None:
        """Stop the workers (running decisions are abandoned: their tables resume on the next start)."""
        self.fast.close()
        self.search.close()

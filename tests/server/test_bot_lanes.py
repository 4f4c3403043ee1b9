"""The bot lanes (``floe.server.botlanes``) and workers (``floe.server.botworkers``) on their own: tables take
turns, one client's searches never hold every worker, a stale job is dropped unrun, a dead worker is
replaced and its job retried, an overrunning one killed (issue 11, items 3 and 4)."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from floe.core.registry import make_game
from floe.server.botlanes import Job, Lane, Stale
from floe.server.botrunner import BotLimits, BotRunner, Decision, options_key
from floe.server.botworkers import ProcessWorker, Worker, WorkerDied, WorkerOverrun


class FakeWorker(Worker):
    """A worker that answers once ``hold`` is set (at once if None), recording what it started (``ran``) and
    what is running (``running``); it dies (once) on the calls ``dies_on`` names. The test decides when a
    job ends: no test of the lanes depends on how long anything takes."""

    def __init__(
        self,
        slot: int,
        ran: list[tuple[int, Any]],
        hold: asyncio.Event | None,
        dies_on: set[Any],
        running: set[Any] | None = None,
    ) -> None:
        self.slot, self.ran, self.hold, self.dies_on = slot, ran, hold, dies_on
        self.running = running if running is not None else set()
        self.closed = False

    async def call(self, fn: Callable[..., Any], args: tuple[Any, ...], limit: float | None) -> Any:
        if args[0] in self.dies_on:
            self.dies_on.discard(args[0])
            raise WorkerDied("killed")
        self.ran.append((self.slot, args[0]))
        self.running.add(args[0])
        try:
            if self.hold is not None:
                await self.hold.wait()
            await asyncio.sleep(0)
            return fn(*args)
        finally:
            self.running.discard(args[0])

    def close(self) -> None:
        self.closed = True


def fake_lane(
    size: int,
    *,
    per_client: int | None = None,
    hold: asyncio.Event | None = None,
    dies_on: set[Any] | None = None,
    running: set[Any] | None = None,
) -> tuple[Lane, list[tuple[int, Any]]]:
    ran: list[tuple[int, Any]] = []
    doomed = dies_on if dies_on is not None else set()
    lane = Lane(
        "test", lambda slot: FakeWorker(slot, ran, hold, doomed, running), size, per_client=per_client
    )
    return lane, ran


async def until(check: Callable[[], bool]) -> None:
    """Let the loop run until ``check()`` holds (a bound on a hang only: the lanes never wait on a clock)."""
    for _ in range(10_000):
        if check():
            return
        await asyncio.sleep(0)
    raise AssertionError("the lane never got there")


def echo(value: Any) -> Any:
    return value


def test_tables_take_turns_not_first_come_first_served() -> None:
    async def scenario() -> list[Any]:
        hold = asyncio.Event()
        lane, ran = fake_lane(1, hold=hold)
        flood = [asyncio.ensure_future(lane.run(Job("A", echo, (f"A{k}",)))) for k in range(6)]
        await until(lambda: len(ran) == 1)  # A0 runs, A1..A5 wait
        late = asyncio.ensure_future(lane.run(Job("B", echo, ("B0",))))
        await asyncio.sleep(0)
        hold.set()
        await asyncio.gather(*flood, late)
        return [name for _, name in ran]

    order = asyncio.run(scenario())
    # B came after all six of A's jobs, but is served in the next round: one of A's at most before it.
    assert order.index("B0") <= 2, order
    assert [name for name in order if name.startswith("A")] == [f"A{k}" for k in range(6)]


def test_one_clients_searches_never_hold_every_worker() -> None:
    async def scenario() -> tuple[int, bool]:
        hold = asyncio.Event()
        running: set[Any] = set()
        lane, ran = fake_lane(2, per_client=1, hold=hold, running=running)
        most = 0

        def count() -> bool:
            nonlocal most
            most = max(most, sum(1 for name in running if name.startswith("X")))
            return False

        greedy = [
            asyncio.ensure_future(lane.run(Job(f"X{k}", echo, (f"X{k}",), client="x"))) for k in range(4)
        ]
        await until(lambda: bool(ran))
        other = asyncio.ensure_future(lane.run(Job("Y", echo, ("Y",), client="y")))
        # y's table gets the second worker while x's first job is still held: it does not wait for x's.
        await until(lambda: count() or "Y" in running)
        x_done_before_y = any(task.done() for task in greedy)
        hold.set()
        assert await other == "Y"
        while not all(task.done() for task in greedy):
            count()
            await asyncio.sleep(0)
        await asyncio.gather(*greedy)
        return most, x_done_before_y

    most, x_done_before_y = asyncio.run(scenario())
    assert most == 1  # one of x's four tables at a time
    assert not x_done_before_y


def test_a_pinned_job_waits_for_its_worker_and_the_others_do_not() -> None:
    async def scenario() -> list[tuple[int, Any]]:
        hold = asyncio.Event()
        lane, ran = fake_lane(2, hold=hold)
        jobs = [
            asyncio.ensure_future(lane.run(Job("A", echo, ("A",), slot=0))),
            asyncio.ensure_future(lane.run(Job("B", echo, ("B",), slot=0))),
            asyncio.ensure_future(lane.run(Job("C", echo, ("C",)))),
        ]
        await until(lambda: len(ran) == 2)  # A on its worker, and C on the other while B waits for A's
        hold.set()
        await asyncio.gather(*jobs)
        return ran

    ran = asyncio.run(scenario())
    assert (0, "A") in ran and (0, "B") in ran and (1, "C") in ran
    assert [name for _, name in ran].index("C") < [name for _, name in ran].index("B")


def test_a_job_no_longer_wanted_is_dropped_unrun_and_a_cancelled_one_too() -> None:
    async def scenario() -> tuple[list[tuple[int, Any]], bool]:
        hold = asyncio.Event()
        lane, ran = fake_lane(1, hold=hold)
        first = asyncio.ensure_future(lane.run(Job("A", echo, ("A",))))
        await until(lambda: bool(ran))
        moved_on = asyncio.ensure_future(lane.run(Job("B", echo, ("B",), wanted=lambda: False)))
        cancelled = asyncio.ensure_future(lane.run(Job("C", echo, ("C",))))
        await asyncio.sleep(0)
        cancelled.cancel()
        hold.set()
        await first
        with pytest.raises(Stale):
            await moved_on
        # A job queued after them runs once their turns have passed: had B or C run, they would be before it.
        assert await lane.run(Job("D", echo, ("D",))) == "D"
        return ran, cancelled.cancelled()

    ran, cancelled = asyncio.run(scenario())
    assert ran == [(0, "A"), (0, "D")] and cancelled


def test_a_worker_that_dies_is_replaced_and_its_job_retried_once() -> None:
    async def scenario() -> tuple[Any, int, BaseException | None]:
        lane, _ = fake_lane(1, dies_on={"once"})
        retried = await lane.run(Job("A", echo, ("once",)))
        replaced = lane.replaced

        class Doomed(FakeWorker):
            async def call(self, fn: Callable[..., Any], args: tuple[Any, ...], limit: float | None) -> Any:
                raise WorkerDied("killed again")

        lane.make_worker = lambda slot: Doomed(slot, [], None, set())
        lane.workers[0] = Doomed(0, [], None, set())
        try:
            await lane.run(Job("B", echo, ("twice",)))
        except WorkerDied as exc:
            return retried, replaced, exc
        return retried, replaced, None

    retried, replaced, error = asyncio.run(scenario())
    assert retried == "once" and replaced == 1
    assert isinstance(error, WorkerDied)  # tried twice, then given up (the table retries on its next tick)


# --- real worker processes ---------------------------------------------------------------------------
def hold_first(mark: str) -> None:
    """Run in a worker: the first call (no file ``mark`` yet) makes it and sleeps for an hour, so it is
    certainly in the middle of a call when the test kills its worker; a retry finds the file and returns."""
    path = Path(mark)
    if not path.exists():
        path.touch()
        time.sleep(3600)


def dead(pid: int) -> bool:
    """Whether the worker ``pid`` has exited (gone, or a zombie its lane has not reaped yet)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] == "Z"
    except OSError:
        return True


def test_a_process_worker_survives_kill_9_and_an_overrun(tmp_path: Path) -> None:
    async def scenario() -> None:
        lane = Lane("test", lambda slot: ProcessWorker(f"test-{slot}"), 1)
        try:
            first = await lane.run(Job("A", os.getpid, ()))
            assert first == lane.workers[0].pid
            # Killed while idle (the OOM killer): the next call finds it dead and runs on a new worker.
            os.kill(first, signal.SIGKILL)
            await until_true(lambda: dead(first))
            second = await lane.run(Job("A", os.getpid, ()))
            assert second != first and lane.replaced == 1
            # Killed in the middle of a call (it has begun: its file is there): the call is retried on a
            # new worker.
            mark = tmp_path / "began"
            running = asyncio.ensure_future(lane.run(Job("A", hold_first, (str(mark),))))
            await until_true(mark.exists)
            os.kill(second, signal.SIGKILL)
            assert await asyncio.wait_for(running, 60) is None and lane.replaced == 2
            # A call past its hard limit (an hour's sleep, a limit of half a second): the worker is killed,
            # the call not retried, the next one served. (60 s only bounds a hang: a limit not enforced.)
            with pytest.raises(WorkerOverrun):
                await asyncio.wait_for(lane.run(Job("A", time.sleep, (3600.0,), limit=0.5)), 60)
            assert lane.replaced == 3
            assert await lane.run(Job("A", echo, ("still here",))) == "still here"
        finally:
            lane.close()
        for worker in lane.workers:  # stopped and reaped
            assert worker.pid is not None
            with pytest.raises(ProcessLookupError):
                os.kill(worker.pid, 0)

    asyncio.run(scenario())


async def until_true(check: Callable[[], bool], timeout: float = 60) -> None:
    """Wait (on the event loop) until ``check()`` holds; ``timeout`` only bounds a hang."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not check():
        assert loop.time() < end, "timed out"
        await asyncio.sleep(0.01)


def arctic_decision(spec: str) -> Decision:
    game = make_game("arctic", 2)
    state = game.new_initial_state()
    rng = random.Random(1)
    while state.current_player() < 0:
        state.apply(state.sample_chance(rng))
    seat = state.current_player()
    return Decision(
        "arctic", 2, options_key({}), spec, seat, 7, state.observation(seat), tuple(state.legal_actions())
    )


def test_decisions_go_to_the_lane_their_cost_says() -> None:
    runner = BotRunner(1, processes=False)
    try:
        lanes = {
            spec: runner.lane_of(arctic_decision(spec))
            for spec in ("random", "baseline", "greedy", "greedy:worlds=16", "greedy:worlds=100")
        }
        lanes |= {spec: runner.lane_of(arctic_decision(spec)) for spec in ("ismcts:ms=200", "ismcts:it=30")}
    finally:
        runner.close()
    assert lanes == {
        "random": "inline",
        "baseline": "inline",
        "greedy": "fast",
        "greedy:worlds=16": "fast",
        "greedy:worlds=100": "search",
        "ismcts:ms=200": "search",
        "ismcts:it=30": "search",  # an iteration budget says nothing of its time: a search
    }


def test_a_decision_that_overruns_is_played_at_random() -> None:
    """A bot still busy past the time cap and its grace (one that ignores ``time_cap``, or a machine far too
    slow) has its worker killed, and the table gets a seeded random legal move."""

    async def scenario() -> tuple[int | None, int, Decision]:
        limits = BotLimits(time_cap=0.001, overrun_grace=0.0, fast_workers=1)
        runner = BotRunner(1, processes=True, limits=limits)
        try:
            decision = arctic_decision("greedy:worlds=1000")
            await runner.search.run(Job("warm", echo, (1,)))  # the worker is up (spawning is not the bot)
            action = await runner.choose(decision)
            return action, runner.overruns, decision
        finally:
            runner.close()

    action, overruns, decision = asyncio.run(scenario())
    assert overruns == 1 and action in decision.legal
    assert action == random.Random(decision.seed).choice(decision.legal)


# --- the last free worker (issue 24, item 3: a person's search beside attackers' searches) ----------------
class GatedWorker(Worker):
    """A worker that records each job it starts as (slot, table, cap) in ``ran`` and answers once the test
    opens that table's gate: the test, not a clock, decides which job ends when."""

    def __init__(self, slot: int, ran: list[tuple[int, str, float | None]], gates: dict[str, asyncio.Event]):
        self.slot, self.ran, self.gates = slot, ran, gates

    async def call(self, fn: Callable[..., Any], args: tuple[Any, ...], limit: float | None) -> Any:
        table, cap = args if len(args) == 2 else (args[0], None)
        self.ran.append((self.slot, table, cap))
        await self.gates.setdefault(table, asyncio.Event()).wait()
        return table


def gated_lane(
    size: int, **options: Any
) -> tuple[Lane, list[tuple[int, str, float | None]], Callable[[str], None]]:
    """A lane of ``GatedWorker``s, what they started, and ``release(table)``, which lets that table's job
    end."""
    ran: list[tuple[int, str, float | None]] = []
    gates: dict[str, asyncio.Event] = {}
    lane = Lane("search", lambda slot: GatedWorker(slot, ran, gates), size, **options)
    return lane, ran, lambda table: gates.setdefault(table, asyncio.Event()).set()


def search(table: str, cap: float, *, person: bool = False, client: str | None = None) -> Job:
    """A search job of ``cap`` seconds that the lane may shorten (its arguments are its table and time)."""
    job = Job(table, echo, (table, cap), client=client, limit=cap + 5, person=person, cap=cap)
    job.retime = lambda seconds: (table, seconds)
    return job


def test_a_person_waits_for_a_worker_at_most_one_slice_of_a_bot_only_search() -> None:
    async def scenario() -> list[tuple[int, str, float | None]]:
        lane, ran, release = gated_lane(2, last_slice=1.0)
        tasks = [asyncio.ensure_future(lane.run(search(t, 10.0))) for t in ("A", "B")]
        await until(lambda: len(ran) == 2)  # A took a worker with another free: its whole time; B the last
        tasks.append(asyncio.ensure_future(lane.run(search("C", 10.0))))
        tasks.append(asyncio.ensure_future(lane.run(search("P", 10.0, person=True))))
        await asyncio.sleep(0)
        assert len(ran) == 2  # both wait, A's long search still running
        release("B")  # B's slice is over: its worker goes to the person, who came after C
        await until(lambda: len(ran) == 3)
        release("A")  # C now takes the worker A held, the last free one: a slice again
        await until(lambda: len(ran) == 4)
        for table in ("P", "C"):
            release(table)
        await asyncio.gather(*tasks)
        return ran

    ran = asyncio.run(scenario())
    assert ran == [(0, "A", 10.0), (1, "B", 1.0), (1, "P", 10.0), (0, "C", 1.0)]


def test_with_one_worker_every_bot_only_search_is_a_slice_and_a_persons_is_not() -> None:
    async def scenario() -> tuple[list[tuple[int, str, float | None]], list[float | None]]:
        lane, ran, release = gated_lane(1, last_slice=0.5, round_seconds=10.0)
        jobs = [search("X", 10.0), search("P", 10.0, person=True), Job("H", echo, ("H",))]
        tasks = [asyncio.ensure_future(lane.run(job)) for job in jobs]
        for started, table in enumerate(("X", "P", "H"), 1):
            await until(lambda n=started: len(ran) == n)  # one at a time, in this order
            release(table)
        await asyncio.gather(*tasks)
        return ran, [job.limit for job in jobs]

    ran, limits = asyncio.run(scenario())
    # X: cut to the slice (its kill deadline moves with it); P: the only person table, its whole time;
    # H (housekeeping, which cannot be shortened): as it is.
    assert ran == [(0, "X", 0.5), (0, "P", 10.0), (0, "H", None)]
    assert limits == [pytest.approx(5.5), 15.0, None]


def test_the_slice_keeps_the_per_client_limit_and_the_turns() -> None:
    async def scenario() -> list[tuple[int, str, float | None]]:
        lane, ran, release = gated_lane(2, per_client=1, last_slice=1.0)
        greedy = [asyncio.ensure_future(lane.run(search(f"X{k}", 10.0, client="x"))) for k in range(3)]
        await until(lambda: len(ran) == 1)
        others = [asyncio.ensure_future(lane.run(search(f"Y{k}", 10.0, client=f"y{k}"))) for k in range(2)]
        await until(lambda: len(ran) == 2)
        release("Y0")  # the other clients' tables take turns on the second worker ...
        await until(lambda: len(ran) == 3)
        release("Y1")
        await asyncio.gather(*others)
        for _ in range(10):
            await asyncio.sleep(0)
        assert len(ran) == 3  # ... while x's first search runs its whole time and x's others wait for it
        for k, started in enumerate((4, 5, 5)):
            release(f"X{k}")
            await until(lambda n=started: len(ran) == n)
        await asyncio.gather(*greedy)
        return ran

    ran = asyncio.run(scenario())
    # x's later searches start with both workers free: their whole time too.
    assert ran == [(0, "X0", 10.0), (1, "Y0", 1.0), (1, "Y1", 1.0), (0, "X1", 10.0), (0, "X2", 10.0)], ran

"""The store and its writer, against SQLite (a temp file) and PostgreSQL (a fresh database per test).

What the server relies on: a table and its log come back exactly as written; the log's primary key
refuses a second append at an index that exists (so a move cannot be committed twice) and leaves the log
as it was; a transaction is all or nothing; the writer commits what arrives together in one transaction,
yet one bad write in a batch costs no other write its commit.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import Connection

from floe.server.store import Store, TableRow, database_url
from floe.server.writer import Writer


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The SQLAlchemy URL of an empty database of each kind."""
    if request.param == "sqlite":
        return database_url(None, tmp_path / "data")
    fresh: str = request.getfixturevalue("fresh_pg_url")  # starts (or skips) the cluster only here
    return database_url(fresh, tmp_path)


@pytest.fixture
def store(store_url: str) -> Iterator[Store]:
    s = Store(store_url)
    yield s
    s.close()


def make_row(
    table_id: str, *, created: float = 1_764_000_000.123456, actions: list[int] | None = None
) -> TableRow:
    return TableRow(
        id=table_id,
        game="arctic",
        players=3,
        options={"preset": "bga", "power_sides": {"fox": "under"}, "n": [1, 2.5, None]},
        seed=2**62 - 12345,  # needs 64 bits
        created=created,
        public=True,
        turn_timer=37.5,
        seats=[
            {"kind": "person", "name": "Ann é", "bot": None, "token_hash": "ab" * 32, "claimed": True},
            {"kind": "bot", "name": "baseline", "bot": "baseline", "token_hash": None, "claimed": False},
            {"kind": "person", "name": "P3", "bot": None, "token_hash": "cd" * 32, "claimed": False},
        ],
        actions=[5, 0, 17, 3, 1000] if actions is None else actions,
    )


def insert(store: Store, row: TableRow) -> None:
    store.run([lambda conn: Store.insert_table(conn, row)])


def append(table_id: str, start: int, actions: list[int]) -> Callable[[Connection], None]:
    return lambda conn: Store.append(conn, table_id, start, actions)


# --- database_url ------------------------------------------------------------------------------------
def test_database_url_maps_postgres_to_psycopg_and_rejects_others(tmp_path: Path) -> None:
    url = "postgresql://ann@db.example:5433/floe"
    assert database_url(url, tmp_path) == "postgresql+psycopg://ann@db.example:5433/floe"
    assert database_url("postgres://ann@db/floe", tmp_path) == "postgresql+psycopg://ann@db/floe"
    sqlite = database_url(None, tmp_path / "d")
    assert sqlite == f"sqlite:///{(tmp_path / 'd' / 'floe.sqlite3').resolve()}"
    assert (tmp_path / "d").is_dir()
    for bad in ("mysql://root@localhost/floe", "http://example.com/", "floe.sqlite3"):
        with pytest.raises(ValueError, match=r"--db must be a postgresql:// URL") as info:
            database_url(bad, tmp_path)
        assert repr(bad.split(":", 1)[0]) in str(info.value)


# --- the store ---------------------------------------------------------------------------------------
def test_table_and_first_actions_load_back_identically(store: Store, store_url: str) -> None:
    later = make_row("t-later", created=1_764_000_100.987654321)
    earlier = make_row("t-earlier", created=1_764_000_000.5, actions=[])
    earlier.public, earlier.turn_timer, earlier.players = False, None, 2
    insert(store, later)
    insert(store, earlier)
    assert store.kind == store_url.split(":")[0].split("+")[0]

    loaded = store.load_all()
    assert loaded == [earlier, later]  # every field, oldest first
    assert store.load_actions("t-later") == [5, 0, 17, 3, 1000]
    assert store.load_actions("t-earlier") == []
    assert store.load_actions("no-such-table") == []

    again = Store(store_url)  # a new engine (a restarted server) sees the same
    try:
        assert again.load_all() == [earlier, later]
    finally:
        again.close()


def test_append_continues_the_log(store: Store) -> None:
    insert(store, make_row("t1"))
    insert(store, make_row("t2", actions=[9]))
    store.run([append("t1", 5, [7])])
    store.run([append("t1", 6, [8, 9, 10]), append("t2", 1, [4])])
    store.run([append("t1", 9, [])])  # nothing to add is allowed
    assert store.load_actions("t1") == [5, 0, 17, 3, 1000, 7, 8, 9, 10]
    assert store.load_actions("t2") == [9, 4]
    assert {r.id: r.actions for r in store.load_all()} == {
        "t1": [5, 0, 17, 3, 1000, 7, 8, 9, 10],
        "t2": [9, 4],
    }


@pytest.mark.parametrize(("start", "actions"), [(4, [99]), (3, [99, 98, 97]), (0, [1])])
def test_append_at_an_existing_index_fails_and_changes_nothing(
    store: Store, start: int, actions: list[int]
) -> None:
    insert(store, make_row("t1"))
    with pytest.raises(sa.exc.IntegrityError):
        store.run([append("t1", start, actions)])
    assert store.load_actions("t1") == [5, 0, 17, 3, 1000]
    store.run([append("t1", 5, [6])])  # the store is still usable, the right index still free
    assert store.load_actions("t1") == [5, 0, 17, 3, 1000, 6]


def test_a_failed_transaction_commits_none_of_its_writes(store: Store) -> None:
    insert(store, make_row("t1"))
    insert(store, make_row("t2"))
    with pytest.raises(sa.exc.IntegrityError):
        store.run(
            [
                append("t2", 5, [1, 2]),
                lambda conn: Store.set_finished(conn, "t1"),
                append("t1", 4, [99]),  # duplicate: fails the whole transaction
            ]
        )
    rows = {r.id: r for r in store.load_all()}
    assert rows["t1"].finished is False
    assert rows["t1"].actions == rows["t2"].actions == [5, 0, 17, 3, 1000]


def test_actions_of_an_unknown_table_are_refused(store: Store) -> None:
    with pytest.raises(sa.exc.IntegrityError):
        store.run([append("nobody", 0, [1])])
    assert store.load_actions("nobody") == []


def test_seats_and_finished_persist(store: Store, store_url: str) -> None:
    insert(store, make_row("t1"))
    insert(store, make_row("t2"))
    seats = [
        {"kind": "person", "name": "Bob", "bot": None, "token_hash": "ef" * 32, "claimed": True},
        {"kind": "bot", "name": "greedy", "bot": "greedy", "token_hash": None, "claimed": False},
    ]
    store.run([lambda conn: Store.set_seats(conn, "t1", seats)])
    store.run([lambda conn: Store.set_finished(conn, "t2")])
    store.close()

    reopened = Store(store_url)
    try:
        rows = {r.id: r for r in reopened.load_all()}
    finally:
        reopened.close()
    assert rows["t1"].seats == seats
    assert rows["t1"].finished is False
    assert rows["t2"].seats == make_row("t2").seats  # the other table is untouched
    assert rows["t2"].finished is True
    assert rows["t1"].actions == rows["t2"].actions == [5, 0, 17, 3, 1000]


# --- the writer --------------------------------------------------------------------------------------
class Spy:
    """Counts ``store.run`` calls: each is one transaction, its length the writes it holds."""

    def __init__(self, store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
        self.batches: list[int] = []
        run = store.run

        def counting(ops: list[Callable[[Connection], None]]) -> None:
            self.batches.append(len(ops))
            run(ops)

        monkeypatch.setattr(store, "run", counting)


class Gate:
    """A write that holds the writer thread until opened, so that what is queued meanwhile is one batch."""

    def __init__(self, writer: Writer) -> None:
        self.writer = writer
        self.entered = threading.Event()
        self.open = threading.Event()
        self.thread = threading.Thread(target=writer.write_sync, args=(self._hold,))
        self.thread.start()
        assert self.entered.wait(60), "the writer never ran the gate"  # the bounds here only bound a hang

    def _hold(self, _conn: Connection) -> None:
        self.entered.set()
        assert self.open.wait(60)

    def wait_queued(self, n: int) -> None:
        """Poll until ``n`` writes wait behind the gate."""
        deadline = time.monotonic() + 60
        while self.writer.queued < n:
            assert time.monotonic() < deadline, f"only {self.writer.queued} of {n} writes queued"
            time.sleep(0.005)

    def release(self) -> None:
        self.open.set()
        self.thread.join(60)


@pytest.fixture
def writer(store: Store) -> Iterator[Writer]:
    w = Writer(store)
    yield w
    w.close()


def test_concurrent_writes_from_threads_and_tasks_all_land(store: Store, writer: Writer) -> None:
    threads, per_thread, tasks = 4, 30, 40
    for k in range(threads):
        insert(store, make_row(f"thread{k}", actions=[]))
    insert(store, make_row("tasks", actions=[]))

    def one_thread(k: int) -> None:  # each thread appends its own table's log, move after move
        for i in range(per_thread):
            writer.write_sync(append(f"thread{k}", i, [1000 * k + i]))

    async def from_tasks() -> None:  # each task adds one action at its own index, all at once
        await asyncio.gather(*(writer.write(append("tasks", i, [i])) for i in range(tasks)))

    workers = [threading.Thread(target=one_thread, args=(k,)) for k in range(threads)]
    for t in workers:
        t.start()
    asyncio.run(from_tasks())
    for t in workers:
        t.join(60)
        assert not t.is_alive()

    for k in range(threads):
        assert store.load_actions(f"thread{k}") == [1000 * k + i for i in range(per_thread)]
    assert store.load_actions("tasks") == list(range(tasks))


def test_writes_that_arrive_together_are_one_transaction(
    store: Store, writer: Writer, monkeypatch: pytest.MonkeyPatch
) -> None:
    for k in range(3):
        insert(store, make_row(f"t{k}", actions=[]))
    spy = Spy(store, monkeypatch)
    gate = Gate(writer)
    done: list[int] = []

    def move(k: int, index: int, action: int) -> None:
        writer.write_sync(append(f"t{k}", index, [action]))
        done.append(k)

    # table k gets the actions k, k+3, k+6, ...: one write each, from its own thread, all queued at once
    moves = [(k, index, action) for k in range(3) for index, action in enumerate(range(10)[k::3])]
    senders = [threading.Thread(target=move, args=m) for m in moves]
    for t in senders:
        t.start()
    gate.wait_queued(len(senders))
    assert done == []  # nothing is acknowledged before its commit
    gate.release()
    for t in senders:
        t.join(10)
    assert sorted(done) == sorted(k for k, _, _ in moves)
    assert spy.batches == [1, len(senders)]  # the gate alone, then everything that queued behind it
    for k in range(3):
        assert store.load_actions(f"t{k}") == list(range(10))[k::3]


def test_one_bad_write_in_a_batch_fails_alone(
    store: Store, writer: Writer, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("a", "b", "c"):
        insert(store, make_row(name))
    spy = Spy(store, monkeypatch)

    async def batch() -> list[BaseException | None]:
        gate = await asyncio.to_thread(Gate, writer)
        writes = [
            asyncio.ensure_future(writer.write(append("a", 5, [50]))),
            # the move committed twice: index 4 exists; with it, its table must not be marked finished
            asyncio.ensure_future(writer.write(append("b", 4, [40]), lambda c: Store.set_finished(c, "b"))),
            asyncio.ensure_future(writer.write(append("c", 5, [60]), lambda c: Store.set_finished(c, "c"))),
            asyncio.ensure_future(writer.write(append("a", 6, [51, 52]))),
        ]
        await asyncio.to_thread(gate.wait_queued, len(writes))
        gate.release()
        return list(await asyncio.gather(*writes, return_exceptions=True))

    results = asyncio.run(batch())
    assert results[0] is None and results[2] is None and results[3] is None
    assert isinstance(results[1], sa.exc.IntegrityError)
    # the gate, the shared transaction that failed, then each write alone
    assert spy.batches == [1, 4, 1, 1, 1, 1]
    rows = {r.id: r for r in store.load_all()}
    assert rows["a"].actions == [5, 0, 17, 3, 1000, 50, 51, 52]
    assert rows["b"].actions == [5, 0, 17, 3, 1000] and rows["b"].finished is False
    assert rows["c"].actions == [5, 0, 17, 3, 1000, 60] and rows["c"].finished is True
    writer.write_sync(append("b", 5, [41]))  # the writer goes on
    assert store.load_actions("b") == [5, 0, 17, 3, 1000, 41]


def test_a_move_goes_before_the_bulk_writes_queued_ahead_of_it(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 24: 2,000 tables created (or expired) at once queued every move behind their rows.
    writer = Writer(store, bulk_batch=2)
    spy = Spy(store, monkeypatch)
    committed: list[str] = []

    def noting(name: str) -> Callable[[Connection], None]:
        return lambda _conn: committed.append(name)

    async def scenario() -> None:
        gate = await asyncio.to_thread(Gate, writer)
        bulk = [asyncio.ensure_future(writer.write(noting(f"bulk{k}"), bulk=True)) for k in range(5)]
        await asyncio.to_thread(gate.wait_queued, len(bulk))
        move = asyncio.ensure_future(writer.write(noting("move")))
        await asyncio.to_thread(gate.wait_queued, len(bulk) + 1)
        gate.release()
        await asyncio.gather(move, *bulk)

    try:
        asyncio.run(scenario())
    finally:
        writer.close()
    # The gate; the move with as many bulk writes as a transaction takes; then the rest, a few at a time.
    assert spy.batches == [1, 3, 2, 1]
    assert committed == ["move", *(f"bulk{k}" for k in range(5))]


def test_close_finishes_pending_writes(store: Store, store_url: str) -> None:
    insert(store, make_row("t", actions=[]))
    writer = Writer(store)
    gate = Gate(writer)
    n = 25
    with ThreadPoolExecutor(n + 1) as pool:  # n writers and the closer
        futures = [pool.submit(writer.write_sync, append("t", i, [i])) for i in range(n)]
        gate.wait_queued(n)
        closing = pool.submit(writer.close)
        deadline = time.monotonic() + 60
        while not writer.closed:  # close is asked while the writes still wait
            assert time.monotonic() < deadline, "close was never asked"
            time.sleep(0.005)
        gate.release()
        closing.result(timeout=60)
        assert not writer._thread.is_alive()
        assert [f.result(timeout=60) for f in futures] == [None] * n  # each acknowledged, none failed
    reopened = Store(store_url)
    try:
        assert reopened.load_actions("t") == list(range(n))
    finally:
        reopened.close()
    with pytest.raises(RuntimeError, match="closed"):  # a late write fails at once instead of hanging
        asyncio.run(asyncio.wait_for(writer.write(append("t", n, [n])), 60))


def test_a_write_whose_caller_gave_up_is_dropped_and_the_writer_goes_on(store: Store, writer: Writer) -> None:
    insert(store, make_row("t", actions=[]))

    async def scenario() -> None:
        gate = await asyncio.to_thread(Gate, writer)
        kept = asyncio.ensure_future(writer.write(append("t", 0, [10])))
        dropped = asyncio.ensure_future(writer.write(append("t", 1, [11])))
        await asyncio.to_thread(gate.wait_queued, 2)
        dropped.cancel()  # e.g. a bot's turn cancelled at shutdown while its move waited
        with pytest.raises(asyncio.CancelledError):
            await dropped
        gate.release()
        await kept
        await asyncio.wait_for(writer.write(append("t", 1, [12])), 60)

    asyncio.run(scenario())
    assert store.load_actions("t") == [10, 12]

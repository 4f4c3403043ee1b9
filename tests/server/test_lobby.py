"""``floe.server.manager`` in-process: the lobby's tables (create, join, hello, fetch, the public list),
the one path of a move (checked, stored, adopted, acknowledged, broadcast), away and back, connections and
their limits, bots and stand-ins, the turn timer and the watch, and loading a store at start-up.

Each test runs a fresh ``Lobby`` on a real SQLite store in ``tmp_path`` with a bot runner in threads (or
``HeldBots``, whose decisions the test answers by hand); connections write to an ``Inbox``. The server
tests drive the same code through a real server; these see each step, and count for mutation testing.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from floe.core.registry import entry
from floe.server.archive import stored_summary
from floe.server.botrunner import BotLimits, BotRunner
from floe.server.conns import Conn, ConnLimits
from floe.server.limits import TableLimits, TooMany
from floe.server.manager import (
    MAX_BOT_ITERATIONS,
    MAX_BOT_MS,
    Lobby,
    _derived_seed,
    build_table,
    check_options_size,
)
from floe.server.protocol import CreateTable, JoinTable, SeatRequest
from floe.server.refusal import Refusal
from floe.server.store import Store, TableRow, database_url
from floe.server.tables import Seat, Table, token_hash

from .test_bot_race import HeldBots

PERSON = SeatRequest(kind="person")
KEY = "browser-key-0123456789"


def bot(spec: str, name: str | None = None) -> SeatRequest:
    return SeatRequest(kind="bot", bot=spec, name=name)


def people(n: int = 2, **kw: Any) -> CreateTable:
    return CreateTable(game="arctic", seats=[PERSON] * n, **kw)


class Inbox:
    """A connection's far end: every message written to it, decoded."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []

    async def send_text(self, data: str) -> None:
        self.messages.append(json.loads(data))

    def types(self) -> list[str]:
        return [m["type"] for m in self.messages]


async def settle() -> None:
    """Let every ready task run (connections write, bots started by ``schedule`` decide)."""
    for _ in range(20):
        await asyncio.sleep(0)


Scenario = Callable[[Lobby], Awaitable[None]]


def run(tmp_path: Path, scenario: Scenario, *, bots: BotRunner | None = None, **options: Any) -> None:
    """Run ``scenario`` on a fresh lobby (SQLite in ``tmp_path``; the watch is not started)."""

    async def main() -> None:
        store = Store(database_url(None, tmp_path))
        runner = bots or BotRunner(1, processes=False)
        lobby = Lobby(store, runner, **options)
        try:
            await scenario(lobby)
        finally:
            await lobby.stop()
            runner.close()
            store.close()

    asyncio.run(main())


async def connected(lobby: Lobby, table: Table, seat: int | None) -> tuple[Conn, Inbox]:
    inbox = Inbox()
    conn = lobby.open_conn(table, inbox, seat)
    lobby.connect(table, conn)
    conn.start()
    await settle()
    return conn, inbox


def stored(lobby: Lobby, table_id: str) -> TableRow:
    row = lobby.store.load_table(table_id)
    assert row is not None
    return row


# --- creating, joining, opening a seat -------------------------------------------------------------------


def test_the_lobby_s_defaults() -> None:
    store = Store("sqlite://")
    try:
        lobby = Lobby(store, HeldBots())
        assert (lobby.away_after, lobby.tick, lobby.options_max_bytes) == (60.0, 0.5, 8192)
        assert (
            (lobby.max_bot_ms, lobby.max_bot_iterations)
            == (MAX_BOT_MS, MAX_BOT_ITERATIONS)
            == (10_000, 100_000)
        )
        assert lobby.finished.size == 256 and lobby.seeds is None
        assert lobby.limits.total == TableLimits().total and lobby.conn_limits == ConnLimits()
        assert lobby.tables == {} and lobby.unloadable == set() and lobby.conns == {}
    finally:
        store.close()


def test_create_stores_the_table_and_gives_the_creator_the_first_seat(tmp_path: Path) -> None:
    async def scenario(lobby: Lobby) -> None:
        request = CreateTable(
            game="arctic",
            seats=[SeatRequest(kind="person", name="Ann"), PERSON],
            turn_timer=30.0,
            public=False,
        )
        table, tokens, notices = await lobby.create(request, client="10.0.0.1")
        assert notices == [] and [k for k, _ in tokens] == [0, 1]
        assert lobby.tables == {table.id: table} and lobby.owners == {table.id: "10.0.0.1"}
        assert lobby.limits.open_by_client["10.0.0.1"] == 1 and lobby.limits.pending == 0
        assert [(s.name, s.claimed) for s in table.seats] == [("Ann", True), ("P2", False)]
        assert table.seats[0].matches(tokens[0][1]) and table.seats[1].matches(tokens[1][1])
        assert table.status == "waiting" and table.row.turn_timer == 30.0 and not table.row.public
        row = stored(lobby, table.id)
        assert row.seats == [s.stored() for s in table.seats] and row.actions == list(table.state.history)
        assert (row.game, row.players, row.seed, row.public) == ("arctic", 2, table.row.seed, False)
        # A second table by the same client counts against it; one without a client against nobody.
        other, _, _ = await lobby.create(people(), client="10.0.0.1")
        await lobby.create(people())
        assert lobby.limits.open_by_client["10.0.0.1"] == 2 and lobby.owners[other.id] == "10.0.0.1"
        assert len(lobby.tables) == 3 and len({t.row.seed for t in lobby.tables.values()}) == 3

    run(tmp_path, scenario)


def test_create_draws_seeds_from_the_test_hook_in_order(tmp_path: Path) -> None:
    seeds = iter([11, 22])

    async def scenario(lobby: Lobby) -> None:
        first, _, _ = await lobby.create(people())
        second, _, _ = await lobby.create(people())
        assert (first.row.seed, second.row.seed) == (11, 22)
        assert first.row.actions == build_table(people(), lambda *a: ("x", None), 11)[0].row.actions

    run(tmp_path, scenario, seeds=lambda: next(seeds))


def test_create_refuses_bad_requests_and_keeps_nothing(tmp_path: Path) -> None:
    async def scenario(lobby: Lobby) -> None:
        cases: list[tuple[CreateTable, str, str]] = [
            (CreateTable(game="chess", seats=[PERSON, PERSON]), "bad_option", "unknown game"),
            (CreateTable(game="arctic", seats=[PERSON]), "bad_option",
             f"arctic is for {entry('arctic').min_players} to {entry('arctic').max_players} seats"),
            (CreateTable(game="arctic", seats=[PERSON, SeatRequest(kind="bot")]), "bad_option",
             "seat 2 is a bot and needs a bot name"),
            (CreateTable(game="arctic", seats=[PERSON, bot("wizard")]), "bad_option", "unknown bot 'wizard'"),
            (CreateTable(game="arctic", seats=[SeatRequest(kind="person", bot="random"), PERSON]),
             "bad_option", "seat 1 is a person and has no bot"),
            (CreateTable(game="arctic", seats=[PERSON, SeatRequest(kind="person", name="P3")]), "bad_name",
             "seat 2: a name may not contain"),
            (CreateTable(game="arctic", seats=[PERSON, bot("random", "away")]), "bad_name", "seat 2:"),
            (CreateTable(game="arctic", seats=[PERSON, PERSON], options={"variant": "nope"}), "bad_option",
             "variant"),
            (CreateTable(game="arctic", seats=[PERSON, PERSON], options={"x": "y" * 9000}), "bad_option",
             "at most 8192 are allowed"),
        ]  # fmt: skip
        for request, code, words in cases:
            with pytest.raises(Refusal) as info:
                await lobby.create(request, client="c")
            assert (info.value.code, info.value.status) == (code, 400), request
            assert words in info.value.message, (words, info.value.message)
        assert lobby.tables == {} and lobby.store.load_all() == []
        assert lobby.limits.pending == 0 and not lobby.limits.pending_by_client
        # The refused creations gave their rate tokens back: the burst is still whole.
        for _ in range(lobby.limits.burst):
            await lobby.create(people(), client="c")
        with pytest.raises(TooMany):
            await lobby.create(people(), client="c")

    run(tmp_path, scenario)


def test_options_are_measured_as_json_before_anything_is_built() -> None:
    check_options_size({"a": "b"}, 10)  # {"a": "b"} is 10 bytes
    with pytest.raises(Refusal, match=r"^the options take 11 bytes; at most 10 are allowed$"):
        check_options_size({"a": "bc"}, 10)
    with pytest.raises(Refusal, match=r"^the options are not plain JSON$") as info:
        check_options_size({"a": {1, 2}}, 100)
    assert (info.value.code, info.value.status) == ("bad_option", 400)


def test_a_bot_budget_above_the_server_s_is_lowered_and_said(tmp_path: Path) -> None:
    async def scenario(lobby: Lobby) -> None:
        request = CreateTable(
            game="arctic", seats=[PERSON, bot("ismcts:ms=5000,c=0.5"), bot("ismcts:it=900", "Deep")]
        )
        table, tokens, notices = await lobby.create(request)
        assert notices == [
            "seat 2: ismcts:ms=5000,c=0.5 plays with ms=2000 on this server",
            "seat 3: ismcts:it=900 plays with it=500 on this server",
        ]
        assert [s.bot for s in table.seats[1:]] == ["ismcts:ms=2000,c=0.5", "ismcts:it=500"]
        assert [s.name for s in table.seats[1:]] == ["ismcts:ms=2000,c=0.5", "Deep"]
        assert tokens == [(0, tokens[0][1])]
        # A budget within the server's is kept as asked, with no notice.
        _, _, none = await lobby.create(CreateTable(game="arctic", seats=[PERSON, bot("ismcts:ms=1500")]))
        assert none == []

    bots = HeldBots()
    bots.limits = BotLimits(time_cap=5.0)
    # The time cap (5 s) is above max_bot_ms (2 s): the lower wins.
    run(tmp_path, scenario, bots=bots, max_bot_ms=2000, max_bot_iterations=500)


def test_the_time_cap_lowers_a_time_budget_too(tmp_path: Path) -> None:
    async def scenario(lobby: Lobby) -> None:
        _, _, notices = await lobby.create(CreateTable(game="arctic", seats=[PERSON, bot("ismcts:ms=3000")]))
        assert notices == ["seat 2: ismcts:ms=3000 plays with ms=1500 on this server"]

    bots = HeldBots()
    bots.limits = BotLimits(time_cap=1.5)
    run(tmp_path, scenario, bots=bots)


def test_join_hello_and_their_refusals(tmp_path: Path) -> None:
    async def scenario(lobby: Lobby) -> None:
        table, tokens, _ = await lobby.create(people(3))
        _, watcher = await connected(lobby, table, None)
        seat, token = await lobby.join(table.id, JoinTable(name="Bea", key=KEY))
        assert seat == 1 and table.seats[1].matches(token) and not table.seats[1].matches(tokens[1][1])
        assert (table.seats[1].name, table.seats[1].claimed) == ("Bea", True)
        assert table.seats[1].joined_by == token_hash(KEY)
        assert stored(lobby, table.id).seats[1] == table.seats[1].stored()
        await settle()
        assert watcher.types()[-1] == "state" and watcher.messages[-1]["table"]["seats"][1]["name"] == "Bea"
        with pytest.raises(Refusal) as info:
            await lobby.join(table.id, JoinTable(name="Bea again", key=KEY))
        assert (info.value.code, info.value.status) == ("already_joined", 409)
        assert info.value.message == "you already have seat P2 at this table: open its link"
        with pytest.raises(Refusal, match="a name needs at least one visible character") as info:
            await lobby.join(table.id, JoinTable(name=" "))
        assert info.value.code == "bad_name" and not info.value.message.startswith("seat")
        # The third seat's invitation link claims it when first opened; then no seat is free.
        assert table.status == "waiting"
        assert await lobby.hello(table, tokens[2][1]) == 2 and table.seats[2].claimed
        assert stored(lobby, table.id).seats[2]["claimed"] is True and table.status == "playing"
        assert await lobby.hello(table, tokens[2][1]) == 2 and await lobby.hello(table, None) is None
        with pytest.raises(Refusal, match="does not belong to this table"):
            await lobby.hello(table, "forged")
        with pytest.raises(Refusal) as info:
            await lobby.join(table.id, JoinTable(name="Cy"))
        assert (info.value.code, info.value.status, info.value.message) == (
            "no_free_seat", 409, "no free seat at this table",
        )  # fmt: skip
        private, _, _ = await lobby.create(people(public=False))
        with pytest.raises(Refusal) as info:
            await lobby.join(private.id, JoinTable(name="Cy"))
        assert (info.value.code, info.value.status) == ("private_table", 403)
        assert info.value.message == "this table is private: its seats are taken with their invitation links"
        with pytest.raises(Refusal) as info:
            await lobby.join("nope", JoinTable())
        assert (info.value.code, info.value.status) == ("unknown_table", 404)
        # Without a key, joins are not tied to a browser.
        open_table, _, _ = await lobby.create(people(3))
        assert [(await lobby.join(open_table.id, JoinTable()))[0] for _ in range(2)] == [1, 2]
        assert open_table.seats[1].joined_by is None and open_table.seats[1].name == "Guest"

    run(tmp_path, scenario)


# --- moves -----------------------------------------------------------------------------------------------


async def started(lobby: Lobby, n: int = 2) -> tuple[Table, list[str]]:
    table, tokens, _ = await lobby.create(people(n))
    for _, token in tokens[1:]:
        await lobby.hello(table, token)
    assert table.status == "playing"
    return table, [token for _, token in tokens]


def test_a_move_is_stored_adopted_acknowledged_then_broadcast(tmp_path: Path) -> None:
    async def scenario(lobby: Lobby) -> None:
        table, _ = await started(lobby)
        _, inbox = await connected(lobby, table, 1)
        seat, version = table.to_move, table.version
        assert seat is not None
        action = table.state.legal_actions()[-1]
        expected = table.after(action).history
        heard: list[tuple[int, int]] = []

        def ack(v: int) -> None:  # before anyone is sent the new state
            heard.append((v, len(inbox.messages)))

        before = len(inbox.messages)
        new_version = await lobby.move(table, seat, action, version, ack=ack)
        assert new_version == table.version == len(expected) and table.state.history == expected
        assert heard == [(new_version, before)]
        assert lobby.store.load_actions(table.id) == expected
        await settle()
        assert inbox.messages[-1]["type"] == "state" and inbox.messages[-1]["table"]["version"] == new_version
        # Refused moves change nothing, in memory or in the store.
        for args, code in (
            ((seat, action, version), "stale"),
            (
                (1 - seat if table.to_move == seat else seat, table.state.legal_actions()[0], new_version),
                "not_your_turn",
            ),
            ((table.to_move, 10_000, new_version), "illegal"),
            ((table.to_move, "1", new_version), "malformed"),
        ):
            with pytest.raises(Refusal) as info:
                await lobby.move(table, *args)
            assert info.value.code == code
        assert table.version == new_version and lobby.store.load_actions(table.id) == expected

    run(tmp_path, scenario)


def test_a_finished_game_is_stored_as_finished_and_leaves_the_open_tables(tmp_path: Path) -> None:
    async def scenario(lobby: Lobby) -> None:
        table, _ = await started(lobby)
        lobby.owners[table.id] = "10.0.0.9"
        lobby.limits.creator[table.id] = "10.0.0.9"
        lobby.limits.open_by_client["10.0.0.9"] = 1
        forgotten: list[str] = []
        lobby.bots.forget = forgotten.append  # type: ignore[method-assign,assignment]
        while not table.state.is_terminal():
            seat = table.to_move
            assert seat is not None and not stored(lobby, table.id).finished
            await lobby.move(table, seat, table.state.legal_actions()[0], table.version)
        row = stored(lobby, table.id)
        assert row.finished and row.actions == list(table.state.history)
        assert table.id not in lobby.tables and lobby.finished.get(table.id) is table
        assert lobby.get(table.id) is table and forgotten == [table.id]
        assert table.id not in lobby.owners and "10.0.0.9" not in lobby.limits.open_by_client
        with pytest.raises(Refusal) as info:
            await lobby.move(table, 0, 0, table.version)
        assert info.value.code == "finished"
        # Once dropped from the cache, it is read back from the store, replayed.
        lobby.finished = type(lobby.finished)(4)
        again = await lobby.fetch(table.id)
        assert (
            again is not table and again.state.history == table.state.history and again.status == "finished"
        )
        assert await lobby.fetch(table.id) is again

    run(tmp_path, scenario)


def test_away_and_back(tmp_path: Path) -> None:
    async def scenario(lobby: Lobby) -> None:
        table, _ = await started(lobby)
        _, inbox = await connected(lobby, table, 1)
        seat = table.to_move
        assert seat is not None
        count = len(inbox.messages)
        await lobby.set_away(table, 1 - seat, False)  # not away: nothing changes, nobody is told
        await settle()
        assert len(inbox.messages) == count and lobby.bot_tasks == {}
        await lobby.set_away(table, seat, True)
        assert table.seats[seat].away
        decision, answer = await asyncio.wait_for(lobby.bots.asked.get(), 60)  # type: ignore[attr-defined]
        assert decision.spec == entry("arctic").away_bot and decision.seat == seat
        await settle()
        assert inbox.messages[-1]["table"]["seats"][seat]["away"] is True
        # A person's own move takes the seat back.
        answer.set_result(None)
        await lobby.move(table, seat, table.state.legal_actions()[0], table.version)
        assert not table.seats[seat].away

    run(tmp_path, scenario, bots=HeldBots())


# --- bots ------------------------------------------------------------------------------------------------


def test_a_bot_seat_plays_when_it_is_to_move(tmp_path: Path) -> None:
    async def scenario(lobby: Lobby) -> None:
        table, _, _ = await lobby.create(CreateTable(game="arctic", seats=[PERSON, bot("random")]))
        assert table.status == "playing"
        for _ in range(2000):  # generous under load: the bot plays in-process, at once
            if table.to_move == 0:
                break
            await asyncio.sleep(0.01)
        assert table.to_move == 0
        if table.version:
            moves = lobby.store.load_actions(table.id)
            assert moves == list(table.state.history)
        # The person moves; the bot answers until it is the person's turn again.
        version = await lobby.move(table, 0, table.state.legal_actions()[0], table.version)
        for _ in range(2000):
            if table.to_move == 0 or table.status == "finished":
                break
            await asyncio.sleep(0.01)
        assert table.version > version or table.to_move == 0
        assert lobby.store.load_actions(table.id) == list(table.state.history)

    run(tmp_path, scenario)


def test_a_bot_decision_is_told_the_table_s_facts(tmp_path: Path) -> None:
    async def scenario(lobby: Lobby) -> None:
        bots: HeldBots = lobby.bots  # type: ignore[assignment]
        table, _, _ = await lobby.create(
            CreateTable(game="arctic", seats=[PERSON, bot("greedy")], options={}), client="10.1.1.1"
        )
        while table.to_move == 0:
            await lobby.move(table, 0, table.state.legal_actions()[0], table.version)
        decision, answer = await asyncio.wait_for(bots.asked.get(), 60)
        state = table.state
        assert (decision.game, decision.players, decision.spec, decision.seat, decision.table) == (
            "arctic", 2, "greedy", 1, table.id,
        )  # fmt: skip
        assert decision.seed == _derived_seed("bot", table.row.seed, table.version)
        assert decision.legal == tuple(state.legal_actions()) and decision.history == tuple(state.history)
        assert decision.observation == state.observation(1)
        # Scheduling again for the same version starts no second decision.
        running = lobby.bot_tasks[table.id]
        lobby.schedule(table)
        assert lobby.bot_tasks[table.id] is running and bots.asked.empty()
        version = table.version
        answer.set_result(decision.legal[-1])
        await asyncio.wait_for(running[1], 60)
        assert table.version > version and lobby.store.load_actions(table.id)[version] == decision.legal[-1]

    run(tmp_path, scenario, bots=HeldBots())


def test_the_derived_seed_is_the_first_seven_bytes_of_a_sha256() -> None:
    digest = hashlib.sha256(b"bot/123/45").digest()
    assert _derived_seed("bot", 123, 45) == int.from_bytes(digest[:7], "big")
    assert _derived_seed("bot", 123, 45) != _derived_seed("bot", 123, 46)


def test_a_bot_answer_for_an_old_version_or_none_is_dropped(tmp_path: Path) -> None:
    async def scenario(lobby: Lobby) -> None:
        bots: HeldBots = lobby.bots  # type: ignore[assignment]
        table, _, _ = await lobby.create(CreateTable(game="arctic", seats=[PERSON, bot("greedy")]))
        while table.to_move == 0:
            await lobby.move(table, 0, table.state.legal_actions()[0], table.version)
        version = table.version
        _, answer = await asyncio.wait_for(bots.asked.get(), 60)
        _, task = lobby.bot_tasks[table.id]
        answer.set_result(None)  # dropped unrun
        await asyncio.wait_for(task, 60)
        assert table.version == version
        # A bot that fails is logged and retried on the next tick, not fatal.
        lobby.schedule(table)
        _, answer = await asyncio.wait_for(bots.asked.get(), 60)
        _, task = lobby.bot_tasks[table.id]
        answer.set_exception(RuntimeError("worker died"))
        await asyncio.wait_for(task, 60)
        assert table.version == version and task.exception() is None

    run(tmp_path, scenario, bots=HeldBots())


def test_a_stored_spec_past_this_server_s_bounds_is_played_by_the_away_bot(tmp_path: Path) -> None:
    async def scenario(lobby: Lobby) -> None:
        bots: HeldBots = lobby.bots  # type: ignore[assignment]
        table, _, _ = await lobby.create(CreateTable(game="arctic", seats=[PERSON, bot("greedy")]))
        table.seats[1].bot = "wizard"
        while table.to_move == 0:
            await lobby.move(table, 0, table.state.legal_actions()[0], table.version)
        decision, answer = await asyncio.wait_for(bots.asked.get(), 60)
        assert decision.spec == entry("arctic").away_bot
        answer.set_result(None)

    run(tmp_path, scenario, bots=HeldBots())


# --- connections -----------------------------------------------------------------------------------------


def test_connections_get_a_welcome_and_their_state_and_hear_of_each_other(tmp_path: Path) -> None:
    async def scenario(lobby: Lobby) -> None:
        table, _ = await started(lobby)
        spectator, watching = await connected(lobby, table, None)
        assert watching.types() == ["welcome", "state"]
        assert watching.messages[0] == {"type": "welcome", "seat": None, "table": table.summary()}
        conn, mine = await connected(lobby, table, 0)
        assert mine.types() == ["welcome", "state"] and mine.messages[0]["seat"] == 0
        assert table.seats[0].connections == 1
        assert watching.types()[-1] == "seats" and watching.messages[-1]["table"]["seats"][0]["connected"]
        # A second tab of the same seat changes no flag: nobody else is told.
        count = len(watching.messages)
        second, _ = await connected(lobby, table, 0)
        assert table.seats[0].connections == 2 and len(watching.messages) == count
        left_at = table.seats[0].left_at
        lobby.disconnect(table, second)
        await settle()
        assert table.seats[0].connections == 1 and table.seats[0].left_at == left_at
        assert len(watching.messages) == count
        before = time.time()
        lobby.disconnect(table, conn)
        lobby.disconnect(table, conn)  # twice: nothing more
        await settle()
        assert table.seats[0].connections == 0 and table.seats[0].left_at is not None
        assert table.seats[0].left_at >= before
        assert watching.types()[-1] == "seats" and not watching.messages[-1]["table"]["seats"][0]["connected"]
        assert len(lobby.conns[table.id]) == 1
        # An away seat that connects is taken back, and the others hear of it.
        table.seats[1].away = True
        count = len(watching.messages)
        await connected(lobby, table, 1)
        assert not table.seats[1].away and len(watching.messages) == count + 1
        lobby.broadcast(table)
        await settle()
        assert watching.types()[-1] == "state"
        spectator.send_state()
        await settle()
        assert watching.types()[-1] == "state"
        lobby.seats_changed(table, but=spectator)
        await settle()
        assert watching.types()[-1] == "state"

    # Every seats news told at once (test_abuse_reconnect_chat.py tests the interval between them).
    run(tmp_path, scenario, conn_limits=ConnLimits(seats_news_interval=0))


def test_connection_limits(tmp_path: Path) -> None:
    async def scenario(lobby: Lobby) -> None:
        table, _ = await started(lobby)
        for _ in range(2):
            await connected(lobby, table, None)
        with pytest.raises(Refusal) as info:
            await connected(lobby, table, None)
        assert (info.value.code, info.value.status) == ("too_many_connections", 429)
        assert info.value.message == "this table has 2 spectators, the most it takes; try later"
        await connected(lobby, table, 0)
        with pytest.raises(Refusal) as info:
            await connected(lobby, table, 0)
        assert (info.value.code, info.value.status) == ("too_many_connections", 429)
        assert info.value.message == "this seat is open in 1 place already; close one"
        assert table.seats[0].connections == 1 and len(lobby.conns[table.id]) == 3
        await connected(lobby, table, 1)

    run(tmp_path, scenario, conn_limits=ConnLimits(spectators=2, seat_connections=1))


# --- timers ----------------------------------------------------------------------------------------------


def test_the_turn_timer_and_a_person_gone_too_long_bring_in_the_stand_in(tmp_path: Path) -> None:
    async def scenario(lobby: Lobby) -> None:
        bots: HeldBots = lobby.bots  # type: ignore[assignment]
        table, _, _ = await lobby.create(people(turn_timer=5.0))
        await lobby.hello(table, None)
        table.seats[1].claimed = True
        seat = table.to_move
        assert seat is not None
        info = table.seats[seat]
        info.connections = 1
        start = table.decision_started()
        lobby._check_timers(table, start + 4.9)  # before the deadline: nothing
        assert not info.away and bots.asked.empty()
        lobby._check_timers(table, start + 5.0)  # at the deadline: the stand-in plays
        assert info.away
        decision, answer = await asyncio.wait_for(bots.asked.get(), 60)
        assert decision.seat == seat
        answer.set_result(None)
        # Without a timer, a person with no connection is replaced after ``away_after`` seconds.
        table.row.turn_timer = None
        info.away = False
        info.connections = 0
        info.left_at = start + 100
        lobby._check_timers(table, start + 100 + 29.9)
        assert not info.away
        lobby._check_timers(table, start + 100 + 30)
        assert info.away
        # Gone since before the turn began: counted from the turn's start.
        info.away = False
        info.left_at = start - 1000
        start = table.decision_started()  # the seat back from the stand-in: its decision's clock restarts
        lobby._check_timers(table, start + 29.9)
        assert not info.away
        lobby._check_timers(table, start + 30)
        assert info.away
        # A connected person without a timer is never replaced.
        info.away = False
        info.connections = 1
        lobby._check_timers(table, start + 10_000)
        assert not info.away
        # Nobody to move (the game over or waiting): nothing.
        waiting, _, _ = await lobby.create(people())
        lobby._check_timers(waiting, time.time() + 10_000)
        assert not any(s.away for s in waiting.seats)

    run(tmp_path, scenario, bots=HeldBots(), away_after=30.0)


def test_the_watch_checks_every_open_table_each_tick(tmp_path: Path) -> None:
    async def scenario(lobby: Lobby) -> None:
        bots: HeldBots = lobby.bots  # type: ignore[assignment]
        table, _, _ = await lobby.create(people(turn_timer=0.05))
        await lobby.hello(table, None)
        table.seats[1].claimed = True
        seat = table.to_move
        assert seat is not None
        await lobby.start()
        decision, answer = await asyncio.wait_for(bots.asked.get(), 60)
        assert table.seats[seat].away and decision.seat == seat
        answer.set_result(None)

    run(tmp_path, scenario, bots=HeldBots(), tick=0.01)


# --- start-up and finished tables ------------------------------------------------------------------------


def test_load_serves_the_good_tables_and_names_the_bad_ones(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async def make(lobby: Lobby) -> None:
        good, _ = await started(lobby)
        await lobby.move(good, good.to_move or 0, good.state.legal_actions()[0], good.version)
        broken, _ = await started(lobby)
        done, _ = await started(lobby)
        finished_flagless, _ = await started(lobby)
        for table in (done, finished_flagless):
            while not table.state.is_terminal():
                await lobby.move(table, table.to_move or 0, table.state.legal_actions()[0], table.version)
        names.update(good=good.id, broken=broken.id, done=done.id, flagless=finished_flagless.id)
        actions[good.id] = list(good.state.history)

    names: dict[str, str] = {}
    actions: dict[str, list[int]] = {}
    run(tmp_path, make)
    store = Store(database_url(None, tmp_path))
    try:
        with store.engine.begin() as conn:  # a log that does not replay; a finished flag never written
            conn.exec_driver_sql(
                "UPDATE floe_actions SET action = 99999 WHERE table_id = ? AND idx = 3", (names["broken"],)
            )
            conn.exec_driver_sql("UPDATE floe_tables SET finished = 0 WHERE id = ?", (names["flagless"],))
    finally:
        store.close()

    async def check(lobby: Lobby) -> None:
        with caplog.at_level(logging.WARNING, logger="floe.server"):
            assert lobby.load() == 1
        assert list(lobby.tables) == [names["good"]]
        assert lobby.tables[names["good"]].state.history == actions[names["good"]]
        assert lobby.unloadable == {names["broken"]}
        [line] = [r.getMessage() for r in caplog.records if "cannot load" in r.getMessage()]
        assert line.startswith(f"cannot load table {names['broken']}: stored action 4 does not replay")
        assert line.count(names["broken"]) == 1  # the id is not said twice
        assert stored(lobby, names["flagless"]).finished and lobby.finished.get(names["flagless"]) is not None
        assert names["done"] not in lobby.tables
        for bad in (names["broken"], "x" * 33, "unknown"):
            with pytest.raises(Refusal) as info:
                await lobby.fetch(bad)
            assert (info.value.code, info.value.status) == ("unknown_table", 404)
        assert (await lobby.fetch(names["done"])).status == "finished"
        # Two requests for one finished table share one load.
        lobby.finished = type(lobby.finished)(4)
        first, second = await asyncio.gather(lobby.fetch(names["done"]), lobby.fetch(names["done"]))
        assert first is second and lobby._loading == {}

    run(tmp_path, check)


def test_the_public_list(tmp_path: Path) -> None:
    async def scenario(lobby: Lobby) -> None:
        waiting, _, _ = await lobby.create(people())
        playing, _ = await started(lobby)
        hidden, _, _ = await lobby.create(people(public=False))
        done, _ = await started(lobby)
        while not done.state.is_terminal():
            await lobby.move(done, done.to_move or 0, done.state.legal_actions()[0], done.version)
        for k, table in enumerate((waiting, playing, hidden, done)):
            table.row.created = 1000.0 + k
        listed = await lobby.public_tables()
        assert [s["id"] for s in listed] == [done.id, playing.id, waiting.id]
        assert listed[1] == playing.summary()
        assert [s["id"] for s in await lobby.public_tables("playing")] == [playing.id]
        assert [s["id"] for s in await lobby.public_tables("waiting")] == [waiting.id]
        assert [s["id"] for s in await lobby.public_tables("finished")] == [done.id]
        assert [s["id"] for s in await lobby.public_tables(limit=2)] == [done.id, playing.id]
        assert [s["id"] for s in await lobby.public_tables(limit=1)] == [done.id]
        # A finished table known only to the store is listed from its row.
        lobby.finished = type(lobby.finished)(0)
        lobby._listing = (-1.0, [])
        [only] = await lobby.public_tables("finished")
        assert only["id"] == done.id and only["status"] == "finished" and only["to_move"] is None
        assert only["version"] == done.version

    run(tmp_path, scenario)


def test_start_schedules_waiting_bots_and_stop_ends_everything(tmp_path: Path) -> None:
    async def scenario(lobby: Lobby) -> None:
        bots: HeldBots = lobby.bots  # type: ignore[assignment]
        table, _ = await started(lobby)
        seat = table.to_move
        assert seat is not None
        table.seats[seat].away = True
        await lobby.start()
        decision, _ = await asyncio.wait_for(bots.asked.get(), 60)
        assert decision.seat == seat and lobby._watchdog is not None
        conn, _ = await connected(lobby, table, None)
        _, task = lobby.bot_tasks[table.id]
        await lobby.stop()
        await settle()
        assert task.cancelled() and lobby._watchdog.cancelled() and conn._closing

    run(tmp_path, scenario, bots=HeldBots())


def test_get_and_lock() -> None:
    store = Store("sqlite://")
    try:
        lobby = Lobby(store, HeldBots())
        assert lobby.lock("a") is lobby.lock("a") and lobby.lock("a") is not lobby.lock("b")
        with pytest.raises(Refusal) as info:
            lobby.get("a")
        assert (info.value.code, info.value.message, info.value.status) == (
            "unknown_table", "no table with that id", 404,
        )  # fmt: skip
        table, _, _ = build_table(people(), lambda *a: ("x", None), 5)
        lobby.finished.put(table)
        assert lobby.get(table.id) is table
        seat = Seat("person", "A")
        assert seat.kind == "person"
    finally:
        store.close()


def test_a_damaged_table_is_named_in_one_line() -> None:
    from floe.core.errors import FloeError
    from floe.server.manager import _one_line
    from floe.server.store import UnreadableRow

    assert _one_line(FloeError("table t1: stored action 4 does not replay\nmore"), "t1") == (
        "stored action 4 does not replay"
    )
    assert _one_line(UnreadableRow("t1", "seats are not JSON"), "t1") == "seats are not JSON"
    assert _one_line(KeyError("seats"), "t1") == "KeyError: 'seats'"
    assert _one_line(ValueError(""), "t1") == "ValueError"
    assert _one_line(ValueError("table t2: other"), "t1") == "ValueError: table t2: other"


class ClientBots(HeldBots):
    """``HeldBots`` that also note whose tables each decision counts with."""

    def __init__(self) -> None:
        super().__init__()
        self.clients: list[str | None] = []

    async def choose(
        self,
        decision: Any,
        *,
        game: Any = None,
        client: str | None = None,
        wanted: Any = None,
        person: bool = False,
    ) -> Any:
        self.clients.append(client)
        assert wanted is not None and wanted() and person  # a table a person sits at: its searches go first
        return await super().choose(decision, game=game, client=client, wanted=wanted)


def test_a_bot_decision_counts_with_its_table_s_creator(tmp_path: Path) -> None:
    async def scenario(lobby: Lobby) -> None:
        bots: ClientBots = lobby.bots  # type: ignore[assignment]
        for client in ("10.2.2.2", None):
            table, tokens, _ = await lobby.create(
                CreateTable(game="arctic", seats=[PERSON, bot("greedy")]), client=client
            )
            await lobby.hello(table, tokens[0][1])  # the person sits down: a person's table (``attended``)
            while table.to_move == 0:
                await lobby.move(table, 0, table.state.legal_actions()[0], table.version)
            _, answer = await asyncio.wait_for(bots.asked.get(), 60)
            assert bots.clients[-1] == (client or f"table:{table.id}")
            answer.set_result(None)

    run(tmp_path, scenario, bots=ClientBots())


def test_small_facts_of_the_lobby(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    from floe.server.botrunner import options_key
    from floe.server.manager import TEST_SEED_ENV, seeds_for_tests

    with caplog.at_level(logging.WARNING, logger="floe.server"):
        seeds_for_tests({TEST_SEED_ENV: "3"})
    assert caplog.records[-1].getMessage() == (
        "FLOE_TEST_SEED is set: the seeds of new tables are predictable (a test hook)"
    )

    async def scenario(lobby: Lobby) -> None:
        bots: HeldBots = lobby.bots  # type: ignore[assignment]
        assert lobby._work._max_workers == 1  # one build thread
        # Four seats, the most Arctic takes; a fresh secret seed below 2**62; a 12-hex-digit id.
        big, _, _ = await lobby.create(people(entry("arctic").max_players), client="c9")
        assert big.row.seed < 2**62 and len(big.id) == 12 and lobby.limits.creator[big.id] == "c9"
        inbox = Inbox()
        conn = lobby.open_conn(big, inbox, None)
        assert conn.limits is lobby.conn_limits
        # A spectator's arrival changes no seat: the other spectators hear nothing.
        _, first = await connected(lobby, big, None)
        count = len(first.messages)
        await connected(lobby, big, None)
        assert len(first.messages) == count
        # Both budgets lowered: both said, in one notice.
        _, _, notices = await lobby.create(
            CreateTable(game="arctic", seats=[PERSON, bot("ismcts:ms=20000,it=200000")])
        )
        assert notices == ["seat 2: ismcts:ms=20000,it=200000 plays with ms=10000, it=100000 on this server"]
        with pytest.raises(Refusal) as info:
            await lobby.join(big.id, JoinTable(name=" "))
        assert info.value.message == "a name needs at least one visible character"
        # A bot's move for a seat that a person holds is refused as stale.
        table, _ = await started(lobby)
        seat = table.to_move
        assert seat is not None
        with pytest.raises(Refusal) as info:
            await lobby.move(table, seat, table.state.legal_actions()[0], table.version, by_bot=True)
        assert (info.value.code, info.value.message) == ("stale", "the person took the seat back")
        # A person's own move leaves the seat not away (False, as the seat summary says).
        table.seats[seat].away = True
        await lobby.move(table, seat, table.state.legal_actions()[0], table.version)
        assert table.seats[seat].away is False
        # A seat that connects is not away either.
        other = table.to_move
        assert other is not None
        table.seats[other].away = True
        await connected(lobby, table, other)
        assert table.seats[other].away is False
        # The decision is told the table's options (a remembering bot rebuilds the game from them).
        with_bot, _, _ = await lobby.create(CreateTable(game="arctic", seats=[PERSON, bot("greedy")]))
        while with_bot.to_move == 0:
            await lobby.move(with_bot, 0, with_bot.state.legal_actions()[0], with_bot.version)
        decision, answer = await asyncio.wait_for(bots.asked.get(), 60)
        assert decision.options == options_key(with_bot.row.options)
        answer.set_result(None)
        # A table loaded at start-up has no owner: finishing it is fine all the same.
        lobby.owners.pop(table.id, None)
        while not table.state.is_terminal():
            await lobby.move(table, table.to_move or 0, table.state.legal_actions()[0], table.version)
        assert table.id not in lobby.tables
        # The lobby's list cuts to the newest.
        for k, t in enumerate(lobby.tables.values()):
            t.row.created = 3e9 + k
        newest = max(lobby.tables.values(), key=lambda t: t.row.created)
        assert [s["id"] for s in await lobby.public_tables(limit=1)] == [newest.id]
        with pytest.raises(Refusal) as info:
            await lobby.fetch("nope")
        assert info.value.message == "no table with that id"

    run(tmp_path, scenario, bots=HeldBots())


def test_a_failing_bot_is_logged_with_its_table(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    async def scenario(lobby: Lobby) -> None:
        bots: HeldBots = lobby.bots  # type: ignore[assignment]
        table, _, _ = await lobby.create(CreateTable(game="arctic", seats=[PERSON, bot("greedy")]))
        while table.to_move == 0:
            await lobby.move(table, 0, table.state.legal_actions()[0], table.version)
        _, answer = await asyncio.wait_for(bots.asked.get(), 60)
        _, task = lobby.bot_tasks[table.id]
        with caplog.at_level(logging.ERROR, logger="floe.server"):
            answer.set_exception(RuntimeError("worker died"))
            await asyncio.wait_for(task, 60)
        messages = [r.getMessage() for r in caplog.records]
        assert f"bot greedy failed at table {table.id}; retrying on the next tick" in messages

    run(tmp_path, scenario, bots=HeldBots())


def test_damaged_rows_are_named_and_stay_unknown(tmp_path: Path) -> None:
    async def make(lobby: Lobby) -> None:
        bad_seats, _ = await started(lobby)
        done, _ = await started(lobby)
        while not done.state.is_terminal():
            await lobby.move(done, done.to_move or 0, done.state.legal_actions()[0], done.version)
        ids.update(bad_seats=bad_seats.id, done=done.id)

    ids: dict[str, str] = {}
    run(tmp_path, make)
    store = Store(database_url(None, tmp_path))
    try:
        with store.engine.begin() as conn:
            conn.exec_driver_sql(
                "UPDATE floe_tables SET seats = 'not json' WHERE id = ?", (ids["bad_seats"],)
            )
            conn.exec_driver_sql(
                "UPDATE floe_actions SET action = 99999 WHERE table_id = ? AND idx = 5", (ids["done"],)
            )
    finally:
        store.close()

    async def check(lobby: Lobby) -> None:
        assert lobby.load() == 0 and lobby.unloadable == {ids["bad_seats"]}
        with pytest.raises(Refusal):
            await lobby.fetch(ids["done"])  # a finished table whose log does not replay
        assert lobby.unloadable == {ids["bad_seats"], ids["done"]}

    run(tmp_path, check)


def test_a_table_whose_links_nobody_opened_is_listed_as_not_opened(tmp_path: Path) -> None:
    """Issue 27, item 4: the creator's seat is claimed at once, so a table of one person and a bot plays
    from its creation; until the creator opens the link, the lobby's list says it waits for players."""

    async def scenario(lobby: Lobby) -> None:
        made = CreateTable(game="arktia", seats=[PERSON, bot("random")])
        table, tokens, _ = await lobby.create(made)
        assert table.status == "playing" and not table.opened
        [listed] = await lobby.public_tables()
        assert (listed["status"], listed["opened"]) == ("playing", False)
        assert await lobby.hello(table, tokens[0][1]) == 0
        [listed] = await lobby.public_tables()
        assert (listed["status"], listed["opened"]) == ("playing", True) and table.opened
        # A table of bots alone has no link to open; a finished one read from its row says it too.
        bots, _, _ = await lobby.create(CreateTable(game="arktia", seats=[bot("random")] * 2))
        assert bots.opened and bots.summary()["opened"] is True
        row = stored(lobby, table.id)
        assert stored_summary(row, table.version)["opened"] is True
        row.seats[0]["seen"] = False
        assert stored_summary(row, table.version)["opened"] is False

    run(tmp_path, scenario, bots=HeldBots())

"""A stand-in's move that lands after its person came back is discarded (issue 16, item 2).

A person who is away has the game's away bot play for them; if they come back (``back``, or a move of
their own) while the bot is still deciding, the bot's answer must not be committed. Over a real server
that race is a matter of milliseconds and cannot be seen by waiting; here the lobby runs in-process with
a bot runner whose decisions the test answers by hand (``HeldBots``), so the decision is provably under
way when the person comes back, and its answer arrives exactly when the test says. What was committed is
read from the table's version and the store's action log, the source of truth.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from floe.core.game import Game
from floe.server.botrunner import BotRunner, Decision
from floe.server.manager import Lobby
from floe.server.protocol import CreateTable, SeatRequest
from floe.server.store import Store, database_url
from floe.server.tables import Table

Asked = tuple[Decision, "asyncio.Future[int | None]"]


class HeldBots(BotRunner):
    """A bot runner whose every decision waits for the test: ``choose`` queues (decision, answer) on
    ``asked`` and returns whatever the test sets the answer to."""

    def __init__(self) -> None:
        super().__init__(1, processes=False)
        self.asked: asyncio.Queue[Asked] = asyncio.Queue()

    async def choose(
        self,
        decision: Decision,
        *,
        game: Game | None = None,
        client: str | None = None,
        wanted: Callable[[], bool] | None = None,
        person: bool = False,
    ) -> int | None:
        answer: asyncio.Future[int | None] = asyncio.get_running_loop().create_future()
        await self.asked.put((decision, answer))
        return await answer


Scenario = Callable[[Lobby, HeldBots, Table, list[str]], Awaitable[None]]


def run(tmp_path: Path, scenario: Scenario) -> None:
    """Run ``scenario`` on a fresh lobby (SQLite in ``tmp_path``, no timers running) with a two-person
    Arctic table whose seats are both claimed; ``tokens`` are the seats' tokens."""

    async def main() -> None:
        store = Store(database_url(None, tmp_path))
        bots = HeldBots()
        lobby = Lobby(store, bots)
        try:
            person = SeatRequest(kind="person")
            table, tokens, _ = await lobby.create(CreateTable(game="arctic", seats=[person, person]))
            await lobby.hello(table, tokens[1][1])  # claims the second seat: the game starts
            assert table.status == "playing"
            await scenario(lobby, bots, table, [token for _, token in tokens])
        finally:
            await lobby.stop()
            bots.close()
            store.close()

    asyncio.run(main())


async def stand_in_deciding(lobby: Lobby, bots: HeldBots, table: Table) -> Asked:
    """The person to move leaves; returns the away bot's decision, which is now under way."""
    seat = table.to_move
    assert seat is not None
    await lobby.set_away(table, seat, True)
    decision, answer = await asyncio.wait_for(bots.asked.get(), 60)
    assert (decision.seat, decision.spec, decision.history) == (seat, "baseline", tuple(table.state.history))
    assert len(decision.legal) > 1, "pick a position with a choice, so the bot's move can be told apart"
    return decision, answer


async def answered(lobby: Lobby, table: Table, answer: asyncio.Future[Any], action: int) -> None:
    """The bot's decision ends with ``action``; wait until the lobby has dealt with it."""
    _, task = lobby.bot_tasks[table.id]
    answer.set_result(action)
    await asyncio.wait_for(task, 60)


def stored_log(lobby: Lobby, table: Table) -> list[int]:
    return lobby.store.load_actions(table.id)


def test_the_stand_ins_move_is_committed_while_the_person_is_away(tmp_path: Path) -> None:
    """The control: the same decision, answered while the person is still away, is played. (Without it
    the two tests below would pass for a bot runner whose answers never reach the table.)"""

    async def scenario(lobby: Lobby, bots: HeldBots, table: Table, tokens: list[str]) -> None:
        version = table.version
        decision, answer = await stand_in_deciding(lobby, bots, table)
        bot_action = decision.legal[-1]
        await answered(lobby, table, answer, bot_action)
        assert table.version > version
        assert stored_log(lobby, table)[version] == bot_action
        assert table.seats[decision.seat].away  # the person has not come back

    run(tmp_path, scenario)


def test_a_decision_that_ends_after_the_person_came_back_is_discarded(tmp_path: Path) -> None:
    async def scenario(lobby: Lobby, bots: HeldBots, table: Table, tokens: list[str]) -> None:
        version = table.version
        decision, answer = await stand_in_deciding(lobby, bots, table)
        seat = decision.seat
        await lobby.set_away(table, seat, False)  # "back" while the bot is still deciding
        await answered(lobby, table, answer, decision.legal[-1])
        # Nothing was played for the seat: the table is where the person left it, and it is their move.
        assert table.version == version and stored_log(lobby, table) == list(table.state.history)
        assert len(stored_log(lobby, table)) == version
        assert not table.seats[seat].away and table.to_move == seat
        assert bots.asked.empty()  # and no new decision was started for a seat that is no longer away
        # The person plays on the very version they came back to.
        mine = decision.legal[0]
        assert await lobby.move(table, seat, mine, version) > version
        assert stored_log(lobby, table)[version] == mine

    run(tmp_path, scenario)


def test_a_decision_that_ends_after_the_person_moved_is_discarded(tmp_path: Path) -> None:
    """Coming back by playing: the person's own move (over HTTP or WebSocket, both end in ``Lobby.move``,
    which also takes the seat back) wins; the bot's answer, made on the version before it, is stale."""

    async def scenario(lobby: Lobby, bots: HeldBots, table: Table, tokens: list[str]) -> None:
        version = table.version
        decision, answer = await stand_in_deciding(lobby, bots, table)
        seat = decision.seat
        mine, bots_choice = decision.legal[0], decision.legal[-1]
        assert table.seat_of(tokens[seat]) == seat
        after_mine = await lobby.move(table, seat, mine, version)
        await answered(lobby, table, answer, bots_choice)
        # Only the person's move (and the chance outcomes it set off) was stored: nothing after it.
        assert table.version == after_mine and not table.seats[seat].away
        log = stored_log(lobby, table)
        assert log == list(table.state.history) and len(log) == after_mine and log[version] == mine

    run(tmp_path, scenario)

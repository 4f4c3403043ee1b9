"""Bots that remember (``Bot.remembers``: mcts) live for the whole game in one worker of the server's bot
runner; a bot rebuilt mid-game (a restart, an eviction, a worker that died) is told its seat's earlier
decisions through ``recall`` (docs/server.md, "Bots that remember")."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from floe.bots.hooks import hooks_for
from floe.bots.mcts import MCTSBot
from floe.core.game import State
from floe.core.registry import entry
from floe.server import botrunner
from floe.server.app import create_app
from floe.server.botrunner import BotRunner, Decision, choose_remembered, live_report, options_key
from floe.server.settings import Settings

from .botwatch import alive

with warnings.catch_warnings():
    # Starlette's TestClient asks for httpx2 on import; the httpx this project locks works as it is.
    warnings.simplefilter("ignore", UserWarning)
    from fastapi.testclient import TestClient

SPEC = "mcts:it=30"
# A board big enough for a game of a dozen decisions a seat, without neutral pieces to place first.
OPTIONS = {"layout": "placeholder-27", "neutrals": False, "max_turns": 30}


@pytest.fixture(autouse=True)
def no_live_bots() -> Iterator[None]:
    """Each test starts and ends with no live bot in this process's worker slots."""
    botrunner._LIVE.clear()
    yield
    botrunner._LIVE.clear()


def decision(state: State, seat: int, table: str = "t1", spec: str = SPEC) -> Decision:
    """What the server sends a worker for ``seat``'s decision in ``state`` (the seed rule of the lobby)."""
    return Decision(
        game="arktia",
        players=2,
        options=options_key(OPTIONS),
        spec=spec,
        seat=seat,
        seed=1000 + len(state.history),
        observation=state.observation(seat),
        legal=tuple(state.legal_actions()),
        table=table,
        history=tuple(state.history),
    )


def some_move(state: State, rng: random.Random) -> int:
    """A random legal action, but not "stop" while there is another (stopping soon ends the game)."""
    legal = state.legal_actions()
    going = [a for a in legal if state.action_to_string(a) != "stop"]
    return rng.choice(going or legal)


def play(slot: int, bot_decisions: int, seed: int = 5) -> tuple[State, list[int]]:
    """An Arktia game: seat 0 random, seat 1 the remembering bot in worker ``slot``, until the bot has made
    ``bot_decisions`` decisions. Returns the position and the bot's actions."""
    state = entry("arktia").new_game(2, OPTIONS).new_initial_state()
    rng = random.Random(seed)
    chosen: list[int] = []
    while len(chosen) < bot_decisions:
        assert not state.is_terminal(), "the game ended before the bot had decided enough"
        if state.current_player() == 1:
            action = choose_remembered(slot, decision(state, 1))
            chosen.append(action)
        else:
            action = some_move(state, rng)
        state.apply(action)
    return state, chosen


def live_bot(slot: int, table: str = "t1", seat: int = 1) -> MCTSBot:
    bot = botrunner._LIVE[slot][(table, seat, SPEC)].bot
    assert isinstance(bot, MCTSBot)
    return bot


def test_one_live_bot_serves_every_decision_of_its_seat_and_plays_reproducibly() -> None:
    _, first = play(slot=0, bot_decisions=6)
    (report,) = live_report(0)
    assert (report["table"], report["seat"], report["spec"]) == ("t1", 1, SPEC)
    assert report["decisions"] == 6 and report["recalled"] == 0
    bot = live_bot(0)
    assert bot._tree is not None  # the tree is kept for the next decision
    # A kept bot with an iteration budget is a function of the seed rule and the log: the same game again
    # (in another worker slot) gives the same moves.
    _, again = play(slot=1, bot_decisions=6)
    assert again == first


def test_a_rebuilt_bot_recalls_its_seats_decisions_and_knows_the_positions_it_met() -> None:
    state, _ = play(slot=0, bot_decisions=8)
    assert len(state.legal_actions()) > 1  # a real decision, which both bots count
    kept = live_bot(0)
    # A restart: a worker with no live bot gets the next decision. It builds the bot at this version and
    # replays the log, recalling each of the seat's decisions.
    rebuilt_action = choose_remembered(1, decision(state, 1))
    (report,) = live_report(1)
    assert report["built_at"] == len(state.history) and report["recalled"] == 8 and report["decisions"] == 1
    kept_action = choose_remembered(0, decision(state, 1))
    rebuilt = live_bot(1)
    assert rebuilt is not kept
    # Both counted the same positions the same number of times (the positions met, the repeat shortcut's
    # memory); only the action chosen now may differ, as the two searches differ.
    key = hooks_for(kept.game).position_key
    assert key is not None
    now = key(kept.game.determinize(state.observation(1), random.Random(0)))
    counts = {k: times for k, (times, _) in kept._seen.items()}
    assert counts == {k: times for k, (times, _) in rebuilt._seen.items()} and counts[now] >= 1
    assert {k: v for k, v in kept._seen.items() if k != now} == {
        k: v for k, v in rebuilt._seen.items() if k != now
    }
    assert {kept_action, rebuilt_action} <= set(state.legal_actions())


def test_a_kept_bot_is_told_the_decisions_its_seat_made_without_it() -> None:
    state, _ = play(slot=0, bot_decisions=3)
    rng = random.Random(9)
    # The seat's person came back and played twice (the away bot did not decide), then left again.
    made = 0
    while made < 2:
        if state.current_player() == 1:
            made += 1
        state.apply(some_move(state, rng))
    while state.current_player() != 1:
        state.apply(some_move(state, rng))
    choose_remembered(0, decision(state, 1))
    (report,) = live_report(0)
    assert report["decisions"] == 4 and report["recalled"] == 2


def test_the_cache_is_bounded_and_a_finished_table_is_forgotten() -> None:
    state = entry("arktia").new_game(2, OPTIONS).new_initial_state()
    while state.current_player() != 1:
        state.apply(state.legal_actions()[0])
    for k in range(4):
        choose_remembered(0, decision(state, 1, table=f"t{k}"), capacity=3)
    assert [r["table"] for r in live_report(0)] == ["t1", "t2", "t3"]  # the least recently used went
    assert botrunner.forget(0, "t2") == 1
    assert [r["table"] for r in live_report(0)] == ["t1", "t3"]


def test_the_runner_routes_a_seat_to_its_worker_and_replaces_a_worker_that_died() -> None:
    async def scenario() -> tuple[int, list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]:
        runner = BotRunner(2, processes=True)
        try:
            state = entry("arktia").new_game(2, OPTIONS).new_initial_state()
            rng = random.Random(3)
            plain = 0
            while plain < 2:  # a bot that remembers nothing keeps no live bot anywhere
                if state.current_player() == 1:
                    state.apply(await runner.choose(decision(state, 1, spec="random")))
                    plain += 1
                else:
                    state.apply(some_move(state, rng))
            empty = await runner.live()

            async def bot_turns(count: int) -> None:
                done = 0
                while done < count:
                    if state.current_player() == 1:
                        state.apply(await runner.choose(decision(state, 1)))
                        done += 1
                    else:
                        state.apply(some_move(state, rng))

            await bot_turns(3)
            before = await runner.live()
            slot = runner.slot_of("t1", 1)
            pid = runner.pids()["search"][slot]
            assert pid is not None
            os.kill(pid, signal.SIGKILL)
            for _ in range(6000):  # it runs nothing once killed; wait until it is gone all the same (a bound)
                if not alive(pid):
                    break
                await asyncio.sleep(0.01)
            await bot_turns(1)  # the slot's worker is replaced, and the bot rebuilt from the log
            after = await runner.live()
            return slot, empty, before, after
        finally:
            runner.close()

    slot, empty, before, after = asyncio.run(scenario())
    assert empty == []
    (live,) = before
    assert live["slot"] == slot
    assert live["decisions"] == 3 and live["recalled"] == 2  # the random bot's two decisions for its seat
    (rebuilt,) = after
    assert rebuilt["slot"] == live["slot"] and rebuilt["decisions"] == 1
    assert rebuilt["recalled"] == 3 + 2  # its own three decisions and the two random seat-1 ones before


def test_a_table_keeps_one_mcts_bot_for_the_whole_game(tmp_path: Path) -> None:
    """Through the server: a person against ``mcts:it=…``; every decision of the bot's seat is made by the
    same live bot, which is dropped when the game is over."""
    settings = Settings(data_dir=tmp_path, bot_workers=2, bot_processes=False, tick=0.1)
    with TestClient(create_app(settings)) as client:
        bots = client.app.state.lobby.bots  # type: ignore[attr-defined]

        def live_bots(table: str) -> list[dict[str, Any]]:
            # Read in the workers themselves (in order with their decisions), not from this thread.
            return [r for r in client.portal.call(bots.live) if r["table"] == table]  # type: ignore[union-attr]

        seats = [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": SPEC}]
        made = client.post("/api/tables", json={"game": "arktia", "seats": seats, "options": OPTIONS})
        assert made.status_code == 201, made.text
        table, token = made.json()["table"]["id"], made.json()["seats"][0]["token"]
        auth = {"Authorization": f"Bearer {token}"}
        rng = random.Random(11)
        seen_ids: set[int] = set()
        decisions = 0
        end = time.monotonic() + 60
        while True:
            assert time.monotonic() < end, "the game did not finish"
            state = client.get(f"/api/tables/{table}/state", headers=auth).json()
            if state["status"] == "finished":
                break
            if not state["legal"]:
                time.sleep(0.02)
                continue
            live = live_bots(table)
            seen_ids |= {r["bot_id"] for r in live}
            if live:
                (bot,) = live
                assert bot["recalled"] == 0 and bot["decisions"] >= decisions
                decisions = bot["decisions"]
            going = [c for c in state["legal"] if c["verb"] != "stop"] or state["legal"]
            move = {"action": rng.choice(going)["id"], "version": state["version"]}
            assert client.post(f"/api/tables/{table}/moves", json=move, headers=auth).status_code == 200
        assert len(seen_ids) == 1 and decisions >= 3  # one bot object served every decision
        assert live_bots(table) == []  # dropped once the game is over

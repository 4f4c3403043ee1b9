"""Issue 11 item 1: a new table's options are bounded, and creating a table never holds up the others.

The attacks, over real HTTP: an Arktia ``layout`` of 5,200 cells (it used to block the event loop for
seconds and take gigabytes), ``max_turns``/``first_player`` of ``Infinity`` or ``1e400`` (500s), a
``layout`` that is a number, a boolean or 100,000 ``[`` (500s). Each must be a 400 ``bad_option`` refused
before any work: by the server's own bound on the options' size, before the game's schema reads them, and,
with that bound lifted, by each game's option schema before any board is built. Then a table being built
does not hold up a move at another table (the games are built off the event loop). How quick the refusals
and the moves stay under these attacks is measured by ``floe bench abuse`` (docs/performance.md),
not by a timed test.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from floe.core.errors import OptionError
from floe.games.arktia import board
from floe.server import manager
from floe.server.botrunner import BotRunner
from floe.server.manager import build_table
from floe.server.protocol import CreateTable, SeatRequest
from floe.server.refusal import Refusal
from floe.server.store import Store, database_url

from .serverproc import ServerProcess, running_server

PERSON = {"kind": "person"}
SEAT = SeatRequest(kind="person")
# 5,200 cells written out as the attacker did: about 130 KB of JSON text.
CELLS = [[q, r] for q in range(-40, 40) for r in range(-33, 32)]
HUGE_LAYOUT = json.dumps(CELLS, indent=1)


def body(game: str, options_json: str, players: int = 2) -> str:
    """A creation request with ``options_json`` spliced in as it is (so it may hold ``1e400``)."""
    seats = json.dumps([PERSON] * players)
    return f'{{"game": "{game}", "seats": {seats}, "options": {options_json}}}'


ATTACKS: list[tuple[str, str]] = [
    ("5,200-cell layout as a list", body("arktia", json.dumps({"layout": CELLS}))),
    ("5,200-cell layout as text", body("arktia", json.dumps({"layout": HUGE_LAYOUT}))),
    ("Arktia max_turns Infinity", body("arktia", '{"max_turns": Infinity}')),
    ("Arktia max_turns 1e400", body("arktia", '{"max_turns": 1e400}')),
    ("Arktia first_player Infinity", body("arktia", '{"first_player": Infinity}')),
    ("Arktia first_player 1e400", body("arktia", '{"first_player": 1e400}')),
    ("Arctic first_player Infinity", body("arctic", '{"first_player": Infinity}')),
    ("Arctic first_player 1e400", body("arctic", '{"first_player": 1e400}')),
    ("layout as a number", body("arktia", '{"layout": 5}')),
    ("layout as a boolean", body("arktia", '{"layout": true}')),
    ("layout of 100,000 [", body("arktia", json.dumps({"layout": "[" * 100_000}))),
]


@pytest.fixture(scope="module", params=["server bound", "schema only"])
def attacked(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    """A server with the default bound on the options' size, and one with it lifted to the body limit (so
    that every attack reaches the game's option schema)."""
    extra = [] if request.param == "server bound" else ["--set", "options_max_bytes=262144"]
    extra += ["--set", "create_per_minute=0"]  # many refusals in a row: the rate limit is not tested here
    with running_server(tmp_path_factory.mktemp("options") / "data", extra=extra) as server:
        yield server


@pytest.mark.parametrize(("label", "raw"), ATTACKS, ids=[a[0] for a in ATTACKS])
def test_an_unbounded_option_is_a_bad_option_refused_before_any_work(
    attacked: ServerProcess, label: str, raw: str
) -> None:
    answer = httpx.post(
        attacked.url + "/api/tables", content=raw, headers={"Content-Type": "application/json"}, timeout=30
    )
    assert answer.status_code == 400, (label, answer.status_code, answer.text[:300])
    error = answer.json()["error"]
    assert error["code"] == "bad_option" and len(error["message"]) <= 400, error
    if "options_max_bytes=262144" not in attacked.extra and len(raw) > 8192 + 100:
        # Refused by the size of its options, which is checked before the game's schema reads them.
        assert "at most 8192 are allowed" in error["message"], error
    assert attacked.get("/api/tables").json() == []  # nothing was created


@pytest.mark.parametrize(("label", "raw"), ATTACKS, ids=[a[0] for a in ATTACKS])
def test_the_schema_refuses_an_unbounded_option_before_building_a_board(
    label: str, raw: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the server does once the size bound is lifted (``build_table``, in-process): every attack is a
    ``bad_option`` and no board layout is ever built from it (building the 5,200-cell one took seconds and
    gigabytes). A count, not a time."""
    built: list[int] = []

    def counted(name: str, cells: tuple[tuple[int, int], ...]) -> board.Layout:
        built.append(len(cells))  # and never build it: that was the attack
        raise OptionError("a board was built")

    monkeypatch.setattr(board, "_layout", counted)
    request = CreateTable.model_validate(json.loads(raw))
    with pytest.raises(Refusal) as info:
        build_table(request, lambda spec, game, seat: (spec or "", None))
    assert info.value.code == "bad_option", (label, info.value)
    assert built == [], (label, built)


def test_the_largest_layout_allowed_still_makes_a_table(attacked: ServerProcess) -> None:
    cells = [[q, r] for q in range(8) for r in range(8)]  # 64 cells: the schema's bound
    created = attacked.create([PERSON, PERSON], game="arktia", options={"layout": cells})
    assert created["table"]["status"] == "waiting" and len(created["table"]["options"]["layout"]) == 64


def test_a_table_being_built_does_not_hold_up_a_move_at_another_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The lobby in-process: an Arktia table's build is held (until the test lets it go) while a move is made
    at an Arctic table in play. The move is stored and acknowledged while the build is still held: an
    ordering, which holds only if the games are built off the event loop (built on it, the held build
    would stop everything, and the move would wait for it)."""
    entered, release = threading.Event(), threading.Event()
    build = manager.build_table

    def held(request: CreateTable, *args: Any) -> Any:
        if request.game == "arktia":
            entered.set()
            assert release.wait(60), "the test never let the build go"  # only bounds a hang
        return build(request, *args)

    monkeypatch.setattr(manager, "build_table", held)

    async def scenario(lobby: manager.Lobby) -> None:
        table, _, _ = await lobby.create(CreateTable(game="arctic", seats=[SEAT, SEAT]))
        await lobby.hello(table, None)
        table.seats[1].claimed = True
        cells = [[q, r] for q in range(8) for r in range(8)]
        creating = asyncio.ensure_future(
            lobby.create(CreateTable(game="arktia", seats=[SEAT] * 4, options={"layout": cells}))
        )
        assert await asyncio.to_thread(entered.wait, 60), "the build never started"
        seat, version = table.to_move, table.version
        assert seat is not None
        made = await asyncio.wait_for(lobby.move(table, seat, table.state.legal_actions()[0], version), 60)
        assert made == version + 1 and lobby.store.load_actions(table.id) == list(table.state.history)
        assert not creating.done()  # the build is still held
        release.set()
        built, _, _ = await asyncio.wait_for(creating, 60)
        assert len(built.row.options["layout"]) == 64

    async def main() -> None:
        store = Store(database_url(None, tmp_path))
        runner = BotRunner(1, processes=False)
        lobby = manager.Lobby(store, runner)
        try:
            await scenario(lobby)
        finally:
            release.set()
            await lobby.stop()
            runner.close()
            store.close()

    asyncio.run(main())

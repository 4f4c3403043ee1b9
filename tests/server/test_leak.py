"""Hidden information never reaches a seat: over whole games on a real server, no message, log line, error
text or replay frame sent to a seat names a card that seat could not have seen, shows another totem
before the end, or carries the secret seed.

What a seat could have seen is computed independently of the server's view code, from the full state
replayed out of the published record: at every version, its own hand, pile and (``penalties=seen``) penalty
zone, the river, and the face-up pile cards it may look at; under ``penalties=hidden_look`` (the rules
preset's default) its penalty zone only when it plays ``look``; a card seen once stays known by name.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import websockets

from floe.core import present, registry
from floe.core.record import Record
from floe.games.arctic.cards import CARD_NAMES
from floe.games.arctic.game import ArcticState
from floe.games.arctic.state import FACE_DOWN_FLAG, visible_card

from .serverproc import ServerProcess, running_server

CARD = re.compile(r"\b[a-z]+-[a-z]+-[1-5]\b")
CARD_SET = set(CARD_NAMES)

# Every seat of every table asks for its replay, all from this one address: more than the replay limits
# default burst (docs/security.md), which test_abuse_replays.py checks.
REPLAYS = ["--set", "replay_burst=1000", "--set", "replay_total_burst=1000"]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    """The shared fixture's server, with room for this module's replay requests."""
    with running_server(tmp_path / "data", extra=REPLAYS) as srv:
        yield srv


TABLES: list[tuple[int, dict[str, Any]]] = [
    (2, {}),
    (3, {"preset": "bga"}),
    (4, {"power_sides": [0, 0, 0, 0, 0, 1]}),  # the Polar bear's penalty draw: looks at face-down zones
    (2, {"piles_public": False}),
    (3, {"penalties": "hidden_blind"}),
    (4, {"preset": "bga", "piles_public": False}),
]


def visible_to(state: ArcticState, seat: int | None) -> set[int]:
    """Cards ``seat`` may see in ``state`` right now (None: a spectator)."""
    cfg = state.config
    seen = set(state.river)
    if state.swap_card >= 0:  # a Puffin swap shows the offered hand card before it enters the river
        seen.add(state.swap_card)
    for k, pile in enumerate(state.piles):
        if k == seat:
            seen.update(c % FACE_DOWN_FLAG for c in pile)
        elif cfg.piles_public:
            seen.update(c for c in pile if c < FACE_DOWN_FLAG)
        elif visible_card(pile) >= 0:
            seen.add(visible_card(pile))
    if seat is not None:
        seen.update(state.hands[seat])
        if cfg.penalties == "seen":
            seen.update(state.penalties[seat])
    return seen


def seen_by_version(record: Record, seat: int | None) -> list[set[str]]:
    """For each version v, the names of every card ``seat`` could have seen up to v."""
    from floe.core.registry import make_game

    game = make_game(record.game, record.players, record.options)
    state = game.new_initial_state()
    assert isinstance(state, ArcticState)
    known: set[int] = set()
    out = []
    for text in [*record.actions, None]:
        known |= visible_to(state, seat)
        out.append({CARD_NAMES[c] for c in known})
        if text is not None:
            if text == "look" and state.current_player() == seat:
                known.update(state.penalties[seat])  # a Polar bear power's look shows the seat its zone
            before = [set(pile) for pile in state.piles]
            state.apply(state.string_to_action(text))
            # A card placed face up is seen by everyone as it is placed, even where it lands out of sight
            # (under the pile with the Fox power when piles are not public).
            for pile, old in zip(state.piles, before, strict=True):
                known.update(c for c in set(pile) - old if c < FACE_DOWN_FLAG)
    return out


class Client:
    """One seat (or spectator) of one table: plays random legal moves, keeps every message it receives."""

    def __init__(self, server: ServerProcess, table: str, token: str | None, seed: int) -> None:
        self.url = f"{server.ws_url}/ws/tables/{table}"
        self.token = token
        self.rng = random.Random(seed)
        self.received: list[tuple[int, str]] = []  # (version the seat had seen, raw text)
        self.version = 0
        self.finished = False

    async def run(self) -> None:
        async with websockets.connect(self.url, max_size=2**22) as ws:
            await ws.send(json.dumps({"type": "hello", "token": self.token}))
            async for raw in ws:
                assert isinstance(raw, str)
                message = json.loads(raw)
                if message["type"] == "state":
                    self.version = message["version"]
                self.received.append((self.version, raw))
                if message["type"] != "state":
                    continue
                if message["status"] == "finished":
                    self.finished = True
                    return
                if message["legal"]:
                    await self.play(ws, message)

    async def play(self, ws: Any, message: dict[str, Any]) -> None:
        version = message["version"]
        if self.rng.random() < 0.05:
            # Probe the error paths: an illegal card action, a stale version, an out-of-range id.
            probe = self.rng.choice(
                [(16 + self.rng.randrange(120), version), (1, version - 1), (99999, version)]
            )
            await ws.send(json.dumps({"type": "move", "action": probe[0], "version": probe[1]}))
        choice = self.rng.choice(message["legal"])["id"]
        await ws.send(json.dumps({"type": "move", "action": choice, "version": version}))


def check_text(text: str, allowed: set[str], where: str) -> None:
    named = set(CARD.findall(text)) & CARD_SET
    leaked = named - allowed
    assert not leaked, f"{where} names {sorted(leaked)} it may not know"


def check_views(message: dict[str, Any], seat: int | None, where: str) -> None:
    """Before the end, no other seat's totem, hand or penalty identities appear in a view."""
    views = [message["view"]] if "view" in message else []
    for view in views:
        if view.get("scores") is not None:
            continue
        for entry in view["players_view"]:
            if entry["seat"] != seat:
                assert entry.get("totem") is None, f"{where}: totem of P{entry['seat'] + 1} shown"
                assert "hand" not in entry and "penalties" not in entry, f"{where}: P{entry['seat'] + 1}"


async def play_tables(server: ServerProcess, seed: int) -> list[tuple[str, list[Client], list[str]]]:
    tables = []
    for k, (players, options) in enumerate(TABLES):
        created = server.create([{"kind": "person"} for _ in range(players)], options=options)
        tokens = [s["token"] for s in created["seats"]]
        clients = [
            Client(server, created["table"]["id"], t, seed * 100 + k * 10 + j) for j, t in enumerate(tokens)
        ]
        clients.append(Client(server, created["table"]["id"], None, 0))  # a spectator
        tables.append((created["table"]["id"], clients, tokens))
    await asyncio.wait_for(asyncio.gather(*(c.run() for _, cs, _ in tables for c in cs)), timeout=240)
    return tables


def test_no_seat_ever_receives_what_it_may_not_know(server: ServerProcess) -> None:
    tables = asyncio.run(play_tables(server, seed=11))
    checked = 0
    for table, clients, tokens in tables:
        record = Record.from_json(server.get(f"/api/tables/{table}/record").json())
        seed_text = str(record.seed)
        for seat, client in zip([*range(len(tokens)), None], clients, strict=True):
            assert client.finished
            seen = seen_by_version(record, seat)
            for version, raw in client.received:
                message = json.loads(raw)
                over = message.get("status") == "finished"
                allowed = set(CARD_NAMES) if over else seen[version]
                where = f"table {table} seat {seat} version {version} {message['type']}"
                check_text(raw, allowed, where)
                check_views(message, seat, where)
                assert over or seed_text not in raw, f"{where}: the seed was sent"
                checked += 1
            # Replays: a seat's frames show only what it saw at that moment.
            token = tokens[seat] if seat is not None else None
            frames = server.get(f"/api/tables/{table}/replay", token=token).json()["frames"]
            assert len(frames) > 10
            for frame in frames:
                where = f"table {table} seat {seat} replay frame {frame['version']}"
                over = frame["view"].get("scores") is not None
                allowed = set(CARD_NAMES) if over else seen[frame["version"]]
                check_text(json.dumps(frame["view"]) + json.dumps(frame["log"]), allowed, where)
                check_views(frame, seat, where)
    assert checked > 2000


def test_the_oracle_catches_a_leak() -> None:
    """The check above can fail: another seat's hand, read off the full state, is caught."""
    from floe.core.match import Match

    match = Match.new("arctic", players=2, seed=5)
    record = match.record()
    seen = seen_by_version(record, 0)
    other_hand = {CARD_NAMES[c] for c in match.state.hands[1]}  # type: ignore[attr-defined]
    assert other_hand and not other_hand & seen[-1]
    try:
        check_text(json.dumps(sorted(other_hand)), seen[-1], "probe")
    except AssertionError as exc:
        assert "may not know" in str(exc)
    else:
        raise AssertionError("a leaked hand was not detected")


# --- every game: what a spectator receives ----------------------------------------------------------------
def _strings(value: Any) -> set[str]:
    """Every string leaf of a JSON value."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(_strings(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(_strings(v) for v in value)) if value else set()
    return set()


def _words(strings: set[str]) -> set[str]:
    """The strings and the words in them."""
    return strings | {w for text in strings for w in re.findall(r"[^\W_]+", text)}


@pytest.mark.parametrize("name", registry.game_names())
def test_a_spectator_of_any_game_sees_only_what_every_seat_may_know(server: ServerProcess, name: str) -> None:
    """For every installed game, a whole game played at a table of people with a spectator watching: each view
    the spectator received is the spectator's observation of the position at that version, which the seats'
    own worlds (``determinize``) leave unchanged; and no string of a seat's view that the spectator never saw
    in its own views (a card in a hand) is a word of its log or prompt before the end."""
    found = registry.entry(name)
    presenter = present.presenter_of(found)
    players = found.min_players
    created = server.create([{"kind": "person"} for _ in range(players)], game=name)
    table, tokens = created["table"]["id"], [s["token"] for s in created["seats"]]
    spectator = Client(server, table, None, 0)
    clients = [Client(server, table, t, 500 + j) for j, t in enumerate(tokens)]

    async def play() -> None:
        await asyncio.wait_for(asyncio.gather(*(c.run() for c in [*clients, spectator])), timeout=240)

    asyncio.run(play())
    record = Record.from_json(server.get(f"/api/tables/{table}/record").json())
    game = registry.make_game(record.game, record.players, record.options)
    states = [game.new_initial_state()]
    for text in record.actions:
        state = states[-1].clone()
        state.apply(state.string_to_action(text))
        states.append(state)
    rng = random.Random(3)
    # Strings the spectator's own views showed up to a version, and every word in them (a totem's animal is
    # a word of public card names: naming the animal says nothing).
    seen: set[str] = set()
    seen_at = [seen := seen | _words(_strings(s.observation_dict(None))) for s in states]
    checked = 0
    for version, raw in spectator.received:
        message = json.loads(raw)
        state = states[version]
        if message["type"] != "state" or state.is_terminal():
            continue
        where = f"{name}: spectator message at version {version}"
        expected = state.observation_dict(None)
        # The view is that observation with the game's standings, built from it alone.
        assert message["view"] == present.with_standings(expected, present.standings(presenter, state)), where
        for seat in range(players):
            world = game.determinize(state.observation(seat), random.Random(rng.random()))
            assert world.observation_dict(None) == expected, f"{where}: changes in P{seat + 1}'s world"
        in_seats = set().union(*(_strings(state.observation_dict(q)) for q in range(players)))
        hidden = in_seats - seen_at[version]
        texts = [message["deciding"], *(line["text"] for line in message["log"])]
        shown = set(re.findall(r"[\w-]+", " ".join(texts)))
        assert not hidden & shown, f"{where}: its log or prompt names {sorted(hidden & shown)}"
        checked += 1
    assert spectator.finished and checked > 10

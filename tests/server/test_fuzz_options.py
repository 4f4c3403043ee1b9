"""Fuzzing table creation: every registered game's option schema, bot specs and seat names (issue 11, item 5).

``POST /api/tables`` on a real ``floe serve`` gets options drawn from each game's schema (``Option`` kind,
choices, bounds, list items): values that fit, values just outside the bounds, every JSON type, huge,
nested and Unicode strings, numbers such as ``Infinity``, ``NaN``, ``1e400`` and ``-0``, and unknown keys;
bot seats get fuzzed specs (names, parameters, Unicode digits). Every answer must be a 201 or a short JSON
refusal, never a 5xx; a table that was created must be presentable; a refused request must create nothing
(the database holds exactly the tables that were answered 201) and change no other table; and the server
must answer normally afterwards, with no traceback in its log.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from floe.bots.registry import bot_names
from floe.core.entry import GameEntry
from floe.core.options import Option
from floe.core.registry import entries
from floe.core.registry import entry as registry_entry

from .fuzzkit import (
    FUZZ_SERVER,
    RAW_NUMBERS,
    TRICKY_TEXT,
    Raw,
    Sentinel,
    check_answer,
    encode,
    fuzz_settings,
    json_values,
    log_mark,
    names,
    no_traceback,
    sentinel,
    show,
    started,
    stored_tables,
)
from .serverproc import ServerProcess

GAMES: list[GameEntry] = list(entries())
PERSON = {"kind": "person"}
# The parameters the bots read (ismcts, mcts, the games' own bots), and some they do not.
BOT_PARAMETERS = [
    "ms",
    "it",
    "iterations",
    "c",
    "depth",
    "worlds",
    "reward",
    "opponents",
    "rollout",
    "reuse",
    "repeat",
    "totems",
    "seed",
    "seat",
    "game",
    "",
    "ms ",
    "MS",
]
BOT_VALUES = [
    "1",
    "10",
    "0",
    "-1",
    "1e3",
    "end",
    "rank",
    "win",
    "tree",
    "policy",
    "random",
    "heuristic",
    "99999999999999999999",
    "1e400",
    "1e-400",
    *[t for t in TRICKY_TEXT if len(t) < 40],
]


@dataclass
class Fuzzed:
    """The server of this module and what the tests expect of it."""

    server: ServerProcess
    http: httpx.Client
    sentinels: list[Sentinel]
    created: int = 0  # tables answered 201 (the sentinels included)
    seen_status: dict[int, int] = field(default_factory=dict)

    def create(self, body: str, what: str) -> httpx.Response:
        answer = self.http.post("/api/tables", content=body, headers={"Content-Type": "application/json"})
        self.seen_status[answer.status_code] = self.seen_status.get(answer.status_code, 0) + 1
        check_answer(answer, f"{what} {show(body)}")
        if answer.status_code == 201:
            self.created += 1
            created = answer.json()
            # A table the server accepted is one it can present to its players and spectators.
            for seat in created["seats"][:1]:
                state = self.http.get(
                    f"/api/tables/{created['table']['id']}/state",
                    headers={"Authorization": f"Bearer {seat['token']}"},
                )
                made = f"the state of a table made from {show(body)}"
                assert state.status_code == 200, f"{made}: {state.text[:300]}"
        return answer

    def still_sound(self, mark: int) -> None:
        """Nothing refused was stored, no table changed, the server answers normally and logged no trace
        (since ``mark``)."""
        assert stored_tables(self.server.data_dir) == self.created
        for table in self.sentinels:
            table.unchanged(self.http, "the fuzzed creations")
        assert self.http.get("/api/games").status_code == 200
        check = self.http.post("/api/tables", json={"seats": [PERSON, PERSON]})
        assert check.status_code == 201, check.text
        self.created += 1
        no_traceback(self.server.log_path, mark)


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Fuzzed]:
    server = ServerProcess(tmp_path_factory.mktemp("fuzz-options"), extra=FUZZ_SERVER)
    with started(server), httpx.Client(base_url=server.url, timeout=30) as http:
        tables = [sentinel(http, [PERSON] * game.min_players, game=game.name) for game in GAMES]
        yield Fuzzed(server, http, tables, created=len(tables))


# --- strategies --------------------------------------------------------------------------------------------
def fitting(option: Option, players: int) -> st.SearchStrategy[Any]:
    """Values shaped for ``option``: its own values, spellings of them, and values just outside its bounds."""
    if option.kind in ("choice", "text") and option.choices:
        values = [c.value for c in option.choices]
        spelled = [str(v).upper() for v in values] + [f" {v} " for v in values]
        return st.sampled_from(values + spelled)
    if option.kind == "bool":
        return st.sampled_from([True, False, "yes", "no", "on", "off", 0, 1, 2, "TRUE", "maybe"])
    if option.kind in ("int", "seat"):
        low, high = (option.low, option.high) if option.kind == "int" else (0, players - 1)
        assert low is not None and high is not None
        edges = [low - 1, low, high, high + 1, -(2**63), 2**63, 2**64 + 1]
        return (
            st.integers(low - 2, high + 2)
            | st.sampled_from(edges)
            | st.sampled_from([str(e) for e in edges] + ["random", "none", ""])
            | st.floats(low - 2, high + 2)
            | st.sampled_from([float(low), float(high) + 0.5, *RAW_NUMBERS])
        )
    if option.kind == "list":
        items = st.tuples(*(fitting(item, players) for item in option.items)).map(list)
        return (
            items
            | items.map(lambda v: ",".join(str(x) for x in v))
            | st.lists(fitting(option.items[0], players), max_size=len(option.items) + 2)
        )
    return st.text(max_size=option.max_length + 2)


@st.composite
def creations(draw: st.DrawFn) -> tuple[str, str]:
    """A ``POST /api/tables`` body of person seats with fuzzed options, and a label for failures."""
    game = draw(st.sampled_from(GAMES))
    players = draw(st.integers(game.min_players, game.max_players) | st.just(game.max_players + 1))
    schema = game.options.options
    options: dict[Any, Any] = {}
    for option in draw(st.lists(st.sampled_from(schema), max_size=4, unique_by=lambda o: o.name)):
        options[option.name] = draw(fitting(option, players) | json_values)
    if draw(st.booleans()):
        options[draw(st.text(max_size=20) | st.sampled_from(TRICKY_TEXT))] = draw(json_values)
    body: dict[str, Any] = {"game": game.name, "seats": [PERSON] * players}
    body["options"] = options if draw(st.integers(0, 9)) else draw(json_values)
    if not draw(st.integers(0, 4)):
        body[draw(st.sampled_from(["public", "turn_timer", "name"]))] = draw(json_values)
    if not draw(st.integers(0, 4)):
        body["name"] = draw(st.text(max_size=80) | st.sampled_from(TRICKY_TEXT))  # the table's name
    return encode(body), game.name


@st.composite
def bot_specs(draw: st.DrawFn, game: GameEntry) -> str:
    """A bot spec: a bot name (the game's, a stranger's, odd spellings), fuzzed ``key=value`` parameters."""
    bot = draw(
        st.sampled_from(bot_names(game.name))
        | st.sampled_from(["ISMCTS", " random", "mcts ", "baseline", "", ":", "greedy:", "x" * 70])
        | st.text(max_size=12)
    )
    params = draw(
        st.lists(
            st.tuples(
                st.sampled_from(BOT_PARAMETERS) | st.text(max_size=6),
                st.sampled_from(BOT_VALUES) | st.text(max_size=8),
            ),
            max_size=3,
        )
    )
    if not params:
        return bot
    joiner = draw(st.sampled_from([",", ", ", ";", ",,"]))
    return bot + ":" + joiner.join(f"{k}={v}" for k, v in params)


@st.composite
def bot_creations(draw: st.DrawFn) -> tuple[str, str]:
    """A table of a person and a fuzzed bot, the person moving first (a seat option set to 0), so that an
    accepted bot, however big its budget, never thinks during the test."""
    game = draw(st.sampled_from(GAMES))
    spec = draw(bot_specs(game))
    seat: dict[str, Any] = {"kind": "bot", "bot": spec}
    if draw(st.booleans()):
        seat["name"] = draw(names)
    person: dict[str, Any] = {"kind": "person"}
    if draw(st.booleans()):
        person["name"] = draw(names)
    options = {o.name: 0 for o in game.options.options if o.kind == "seat"}
    body = {"game": game.name, "seats": [person, seat], "options": options}
    return encode(body), spec


# --- the tests ---------------------------------------------------------------------------------------------
# The five bad options the issue found answering 500, and their kin: each must be a ``bad_option``.
ISSUE_CASES = [
    ("arctic", {"first_player": Raw("Infinity")}, None),
    ("arctic", {"first_player": Raw("1e400")}, None),
    ("arktia", {"max_turns": Raw("Infinity")}, None),
    ("arktia", {"first_player": Raw("Infinity")}, None),
    ("arktia", {"layout": 7}, None),
    ("arktia", {"layout": True}, None),
    ("arktia", {"layout": "[" * 100_000}, None),
    ("arktia", {"layout": [[q, 0] for q in range(5_200)]}, None),
    ("arctic", {}, "greedy:worlds=¹"),
    ("arctic", {}, "greedy:worlds=99999999999999999999"),
    ("arctic", {}, "greedy:worlds=١٢x"),
]


@pytest.mark.parametrize(("game", "options", "bot"), ISSUE_CASES, ids=lambda v: str(v)[:30])
def test_the_issues_bad_options_are_refused(
    fuzzed: Fuzzed, game: str, options: dict[str, Any], bot: str | None
) -> None:
    seats: list[dict[str, Any]] = [PERSON, {"kind": "bot", "bot": bot} if bot else PERSON]
    body = encode({"game": game, "seats": seats, "options": {"first_player": 0} if bot else options})
    answer = fuzzed.create(body, "the issue's case")
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "bad_option", answer.text


def test_fuzzed_options_never_answer_500(fuzzed: Fuzzed) -> None:
    mark = log_mark(fuzzed.server.log_path)

    @fuzz_settings(150)
    @given(creations())
    def attempt(request: tuple[str, str]) -> None:
        body, game = request
        fuzzed.create(body, f"options of {game}:")

    attempt()
    fuzzed.still_sound(mark)


def test_fuzzed_bot_specs_and_names_never_answer_500(fuzzed: Fuzzed) -> None:
    mark = log_mark(fuzzed.server.log_path)

    @fuzz_settings(80)
    @given(bot_creations())
    @example((encode({"game": "arctic", "seats": [PERSON, {"kind": "bot", "bot": "greedy:worlds=¹"}]}), "¹"))
    def attempt(request: tuple[str, str]) -> None:
        body, spec = request
        fuzzed.create(body, f"bot {spec!r}:")

    attempt()
    fuzzed.still_sound(mark)


def test_fuzzed_bodies_never_answer_500(fuzzed: Fuzzed) -> None:
    """Whole bodies of any JSON (or none), and model-shaped bodies with fields of any type."""
    mark = log_mark(fuzzed.server.log_path)
    seat = st.fixed_dictionaries(
        {"kind": st.sampled_from(["person", "bot", "Person", ""]) | json_values},
        optional={"name": names | json_values, "bot": json_values, "extra": json_values},
    )
    shaped = st.fixed_dictionaries(
        {},
        optional={
            "game": st.sampled_from([g.name for g in GAMES]) | json_values,
            "seats": st.lists(seat, max_size=9) | json_values,
            "options": json_values,
            "turn_timer": json_values,
            "public": json_values,
            "name": names | json_values,
        },
    )

    @fuzz_settings(80)
    @given(shaped.map(encode) | json_values.map(encode) | st.text(max_size=200) | st.just(""))
    def attempt(body: str) -> None:
        fuzzed.create(body, "body")

    attempt()
    fuzzed.still_sound(mark)


def test_options_fuzz_leaves_no_state_behind(fuzzed: Fuzzed) -> None:
    """The module's server, after every fuzzed request: sound (a last check if the others were skipped)."""
    fuzzed.still_sound(log_mark(fuzzed.server.log_path))


def _bounded_ints() -> list[tuple[str, Option]]:
    return [
        (game.name, option)
        for game in GAMES
        for option in game.options.options
        if option.kind == "int" and option.low is not None and option.high is not None
    ]


@pytest.mark.parametrize(("game", "option"), _bounded_ints(), ids=lambda v: getattr(v, "name", v))
def test_an_int_option_just_past_either_bound_is_refused_by_the_server(
    fuzzed: Fuzzed, game: str, option: Option
) -> None:
    """What a user sees of a bound, for every bounded whole-number option of every game: one past the top or
    the bottom is a ``bad_option`` naming the option and its range (a refused creation creates nothing:
    ``test_options_fuzz_leaves_no_state_behind``)."""
    assert option.low is not None and option.high is not None
    players = max(2, registry_entry(game).min_players)
    seats = [PERSON] * players
    for value in (option.low - 1, option.high + 1):
        body = encode({"game": game, "seats": seats, "options": {option.name: value}})
        answer = fuzzed.create(body, f"{option.name}={value}")
        assert answer.status_code == 400, (option.name, value, answer.text)
        error = answer.json()["error"]
        assert error["code"] == "bad_option" and option.name in error["message"], error
        assert f"{option.low} and {option.high}" in error["message"], error

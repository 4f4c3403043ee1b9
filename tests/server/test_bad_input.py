"""A barrage of bad requests changes nothing: no table moves, nobody well-behaved is dropped, no 5xx.

Three tables are in progress (two of persons, one with a ``baseline`` bot), driven by this test's own
WebSocket clients, next to a finished table and one still waiting for its players. The clients pause on a
turn, then well over a thousand malformed, forged, stale and out-of-turn requests are sent over HTTP and
WebSocket, in a seeded random order: invalid JSON, wrong types, missing and unknown fields, unknown message
types, oversized and binary messages, bad hellos, forged and foreign tokens, spectator moves, replayed and
future versions, illegal ids, unknown tables, wrong methods, joins on full tables and bad table requests.

Every HTTP answer must be a 4xx with a short ``{"error": {"code", "message"}}`` body; every bad WebSocket
message must draw an ``error`` (a bad hello: an error, then the close). Afterwards every table must be
exactly as it was — the same version, and the same state for every seat and for a spectator — and the
paused players must still be connected and able to play their games to the end.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import random
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import httpx

from .serverproc import ServerProcess
from .wsclient import Acked, Closed, WsClient, play

SEED = 1337
WARM = 8  # acknowledged moves per table before the barrage
N_PLAYER_ACTIONS = 1336  # Arctic's player action ids are 0..1335; chance outcomes follow
N_ACTIONS = 1494
STATUS = {"malformed": 400, "bad_option": 400, "unknown_table": 404, "not_found": 404, "too_large": 413}
CONFLICT = {"stale", "not_your_turn", "illegal", "finished", "not_started", "no_free_seat", "not_finished"}
MOVE_CODES = {"malformed", "bad_token", "stale", "not_your_turn", "illegal", "finished", "not_started"}


@dataclass
class Live:
    """A table of the test, its seat tokens, its well-behaved clients and (at the pause) its position."""

    name: str
    id: str
    players: int
    tokens: dict[int, str]
    clients: list[WsClient] = field(default_factory=list)
    tasks: list[asyncio.Task[str]] = field(default_factory=list)
    hold: bool = True  # the clients pause on their turn once the table has made WARM moves
    status: str = ""
    version: int = 0
    to_move: int | None = None
    legal: list[int] = field(default_factory=list)
    seen: dict[str, Any] = field(default_factory=dict)  # "seat N"/"spectator" -> the state's stable parts


def stable(state: dict[str, Any]) -> dict[str, Any]:
    """What a bad request must not change in a ``state``: all but the seats' ``connected`` flags (the
    misbehaving connections come and go) and the log lines (all of them over HTTP)."""
    keys = ("version", "seat", "status", "to_move", "deciding", "view", "legal", "log_total", "result")
    return {**{k: state[k] for k in keys}, "table": stable_table(state["table"])}


def stable_table(table: dict[str, Any]) -> dict[str, Any]:
    """A table's summary without the seats' ``connected`` flags."""
    seats = [{k: v for k, v in seat.items() if k != "connected"} for seat in table["seats"]]
    return {**table, "seats": seats}


def short(message: Any) -> bool:
    return (
        isinstance(message, str)
        and 0 < len(message) <= 400
        and "\n" not in message
        and "Traceback" not in message
        and 'File "' not in message
    )


class Barrage:
    """Sends the bad requests and collects every departure from the expected answer in ``problems``."""

    def __init__(self, server: ServerProcess, http: httpx.AsyncClient) -> None:
        self.server = server
        self.http = http
        self.problems: list[str] = []
        self.sent: Counter[str] = Counter()
        self.conns: dict[str, WsClient] = {}
        self.conn_args: dict[str, tuple[str, str | None]] = {}

    def fail(self, label: str, detail: str) -> None:
        self.problems.append(f"{label}: {detail[:300]}")

    async def conn(self, key: str) -> WsClient:
        """The misbehaving connection ``key`` (reopened if an earlier bad message cost it)."""
        client = self.conns[key]
        if client.closed:
            table_id, token = self.conn_args[key]
            client = self.conns[key] = WsClient(self.server.ws_url, table_id, token, name=f"bad:{key}")
            await client.connect()
        return client

    async def open(self, key: str, table_id: str, token: str | None) -> None:
        self.conn_args[key] = (table_id, token)
        self.conns[key] = WsClient(self.server.ws_url, table_id, token, name=f"bad:{key}")
        await self.conns[key].connect()

    # --- one bad request each ------------------------------------------------------------------------
    async def http_case(
        self,
        label: str,
        method: str,
        path: str,
        *,
        body: Any = None,
        raw: str | bytes | None = None,
        token: str | None = None,
        headers: dict[str, Any] | None = None,
        code: str | None = None,
    ) -> None:
        self.sent["http"] += 1
        head: dict[str, Any] = dict(headers or {})
        if token is not None:
            head["Authorization"] = f"Bearer {token}"
        content: str | bytes | None = raw
        if body is not None:
            content = json.dumps(body)  # allows NaN, Infinity and huge integers, as a careless client would
        if content is not None:
            head.setdefault("Content-Type", "application/json")
        try:
            answer = await self.http.request(method, path, content=content, headers=head)
        except httpx.HTTPError as exc:
            return self.fail(f"http {label}", f"no answer: {exc!r}")
        where = f"http {label} ({method} {path[:60]})"
        if not 400 <= answer.status_code < 500:
            return self.fail(where, f"status {answer.status_code}: {answer.text[:200]}")
        try:
            data = answer.json()
        except ValueError:
            return self.fail(where, f"{answer.status_code} without a JSON body: {answer.text[:200]}")
        error = data.get("error") if isinstance(data, dict) else None
        if not isinstance(data, dict) or set(data) != {"error"} or not isinstance(error, dict):
            return self.fail(where, f"not an error body: {answer.text[:200]}")
        if (
            set(error) != {"code", "message"}
            or not isinstance(error["code"], str)
            or not short(error["message"])
        ):
            return self.fail(where, f"bad error: {error}")
        if code is not None and error["code"] != code:
            return self.fail(where, f"code {error['code']!r}, expected {code!r} ({error['message']})")
        expected_status = STATUS.get(error["code"], 409 if error["code"] in CONFLICT else None)
        if expected_status is not None and answer.status_code != expected_status:
            self.fail(where, f"status {answer.status_code} for code {error['code']}")
        if error["code"] == "bad_token" and answer.status_code not in (401, 403):
            self.fail(where, f"status {answer.status_code} for bad_token")

    async def ws_case(
        self, label: str, key: str, data: str | bytes, *, code: str | None = None, echo: Any = None
    ) -> None:
        """Send ``data`` on the misbehaving connection ``key``: exactly one error answers it, nothing else."""
        self.sent["ws"] += 1
        where = f"ws {label} (on {key})"
        try:
            client = await self.conn(key)
            start = len(client.messages)
            error = await client.roundtrip(data)
        except (Closed, TimeoutError) as exc:
            return self.fail(where, f"the connection was lost: {exc}")
        # Broadcasts are not answers: a state, and a `seats` change (another of this test's connections came
        # or went at the same time: on a busy machine one arrived between the request and its error).
        answers = [m for m in client.messages[start:] if m["type"] not in ("state", "pong", "seats")]
        if error is None:
            return self.fail(where, f"no error; got {answers}")
        if len(answers) != 1:
            self.fail(where, f"expected one error, got {answers}")
        if set(error) != {"type", "id", "code", "message"} or not short(error["message"]):
            self.fail(where, f"bad error: {error}")
        if code is not None and error["code"] != code:
            self.fail(where, f"code {error['code']!r}, expected {code!r} ({error['message']})")
        if error["id"] != echo:
            self.fail(where, f"error id {error['id']!r}, expected {echo!r}")

    async def huge_case(self, label: str, table_id: str, data: str | bytes) -> None:
        """A message over the server's WebSocket frame limit (64 KiB) from a fresh spectator: it is
        answered with an error, or the server drops that connection (1009, message too big)."""
        self.sent["ws"] += 1
        where = f"ws {label}"
        client = WsClient(self.server.ws_url, table_id, name=f"huge:{label}")
        try:
            await client.connect()
            if await client.roundtrip(data) is None:
                self.fail(where, "no error")
        except Closed:
            if client.close_code not in (1009, 1006):  # 1006: the reset beat the close frame to us
                self.fail(where, f"closed with code {client.close_code}")
        except TimeoutError as exc:
            self.fail(where, f"no answer: {exc}")
        finally:
            await client.close()

    async def hello_case(
        self, label: str, table_id: str, data: str | bytes, *, code: str | None = None
    ) -> None:
        """A fresh connection whose first message ``data`` is a bad hello: an error, then the close."""
        self.sent["ws"] += 1
        where = f"ws hello {label}"
        client = WsClient(self.server.ws_url, table_id, name=f"hello:{label}")
        try:
            await client.connect(hello=False)
            with contextlib.suppress(Closed):  # an unknown table is refused before the hello is read
                await client.send_raw(data)
            await client.until(lambda: client.closed)
        except TimeoutError:
            return self.fail(where, f"not closed; got {str(client.messages)[:200]}")
        finally:
            await client.close()
        if [m["type"] for m in client.messages] != ["error"]:
            return self.fail(where, f"expected only an error, got {str(client.messages)[:200]}")
        error = client.messages[0]
        if code is not None and error["code"] != code:
            self.fail(where, f"code {error['code']!r}, expected {code!r}")
        if not short(error.get("message")):
            self.fail(where, f"bad error: {error}")
        if client.close_code is None or not 4400 <= client.close_code < 4500:
            self.fail(where, f"close code {client.close_code}")


# --- the bad requests ------------------------------------------------------------------------------------
Case = Callable[[], Awaitable[None]]


def move_variants(t: Live, acks: list[Acked], rng: random.Random) -> list[tuple[str, Any, int | None, str]]:
    """Bad moves for table ``t``: (label, body, seat whose token sends it or None, expected code)."""
    v, m, legal = t.version, t.to_move, t.legal
    out: list[tuple[str, Any, int | None, str]] = []
    seats = sorted(t.tokens)
    if t.status != "playing":
        code = "finished" if t.status == "finished" else "not_started"
        for seat in seats:
            for action in (0, rng.randrange(N_PLAYER_ACTIONS), rng.randrange(N_PLAYER_ACTIONS)):
                out.append((f"move at a {t.status} table", {"action": action, "version": v}, seat, code))
            out.append((f"stale move at a {t.status} table", {"action": 1, "version": v - 1}, seat, code))
        out.append(("spectator move", {"action": 0, "version": v}, None, "bad_token"))
        return out
    assert m is not None and legal

    def a() -> int:
        return rng.choice(legal)

    for ack in acks:  # replays of the moves this table acknowledged
        if ack.table == t.id:
            out.append(("replayed move", {"action": ack.action, "version": ack.made_on}, ack.seat, "stale"))
    for _ in range(6):
        out.append(("old version", {"action": a(), "version": rng.randrange(v)}, m, "stale"))
    for future in (
        v + 1,
        v + 2,
        v + 17,
        v + 1000,
        -1,
        -v,
        2**31 + v,
        2**32 + v,
        2**63 - 1,
        2**64 + v,
        -(2**64) + v,
    ):
        out.append(("future or negative version", {"action": a(), "version": future}, m, "stale"))
    for seat in seats:
        if seat != m:
            for action in (a(), a(), rng.randrange(N_PLAYER_ACTIONS), -1):
                out.append(("out of turn", {"action": action, "version": v}, seat, "not_your_turn"))
            out.append(("out of turn, stale", {"action": a(), "version": v - 1}, seat, "stale"))
    not_legal = [x for x in range(N_PLAYER_ACTIONS) if x not in legal]
    ids = [
        -1,
        -2,
        -N_PLAYER_ACTIONS,
        -(2**31),
        -(2**63),
        2**31,
        2**63,
        2**64,
        10**30,
        N_ACTIONS,
        N_ACTIONS + 1,
    ]
    ids += [N_PLAYER_ACTIONS, N_PLAYER_ACTIONS + 1, *rng.sample(range(N_PLAYER_ACTIONS, N_ACTIONS), 6)]
    ids += [x for x in (min(legal) - 1, max(legal) + 1) if x in not_legal] + rng.sample(not_legal, 12)
    ids += sorted({a.action for a in acks if a.table == t.id} - set(legal))  # legal once, not now
    for action in ids:
        assert action not in legal
        out.append(("illegal id", {"action": action, "version": v}, m, "illegal"))
    x = a()  # a legal move, in the wrong types
    for bad in (str(x), float(x), x + 0.5, [x], {"id": x}, None, True, False, f" {x}", hex(x), float("nan")):
        out.append(("action of a wrong type", {"action": bad, "version": v}, m, "malformed"))
    for bad in (str(v), float(v), [v], None, True, {"version": v}, float("inf"), -float("inf")):
        out.append(("version of a wrong type", {"action": x, "version": bad}, m, "malformed"))
    out += [
        ("no version", {"action": x}, m, "malformed"),
        ("no action", {"version": v}, m, "malformed"),
        ("no fields", {}, m, "malformed"),
        ("unknown field seat", {"action": x, "version": v, "seat": m}, m, "malformed"),
        ("unknown field force", {"action": x, "version": v, "force": True}, m, "malformed"),
        ("unknown field token", {"action": x, "version": v, "token": t.tokens[m]}, m, "malformed"),
        ("spectator move", {"action": x, "version": v}, None, "bad_token"),
        ("spectator move", {"action": a(), "version": v}, None, "bad_token"),
        ("spectator stale move", {"action": a(), "version": v - 1}, None, "bad_token"),
    ]
    return out


def forged_token(rng: random.Random) -> str:
    """A token of the right shape that no seat has."""
    return base64.urlsafe_b64encode(rng.randbytes(18)).decode()


def junk_text(rng: random.Random, template: str) -> str:
    """Text that is not a valid message: random characters, ``template`` (a message with an unknown key,
    so that no change of one character makes it valid) cut short or with a character changed, random JSON
    values, and objects with an unknown key."""
    kind = rng.randrange(5)
    if kind == 0:
        alphabet = '{}[]":,0123456789abcdefnulltrue -.\\eE\u00e9\u2603\x00\x7f'
        return "".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 120)))
    if kind == 1:
        return template[: rng.randrange(len(template))]
    if kind == 2:
        k = rng.randrange(len(template))
        return template[:k] + rng.choice("{}[]\":,'x") + template[k + 1 :] + rng.choice(["}", ",", "x", "]"])
    scalars: list[Any] = [None, True, 0, -1, 1.5, 10**20, "", "move", "hello", "MOVE", [], {}]
    if kind == 3:
        value: Any = rng.choice(scalars)
        for _ in range(rng.randrange(4)):
            value = rng.choice([[value], {"type": value}, [value, rng.choice(scalars)]])
        return json.dumps(value)
    obj = {k: rng.choice(scalars) for k in rng.sample(["type", "action", "version", "id", "token"], 3)}
    obj[rng.choice(["junk", "Type", "seat", "x"])] = rng.choice(scalars)
    return json.dumps(obj)


def build_cases(
    b: Barrage, live: dict[str, Live], acks: list[Acked], foreign: str, rng: random.Random
) -> list[Case]:
    cases: list[Case] = []
    unknown = rng.randbytes(6).hex()

    for t in live.values():
        # Every bad move, over HTTP (bearer token) and over WebSocket (the seat's own second connection).
        for label, body, seat, code in move_variants(t, acks, rng):
            token = None if seat is None else t.tokens[seat]
            cases.append(
                partial(
                    b.http_case, label, "POST", f"/api/tables/{t.id}/moves", body=body, token=token, code=code
                )
            )
            key = f"{t.name}/spectator" if seat is None else f"{t.name}/P{seat + 1}"
            if key in b.conn_args:
                message_id = f"m{len(cases)}"
                text = json.dumps({"type": "move", **body, "id": message_id})
                echo = message_id if code != "malformed" else None
                cases.append(partial(b.ws_case, label, key, text, code=code, echo=echo))

        # A legal-looking move with a forged, garbled or foreign token.
        body = {"action": t.legal[0] if t.legal else 0, "version": t.version}
        path = f"/api/tables/{t.id}/moves"
        some = next(iter(t.tokens.values()))
        flipped = some[:-1] + ("A" if some[-1] != "A" else "B")
        for label, header, code in [
            ("forged token", f"Bearer {forged_token(rng)}", "bad_token"),
            ("other table's token", f"Bearer {foreign}", "bad_token"),
            ("garbled token", f"Bearer {flipped}", "bad_token"),
            ("token with a tail", f"Bearer {some} junk", "bad_token"),
            ("huge token", "Bearer " + "x" * 6000, "bad_token"),
            ("latin-1 token", b"Bearer \xe9\xff\xfe", "bad_token"),
            ("no token after Bearer", "Bearer", "bad_token"),
            ("Basic scheme", f"Basic {some}", "bad_token"),
            ("no scheme", some, "bad_token"),
        ]:
            headers = {"Authorization": header}
            cases.append(partial(b.http_case, label, "POST", path, body=body, headers=headers, code=code))
            state_path = f"/api/tables/{t.id}/state"
            cases.append(partial(b.http_case, label, "GET", state_path, headers=headers, code=code))
        cases.append(partial(b.http_case, "no token", "POST", path, body=body, code="bad_token"))

        # Invalid JSON and oversized bodies.
        seat0 = t.tokens[min(t.tokens)]
        for raw in [
            "",
            "{",
            '{"action": 1',
            "[1, 2",
            "nul",
            "{'action': 1, 'version': 2}",
            '{"action": 1,}',
            "action=1&version=2",
            "\x00",
            "null",
            "[]",
            "42",
            '"move"',
            "[" * 3000 + "]" * 3000,
            '{"action": 1' + "0" * 5000 + ', "version": 1}',
            b"\xff\xfe\x00{",
            json.dumps({**body, "pad": "x" * 1_000_000}),
        ]:
            cases.append(
                partial(b.http_case, "invalid or oversized JSON", "POST", path, raw=raw, token=seat0)
            )
        cases.append(
            partial(
                b.http_case,
                "form-encoded move",
                "POST",
                path,
                raw=f"action={body['action']}&version={body['version']}",
                token=seat0,
                headers={"Content-Type": "application/x-www-form-urlencoded"},
            )
        )

        # Wrong methods and paths.
        for method, suffix in [
            ("GET", "/moves"),
            ("PUT", "/moves"),
            ("DELETE", "/moves"),
            ("PATCH", "/moves"),
            ("DELETE", ""),
            ("PUT", ""),
            ("POST", ""),
            ("POST", "/state"),
            ("GET", "/join"),
            ("DELETE", "/join"),
            ("POST", "/record"),
            ("PUT", "/replay"),
            ("GET", "/undo"),
        ]:
            cases.append(partial(b.http_case, "wrong method", method, f"/api/tables/{t.id}{suffix}"))
        for suffix in ("/resign", "/moves/1", "/state/x", "/seats"):
            cases.append(
                partial(b.http_case, "unknown path", "GET", f"/api/tables/{t.id}{suffix}", code="not_found")
            )

        # Joins: full (or finished) tables have no seat; bad bodies are refused before anything else.
        if t.status != "waiting":
            for name in ("Mallory", "Eve"):
                cases.append(
                    partial(
                        b.http_case,
                        "join a full table",
                        "POST",
                        f"/api/tables/{t.id}/join",
                        body={"name": name},
                        code="no_free_seat",
                    )
                )
        for bad_join in (
            {"name": ""},
            {"name": "x" * 41},
            {"name": 5},
            {"name": None},
            {"name": "Bob", "seat": 0},
            [],
        ):
            cases.append(
                partial(
                    b.http_case,
                    "bad join",
                    "POST",
                    f"/api/tables/{t.id}/join",
                    body=bad_join,
                    code="malformed",
                )
            )
        if t.status != "finished":
            cases.append(
                partial(
                    b.http_case, "record too early", "GET", f"/api/tables/{t.id}/record", code="not_finished"
                )
            )
            cases.append(
                partial(
                    b.http_case,
                    "reveal too early",
                    "GET",
                    f"/api/tables/{t.id}/replay?reveal=true",
                    code="not_finished",
                )
            )
        cases.append(
            partial(
                b.http_case, "bad reveal", "GET", f"/api/tables/{t.id}/replay?reveal=maybe", code="malformed"
            )
        )

    # Unknown tables.
    move = {"action": 1, "version": 1}
    for table_id in (unknown, "x" * 300, "%C3%A9t%C3%A9", "0", "null"):
        for method, suffix, body in [
            ("GET", "", None),
            ("GET", "/state", None),
            ("POST", "/moves", move),
            ("POST", "/join", {"name": "Bob"}),
            ("GET", "/replay", None),
            ("GET", "/record", None),
        ]:
            cases.append(
                partial(
                    b.http_case,
                    "unknown table",
                    method,
                    f"/api/tables/{table_id}{suffix}",
                    body=body,
                    token=foreign if body is move else None,
                    code="unknown_table",
                )
            )
    for method, path in [("POST", "/api/games"), ("DELETE", "/api/tables"), ("PUT", "/api/tables")]:
        cases.append(partial(b.http_case, "wrong method", method, path))
    for path in ("/api/nothing", "/api/tables/x/y/z", "/api"):
        cases.append(partial(b.http_case, "unknown path", "GET", path))

    # Bad table requests.
    person = {"kind": "person"}
    bad_creates: list[tuple[str, Any, str | None]] = [
        ("no seats", {"seats": []}, "malformed"),
        ("one seat", {"seats": [person]}, "bad_option"),
        ("five seats", {"seats": [person] * 5}, "bad_option"),
        ("nine seats", {"seats": [person] * 9}, "malformed"),
        ("100 000 seats", {"seats": [person] * 100_000}, "too_large"),  # 2 MB: over the body limit
        ("seats missing", {"options": {}}, "malformed"),
        ("seats not a list", {"seats": "two"}, "malformed"),
        ("null seats", {"seats": [None, None]}, "malformed"),
        ("unknown game", {"game": "chess", "seats": [person] * 2}, "bad_option"),
        ("empty game", {"game": "", "seats": [person] * 2}, "malformed"),
        ("game not a string", {"game": 5, "seats": [person] * 2}, "malformed"),
        ("unknown kind", {"seats": [person, {"kind": "alien"}]}, "malformed"),
        ("person with a bot", {"seats": [person, {"kind": "person", "bot": "baseline"}]}, "bad_option"),
        ("bot without a name", {"seats": [person, {"kind": "bot"}]}, "bad_option"),
        ("empty name", {"seats": [person, {"kind": "person", "name": ""}]}, "malformed"),
        ("long name", {"seats": [person, {"kind": "person", "name": "x" * 41}]}, "malformed"),
        ("unknown seat field", {"seats": [person, {"kind": "person", "token": "x"}]}, "malformed"),
        ("unknown field", {"seats": [person] * 2, "owner": "me"}, "malformed"),
        ("unknown option", {"seats": [person] * 2, "options": {"nope": 1}}, "bad_option"),
        ("unknown preset", {"seats": [person] * 2, "options": {"preset": "nope"}}, "bad_option"),
        ("preset of a wrong type", {"seats": [person] * 2, "options": {"preset": {"x": [1]}}}, "bad_option"),
        ("bad power sides", {"seats": [person] * 2, "options": {"power_sides": [1]}}, "bad_option"),
        ("options not an object", {"seats": [person] * 2, "options": ["bga"]}, "malformed"),
        ("negative turn timer", {"seats": [person] * 2, "turn_timer": -1}, "malformed"),
        ("zero turn timer", {"seats": [person] * 2, "turn_timer": 0}, "malformed"),
        ("huge turn timer", {"seats": [person] * 2, "turn_timer": 10**9}, "malformed"),
        ("turn timer not a number", {"seats": [person] * 2, "turn_timer": "abc"}, "malformed"),
        ("NaN turn timer", {"seats": [person] * 2, "turn_timer": float("nan")}, "malformed"),
        ("infinite turn timer", {"seats": [person] * 2, "turn_timer": float("inf")}, "malformed"),
        ("public not a boolean", {"seats": [person] * 2, "public": "maybe"}, "malformed"),
        ("not an object", [person, person], "malformed"),
    ]
    for spec in [
        "nobot",
        "ismcts:ms=abc",
        "ismcts:ms=0",
        "ismcts:ms=-5",
        "ismcts:ms=99999999",  # above any bot's bound (a budget only above the server's is lowered)
        "ismcts:ms=inf",
        "ismcts:it=1e3",
        "ismcts:it=100000000",
        "ismcts:iterations=100000000",  # the long name of "it" must meet the same bound
        "greedy:worlds=¹",  # a Unicode digit passes str.isdigit()
        "greedy:worlds=99999999999999999999",
        "ismcts:foo=1",
        "ismcts:ms",
        "baseline:x=1",
        ":",
        "x" * 80,
        "ismcts:ms=nan",  # NaN passes "ms > 0" and "ms <= 10000": the search would never end
        "random:seed=1",  # the bot factory's own arguments
        "baseline:game=1",
        "greedy:seat=0",
    ]:
        # The second person seat stays unclaimed (the creator has the first), so even a wrongly
        # accepted table never starts and never lets its bot think.
        seats = [person, person, {"kind": "bot", "bot": spec}]
        bad_creates.append((f"bot {spec[:30]}", {"seats": seats}, "bad_option"))
    bad_creates.append(
        ("bot spec too long", {"seats": [person, {"kind": "bot", "bot": "x" * 81}]}, "malformed")
    )
    for label, body, code in bad_creates:
        cases.append(partial(b.http_case, f"create: {label}", "POST", "/api/tables", body=body, code=code))
    for raw in (
        "",
        "{",
        '{"seats": [',
        "[" * 3000,
        b"\xff",
        '{"seats": [{"kind": "person"}, {"kind": "person"}],}',
    ):
        cases.append(partial(b.http_case, "create: invalid JSON", "POST", "/api/tables", raw=raw))

    # WebSocket only: bad messages on the misbehaving connections of every table.
    for t in live.values():
        keys = [k for k in b.conn_args if k.startswith(f"{t.name}/")]
        legal_move = json.dumps(
            {"type": "move", "action": t.legal[0] if t.legal else 0, "version": t.version}
        )
        mover = f"{t.name}/P{t.to_move + 1}" if t.to_move is not None and t.legal else None
        for key in keys:
            _, token = b.conn_args[key]
            cases.append(
                partial(
                    b.ws_case,
                    "second hello",
                    key,
                    json.dumps({"type": "hello", "token": token}),
                    code="malformed",
                )
            )
            cases.append(
                partial(
                    b.ws_case,
                    "second hello, forged",
                    key,
                    json.dumps({"type": "hello", "token": "x"}),
                    code="malformed",
                )
            )
            for kind in (
                "Chat",
                "MOVE",
                "Move",
                "",
                "resign",
                "UNDO",
                "state",
                "ack",
                "error",
                "welcome",
                "pong",
                5,
                None,
                True,
                [],
                {},
            ):
                cases.append(
                    partial(b.ws_case, "unknown type", key, json.dumps({"type": kind}), code="malformed")
                )
            cases.append(
                partial(
                    b.ws_case,
                    "no type",
                    key,
                    json.dumps({"action": 1, "version": t.version}),
                    code="malformed",
                )
            )
            for extra in ("leave", "back", "ping"):
                cases.append(
                    partial(
                        b.ws_case,
                        f"{extra} with an unknown field",
                        key,
                        json.dumps({"type": extra, "x": 1}),
                        code="malformed",
                    )
                )
            cases.append(partial(b.ws_case, "binary move", key, legal_move.encode(), code="malformed"))
            cases.append(partial(b.ws_case, "binary ping", key, b'{"type": "ping"}', code="malformed"))
            cases.append(
                partial(b.ws_case, "binary junk", key, rng.randbytes(rng.randrange(1, 300)), code="malformed")
            )
            cases.append(partial(b.ws_case, "empty binary", key, b"", code="malformed"))
            for size in (4097, 5000, 20_000, 60_000):
                padded = legal_move[:-1] + " " * (size - len(legal_move)) + "}"
                cases.append(partial(b.ws_case, f"oversized move ({size} B)", key, padded, code="malformed"))
            for _ in range(12):
                junk = junk_text(rng, legal_move[:-1] + ', "junk": 1}')
                cases.append(partial(b.ws_case, "junk", key, junk, code="malformed"))
            for raw in (
                "[" * 2000 + "]" * 2000,
                '{"type": "move", "action": NaN, "version": 1}',
                "",
                " ",
                "\u2603",
            ):
                cases.append(partial(b.ws_case, "invalid JSON", key, raw, code="malformed"))
            if key.endswith("/spectator"):
                for kind in ("leave", "back"):
                    cases.append(
                        partial(
                            b.ws_case, f"spectator {kind}", key, json.dumps({"type": kind}), code="bad_token"
                        )
                    )
        if mover is not None:
            move = json.loads(legal_move)
            for bad_id in ("x" * 65, 1.5, [1], True, {"id": 1}):
                text = json.dumps({**move, "id": bad_id})
                cases.append(partial(b.ws_case, "move with a bad id", mover, text, code="malformed"))

    # Messages over the frame limit.
    for t in live.values():
        cases.append(partial(b.huge_case, f"70 KB text ({t.name})", t.id, " " * 70_000))
        cases.append(partial(b.huge_case, f"70 KB binary ({t.name})", t.id, rng.randbytes(70_000)))

    # Bad hellos, each on a fresh connection.
    for t in live.values():
        some = next(iter(t.tokens.values()))
        hellos: list[tuple[str, str | bytes, str]] = [
            ("forged token", json.dumps({"type": "hello", "token": forged_token(rng)}), "bad_token"),
            ("other table's token", json.dumps({"type": "hello", "token": foreign}), "bad_token"),
            (
                "garbled token",
                json.dumps({"type": "hello", "token": some[:-1] + ("A" if some[-1] != "A" else "B")}),
                "bad_token",
            ),
            ("empty token", json.dumps({"type": "hello", "token": ""}), "bad_token"),
            ("blank token", json.dumps({"type": "hello", "token": " "}), "bad_token"),
            ("200-character token", json.dumps({"type": "hello", "token": "x" * 200}), "bad_token"),
            ("201-character token", json.dumps({"type": "hello", "token": "x" * 201}), "malformed"),
            ("token is a number", json.dumps({"type": "hello", "token": 5}), "malformed"),
            ("token is a list", json.dumps({"type": "hello", "token": [some]}), "malformed"),
            ("token is an object", json.dumps({"type": "hello", "token": {"token": some}}), "malformed"),
            ("hello with a seat", json.dumps({"type": "hello", "token": some, "seat": 0}), "malformed"),
            ("hello without type", json.dumps({"token": some}), "malformed"),
            ("HELLO", json.dumps({"type": "HELLO", "token": some}), "malformed"),
            (
                "move without hello",
                json.dumps({"type": "move", "action": t.legal[0] if t.legal else 0, "version": t.version}),
                "malformed",
            ),
            ("ping without hello", json.dumps({"type": "ping"}), "malformed"),
            ("leave without hello", json.dumps({"type": "leave"}), "malformed"),
            ("binary hello", json.dumps({"type": "hello", "token": some}).encode(), "malformed"),
            ("invalid JSON hello", '{"type": "hello", "token": ', "malformed"),
            ("oversized hello", json.dumps({"type": "hello", "token": some}) + " " * 5000, "malformed"),
        ]
        for label, data, code in hellos:
            cases.append(partial(b.hello_case, f"{label} ({t.name})", t.id, data, code=code))
    for label, data in [
        ("unknown table", json.dumps({"type": "hello", "token": None})),
        ("unknown table, foreign token", json.dumps({"type": "hello", "token": foreign})),
    ]:
        cases.append(partial(b.hello_case, label, unknown, data, code="unknown_table"))
    return cases


# --- the test --------------------------------------------------------------------------------------------
async def snapshot(http: httpx.AsyncClient, t: Live) -> dict[str, Any]:
    """Each seat's and a spectator's ``state`` over HTTP (the stable parts)."""
    seen = {}
    for seat, token in [*sorted(t.tokens.items()), (None, None)]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        answer = await http.get(f"/api/tables/{t.id}/state", headers=headers)
        assert answer.status_code == 200, answer.text
        seen["spectator" if seat is None else f"seat {seat}"] = stable(answer.json())
    return seen


async def barrage_run(server: ServerProcess) -> dict[str, Any]:
    rng = random.Random(SEED)
    person, baseline = {"kind": "person"}, {"kind": "bot", "bot": "baseline"}
    layout = {
        "A": [person] * 2,
        "B": [person] * 3,
        "C": [person, baseline],
        "F": [person] * 2,
        "W": [person] * 2,
    }
    live: dict[str, Live] = {}
    for name, seats in layout.items():
        created = server.create(seats)
        tokens = {s["seat"]: s["token"] for s in created["seats"]}
        live[name] = Live(name, created["table"]["id"], len(seats), tokens)
    foreign = server.create([person, person])["seats"][0]["token"]  # a token of a table never used here
    acks: list[Acked] = []

    def paused(t: Live) -> bool:
        return t.hold and sum(1 for a in acks if a.table == t.id) >= WARM

    def launch(t: Live, client: WsClient) -> asyncio.Task[str]:
        rng_c = random.Random(f"{SEED}/{client.name}/{len(t.tasks)}")
        return asyncio.create_task(play(client, rng_c, acks, pause=lambda: paused(t), timeout=120))

    # A, B, C play WARM moves and pause on a turn; F plays to the end; W waits for players forever.
    for t in live.values():
        if t.name == "W":
            continue
        t.clients = [
            WsClient(server.ws_url, t.id, tok, name=f"{t.name}/P{s + 1}") for s, tok in t.tokens.items()
        ]
        await asyncio.gather(*(c.connect() for c in t.clients))
    for t in live.values():
        if t.name == "F":
            t.hold = False
        t.tasks = [launch(t, c) for c in t.clients]
    f = live["F"]
    assert await asyncio.wait_for(asyncio.gather(*f.tasks), 120) == ["finished"] * 2
    for c in f.clients:
        await c.close()
    game = [live[n] for n in "ABC"]
    deadline = time.monotonic() + 60
    while not all(any(task.done() for task in t.tasks) for t in game):
        assert time.monotonic() < deadline, "the tables did not reach their pause"
        await asyncio.sleep(0.01)
    for t in game:
        done = [task.result() for task in t.tasks if task.done()]
        assert done == ["paused"], done  # the player to move paused; the others wait for their turn

    # A new connection per request: a kept-alive one may be closed by the server while idle (during the
    # WebSocket cases) just as the next request goes out.
    no_reuse = httpx.Limits(max_keepalive_connections=0)
    async with httpx.AsyncClient(base_url=server.url, timeout=30, limits=no_reuse) as http:
        for t in live.values():
            t.seen = await snapshot(http, t)
            spectator = t.seen["spectator"]
            t.status, t.version, t.to_move = spectator["status"], spectator["version"], spectator["to_move"]
            if t.to_move is not None:
                t.legal = [c["id"] for c in t.seen[f"seat {t.to_move}"]["legal"]]
        assert [live[n].status for n in "ABCFW"] == ["playing"] * 3 + ["finished", "waiting"]

        # The misbehaving connections: a spectator at every table, a second connection of every claimed
        # seat (a waiting table's hello would claim its seat).
        b = Barrage(server, http)
        for t in live.values():
            await b.open(f"{t.name}/spectator", t.id, None)
            if t.status != "waiting":
                for seat, token in t.tokens.items():
                    await b.open(f"{t.name}/P{seat + 1}", t.id, token)
        good = [c for t in game for c in t.clients]
        marks = {id(c): len(c.messages) for c in good}

        cases = build_cases(b, live, acks, foreign, rng)
        rng.shuffle(cases)
        started = time.monotonic()
        for case in cases:
            await case()
        took = time.monotonic() - started

        # Every table is exactly as it was; every well-behaved player is still there and heard nothing new.
        changed = []
        for t in live.values():
            after = await snapshot(http, t)
            for viewer, before in t.seen.items():
                if after[viewer] != before:
                    keys = [k for k in before if before[k] != after[viewer][k]]
                    changed.append(
                        f"table {t.name} changed for {viewer}: {keys} differ, version "
                        f"{before['version']} -> {after[viewer]['version']}"
                    )
        for c in good:
            if c.closed:
                changed.append(f"{c.name} was disconnected (code {c.close_code})")
                continue
            during = c.messages[marks[id(c)] :]
            table = next(t for t in live.values() if t.id == c.table_id)
            # Connection news (a ``seats`` message: the misbehaving connections come and go, and the server
            # tells it at most once a second, so it may trail them) is fine as long as the table is the same.
            unmoved = table.seen["spectator"]["table"]

            def same(m: dict[str, Any], version: int = table.version, before: Any = unmoved) -> bool:
                if m["type"] == "state":
                    return bool(m["version"] == version)
                return m["type"] == "seats" and stable_table(m["table"]) == before

            odd = [m for m in during if not same(m)]
            if odd:
                changed.append(f"{c.name} was sent {str(odd)[:300]}")
            if await c.roundtrip(json.dumps({"type": "ping"})) is not None:
                changed.append(f"{c.name}: a ping drew an error")
        for client in b.conns.values():
            await client.close()

    # The paused players go on and finish their games.
    for t in game:
        t.hold = False
        t.tasks = [
            task if not task.done() else launch(t, c) for task, c in zip(t.tasks, t.clients, strict=True)
        ]
    for t in game:
        results = await asyncio.wait_for(asyncio.gather(*t.tasks), 120)
        assert results == ["finished"] * len(t.clients), results
        record = server.get(f"/api/tables/{t.id}/record").json()
        for ack in acks:
            if ack.table == t.id:
                assert record["actions"][ack.made_on] == ack.notation
        for c in t.clients:
            await c.close()

    report = [*changed, *(f"{n} x {p}" for p, n in Counter(b.problems).most_common(30))]
    assert not changed and not b.problems, (
        f"{len(b.problems)} of {len(cases)} bad requests were mishandled:\n" + "\n".join(report)
    )
    log = server.log_path.read_text(errors="replace")
    assert "Traceback" not in log, log[log.index("Traceback") :][:3000]
    return {"cases": len(cases), "sent": dict(b.sent), "seconds": took}


def test_bad_input_changes_nothing(server: ServerProcess) -> None:
    stats = asyncio.run(barrage_run(server))
    assert stats["cases"] >= 1000, stats
    print(f"bad input: {stats['cases']} bad requests {stats['sent']} in {stats['seconds']:.1f} s")

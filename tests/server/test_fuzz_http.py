"""Fuzzing every HTTP endpoint of ``floe serve`` (issue 11, item 5).

The routes are read from the application itself (``create_app().routes``), so a new endpoint is fuzzed
without touching this test. Each example is one request: a route, sometimes another method, its path
parameters (the ids of live sentinel tables or junk: Unicode, traversal, thousands of characters), query
parameters, an ``Authorization`` header (a real seat token, a forged one, another scheme), and a body
(model-shaped with fields of any type, any JSON, invalid JSON, binary) with some ``Content-Type``. Every
answer must be below 500, every refusal a short JSON error; a refused request must leave every table as it
was; a move the server accepted (the fuzzer sometimes finds a legal one) is the only change allowed.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from fastapi import APIRouter
from hypothesis import given, reject
from hypothesis import strategies as st
from starlette.routing import BaseRoute, Mount, Route

from floe.core.registry import entries
from floe.server.app import create_app

from .fuzzkit import (
    FUZZ_SERVER,
    TRICKY_TEXT,
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
)
from .serverproc import ServerProcess

GAMES = [e.name for e in entries()]
PERSON = {"kind": "person"}
METHODS = ["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"]


def routes(within: list[BaseRoute] | None = None) -> list[tuple[str, str]]:
    """(method, path template) of every HTTP route and mount of the application, those of the routers it
    includes (FastAPI keeps each included router whole, as its ``original_router``) among them."""
    found: list[tuple[str, str]] = []
    for route in create_app().routes if within is None else within:
        if isinstance(route, Mount):
            found.append(("GET", route.path + "/{path}"))
        elif isinstance(route, Route):
            found += [(m, route.path) for m in sorted(route.methods or ()) if m != "HEAD"]
        elif isinstance(getattr(route, "original_router", None), APIRouter):
            found += routes(route.original_router.routes)  # type: ignore[attr-defined]
    return found


ROUTES = routes()


@dataclass
class Site:
    """The module's server, its sentinel tables, and a client."""

    server: ServerProcess
    http: httpx.Client
    tables: dict[str, Sentinel]
    accepted: int = 0

    def tokens(self) -> list[str]:
        return [t for table in self.tables.values() for t in table.tokens.values()]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    server = ServerProcess(tmp_path_factory.mktemp("fuzz-http"), extra=FUZZ_SERVER)
    with started(server), httpx.Client(base_url=server.url, timeout=30) as http:
        tables = {e.name: sentinel(http, [PERSON] * e.min_players, game=e.name) for e in entries()}
        # A finished table (two random bots play it out at once): its record and revealed replay.
        done = http.post("/api/tables", json={"seats": [{"kind": "bot", "bot": "random"}] * 2})
        assert done.status_code == 201, done.text
        finished = Sentinel(done.json()["table"]["id"], {})
        for _ in range(600):
            if http.get(f"/api/tables/{finished.id}").json()["status"] == "finished":
                break
            time.sleep(0.05)
        finished.remember(http)
        assert finished.seen["spectator"]["status"] == "finished"
        tables["finished"] = finished
        yield Site(server, http, tables)


# --- strategies --------------------------------------------------------------------------------------------
JUNK_IDS = ["", "x", "0" * 12, "../api/games", "%2e%2e", "..", ".", "ffffffffffff", "\u202e", "a" * 3000]
FILES = ["board.js", "icon.svg", "index.html", "table.html", "app.js", "style.css", "../../pyproject.toml"]


@st.composite
def requests(draw: st.DrawFn, site: Site) -> tuple[str, str, dict[str, Any], dict[str, Any], bytes | None]:
    """(method, path, query, headers, body) for one fuzzed request."""
    method, template = draw(st.sampled_from(ROUTES))
    if not draw(st.integers(0, 7)):
        method = draw(st.sampled_from(METHODS))
    ids = st.sampled_from([t.id for t in site.tables.values()])
    fills = {
        "table_id": ids | st.sampled_from(JUNK_IDS) | st.text(min_size=1, max_size=20),
        "game": st.sampled_from(GAMES) | st.sampled_from(JUNK_IDS) | st.text(min_size=1, max_size=10),
        "path": st.sampled_from(FILES) | st.sampled_from(JUNK_IDS) | st.text(min_size=1, max_size=30),
    }
    path = template.replace("{path:path}", "{path}")
    for name, values in fills.items():
        if "{" + name + "}" in path:
            value = draw(values)
            # Escaped as a client would, except "/", "." and "%": traversal and pre-escaped text get through.
            path = path.replace("{" + name + "}", quote(value.encode("utf-8", "surrogatepass"), safe="/.%"))
    query: dict[str, Any] = draw(
        st.dictionaries(
            st.sampled_from(["status", "reveal", "x"]),
            st.sampled_from(["playing", "finished", "waiting", "true", "false", "1", "yes"])
            | st.sampled_from(TRICKY_TEXT[:30])
            | st.text(max_size=10),
            max_size=2,
        )
    )
    headers: dict[str, Any] = {}
    token = draw(
        st.none()
        | st.sampled_from(site.tokens())
        | st.text(max_size=30)
        | st.sampled_from(["x" * 300, "", " ", "\u202e"])
    )
    if token is not None:
        scheme = draw(st.sampled_from(["Bearer ", "bearer ", "Basic ", "", "Bearer  "]))
        headers["Authorization"] = _header(scheme + token)
    body: bytes | None = None
    if method in ("POST", "PUT", "PATCH") or not draw(st.integers(0, 9)):
        body = draw(bodies(site, template))
        kinds = ["application/json"] * 4 + ["text/plain", "application/x-www-form-urlencoded", ""]
        headers["Content-Type"] = draw(st.sampled_from(kinds))
    return method, path, query, headers, body


def _header(text: str) -> bytes:
    """A header value as bytes on the wire (no line breaks, NUL or surrounding blanks: the client library
    refuses to send those)."""
    return "".join(c for c in text if c not in "\r\n\x00").strip().encode("utf-8", "surrogatepass")


def _query(query: dict[str, str]) -> str:
    """``?k=v&…`` escaped by hand: lone surrogates go out as their UTF-8 bytes, which no library writes."""
    if not query:
        return ""
    pairs = (f"{k}={quote(v.encode('utf-8', 'surrogatepass'), safe='')}" for k, v in query.items())
    return "?" + "&".join(pairs)


def bodies(site: Site, template: str) -> st.SearchStrategy[bytes]:
    """Bodies for ``template``: the shape its model expects with fields of any type, or anything at all."""
    anything = json_values.map(encode) | st.text(max_size=100) | st.sampled_from(["", "{", "[]", "null"])
    if template.endswith("/moves"):
        versions = [v for t in site.tables.values() for v in (t.version, t.version + 1, t.version - 1)]
        actions = [a for t in site.tables.values() for a in t.legal()[1][:20]]
        shaped = st.fixed_dictionaries(
            {},
            optional={
                "action": st.sampled_from(actions or [0]) | st.integers() | json_values,
                "version": st.sampled_from(versions) | st.integers() | json_values,
                "id": json_values,
            },
        )
    elif template.endswith("/undo"):
        versions = [v for t in site.tables.values() for v in (t.version, t.version + 1, t.version - 1)]
        shaped = st.fixed_dictionaries(
            {}, optional={"version": st.sampled_from(versions) | st.integers() | json_values}
        )
    elif template == "/api/recent":
        keys = st.sampled_from(["k" * 20, "short", "x" * 65, "a b" * 8]) | json_values
        shaped = st.fixed_dictionaries({}, optional={"key": keys})
    elif template.endswith("/join"):
        shaped = st.fixed_dictionaries({}, optional={"name": names | json_values, "seat": json_values})
    elif template == "/api/tables":
        shaped = st.fixed_dictionaries(
            {"seats": st.lists(st.just(PERSON), min_size=1, max_size=5) | json_values},
            optional={"game": st.sampled_from(GAMES) | json_values, "options": json_values},
        )
    else:
        shaped = st.dictionaries(st.text(max_size=8), json_values, max_size=3)
    text = shaped.map(encode) | anything
    return text.map(lambda s: s.encode("utf-8", "surrogatepass")) | st.binary(max_size=200)


# --- the test ----------------------------------------------------------------------------------------------
def test_every_route_is_fuzzed() -> None:
    paths = {path for _, path in ROUTES}
    assert {"/api/tables", "/api/tables/{table_id}/moves", "/api/tables/{table_id}/join"} <= paths
    assert {"/api/tables/{table_id}/undo", "/api/recent"} <= paths
    assert len(ROUTES) >= 15, ROUTES


LONG = "k" * 3000


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/tables", {"seats": [PERSON, PERSON], LONG: 1}),
        ("/api/tables", {"seats": [{**PERSON, LONG: 1}, PERSON]}),
        ("/api/tables", {"seats": [{"kind": {"a": LONG}}]}),
        ("/join", {"name": "Ann", LONG: 1}),
        ("/moves", {"action": 1, "version": 1, LONG: 1}),
    ],
    ids=["top", "seat", "kind", "join", "move"],
)
def test_a_refusal_never_quotes_a_long_key_back(site: Site, path: str, body: dict[str, Any]) -> None:
    """A validation error names where the problem is; a client's 3,000-character key must not come back
    whole in the message (it did: the message was as long as the key)."""
    table = site.tables[GAMES[0]]
    if path != "/api/tables":
        path = f"/api/tables/{table.id}{path}"
    token = next(iter(table.tokens.values()))
    answer = site.http.post(path, json=body, headers={"Authorization": f"Bearer {token}"})
    check_answer(answer, f"POST {path} with a long key")
    assert answer.status_code == 400, answer.text[:300]


def test_fuzzed_requests_never_answer_500_nor_change_a_table(site: Site) -> None:
    mark = log_mark(site.server.log_path)

    @fuzz_settings(150)
    @given(st.data())
    def attempt(data: st.DataObject) -> None:
        method, path, query, headers, body = data.draw(requests(site))
        what = f"{method} {path[:80]} {query} {headers} {show(body or b'')}"
        try:
            answer = site.http.request(method, path + _query(query), headers=headers, content=body)
        except httpx.LocalProtocolError:
            reject()  # a header the client library refuses to send (h11 checks every byte)
        check_answer(answer, what)
        for table in site.tables.values():
            if answer.status_code < 300 and method == "POST" and table.id in path:
                site.accepted += 1  # an accepted move or join: the table may have changed
                table.remember(site.http)
            elif table.id in path:
                table.unchanged(site.http, what)

    attempt()
    for table in site.tables.values():
        table.unchanged(site.http, "the fuzzed requests")
    assert site.http.get("/api/games").status_code == 200
    no_traceback(site.server.log_path, mark)

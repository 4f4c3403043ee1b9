"""Fuzzing the WebSocket protocol of ``floe serve`` (issue 11, item 5).

Each example opens ``/ws/tables/{id}`` (a sentinel table, or a junk id), says some hello (a real seat
token, a spectator's, a forged token, a wrong shape, not JSON at all) and sends a few messages of every
type the protocol knows (``protocol.py``: hello, move, undo, chat, rematch, leave, back, ping) with fields
of any type, plus unknown types, any JSON, plain text, binary frames, frames over the size limit and text
frames that are not UTF-8. Each message is followed by a ping, so what arrives before the pong is its answer.

What must hold: a refused hello is one short error and a 4xxx close; a bad message is one short error and
the connection stays usable (or, for a frame the WebSocket layer itself rejects, a 1007/1009 close); the
server never closes with an internal error; a refused message changes no table (a move that was
acknowledged, or an accepted leave/back, is the only change allowed); afterwards the server answers, a
seat still plays, and the log holds no traceback.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from floe.core.registry import entries
from floe.server.protocol import MAX_MESSAGE_BYTES

from .fuzzkit import (
    FUZZ_SERVER,
    TRICKY_TEXT,
    Sentinel,
    encode,
    fuzz_settings,
    json_values,
    log_mark,
    no_traceback,
    sentinel,
    short,
    started,
)
from .serverproc import ServerProcess

PERSON = {"kind": "person"}
TYPES = ["hello", "move", "undo", "chat", "rematch", "leave", "back", "ping"]


@dataclass
class Site:
    server: ServerProcess
    http: httpx.Client
    tables: list[Sentinel]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    server = ServerProcess(tmp_path_factory.mktemp("fuzz-ws"), extra=FUZZ_SERVER)
    with started(server), httpx.Client(base_url=server.url, timeout=30) as http:
        tables = [sentinel(http, [PERSON] * e.min_players, game=e.name) for e in entries()]
        yield Site(server, http, tables)


# --- strategies --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Frame:
    """One frame to send: text (possibly not UTF-8, sent as a text frame anyway) or binary."""

    data: bytes
    text: bool = True

    def __repr__(self) -> str:
        return f"Frame({self.data[:120]!r}{'…' if len(self.data) > 120 else ''}, text={self.text})"


def _frame(value: Any) -> Frame:
    return Frame(encode(value).encode("utf-8", "surrogatepass"))


def shaped(site: Site, table: Sentinel | None) -> st.SearchStrategy[Frame]:
    """A message of a known type with fields of any type (or of the right type, sometimes legal)."""
    tokens = [t for s in site.tables for t in s.tokens.values()]
    versions = [table.version, table.version + 1] if table else [0]
    actions = table.legal()[1][:20] if table else []
    field_values = {
        "token": st.none() | st.sampled_from(tokens) | st.text(max_size=30) | json_values,
        "action": st.sampled_from(actions or [0]) | st.integers() | json_values,
        "version": st.sampled_from(versions) | st.integers() | json_values,
        "id": st.none() | st.integers() | st.text(max_size=70) | json_values,
        "text": st.text(max_size=400)
        | st.sampled_from(["<script>alert(1)</script>", "x" * 2001])
        | json_values,
        "name": st.none() | st.text(max_size=50) | st.sampled_from(["P1", "Ann (spectator)"]) | json_values,
        "key": st.none() | st.sampled_from(["k" * 20, "short"]) | json_values,
    }
    return st.builds(
        lambda kind, fields, extra: {"type": kind, **fields, **extra},
        st.sampled_from(TYPES) | st.sampled_from(["", "HELLO", "state", "welcome", "ack"]) | json_values,
        st.fixed_dictionaries({}, optional=field_values),
        st.dictionaries(st.sampled_from(["x", "seat", "table", "type "]), json_values, max_size=1),
    ).map(_frame)


SPECIAL = [
    Frame(b"\xff\xfe\xfd"),  # a text frame that is not UTF-8 (the issue: a traceback per connection)
    Frame(b'{"type": "ping"\xc3}'),
    Frame(b'{"type":"ping","x":"' + b"a" * MAX_MESSAGE_BYTES + b'"}'),
    Frame(b"[" * 70_000),  # over the server's frame limit
    Frame(b'{"type":"ping"}', text=False),
    Frame(b""),
    # Refusals that once quoted the client's input back (a 4 KB message type, a 3,000-character key).
    Frame(b'{"type": {"a": "' + b"x" * 3000 + b'"}}'),
    Frame(b'{"type": "move", "action": 1, "version": 1, "' + b"k" * 3000 + b'": 1}'),
]


def frames(site: Site, table: Sentinel | None) -> st.SearchStrategy[Frame]:
    """Any frame a hostile client could send."""
    return (
        shaped(site, table)
        | json_values.map(_frame)
        | st.text(max_size=60).map(lambda t: Frame(t.encode("utf-8", "surrogatepass")))
        | st.sampled_from(TRICKY_TEXT).map(lambda t: Frame(t.encode("utf-8", "surrogatepass")))
        | st.binary(max_size=64).map(lambda b: Frame(b, text=False))
        | st.sampled_from(SPECIAL)
    )


@st.composite
def sessions(draw: st.DrawFn, site: Site) -> tuple[Sentinel | None, str, Frame, list[Frame]]:
    """(table or None, table id, hello frame, then messages) for one connection."""
    table = draw(st.sampled_from([*site.tables, None]))
    table_id = table.id if table else draw(st.sampled_from(["0" * 12, "nope", "%E2%80%AE", "a" * 300]))
    token: Any = None
    if table is not None:
        token = draw(st.sampled_from([*table.tokens.values(), None]))
    hello = draw(
        st.just(_frame({"type": "hello", "token": token}))
        | st.just(_frame({"type": "hello"}))
        | frames(site, table)
    )
    return table, table_id, hello, draw(st.lists(frames(site, table), max_size=4))


# --- talking to the server ---------------------------------------------------------------------------------
@dataclass
class Answer:
    messages: list[dict[str, Any]]
    close: int | None  # the close code, if the server closed the connection


def exchange(ws: ClientConnection, frame: Frame | None, *, ping: bool = True) -> Answer:
    """Send ``frame`` (then a ping) and read until the pong, or until the server closes (what it sent
    before closing is still read: a refusal comes as an error, then the close)."""
    got: list[dict[str, Any]] = []
    with contextlib.suppress(ConnectionClosed):
        if frame is not None:
            ws.send(frame.data, text=frame.text)
        if ping:
            ws.send(json.dumps({"type": "ping"}))
    try:
        while True:
            raw = ws.recv(timeout=60)
            assert isinstance(raw, str), f"the server sent a binary frame: {raw[:100]!r}"
            message = json.loads(raw)
            if message.get("type") == "pong":
                return Answer(got, None)
            got.append(message)
    except ConnectionClosed as exc:
        code = exc.rcvd.code if exc.rcvd is not None else 1006
        return Answer(got, code)


def check_error(message: dict[str, Any], what: str) -> None:
    assert set(message) == {"type", "id", "code", "message"}, f"{what}: {message}"
    assert isinstance(message["code"], str) and short(message["message"]), f"{what}: {message}"


def is_accepted_change(frame: Frame, answer: Answer, seat: int | None) -> bool:
    """Whether ``frame`` was a request the server accepted that may change the table (an acknowledged
    move, or a leave/back from a seat that drew no error)."""
    if any(m["type"] == "ack" for m in answer.messages):
        return True
    if seat is None or not frame.text or any(m["type"] == "error" for m in answer.messages):
        return False
    try:
        message = json.loads(frame.data)
    except ValueError:
        return False
    return isinstance(message, dict) and message.get("type") in ("leave", "back")


def layer_closes(frame: Frame) -> set[int]:
    """The closes by which the WebSocket layer may refuse ``frame``: 1009 for a frame over the server's
    size limit (64 KiB; or 1006 when the reset beats the close frame to us), 1007 for a text frame that is
    not UTF-8; none for any other frame."""
    if len(frame.data) > 65_536:
        return {1009, 1006}
    try:
        frame.data.decode("utf-8")
    except UnicodeDecodeError:
        return {1007} if frame.text else set()
    return set()


def run_session(site: Site, table: Sentinel | None, table_id: str, hello: Frame, rest: list[Frame]) -> None:
    what = f"hello {hello!r} then {rest!r} on {table_id[:20]}"
    changed = False
    url = f"{site.server.ws_url}/ws/tables/{table_id}"
    with connect(url, max_size=2**22, open_timeout=60, compression=None) as ws:
        first = exchange(ws, hello)
        if first.close is not None:
            # A refused hello: one error, then a 4xxx close (or the WebSocket layer's own close).
            errors = [m for m in first.messages if m["type"] == "error"]
            if first.close in layer_closes(hello) and not errors:
                return
            assert len(errors) == 1 and len(first.messages) == 1, f"{what}: {first.messages}"
            check_error(errors[0], what)
            assert 4400 <= first.close < 4500, f"{what}: closed with {first.close}"
            return
        assert first.messages and first.messages[0]["type"] == "welcome", f"{what}: {first.messages}"
        seat = first.messages[0]["seat"]
        for frame in rest:
            answer = exchange(ws, frame)
            step = f"{what}: {frame!r}"
            if answer.close is not None:
                assert answer.close in layer_closes(frame), f"{step}: the server closed with {answer.close}"
                break
            errors = [m for m in answer.messages if m["type"] == "error"]
            assert len(errors) <= 1, f"{step}: {answer.messages}"
            for error in errors:
                check_error(error, step)
            # A chat line said is sent back to its sender too; it is no change of the table's state.
            unexpected = [m for m in answer.messages if m["type"] not in ("error", "ack", "state", "chat")]
            assert not unexpected, f"{step}: {unexpected}"
            changed = changed or is_accepted_change(frame, answer, seat)
        if changed and seat is not None:
            with contextlib.suppress(ConnectionClosed):  # a seat left away would let the away bot play on
                exchange(ws, _frame({"type": "back"}))
    if table is None:
        return
    if changed:
        table.remember(site.http)
    else:
        table.unchanged(site.http, what)


# --- the tests ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("frame", SPECIAL, ids=lambda f: repr(f.data[:12]))
def test_each_odd_frame_from_a_seat_and_a_spectator(site: Site, frame: Frame) -> None:
    """Every odd frame, whatever the draw: answered with an error or a WebSocket-layer close, and one log
    line at most (the issue: an invalid-UTF-8 text frame logged a traceback per connection)."""
    mark = log_mark(site.server.log_path)
    table = site.tables[0]
    for token in (None, next(iter(table.tokens.values()))):
        run_session(site, table, table.id, _frame({"type": "hello", "token": token}), [frame, frame])
    no_traceback(site.server.log_path, mark)


def test_fuzzed_websocket_sessions_never_fail_nor_change_a_table(site: Site) -> None:
    mark = log_mark(site.server.log_path)

    @fuzz_settings(60)
    @given(st.data())
    def attempt(data: st.DataObject) -> None:
        table, table_id, hello, rest = data.draw(sessions(site))
        run_session(site, table, table_id, hello, rest)

    attempt()
    for table in site.tables:
        table.unchanged(site.http, "the fuzzed sessions")
    # The server still plays: a seat moves and hears its ack.
    table = site.tables[0]
    seat, legal = table.legal()
    assert seat is not None and legal
    with connect(f"{site.server.ws_url}/ws/tables/{table.id}", compression=None) as ws:
        assert exchange(ws, _frame({"type": "hello", "token": table.tokens[seat]})).close is None
        move = {"type": "move", "action": legal[0], "version": table.version, "id": "last"}
        answer = exchange(ws, _frame(move))
        assert any(m["type"] == "ack" and m["id"] == "last" for m in answer.messages), answer
    no_traceback(site.server.log_path, mark)

"""Shared pieces of the property-based fuzz tests (``test_fuzz_*.py``): JSON that a careless or hostile
client could send, the checks every answer must pass, and the sentinel tables whose state no refused
request may change.

Values are built as Python objects and written by ``encode``, which also writes ``Raw`` tokens verbatim:
JSON numbers Python would never produce (``1e400``, ``-0``, a 10,000-level nesting), so the server's own
parser meets them. The run is kept short for CI; ``FLOE_FUZZ_SCALE=20`` multiplies the examples (and
turns off derandomisation, so each long run explores new inputs).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from .serverproc import ServerProcess

# The fuzz servers: one worker, nobody away, and no creation limits (one client makes hundreds of tables
# here, which the limits exist to refuse; tests/server/test_limits_*.py test them).
FUZZ_SERVER = [
    "--bot-workers", "1", "--away-after", "3600",
    "--set", "create_per_minute=0", "--set", "open_tables_per_client=0",
]  # fmt: skip
SCALE = max(1, int(os.environ.get("FLOE_FUZZ_SCALE", "1") or "1"))


def fuzz_settings(examples: int) -> settings:
    """``examples`` per test (times ``FLOE_FUZZ_SCALE``), reproducible in CI, with a generous deadline:
    every request has its own timeout, and the machine is shared."""
    return settings(
        max_examples=examples * SCALE,
        deadline=timedelta(seconds=20),
        derandomize=SCALE == 1,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
        print_blob=True,
    )


class Raw(str):
    """A piece of JSON text written as is (numbers and structures ``json.dumps`` would not produce)."""


def encode(value: Any) -> str:
    """``value`` as JSON text: ``Raw`` parts verbatim, NaN and infinities as Python's ``json`` writes them
    (which the server's parser accepts), non-ASCII text as ``\\u`` escapes (lone surrogates get through)."""
    if isinstance(value, Raw):
        return str(value)
    if isinstance(value, dict):
        return "{" + ",".join(f"{encode(_key(k))}:{encode(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list | tuple):
        return "[" + ",".join(encode(v) for v in value) + "]"
    return json.dumps(value)


def _key(key: Any) -> Any:
    return key if isinstance(key, str) else str(key)


# --- values ----------------------------------------------------------------------------------------------
RAW_NUMBERS = [
    Raw("1e400"),
    Raw("-1e400"),
    Raw("1E+400"),
    Raw("-0"),
    Raw("-0.0"),
    Raw("0e0"),
    Raw("Infinity"),
    Raw("-Infinity"),
    Raw("NaN"),
    Raw("1e-400"),
    Raw("9" * 30),
    Raw("-" + "9" * 30),
    Raw("9" * 5000),  # past Python's int-to-text digit limit (4,300)
    Raw("1." + "0" * 400 + "1"),
]
TRICKY_TEXT = [
    "",
    " ",
    "¹",  # a Unicode digit: "¹".isdigit() is True, int("¹") fails
    "²³",
    "١٢",  # Arabic-Indic digits: int() accepts them
    "𝟙",
    "½",
    "Ⅻ",
    "1e400",
    "Infinity",
    "-Infinity",
    "NaN",
    "nan",
    "inf",
    "-0",
    "0x10",
    "1_000",
    "+1",
    " 1 ",
    "1.5",
    "true",
    "random",
    "default",
    "none",
    "null",
    "\x00",
    "a\x00b",
    "\u202eevil\u202c P2 (you)",
    "P2 (you)",
    "\ud800",  # a lone surrogate: valid as a JSON escape, not as UTF-8
    "😀" * 50,
    "ﷺ" * 100,
    "../../etc/passwd",
    "%00",
    "<script>alert(1)</script>",
    "' OR 1=1 --",
    "[" * 100_000,  # a RecursionError for a naive nested parser
    "[[0, 0], " * 5_000,
    "a" * 100_000,
    "9" * 5_000,
]
DEEP = [Raw("[" * 10_000 + "]" * 10_000), Raw('{"a":' * 5_000 + "1" + "}" * 5_000)]

scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-(2**80), max_value=2**80)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=30)
    | st.sampled_from(TRICKY_TEXT)
    | st.sampled_from(RAW_NUMBERS)
)
# Keys a client chooses end up in validation errors' locations: some are long.
keys = st.text(max_size=12) | st.sampled_from(["k" * 3000, "\u202e" * 50, "type", "seats", "name"])
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(keys, inner, max_size=5),
    max_leaves=12,
) | st.sampled_from(DEEP)
names = st.text(max_size=60) | st.sampled_from(TRICKY_TEXT) | st.sampled_from(["Guest", "P1", "Ann"])


# --- answers ---------------------------------------------------------------------------------------------
def short(message: Any) -> bool:
    """A refusal's message: one short line, no traceback."""
    return (
        isinstance(message, str)
        and 0 < len(message) <= 400
        and "\n" not in message
        and "Traceback" not in message
        and 'File "' not in message
    )


def check_answer(answer: httpx.Response, what: str) -> None:
    """No answer is a 5xx; a refusal (4xx) is a short JSON ``{"error": {"code", "message"}}``."""
    assert answer.status_code < 500, f"{what} -> {answer.status_code}: {answer.text[:300]}"
    if answer.status_code < 400 or answer.request.method == "HEAD":
        return
    if answer.status_code == 400 and answer.text == "Invalid HTTP request received.":
        return  # refused by uvicorn's HTTP parser (a control character in a header): the app never saw it
    try:
        data = answer.json()
    except ValueError:
        raise AssertionError(f"{what} -> {answer.status_code} without JSON: {answer.text[:300]}") from None
    assert isinstance(data, dict) and set(data) == {"error"}, f"{what} -> {answer.text[:300]}"
    error = data["error"]
    assert isinstance(error, dict) and set(error) == {"code", "message"}, f"{what} -> {error}"
    assert isinstance(error["code"], str) and short(error["message"]), f"{what} -> {error}"


def show(body: str | bytes) -> str:
    """A request body, cut to a length an assertion message can carry."""
    text = body if isinstance(body, str) else body.decode("utf-8", "replace")
    return text if len(text) <= 300 else f"{text[:200]}… ({len(text)} characters)"


# --- the tables no refused request may change ------------------------------------------------------------
def stable(state: dict[str, Any]) -> dict[str, Any]:
    """What a refused request must not change in a ``state``: all but the seats' ``connected`` flags (the
    fuzzing connections come and go) and the log lines (a fresh state carries them all)."""
    keys = ("version", "seat", "status", "to_move", "deciding", "view", "legal", "log_total", "result")
    seats = [{k: v for k, v in seat.items() if k != "connected"} for seat in state["table"]["seats"]]
    return {**{k: state[k] for k in keys}, "table": {**state["table"], "seats": seats}}


@dataclass
class Sentinel:
    """A table of persons who never move on their own: its id, seat tokens and last known state."""

    id: str
    tokens: dict[int, str]
    seen: dict[str, Any] = field(default_factory=dict)

    def look(self, http: httpx.Client) -> dict[str, Any]:
        """Each seat's and a spectator's state (the stable parts)."""
        seen = {}
        for seat, token in [*sorted(self.tokens.items()), (None, None)]:
            headers = {"Authorization": f"Bearer {token}"} if token else {}
            answer = http.get(f"/api/tables/{self.id}/state", headers=headers)
            assert answer.status_code == 200, answer.text
            seen["spectator" if seat is None else f"seat {seat}"] = stable(answer.json())
        return seen

    def remember(self, http: httpx.Client) -> None:
        self.seen = self.look(http)

    def unchanged(self, http: httpx.Client, what: str) -> None:
        """The table is as last remembered (``what``: the request that must not have changed it)."""
        now = self.look(http)
        for viewer, before in self.seen.items():
            diff = [k for k in before if before[k] != now[viewer][k]]
            assert not diff, f"{what} changed table {self.id} for {viewer}: {diff}"

    @property
    def version(self) -> int:
        version: int = self.seen["spectator"]["version"]
        return version

    def legal(self) -> tuple[int | None, list[int]]:
        """The seat to move and its legal action ids (as last seen)."""
        to_move = self.seen["spectator"]["to_move"]
        if to_move is None:
            return None, []
        return to_move, [c["id"] for c in self.seen[f"seat {to_move}"]["legal"]]


def sentinel(http: httpx.Client, seats: list[dict[str, Any]], **extra: Any) -> Sentinel:
    """A new table of ``seats`` with every person seat claimed (so no join can take one)."""
    answer = http.post("/api/tables", json={"seats": seats, **extra})
    assert answer.status_code == 201, answer.text
    created = answer.json()
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    table = Sentinel(created["table"]["id"], tokens)
    while True:  # claim the seats the creator does not hold, through the lobby's join
        joined = http.post(f"/api/tables/{table.id}/join", json={"name": "Sentinel"})
        if joined.status_code != 200:
            break
        # A join hands a fresh token to the first unclaimed seat; it replaces that seat's old link.
        tokens[joined.json()["seat"]] = joined.json()["token"]
    table.remember(http)
    return table


def stored_tables(data_dir: Path) -> int:
    """How many tables the server's SQLite database holds (read-only, beside the running server)."""
    with sqlite3.connect(f"file:{data_dir / 'floe.sqlite3'}?mode=ro", uri=True) as db:
        count: int = db.execute("SELECT COUNT(*) FROM floe_tables").fetchone()[0]
    return count


@contextlib.contextmanager
def started(server: ServerProcess) -> Iterator[ServerProcess]:
    """``server`` started, then stopped with its whole process group: a bot worker can outlive the server
    (one the stop's SIGTERM killed is replaced while the server shuts down) and would go on thinking."""
    try:
        server.start()
        yield server
    finally:
        pid = server.proc.pid if server.proc is not None else None
        server.stop()
        if pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pid, signal.SIGKILL)


def log_mark(log_path: Path) -> int:
    """Where the server's log ends now (``no_traceback`` reads from here on)."""
    return log_path.stat().st_size


def no_traceback(log_path: Path, since: int = 0) -> None:
    """The server logged no traceback since ``since`` (an exception no handler turned into a short answer)."""
    with log_path.open("rb") as f:
        f.seek(since)
        log = f.read().decode(errors="replace")
    assert "Traceback" not in log, log[log.index("Traceback") :][:3000]

"""Issue 11 item 9 (first half): one client cannot create tables without end.

The attack made 3,491 tables in 25 s from one client. Now creations are rate-limited per client (a token
bucket: ``create_burst`` at once, then ``create_per_minute``), open (unfinished) tables are capped per
client and in total, and each refusal is a 429 with the short JSON error and a ``Retry-After``. A refused
creation (a bad option) costs no quota; a finished table frees its place; a header cannot make one client
pass for another.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from .serverproc import ServerProcess, running_server

PERSON = {"kind": "person"}


def assert_429(answer: httpx.Response, code: str) -> float:
    """``answer`` is a 429 with ``code`` and a whole-second ``Retry-After``; returns that."""
    assert answer.status_code == 429, (answer.status_code, answer.text[:300])
    error = answer.json()["error"]
    assert set(error) == {"code", "message"} and error["code"] == code and len(error["message"]) < 200, error
    retry = answer.headers["Retry-After"]
    assert retry.isdigit() and int(retry) >= 1, retry
    return float(retry)


def create(server: ServerProcess, seats: list[dict[str, Any]] | None = None, **extra: Any) -> httpx.Response:
    return server.post("/api/tables", {"seats": seats or [PERSON, PERSON], **extra})


def test_a_creation_flood_is_cut_to_the_burst_then_to_the_rate(server: ServerProcess) -> None:
    """The defaults: 10 at once, then 10 a minute. 200 requests in a row make the 10 of the burst and one
    more for each 6 s they took at most (none on a quick machine): a count that follows the run's own time,
    so it holds however slow the machine is."""
    start = time.monotonic()
    with httpx.Client(base_url=server.url, timeout=30) as http:
        answers = [http.post("/api/tables", json={"seats": [PERSON, PERSON]}) for _ in range(200)]
    took = time.monotonic() - start
    made = [a for a in answers if a.status_code == 201]
    assert all(a.status_code == 201 for a in answers[:10])
    assert len(made) <= 10 + int(took / 6), (took, [a.status_code for a in answers])
    for answer in answers[10:]:
        if answer.status_code != 201:
            assert 1 <= assert_429(answer, "rate_limited") <= 6  # one token every 6 s
    assert len(server.get("/api/tables").json()) == len(made)


def test_a_forwarded_for_header_does_not_make_a_new_client(tmp_path: Path) -> None:
    with running_server(tmp_path / "data", extra=["--set", "create_burst=2"]) as server:
        for k in range(5):
            headers = {"X-Forwarded-For": f"10.0.0.{k}", "Forwarded": f"for=10.0.1.{k}"}
            answer = httpx.post(server.url + "/api/tables", json={"seats": [PERSON, PERSON]}, headers=headers)
            assert answer.status_code == (201 if k < 2 else 429), answer.text


def test_refused_creations_cost_no_quota(tmp_path: Path) -> None:
    with running_server(tmp_path / "data", extra=["--set", "create_burst=3"]) as server:
        for _ in range(20):
            answer = create(server, options={"nope": 1})
            assert answer.status_code == 400 and answer.json()["error"]["code"] == "bad_option"
        assert [create(server).status_code for _ in range(4)] == [201, 201, 201, 429]


def test_open_tables_are_capped_per_client_and_a_finished_one_frees_its_place(tmp_path: Path) -> None:
    extra = ["--set", "create_per_minute=0", "--set", "open_tables_per_client=3"]
    with running_server(tmp_path / "data", extra=extra) as server:
        # A game that ends soon (Arktia after one round of turns): any finished table frees its place.
        first = create(server, game="arktia", options={"max_turns": 1}).json()
        assert [create(server).status_code for _ in range(2)] == [201, 201]
        assert_429(create(server), "too_many_tables")
        play_to_the_end(server, first)
        assert create(server).status_code == 201  # the finished table no longer counts
        assert_429(create(server), "too_many_tables")


def play_to_the_end(server: ServerProcess, created: dict[str, Any]) -> None:
    """Join the table's second seat and play both seats' first legal choice over HTTP until it is over."""
    table = created["table"]["id"]
    tokens = [created["seats"][0]["token"], server.post(f"/api/tables/{table}/join", {}).json()["token"]]
    for _ in range(2000):
        state = server.get(f"/api/tables/{table}/state", tokens[0]).json()
        if state["status"] == "finished":
            return
        seat = state["to_move"]
        mine = server.get(f"/api/tables/{table}/state", tokens[seat]).json()
        move = {"action": mine["legal"][0]["id"], "version": mine["version"]}
        assert server.post(f"/api/tables/{table}/moves", move, tokens[seat]).status_code == 200
    raise AssertionError("the game did not end")


def _sit(server: ServerProcess, answer: httpx.Response) -> None:
    """Open the creator's seat (a hello with its token): somebody sits at the table, so it counts in the
    server's cap (a table nobody sat at does not: test_abuse_unjoined.py)."""
    table, token = answer.json()["table"]["id"], answer.json()["seats"][0]["token"]
    with connect(f"{server.ws_url}/ws/tables/{table}", open_timeout=30) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        assert json.loads(ws.recv(timeout=30))["type"] == "welcome"


def test_open_tables_are_capped_in_total_across_restarts(tmp_path: Path) -> None:
    extra = ["--set", "open_tables_total=4"]
    server = ServerProcess(tmp_path / "data", extra=extra)
    server.start()
    try:
        made = [create(server) for _ in range(4)]
        assert [answer.status_code for answer in made] == [201] * 4
        for answer in made:
            _sit(server, answer)
        assert_429(create(server), "server_full")
        server.kill()  # the tables are stored; a restarted server counts them as open
        server.start()
        assert_429(create(server), "server_full")
        assert len(server.get("/api/tables").json()) == 4
    finally:
        server.stop()


def test_limits_are_settings_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FLOE_CREATE_BURST", "1")
    monkeypatch.setenv("FLOE_CREATE_PER_MINUTE", "60")
    with running_server(tmp_path / "data") as server:
        assert create(server).status_code == 201
        assert assert_429(create(server), "rate_limited") == 1.0
        # Wait the second the server asked for (a token a second): a slower machine only waits longer, and a
        # token bucket refills with the time that passed, so this cannot fail for the machine's speed.
        time.sleep(1.1)
        assert create(server).status_code == 201


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        ("create_burst=0", "create_burst"),
        ("max_body_bytes=12", "max_body_bytes"),
        ("nonsense=1", "--set takes name=value"),
        ("store=x", "--set takes name=value"),
    ],
)
def test_a_bad_setting_is_a_one_line_error(tmp_path: Path, setting: str, message: str) -> None:
    import subprocess
    import sys

    cmd = [sys.executable, "-m", "floe", "serve", "--data-dir", str(tmp_path), "--set", setting]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) <= 2, done.stderr


def test_the_429_body_is_the_short_json_error(server: ServerProcess) -> None:
    answers = [create(server) for _ in range(11)]
    body = answers[-1].json()
    assert json.dumps(body).startswith('{"error": {"code": "rate_limited"')


def test_the_token_bucket_refills_gives_back_and_keeps_a_bounded_number_of_clients() -> None:
    from floe.server.limits import RateLimiter

    bucket = RateLimiter(per_minute=60, burst=2, max_keys=100)
    assert [bucket.take("a", now=0.0) for _ in range(3)] == [0.0, 0.0, 1.0]
    assert bucket.take("a", now=0.5) == pytest.approx(0.5)  # a refused request takes nothing
    assert bucket.take("a", now=1.0) == 0.0
    bucket.give_back("a", now=1.0)
    assert bucket.take("a", now=1.0) == 0.0 and bucket.take("a", now=1.0) > 0
    for k in range(10_000):  # a client with a new address at every request
        bucket.take(f"10.0.{k // 256}.{k % 256}", now=2.0)
    assert len(bucket._buckets) == 100

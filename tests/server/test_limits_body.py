"""Issue 11 item 8: HTTP request bodies (and request heads) are bounded before they are read.

The attack was a 300 MB body, parsed for 9 s while the server grew to 901 MB. Now a body whose
``Content-Length`` is over the limit (``max_body_bytes``, 256 KiB by default) is answered 413 ``too_large``
at once, without waiting for a byte of it; a chunked body is counted as it arrives and refused as soon as it
passes the limit; an over-long request head is refused by the HTTP parser. The server's memory does not
grow with what the client sends.
"""

from __future__ import annotations

import contextlib
import json
import socket
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from .serverproc import ServerProcess, running_server

LIMIT = 256 * 1024
PERSON = {"kind": "person"}


def rss_mb(server: ServerProcess) -> float:
    assert server.proc is not None
    for line in Path(f"/proc/{server.proc.pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def read_response(sock: socket.socket, timeout: float = 60.0) -> tuple[int, dict[str, str], bytes]:
    """Status, headers and body of the HTTP response on ``sock`` (which must have a Content-Length);
    ``timeout`` only bounds a hang."""
    sock.settimeout(timeout)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        assert chunk, f"the connection closed before a response: {data!r}"
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    while len(rest) < int(headers.get("content-length", "0")):
        chunk = sock.recv(65536)
        assert chunk, "the connection closed in the middle of the response"
        rest += chunk
    return int(lines[0].split()[1]), headers, rest


def assert_too_large(status: int, body: bytes) -> None:
    assert status == 413, (status, body[:200])
    error = json.loads(body)["error"]
    assert error["code"] == "too_large" and str(LIMIT) in error["message"], error


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with running_server(tmp_path_factory.mktemp("body") / "data") as srv:
        yield srv


def test_a_300_mb_content_length_is_refused_before_the_body_is_sent(server: ServerProcess) -> None:
    before = rss_mb(server)
    with socket.create_connection(("127.0.0.1", server.port)) as sock:
        head = (
            "POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            f"Content-Length: {300 * 1024 * 1024}\r\n\r\n"
        )
        # 10 KB of the 300 MB, and no more: the answer can only come before the body (a server that
        # waited for it would never answer, and read_response would fail).
        sock.sendall(head.encode() + b'{"seats": [' + b" " * 10_000)
        status, headers, body = read_response(sock)
    assert_too_large(status, body)
    assert headers.get("connection") == "close"  # the other 300 MB are never read
    assert rss_mb(server) - before < 20


def test_a_body_over_the_limit_is_refused_and_not_kept(server: ServerProcess) -> None:
    before = rss_mb(server)
    for size in (LIMIT + 1, 2 * 1024 * 1024, 12 * 1024 * 1024):
        padded = json.dumps({"seats": [PERSON, PERSON], "pad": "x" * size})
        answer = httpx.post(
            server.url + "/api/tables",
            content=padded,
            headers={"Content-Type": "application/json"},
            timeout=30,
        )
        assert_too_large(answer.status_code, answer.content)
    assert rss_mb(server) - before < 20
    assert server.get("/api/tables").json() == []


def test_a_chunked_body_is_cut_off_at_the_limit(server: ServerProcess) -> None:
    before = rss_mb(server)
    with socket.create_connection(("127.0.0.1", server.port)) as sock:
        head = (
            "POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            "Transfer-Encoding: chunked\r\n\r\n"
        )
        sock.sendall(head.encode())
        chunk = b"[" * 16384
        for _ in range(LIMIT // len(chunk) + 1):  # just past the limit, and no end in sight
            sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        status, headers, body = read_response(sock)
        assert_too_large(status, body)
        assert headers.get("connection") == "close"
        # The server hangs up (wait for that itself: the end of the stream, or a reset if it did not read
        # what was in flight), and the rest of the stream goes nowhere.
        with contextlib.suppress(ConnectionResetError):
            assert sock.recv(65536) == b""
        with pytest.raises(OSError):
            for _ in range(1000):
                sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
    assert rss_mb(server) - before < 20


def test_a_body_within_the_limit_is_read_and_judged(server: ServerProcess) -> None:
    padded = json.dumps({"seats": [PERSON, PERSON], "pad": "x" * (LIMIT - 1000)})
    answer = httpx.post(
        server.url + "/api/tables", content=padded, headers={"Content-Type": "application/json"}, timeout=30
    )
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "malformed"  # "pad" is unknown
    assert server.create([PERSON, PERSON])["table"]["status"] == "waiting"


def test_an_endless_request_head_is_refused(server: ServerProcess) -> None:
    for head in (
        b"GET /api/games HTTP/1.1\r\nHost: x\r\nX-Pad: " + b"a" * 4_000_000 + b"\r\n\r\n",
        b"GET /" + b"a" * 4_000_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
    ):
        before = rss_mb(server)
        with socket.create_connection(("127.0.0.1", server.port)) as sock:
            with contextlib.suppress(OSError):  # refused while we were still sending
                sock.sendall(head)
            sock.settimeout(60)  # only bounds a hang: the server answers or hangs up, whatever its speed
            try:
                answer = sock.recv(200)
            except TimeoutError:
                raise AssertionError("the server neither answered nor hung up") from None
            except OSError:
                answer = b""
        assert answer == b"" or answer.startswith(b"HTTP/1.1 400"), answer
        assert rss_mb(server) - before < 20
    assert server.get("/api/games").status_code == 200


def test_the_body_limit_is_a_setting(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    small = json.dumps({"seats": [PERSON, PERSON], "options": {}, "public": True}) + " " * 5000
    monkeypatch.setenv("FLOE_MAX_BODY_BYTES", "4096")
    with running_server(tmp_path / "env") as srv:
        answer = httpx.post(
            srv.url + "/api/tables", content=small, headers={"Content-Type": "application/json"}
        )
        assert answer.status_code == 413 and "4096" in answer.json()["error"]["message"]
    monkeypatch.delenv("FLOE_MAX_BODY_BYTES")
    with running_server(tmp_path / "set", extra=["--set", "max_body_bytes=8192"]) as srv:
        answer = httpx.post(
            srv.url + "/api/tables", content=small, headers={"Content-Type": "application/json"}
        )
        assert answer.status_code == 201, answer.text


def test_a_deeply_nested_body_within_the_limit_is_malformed(server: ServerProcess) -> None:
    for raw in ("[" * 5000 + "]" * 5000, '{"seats": ' + "[" * 100_000 + "}", "[" * 200_000):
        answer = httpx.post(
            server.url + "/api/tables", content=raw, headers={"Content-Type": "application/json"}, timeout=30
        )
        assert answer.status_code == 400 and answer.json()["error"]["code"] == "malformed", answer.text

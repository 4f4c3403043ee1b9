"""``floe bench abuse``: the attacks run against a real server and the report has its shape.

The targets (move→ack p99 ≤ 100 ms, bot replies p99 ≤ 2 s, peak memory ≤ 1 GB) are what the benchmark
measures, not what this test asserts: on a shared CI machine they would be a coin toss. The test runs two
attacks at ``--quick`` sizes and checks that every figure is there and consistent.
"""

from __future__ import annotations

import json
import random
import struct
import subprocess
import sys
from typing import Any

from floe.bench.attacks import ATTACKS, bad_option_bodies, hex_cells, name_is_clean
from floe.bench.probe import _FrameSkipper
from floe.core.registry import entries
from floe.server.routes.games import game_info

NORMAL = {
    "moves",
    "ack_p50_ms",
    "ack_p99_ms",
    "ack_max_ms",
    "ack_waiting_s",
    "bot_replies",
    "bot_p50_s",
    "bot_p99_s",
    "bot_max_s",
    "bot_waiting_s",
    "errors",
    "last_error",
}
MEMORY = {"peak_rss_mb", "server_hwm_mb", "workers_hwm_mb", "processes", "cpu_s"}


def bench(*args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "floe", "bench", "abuse", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)


def test_abuse_bench_reports_an_attack_with_the_normal_tables_service() -> None:
    # One attack keeps this under half a minute: every attack goes through the same report (the quiet
    # spectators' behaviour itself is tested in test_conn_broadcast.py).
    # A one-second window at a quick pace: the report's shape is the same as at any length.
    done = bench("--quick", "--attack", "bad_options", "--seconds", "1", "--think-ms", "100", "--json")
    assert done.returncode == 0, done.stderr[-3000:]
    figures: dict[str, Any] = json.loads(done.stdout)
    assert figures["quick"] is True and figures["targets"]["ack_p99_ms"] == 100
    assert [a["name"] for a in figures["attacks"]] == ["bad_options"]
    (attack,) = figures["attacks"]
    assert set(attack["normal"]) == NORMAL, attack
    assert set(attack["memory"]) == MEMORY, attack
    assert set(attack["meets"]) == {"ack_p99", "bot_p99", "search_bot", "no_lockout", "memory"}
    assert set(attack["normal_search"]) == NORMAL and attack["normal_search"]["bot_replies"] >= 0
    normal, memory = attack["normal"], attack["memory"]
    assert normal["moves"] > 0
    assert 0 < normal["ack_p50_ms"] <= normal["ack_p99_ms"] <= normal["ack_max_ms"]
    assert normal["bot_p50_s"] <= normal["bot_p99_s"] <= normal["bot_max_s"]
    # The server and at least one bot worker were watched, and their memory is plausible.
    assert memory["processes"] >= 2 and 30 < memory["server_hwm_mb"] <= memory["peak_rss_mb"] < 2048
    assert attack["server_alive"] and not attack["server_exceeded"]
    assert attack["seconds"] >= figures["hold_s"]
    # Every bad option was answered.
    bad = attack["attack"]
    assert sum(bad["statuses"].values()) == bad["requests"] == len(bad_option_bodies(_games()))


def test_abuse_bench_refuses_an_unknown_attack() -> None:
    done = bench("--attack", "nope", timeout=60)
    assert done.returncode == 2 and "unknown attack" in done.stderr and "Traceback" not in done.stderr
    assert "big_layout" in done.stderr


def test_every_hole_of_the_issue_has_an_attack() -> None:
    holes = {int(what.rsplit("(hole ", 1)[1].rstrip(")")) for _, what in ATTACKS.values() if "(hole " in what}
    assert holes == set(range(1, 12))


def test_every_many_address_hole_of_issue_24_has_an_attack() -> None:
    whats = [what for _, what in ATTACKS.values() if "(issue 24, item" in what]
    items = {int(what.rsplit("item ", 1)[1].rstrip(")")) for what in whats}
    assert items == {1, 2, 3, 4, 5, 7, 8}


def test_the_bad_options_cover_the_issues_five() -> None:
    labels = [label for label, _ in bad_option_bodies(_games())]
    for wanted in (
        "arctic.first_player=Infinity",
        "arctic.first_player=1e400",
        "arktia.max_turns=Infinity",
        "arktia.first_player=Infinity",
        "arktia.layout=7",
        "arktia.layout=true",
        'arktia.layout="[[[[[[[[[[',
        "arctic greedy:worlds=¹",
    ):
        assert any(label.startswith(wanted) for label in labels), (wanted, labels)
    for _, body in bad_option_bodies(_games()):
        json.loads(body)  # Python reads Infinity and 1e400 (as inf): the text is JSON a server may parse


def test_the_big_board_is_connected_and_has_distinct_cells() -> None:
    cells = hex_cells(5_200)
    assert len({tuple(c) for c in cells}) == 5_200
    seen = {tuple(cells[0])}
    neighbours = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))
    for q, r in cells[1:]:
        assert any((q + dq, r + dr) in seen for dq, dr in neighbours)
        seen.add((q, r))


def test_names_that_imitate_the_ui_are_not_clean() -> None:
    assert name_is_clean("Ann") and name_is_clean("Zoë")
    for name in ("\u202eevil\u202c", "a\x00b", "P2 (you)", "Ann\u200b"):
        assert not name_is_clean(name)


def _games() -> list[dict[str, Any]]:
    """The games as ``GET /api/games`` lists them (what the attacks read)."""
    return [game_info(e) for e in entries()]


def test_the_bare_client_finds_every_ping_however_the_bytes_are_cut() -> None:
    """The crowd's spectators read megabytes without parsing them, but must answer the server's pings (a
    client that does not is dropped after the ping timeout, which would hide what the attack costs)."""
    rng = random.Random(7)
    frames, pings = b"", []
    for k in range(300):
        if k % 7 == 3:
            payload = bytes([k % 256]) * rng.randint(0, 125)
            frames += server_frame(0x9, payload)
            pings.append(payload)
        else:
            frames += server_frame(0x1, b"x" * rng.choice([0, 5, 125, 126, 300, 65535, 65536, 70000]))
    for _ in range(20):
        skipper, found, at = _FrameSkipper(), [], 0
        while at < len(frames):
            step = rng.randint(1, 4000)
            found += skipper.feed(frames[at : at + step])
            at += step
        assert found == pings


def server_frame(opcode: int, payload: bytes) -> bytes:
    """A final, unmasked frame as a server sends it."""
    n = len(payload)
    if n < 126:
        head = struct.pack("!BB", 0x80 | opcode, n)
    elif n < 1 << 16:
        head = struct.pack("!BBH", 0x80 | opcode, 126, n)
    else:
        head = struct.pack("!BBQ", 0x80 | opcode, 127, n)
    return head + payload

"""``floe bench abuse``: the service a normal player gets while each attack of the hostile-client
report runs against the same server.

For each attack a fresh ``floe serve`` is started with its default settings (so one attack's leftovers,
such as bots still thinking, never weigh on the next, and each process's high-water mark is that attack's),
a normal player (``bench_normal``: a person playing a ``random`` bot at a human pace, in its own process)
starts playing, and once it has made a move the attack runs (``bench_attacks``). The attack's window lasts
as long as its traffic, and at least ``Sizes.hold`` seconds. Reported per attack: the normal table's
move→ack p50/p99 and the bot's reply p50/p99/max in that window, what the attack's requests were answered
(status codes; refused or limited), the server's peak memory (the sampled VmRSS of the server and its
workers, summed, and each one's VmHWM) and CPU, and whether the server survived. A watch kills the server
if it passes 2 GB (``server_exceeded``), so that no attack takes the machine down.

A second normal player plays a search bot (``SEARCH_BOT``) beside the first (issue 24).

Targets (issues 11 and 24): move→ack p99 ≤ 100 ms at both normal tables, the random bot's replies p99 ≤ 2 s,
the search bot's every reply within its budget + 2 s, no lobby lockout (an attack that fills the lobby says
whether a new client could still create a table), peak memory ≤ 1 GB, under every attack.
"""

from __future__ import annotations

import asyncio
import os
import time
from typing import Any

import httpx

from floe.bench.attacks import ATTACKS, QUICK, Arena, Sizes
from floe.bench.normal import NormalPlayer
from floe.bench.probe import MB, ProcWatch, Served, served

TARGETS = {"ack_p99_ms": 100.0, "bot_p99_s": 2.0, "peak_rss_mb": 1024.0}
# The second normal player's search bot, and how long its reply may take: its budget and 2 s (issue 24).
SEARCH_BOT, SEARCH_BUDGET_S = "ismcts:ms=1000", 1.0


async def _attack(name: str, server: Served, watch: ProcWatch, sizes: Sizes) -> dict[str, Any]:
    limits = httpx.Limits(max_connections=64, max_keepalive_connections=32)
    async with httpx.AsyncClient(base_url=server.base, timeout=120, limits=limits) as http:
        games = (await http.get("/api/games")).json()
        arena = Arena(server, watch, sizes, http, games)
        started = time.monotonic()
        outcome = await ATTACKS[name][0](arena)
        # The window lasts at least ``hold`` seconds: an attack's after-effects count too.
        await arena.hold(sizes.hold - (time.monotonic() - started))
    return outcome


def run_one(name: str, sizes: Sizes, think: float, seed: int, limit_mb: float) -> dict[str, Any]:
    """One attack against a fresh server; its figures."""
    result: dict[str, Any] = {"name": name, "what": ATTACKS[name][1]}
    with served() as server, ProcWatch(server, limit=int(limit_mb * MB)) as watch:
        player = NormalPlayer(server.base, think, seed)
        searcher = NormalPlayer(server.base, think, seed + 1, SEARCH_BOT)
        try:
            if not player.wait_ready(60) or not searcher.wait_ready(60):
                raise RuntimeError("a normal player could not make a first move")
            watch.start_window()
            t0 = time.monotonic()
            outcome = asyncio.run(_attack(name, server, watch, sizes))
            t1 = time.monotonic()
            result["seconds"] = round(t1 - t0, 1)
            result["normal"] = player.window(t0, t1)
            result["normal_search"] = searcher.window(t0, t1)
            killed_at = outcome.pop("killed_at", None)
            if killed_at is not None:  # after the kill: does the bot go on?
                result["normal_after_kill"] = player.window(killed_at + 1.0, t1)
            result["attack"] = outcome
            result["memory"] = watch.stop_window()
            result["server_exceeded"] = watch.exceeded.is_set()
            result["server_alive"] = server.alive()
            log = server.log_since(0)
            result["server_log"] = {"lines": log.count("\n"), "tracebacks": log.count("Traceback")}
            result["load_avg"] = round(os.getloadavg()[0], 2)  # other work on the machine competes too
        finally:
            player.stop()
            searcher.stop()
    normal, search = result["normal"], result["normal_search"]
    acks = [n["ack_p99_ms"] for n in (normal, search) if n["moves"]]  # the searcher may not move in a window
    result["meets"] = {
        "ack_p99": normal["moves"] > 0 and max(acks) <= TARGETS["ack_p99_ms"],
        "bot_p99": normal["bot_replies"] > 0 and normal["bot_p99_s"] <= TARGETS["bot_p99_s"],
        "search_bot": search["bot_replies"] > 0 and search["bot_max_s"] <= SEARCH_BUDGET_S + 2.0,
        "no_lockout": not result["attack"].get("lockout", False),
        "memory": result["memory"]["peak_rss_mb"] <= TARGETS["peak_rss_mb"] and not result["server_exceeded"],
    }
    return result


def run_abuse_bench(
    attacks: list[str] | None = None,
    *,
    quick: bool = False,
    think_ms: float = 500.0,
    hold: float | None = None,
    seed: int = 0,
    limit_mb: float = 2048.0,
) -> dict[str, Any]:
    """Run ``attacks`` (default: all, in the issue's order), each against its own server; the figures."""
    names = attacks or list(ATTACKS)
    unknown = [n for n in names if n not in ATTACKS]
    if unknown:
        raise ValueError(f"unknown attack {unknown[0]!r}; attacks: {', '.join(ATTACKS)}")
    sizes = QUICK if quick else Sizes()
    if hold is not None:
        sizes = Sizes(**{**sizes.__dict__, "hold": hold})
    results = [run_one(name, sizes, think_ms / 1000, seed, limit_mb) for name in names]
    return {
        "quick": quick,
        "think_ms": think_ms,
        "hold_s": sizes.hold,
        "memory_limit_mb": limit_mb,
        "targets": TARGETS,
        "attacks": results,
        "all_met": all(all(r["meets"].values()) for r in results),
    }


def text_report(figures: dict[str, Any]) -> str:
    """The figures as a table for people."""
    lines = [
        f"targets: move→ack p99 ≤ {TARGETS['ack_p99_ms']:.0f} ms, "
        f"bot reply p99 ≤ {TARGETS['bot_p99_s']:.0f} s, peak memory ≤ {TARGETS['peak_rss_mb']:.0f} MB "
        f"(think {figures['think_ms']:.0f} ms, hold {figures['hold_s']:.0f} s)",
        f"{'attack':<18} {'moves':>5} {'ack p50':>8} {'ack p99':>8} {'bot p50':>8} {'bot p99':>8} "
        f"{'bot max':>8} {'search max':>10} {'peak MB':>8}  answers",
    ]
    for r in figures["attacks"]:
        n, m, a = r["normal"], r["memory"], r["attack"]
        search = r["normal_search"]
        marks = "".join("" if ok else "!" for ok in r["meets"].values())
        answers = a.get("statuses") or a.get("close_codes") or a.get("status") or ""
        extra = " SERVER EXCEEDED" if r["server_exceeded"] else ("" if r["server_alive"] else " SERVER DIED")
        lines.append(
            f"{r['name']:<18} {n['moves']:>5} {n['ack_p50_ms']:>6.1f}ms {n['ack_p99_ms']:>6.1f}ms "
            f"{n['bot_p50_s']:>7.2f}s {n['bot_p99_s']:>7.2f}s {n['bot_max_s']:>7.2f}s "
            f"{search['bot_max_s']:>9.2f}s {m['peak_rss_mb']:>8.0f}  {answers}{extra} {marks}"
        )
    return "\n".join(lines)

"""Bot compute is shared fairly on a real ``floe serve`` (issue 11, item 3): tables of long searches never
hold up the quick bots of other tables, and one client's searches never take every worker. Scaled down from
the issue's attack (four and ten tables of ``ismcts:ms=10000``): the attacker's searches are given an hour a
decision, so none ends while the test looks, and the test checks what happens before any of them does (an
ordering, not a race against their budget). That the searching tables take turns on their worker is
tested on the lanes themselves (``test_bot_lanes.py``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from .botwatch import Watch
from .serverproc import ServerProcess, running_server

HOUR = "ismcts:ms=3600000"  # the longest budget a bot may have: only a hang could outlast it


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    # Search rounds off: with them (issue 24) an hour's search is cut to a share of a 10-second round, and the
    # first client's tables would move every ~10 s, which this test's "none of them ended" must not race.
    extra = ["--bot-workers", "2", "--bot-time-cap", "3600", "--set", "bot_max_ms=3600000"]
    extra += ["--set", "bot_search_round=0"]
    with running_server(tmp_path / "data", extra=extra) as srv:
        yield srv


def bots(*specs: str) -> list[dict[str, str]]:
    return [{"kind": "bot", "bot": spec} for spec in specs]


def test_quick_bots_keep_replying_while_searches_fill_the_workers(server: ServerProcess) -> None:
    searching = []
    for _ in range(3):  # the attack: every search worker this client may use busy, with more waiting
        created = server.create(bots(HOUR, HOUR))
        assert created["notices"] == []
        searching.append(created["table"]["id"])
    # Another client's search table, with an iteration budget (it ends whatever the machine's speed): it gets
    # the worker the first client may not take.
    with httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.2"), timeout=30) as other:
        answer = other.post(f"{server.url}/api/tables", json={"seats": bots("ismcts:it=30", "random")})
        assert answer.status_code == 201, answer.text
        neighbour = answer.json()["table"]["id"]
    # The victims: bots that take microseconds (random, in the server process) and milliseconds (Arktia's
    # greedy, in the fast lane's worker).
    quick = server.create(bots("random", "random"))["table"]["id"]
    fast = server.create(bots("greedy", "greedy"), game="arktia")["table"]["id"]
    watch = Watch(server.url, [quick, fast, neighbour, *searching])
    # Before the lanes, a random bot waited behind the searches (10-20 s a reply in the issue; here an hour).
    watch.until(
        # A table may end its whole game before the watch starts (the neighbour's 30-iteration search on a
        # quiet machine): finished counts as moved.
        lambda w: (
            all(w.moves(t) >= 10 or t in w.finished for t in (quick, fast))
            and (w.moves(neighbour) >= 2 or neighbour in w.finished)
        ),
        "the quick bots and the other client's search moving",
    )
    # ... all of it while not one of the first client's searches had ended.
    assert [watch.moves(t) for t in searching] == [0, 0, 0], watch.changes

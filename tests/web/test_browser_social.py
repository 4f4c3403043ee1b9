"""Issue 13, items 9–11 in Chromium: chat lines are text (a ``<script>`` line is shown, never run), a
spectator's line is marked; the Undo button shows when the server allows an undo and takes the move back;
the replay shows the chat; "Play again" on the score screen gives a link to the new table, and the lobby
lists the browser's recent tables.

The person's moves are sent over HTTP (the clicking of boards is the other browser tests' business); what
is checked is what the pages show and do.
"""

from __future__ import annotations

import json
import os
import random
import urllib.request
from typing import Any

import pytest

from .webkit import get_json

if not os.environ.get("FLOE_REQUIRE_BROWSER"):
    pytest.importorskip("playwright.sync_api")

DESKTOP = {"width": 1366, "height": 900}
HAS_LOG_LINE = "t => [...document.querySelectorAll('[data-testid=log] li')].some(li => li.textContent === t)"
SCRIPT = "<script>window.pwned = 1</script><b>bold</b> & <img src=x onerror=window.pwned=2>"


def post_json(url: str, body: Any, token: str | None = None) -> Any:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST")
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.load(answer)


def _create(base: str, seats: list[dict[str, Any]], **extra: Any) -> tuple[str, str]:
    made = post_json(f"{base}/api/tables", {"seats": seats, **extra})
    return made["table"]["id"], made["seats"][0]["token"]


def _until_undoable(base: str, table: str, token: str, rng: random.Random) -> dict[str, Any]:
    """Play random moves for seat 0 until it may undo; the state then."""
    for _ in range(400):
        state = get_json(f"{base}/api/tables/{table}/state", token)
        if state["can_undo"]:
            return state
        assert state["status"] != "finished"
        if state["to_move"] == 0 and state["legal"]:
            move = {"action": rng.choice(state["legal"])["id"], "version": state["version"]}
            post_json(f"{base}/api/tables/{table}/moves", move, token)
    raise AssertionError("no undoable move came up")


def test_chat_undo_and_replay_in_chromium(browser: Any, server: Any) -> None:
    base = server.base
    table, token = _create(
        base, [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "random"}], game="arctic"
    )
    errors: list[str] = []
    ann = browser.new_page(viewport=DESKTOP)
    ann.on("pageerror", lambda exc: errors.append(str(exc)))
    ann.set_default_timeout(60_000)
    ann.goto(f"{base}/table/{table}#seat={token}")
    ann.wait_for_selector("[data-testid=chat-input]")
    watcher = browser.new_context(viewport=DESKTOP).new_page()
    watcher.on("pageerror", lambda exc: errors.append(str(exc)))
    watcher.set_default_timeout(60_000)
    watcher.goto(f"{base}/table/{table}")
    watcher.wait_for_selector("[data-testid=chat-input]")
    assert ann.locator("[data-testid=chat-name]").is_hidden()  # a seat writes under its seat's name

    ann.fill("[data-testid=chat-input]", SCRIPT)
    ann.click("[data-testid=chat-send]")
    watcher.wait_for_selector("[data-testid=chat-line]")
    line = watcher.locator("[data-testid=chat-line]").first
    assert line.locator(".chat-text").text_content() == SCRIPT
    assert line.locator(".chat-who").text_content() == "P1 Ann: "
    for page in (ann, watcher):
        assert page.locator("[data-testid=chat-lines] script, [data-testid=chat-lines] b").count() == 0
        assert page.locator("[data-testid=chat-lines] img").count() == 0
        assert page.evaluate("() => window.pwned") is None
    watcher.fill("[data-testid=chat-name]", "Zoe")
    watcher.fill("[data-testid=chat-input]", "hi from the rail")
    watcher.click("[data-testid=chat-send]")
    ann.wait_for_selector(".chat-spectator")
    assert ann.locator(".chat-spectator .chat-who").text_content() == "Zoe (spectator): "
    assert int(ann.get_attribute("[data-testid=chat-input]", "maxlength") or 0) == 300

    # Undo: the button shows while the server allows it, and takes the move back.
    state = _until_undoable(base, table, token, random.Random(9))
    button = ann.locator("[data-testid=undo]")
    button.wait_for(state="visible")
    assert watcher.locator("[data-testid=undo]").is_hidden()
    button.click()
    ann.wait_for_function(HAS_LOG_LINE, arg="You take back the last move.")
    after = get_json(f"{base}/api/tables/{table}/state", token)
    assert after["version"] == state["version"] + 1
    watcher.wait_for_function(HAS_LOG_LINE, arg="P1 takes back the last move.")

    # The replay shows the chat, as text.
    replay = browser.new_page(viewport=DESKTOP)
    replay.goto(f"{base}/replay/{table}#seat={token}")
    # The frames are loaded (the buttons are there before them).
    replay.wait_for_function("() => document.querySelector('[data-testid=frame-info]').textContent")
    replay.click("[data-testid=replay-last]")
    replay.wait_for_selector("[data-testid=chat] [data-testid=chat-line]")
    texts = replay.locator("[data-testid=chat] .chat-text").all_text_contents()
    assert texts == [SCRIPT, "hi from the rail"]
    assert replay.evaluate("() => window.pwned") is None
    assert not errors, errors


def test_play_again_and_recent_tables_in_chromium(browser: Any, server: Any) -> None:
    base = server.base
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.set_default_timeout(60_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    # The lobby's key goes with the creation (the browser's own, from its storage).
    page.goto(f"{base}/")
    page.wait_for_selector("[data-testid=create-table]")
    key = page.wait_for_function("() => localStorage.getItem('floe-client-key')").json_value()
    seats = [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "random"}]
    table, token = _create(base, seats, game="arktia", options={"max_turns": 20}, key=key)
    rng = random.Random(4)
    while True:
        state = get_json(f"{base}/api/tables/{table}/state", token)
        if state["status"] == "finished":
            break
        if state["to_move"] == 0 and state["legal"]:
            move = {"action": rng.choice(state["legal"])["id"], "version": state["version"]}
            post_json(f"{base}/api/tables/{table}/moves", move, token)
    page.goto(f"{base}/table/{table}#seat={token}")
    page.wait_for_selector("[data-testid=score-screen]")
    page.click("[data-testid=rematch]")
    link = page.locator("[data-testid=rematch-open]")
    link.wait_for(state="visible")
    href = link.get_attribute("href") or ""
    new = href.split("/table/")[1].split("#")[0]
    assert new != table and "#seat=" in href
    link.click()
    page.wait_for_function("id => location.pathname === `/table/${id}`", arg=new)
    page.wait_for_selector("[data-testid=board]")
    assert get_json(f"{base}/api/tables/{new}")["status"] == "playing"  # the only person opened the link

    page.goto(f"{base}/")
    page.wait_for_selector("[data-testid=recent-row]")
    rows = page.locator("[data-testid=recent-row]")
    assert [rows.nth(k).get_attribute("data-table") for k in range(rows.count())] == [new, table]
    assert rows.first.locator("[data-testid=recent-open]").get_attribute("href") == href
    # Back at the finished table, the one who asked is not asked to accept their own rematch.
    page.goto(f"{base}/table/{table}#seat={token}")
    words = page.locator("[data-testid=rematch-words]")
    words.wait_for(state="visible")
    # The offer arrives over the socket after the page is drawn ("… asks for a rematch" before the fix).
    page.wait_for_function(
        "() => document.querySelector('[data-testid=rematch-words]').textContent.includes('rematch')"
    )
    assert words.inner_text() == "You asked for a rematch with the same seats; the others are invited."
    assert page.inner_text("[data-testid=rematch]") == "Open your seat at the new table"
    assert not errors, errors

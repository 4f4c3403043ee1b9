"""Keyboard only, every game (issue 29, items 1 and 2): for each registered game with a board module, a seeded
table of a person (seat 0) and bots is played for one whole turn of the person's decisions with the keyboard
alone (Tab, Shift-Tab, Enter, Space; no mouse event, no script click), and after every decision the focus is
on an element (not the page) and the new prompt was announced (the polite live region's text changed).
Where the first step of a two-step move (a piece or card to move somewhere) is a Tab stop, that move is
made (issue 29, item 6): after the first step the focus must be on a destination, Escape must end the
selection with the focus back on the chosen object, and End, Home and an arrow key must move the focus
among the destinations of its group.

A real `floe serve` seeded by FLOE_TEST_SEED (conftest.py), one page per game, pace 0 (states drawn as they
come). The keys are chosen by what has the focus, never by a game's name: an enabled choice button or a
highlighted board object is pressed; anything else is passed with Tab; once an object is selected, only
what completes a move (a destination, a choice button) is pressed.
"""

from __future__ import annotations

import json
import os
import random
import urllib.request
from typing import Any

import pytest

from .tabledriver import READY, new_page
from .webkit import get_json

if not os.environ.get("FLOE_REQUIRE_BROWSER"):
    pytest.importorskip("playwright.sync_api")

DESKTOP = {"width": 1280, "height": 900}
AVOID = {"stop"}  # a button that would end the person's game at once is pressed only if nothing else is
MAX_DECISIONS = 30  # a turn longer than this is a page that does not move on
MAX_KEYS = 400  # Tab presses to reach something to press: bounds a page that never offers one

# What the focus is on, as the driver sees it: "choice" (an enabled choice button), "source"/"play"/"dest" (a
# highlighted board object and what a press does), "dialog" (a confirmation's button), or "other".
FOCUS = """(avoid) => {
  const el = document.activeElement;
  if (!el || el === document.body) return { kind: "body" };
  if (el.closest("dialog[open]")) return { kind: "dialog", testid: el.dataset.testid || "" };
  if (el.matches("[data-testid=choice]") && !el.disabled) {
    return { kind: avoid.includes(el.dataset.verb) ? "avoid" : "choice", what: el.textContent.trim() };
  }
  if (el.dataset.legal) return { kind: el.dataset.legal, what: el.dataset.obj || "" };
  return { kind: "other", what: el.tagName + (el.dataset.testid ? "#" + el.dataset.testid : "") };
}"""

# Counts the live region's changes from now on (a screen reader reads each change).
WATCH = """() => {
  const region = document.querySelector('[data-testid=status] [aria-live=polite]');
  window.__said = 0;
  if (!region) return false;
  new MutationObserver(() => { window.__said += 1; })
    .observe(region, { childList: true, characterData: true, subtree: true });
  return true;
}"""

# The highlighted objects of the focused one's group (choices.js: the same SVG board, else the same parent),
# of a kind; and whether a first step of a two-step move (a "source") is a Tab stop now.
GROUP = """(kind) => {
  const el = document.activeElement;
  const home = el.closest("svg") || el.parentElement;
  return [...home.querySelectorAll(`[data-legal=${kind}]`)]
    .filter((x) => (x.closest("svg") || x.parentElement) === home).length;
}"""
SOURCE_STOP = "() => !!document.querySelector('[data-legal=source][tabindex=\"0\"]')"

SAID = """() => {
  const region = document.querySelector('[data-testid=status] [aria-live=polite]');
  return { count: window.__said, text: region ? region.textContent.trim() : null };
}"""


def _games(base: str) -> list[dict[str, Any]]:
    return [g for g in get_json(f"{base}/api/games") if g.get("board")]


def _table(base: str, game: dict[str, Any]) -> str:
    """A table of a person in seat 0 and bots; the person's seat link."""
    bot = "random" if "random" in game["bot_names"] else game["bots"][0]
    count = max(2, game["min_players"])
    seats = [{"kind": "person", "name": "Ann"}] + [{"kind": "bot", "bot": bot}] * (count - 1)
    body = json.dumps({"game": game["name"], "seats": seats}).encode()
    request = urllib.request.Request(
        f"{base}/api/tables", data=body, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=60) as answer:
        return f"{base}{json.load(answer)['seats'][0]['link']}"


def _my_turn(page: Any) -> None:
    """Wait until seat 0 is to move and its choices are drawn (or the game is over)."""
    page.wait_for_function(f"() => document.body.dataset.toMove === '0' && ({READY})()")


def _two_step(page: Any) -> list[str]:
    """Just after a first step pressed on the board: the focus must be on a destination, and End, Home and
    the arrow keys must move it among the group's destinations. Returns the problems found."""
    focus = page.evaluate(FOCUS, sorted(AVOID))
    if focus["kind"] != "dest":
        return [f"after the first step the focus is on {focus}, not on a destination"]
    problems = []
    # Escape ends the selection and puts the focus back on the object chosen; pressed again, it selects
    # it again and the focus is back on a destination.
    selected = page.evaluate("() => document.querySelector('[data-legal].selected').dataset.obj")
    page.keyboard.press("Escape")
    back = page.evaluate(FOCUS, sorted(AVOID))
    if back["what"] != selected or page.evaluate("() => !!document.querySelector('.selected')"):
        problems.append(f"Escape did not end the selection with the focus on {selected}: {back}")
    page.keyboard.press("Enter")
    if page.evaluate(FOCUS, sorted(AVOID))["kind"] != "dest":
        return [*problems, "the first step pressed again did not put the focus on a destination"]
    if page.evaluate(GROUP, "dest") >= 2:
        first = page.evaluate("() => document.activeElement.dataset.obj")
        page.keyboard.press("End")
        after = page.evaluate(FOCUS, sorted(AVOID))
        if after["kind"] != "dest" or after["what"] == first:
            problems.append(f"End did not move the focus to another destination of the group: {after}")
        page.keyboard.press("Home")
        if page.evaluate(FOCUS, sorted(AVOID))["kind"] != "dest":
            problems.append("Home did not move the focus to a destination of the group")
        # From the first, some arrow key goes on to another destination (the nearest one that way).
        home = page.evaluate("() => document.activeElement.dataset.obj")
        for key in ("ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp"):
            page.keyboard.press(key)
            now = page.evaluate(FOCUS, sorted(AVOID))
            if now["what"] != home:
                if now["kind"] != "dest":
                    problems.append(f"{key} moved the focus off the destinations: {now}")
                break
        else:
            problems.append("no arrow key moved the focus to another destination")
    return problems


def _decide(
    page: Any, rng: random.Random, step: int, two_step: list[str] | None = None
) -> tuple[list[str], int]:
    """Make one decision with the keyboard from where the focus is; returns the keys' story and the live
    region's count of changes just before the key that decided. With `two_step` (a list), a two-step move
    is made if its first step is a Tab stop, and what `_two_step` finds is added to the list."""
    story: list[str] = []
    said = 0
    selecting = False
    # A two-step move is looked for: anything else the Tab passes until the first step's object.
    seek = two_step is not None and page.evaluate(SOURCE_STOP)
    for _ in range(MAX_KEYS):
        focus = page.evaluate(FOCUS, sorted(AVOID))
        kind = focus["kind"]
        if seek and kind in ("choice", "play"):
            kind = "other"
        if kind == "dialog":  # a costly choice asks first: Tab from "No" to "Yes", then Enter
            key = "Enter" if focus["testid"] == "confirm-ok" else "Tab"
        elif kind in ("choice", "play", "dest") or (kind == "source" and not selecting):
            # Enter and Space both press (a button, a highlighted object): the two alternate.
            key = "Enter" if (step + len(story)) % 2 == 0 else " "
        else:
            # Tab on; now and then back a stop (Shift-Tab), which the next Tab undoes.
            key = "Shift+Tab" if story and story[-1] != "Shift+Tab" and rng.random() < 0.1 else "Tab"
        version = page.evaluate("() => document.body.dataset.version")
        if key in ("Enter", " ") and kind != "source":
            said = page.evaluate(SAID)["count"] or 0
        page.keyboard.press(key)
        story.append(key)
        if key in ("Enter", " ") and kind != "dialog":
            selecting = kind == "source"
            if kind == "source":
                if seek and two_step is not None:
                    seek = False
                    two_step.append("")  # one made; problems follow it
                    two_step.extend(_two_step(page))
                continue
            # A decision (or a question first): the version moves on, or a dialog opens.
            page.wait_for_function(
                "(v) => document.body.dataset.version !== v || !!document.querySelector('dialog[open]')",
                arg=version,
            )
            if page.evaluate("() => !!document.querySelector('dialog[open]')"):
                continue
            return story, said
        if kind == "dialog" and key == "Enter":
            page.wait_for_function("(v) => document.body.dataset.version !== v", arg=version)
            return story, said
    raise AssertionError(f"nothing to press after {MAX_KEYS} keys: {story[-10:]}")


def test_a_whole_turn_with_the_keyboard_alone(browser: Any, server: Any) -> None:
    games = _games(server.base)
    assert games, "no game with a board module"
    page = new_page(browser, DESKTOP)
    page.set_default_timeout(60_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    problems: list[str] = []
    two_steps: list[str] = []  # the games where a two-step move was made
    # Who was to move in each state the server sent (the page draws a burst of states once, so its own
    # attributes may skip the bots' turns): the person's turn is over once another seat was to move.
    movers: list[Any] = []

    def on_socket(ws: Any) -> None:
        def on_frame(payload: str | bytes) -> None:
            message = json.loads(payload)
            if isinstance(message, dict) and message.get("type") == "state":
                movers.append(message.get("to_move"))

        ws.on("framereceived", on_frame)

    page.on("websocket", on_socket)
    try:
        for game in games:
            name = game["name"]
            rng = random.Random(f"keyboard-{name}")
            page.goto(_table(server.base, game))
            _my_turn(page)
            if not page.evaluate(WATCH):
                problems.append(f"{name}: no polite live region in the prompt")
            decisions = 0
            two_step: list[str] = []  # "" once a two-step move was made, then what went wrong in it
            while True:
                movers.clear()
                made = "" in two_step
                story, said = _decide(page, rng, decisions, None if made else two_step)
                if not made and "" in two_step:
                    two_steps.append(name)
                    problems.extend(f"{name} two-step move: {p}" for p in two_step if p)
                decisions += 1
                # The state after the move is drawn (and, if the turn went on, its choices are there).
                page.wait_for_function(
                    f"() => document.body.dataset.toMove !== '0' || !!document.querySelector("
                    f"'[data-testid=score-screen]') || ({READY})()"
                )
                focus = page.evaluate(FOCUS, sorted(AVOID))
                if focus["kind"] == "body":
                    problems.append(f"{name} decision {decisions}: the focus fell to the page ({story[-3:]})")
                now = page.evaluate(SAID)
                if now["count"] is None or now["count"] <= said or not now["text"]:
                    problems.append(f"{name} decision {decisions}: nothing announced ({now['text']!r})")
                over = page.evaluate("() => !!document.querySelector('[data-testid=score-screen]')")
                if (
                    over
                    or any(q not in (0, None) for q in movers)
                    or page.evaluate("() => document.body.dataset.toMove") != "0"
                ):
                    break
                if decisions >= MAX_DECISIONS:
                    problems.append(f"{name}: the person's turn did not end in {MAX_DECISIONS} decisions")
                    break
    finally:
        page.close()
    assert not problems, problems
    assert not errors, errors
    # Arktia's pieces and Arche's cards go somewhere in the first turn: some game must have had one.
    assert two_steps, "no game offered a two-step move in the person's first turn"


def test_the_replay_keeps_the_focus_and_announces_each_frame(browser: Any, server: Any) -> None:
    game = _games(server.base)[0]
    link = _table(server.base, game)
    page = new_page(browser, DESKTOP)
    page.set_default_timeout(60_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(link)
        _my_turn(page)
        _decide(page, random.Random("keyboard-replay"), 0)  # a frame after the start, at least
        page.goto(link.replace("/table/", "/replay/", 1))
        info = page.locator("[data-testid=frame-info]")
        page.wait_for_function(
            "() => document.getElementById('frame-info').textContent.startsWith('Frame 1 ')"
        )
        assert info.get_attribute("aria-live") == "polite"
        for _ in range(MAX_KEYS):  # Tab to "Last" (First and Prev are disabled on the first frame)
            if page.evaluate("() => document.activeElement.id") == "last":
                break
            page.keyboard.press("Tab")
        else:
            raise AssertionError("Tab never reached the replay's Last button")
        first = info.inner_text()
        page.keyboard.press("Enter")
        page.wait_for_function("(t) => document.getElementById('frame-info').textContent !== t", arg=first)
        # Last is now disabled: the focus went to Prev, which still works, not to the page.
        assert page.evaluate("() => document.activeElement.id") == "prev"
        assert page.evaluate("() => document.getElementById('last').disabled")
    finally:
        page.close()
    assert not errors, errors


# Zoom (issue 29, item 7): 200 % of a 1280 x 800 window is a 640 x 400 CSS viewport, 400 % a 320 x 200 one
# (the device scale factor only sharpens the pixels: the layout is the same).
ZOOM_200 = {"width": 640, "height": 400}
ZOOM_400 = {"width": 320, "height": 200}
MAX_COVER = 0.26  # of the window's height, the most the sticky prompt may cover ("about a quarter")

# What stays on screen while the page scrolls (sticky or fixed, and drawn), by test id or class.
STUCK = """() => [...document.querySelectorAll('body *')].filter((el) => {
  const pos = getComputedStyle(el).position;
  return (pos === 'sticky' || pos === 'fixed') && el.getClientRects().length > 0
    && !el.closest('dialog:not([open]), [hidden]');
}).map((el) => el.dataset.testid || el.className.baseVal || el.className || el.tagName)"""

# The share of the window's height the prompt covers once the page is scrolled down to the board's end (the
# prompt sticks within the main column: further down, the side panel's log and chat push it away).
COVER = """() => {
  const main = document.querySelector('.main-col').getBoundingClientRect();
  window.scrollTo(0, Math.max(0, main.bottom + scrollY - innerHeight));
  const r = document.querySelector('[data-testid=status]').getBoundingClientRect();
  return Math.max(0, Math.min(r.bottom, innerHeight) - Math.max(r.top, 0)) / innerHeight;
}"""


def test_zoomed_in_the_prompt_leaves_the_board_in_sight(browser: Any, server: Any) -> None:
    """At 200 % the sticky prompt covers at most about a quarter of the window and nothing else sticks under
    it; the full list of choices, opened, is not in a box of its own; at 400 % nothing sticks at all and the
    page does not scroll sideways. One sampled position per game: the person's first decision."""
    page = new_page(browser, ZOOM_200)
    page.set_default_timeout(60_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    problems: list[str] = []
    try:
        for game in _games(server.base):
            name = game["name"]
            page.set_viewport_size(ZOOM_200)
            page.goto(_table(server.base, game))
            _my_turn(page)
            stuck = page.evaluate(STUCK)
            if stuck != ["status"]:
                problems.append(f"{name} at 200 %: what sticks is {stuck}, not the prompt alone")
            cover = page.evaluate(COVER)
            if cover > MAX_COVER:
                problems.append(f"{name} at 200 %: the prompt covers {cover:.0%} of the window")
            summary = page.locator(".all-choices > summary")
            if summary.count():
                summary.click()
                clipped = page.evaluate(
                    "() => { const c = document.getElementById('choices');"
                    " return c.scrollHeight > c.clientHeight + 1; }"
                )
                if clipped:
                    problems.append(f"{name} at 200 %: the full list of choices is in a scrolled box")
                summary.click()
            page.set_viewport_size(ZOOM_400)
            page.wait_for_function("() => innerWidth === 320")
            stuck = page.evaluate(STUCK)
            if stuck:
                problems.append(f"{name} at 400 %: {stuck} still stick")
            wide = page.evaluate("() => document.documentElement.scrollWidth")
            if wide > ZOOM_400["width"] + 1:
                problems.append(f"{name} at 400 %: the page is {wide} px wide in a 320 px window")
    finally:
        page.close()
    assert not problems, problems
    assert not errors, errors

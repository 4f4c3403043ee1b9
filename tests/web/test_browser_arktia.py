"""Arktia in the browser: lobby (game selector, options, bots) → hex board → a whole game against the random
bot played by clicking → score screen → replay.

Every click is a real mouse click at a point where the browser's hit-testing finds the object (a piece, a
field, a supply piece, a button), so an object that is highlighted but covered by something else fails the
test. The person picks a random highlighted thing each time: a piece (or stack part) or a supply piece, then
one of the destinations that light up; a field to melt or a group to keep; now and then the stop button.
A turn limit from the lobby form keeps the game short. Screenshots go to tests/web/artifacts/.
"""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import pytest

from .tabledriver import new_page
from .webkit import get_json

# Without Playwright the test is skipped, unless CI asks for the browser test (FLOE_REQUIRE_BROWSER).
if not os.environ.get("FLOE_REQUIRE_BROWSER"):
    pytest.importorskip("playwright.sync_api")

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}

# Looks at the page before the score screen must be up: a game takes about a hundred clicks, so only a game
# that never ends reaches this (a count: each look waits on the page itself, however slow the machine).
GAME_LOOKS = 2000
MAX_TURNS = 60

# What can be clicked now, by kind; over when the score screen shows.
PROBE = """() => {
  const visible = (el) => !el.closest('details:not([open])') && el.getClientRects().length > 0;
  const all = (sel) => [...document.querySelectorAll(sel)].filter(visible);
  const toast = document.querySelector('[data-testid=toast]');
  const free = all('#choices > .choice-list [data-testid=choice]').filter((b) => !b.disabled);
  return {
    confirm: !!document.querySelector('[data-testid=confirm-dialog][open]'),
    over: !!document.querySelector('[data-testid=score-screen]'),
    toast: toast && !toast.hidden ? toast.textContent : null,
    dest: all('[data-legal=dest]').length,
    play: all('[data-legal=play]').length,
    source: all('[data-legal=source]').length,
    free: free.map((b) => b.dataset.verb),
  };
}"""

# Scroll the n-th object of a kind into view and find a point on it that the browser's hit-testing gives to
# it (or to something inside it); null if it is covered everywhere.
AIM = """([selector, n]) => {
  const visible = (el) => !el.closest('details:not([open])') && el.getClientRects().length > 0;
  const el = [...document.querySelectorAll(selector)].filter(visible)[n];
  if (!el) return null;
  el.scrollIntoView({ block: 'center', inline: 'center' });
  const box = el.getBoundingClientRect();
  for (const fy of [0.5, 0.35, 0.65, 0.2, 0.8]) {
    for (const fx of [0.5, 0.35, 0.65, 0.2, 0.8]) {
      const x = box.left + box.width * fx;
      const y = box.top + box.height * fy;
      const hit = document.elementFromPoint(x, y);
      if (hit && (hit === el || el.contains(hit))) {
        return { x, y, what: el.dataset.obj || el.dataset.verb || el.textContent.trim().slice(0, 40) };
      }
    }
  }
  return { x: null, y: null, what: el.dataset.obj || '?' };
}"""

READY = (
    f"() => {{ const s = ({PROBE})(); "
    "return s.over || s.confirm || s.dest + s.play + s.source + s.free.length > 0; }"
)

SELECTORS = {
    "dest": "[data-legal=dest]",
    "play": "[data-legal=play]",
    "source": "[data-legal=source]",
    "free": "#choices > .choice-list [data-testid=choice]:not([disabled])",
}


def _click(page: Any, kind: str, n: int) -> str:
    """A real mouse click on the n-th visible object of ``kind``; returns what was clicked."""
    aim = page.evaluate(AIM, [SELECTORS[kind], n])
    assert aim is not None, f"no {kind} object {n}"
    assert aim["x"] is not None, f"the highlighted {aim['what']} cannot be clicked: something covers it"
    page.mouse.click(aim["x"], aim["y"])
    return f"{kind} {aim['what']}"


# The highlighted pieces whose centre, clicked, lands on no highlighted piece of their field (on the field
# below a Torus's hole, or on a piece that cannot be chosen).
WHOLE_PIECE_TARGETS = """() => [...document.querySelectorAll('[data-testid=hexboard] .piece.legal')]
  .filter((piece) => {
    const box = piece.getBoundingClientRect();
    const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
    const got = hit && hit.closest('.piece.legal');
    return !got || got.dataset.obj.split(':')[1] !== piece.dataset.obj.split(':')[1];
  })
  .map((piece) => piece.dataset.obj)"""


def test_play_a_whole_arktia_game_in_the_browser(browser: Any, server: Any, artifacts: Path) -> None:
    base = server.base
    page = new_page(browser, DESKTOP)
    page_errors: list[str] = []
    page.on("pageerror", lambda exc: page_errors.append(str(exc)))
    page.set_default_timeout(60_000)

    # Lobby: choose Arktia; its options and bots replace Arctic's.
    page.goto(f"{base}/")
    page.wait_for_selector("[data-testid=seat-kind-1]")
    games = page.eval_on_selector_all("[data-testid=game] option", "os => os.map(o => o.value)")
    assert {"arctic", "arktia"} <= set(games)
    page.select_option("[data-testid=game]", "arktia")
    page.wait_for_selector("[data-testid=opt-layout]")
    assert page.locator("[data-testid=opt-preset]").count() == 0  # Arctic's fields are gone
    # The game's notice shows wherever a player sees the game: the lobby, the table, the replay.
    assert "placeholder board layouts" in page.inner_text("[data-testid=game-notice]")
    info = next(g for g in get_json(f"{base}/api/games") if g["name"] == "arktia")
    bot_options = page.eval_on_selector_all("[data-testid=seat-bot-1] option", "os => os.map(o => o.value)")
    assert "random" in bot_options and set(info["bots"]) <= set(bot_options)
    page.fill("[data-testid=seat-name-0]", "Ann")
    page.select_option("[data-testid=seat-kind-1]", "bot")
    page.select_option("[data-testid=seat-bot-1]", "random")
    # Fields from Arktia's option schema: a text option's suggestions as a select, a choice, a bool, and an
    # advanced whole number under "More rules".
    page.select_option("[data-testid=opt-layout]", "placeholder-18")
    page.select_option("[data-testid=opt-tie_break]", "fewer_lost")
    page.select_option("[data-testid=opt-bridge_melt_ends]", "false")
    page.click("[data-testid=more-rules-toggle]")
    page.fill("[data-testid=opt-max_turns]", str(MAX_TURNS))
    page.click("[data-testid=create-table]")
    page.wait_for_selector("[data-testid=open-seat]:visible")
    _screenshots(page, artifacts, "arktia-lobby")
    link = page.input_value("[data-testid=link-0]")
    table_id = link.split("/table/")[1].split("#")[0]
    token = link.split("#seat=")[1]
    summary = get_json(f"{base}/api/tables/{table_id}")
    assert summary["game"] == "arktia" and summary["options"]["max_turns"] == MAX_TURNS
    assert summary["options"]["layout"] == "placeholder-18"
    assert summary["options"]["tie_break"] == "fewer_lost" and summary["options"]["bridge_melt_ends"] is False
    assert summary["options"]["melt_start"] == "next_turn"  # not changed: the default
    page.click("[data-testid=open-seat]")
    page.wait_for_selector("[data-testid=hexboard]")
    assert "placeholder board layouts" in page.inner_text("[data-testid=game-notice]")
    assert page.inner_text("#table-title").startswith("Arktia")
    assert page.locator("[data-testid=hexboard] .cell").count() == 18

    rng = random.Random(20261122)
    clicks = 0
    history: list[str] = []
    refusals: list[str] = []
    kinds_played: set[str] = set()
    shot_selected = shot_board = False
    for look in range(GAME_LOOKS + 1):
        assert look < GAME_LOOKS, f"no score screen after {GAME_LOOKS} looks; last clicks {history}"
        page.wait_for_function(READY)
        probe = page.evaluate(PROBE)
        if probe["toast"]:
            refusals.append(f"{probe['toast']} (after {history[-1:]})")
        if probe["over"]:
            break
        if probe["confirm"]:
            # A choice that ends the person's game asks first (test_browser_help.py tests the question): go
            # back now and then, else confirm.
            page.click("[data-testid=confirm-cancel]" if rng.random() < 0.3 else "[data-testid=confirm-ok]")
            history = [*history[-5:], "confirm"]
            continue
        # Every highlighted piece is a target over its whole shape: its centre (a Torus's hole) too.
        missed = page.evaluate(WHOLE_PIECE_TARGETS)
        assert not missed, f"a click on the centre of {missed} misses it"
        if probe["dest"]:
            if not shot_selected and clicks >= 12:
                shot_selected = True
                _screenshots(page, artifacts, "arktia-table-selected")
            kind = "dest"
        elif probe["play"]:
            kind = "play"
        elif probe["source"] and not (probe["free"] and rng.random() < 0.02):
            kind = "source"
        else:
            kind = "free"
        count = probe[kind] if kind != "free" else len(probe["free"])
        if count == 0:
            continue
        clicked = _click(page, kind, rng.randrange(count))
        kinds_played.add(clicked.split()[1].split(":")[0] if kind != "free" else "button")
        clicks += 1
        history = [*history[-5:], clicked]
        if clicks == 30 and not shot_board:
            shot_board = True
            _screenshots(page, artifacts, "arktia-table-mid-game")
    assert clicks >= 10, f"the game ended after only {clicks} clicks"
    assert {"supply", "cell"} <= kinds_played, kinds_played

    # Score screen: the server's totals and ranking.
    state = get_json(f"{base}/api/tables/{table_id}/state")
    assert state["status"] == "finished"
    for seat in (0, 1):
        final = state["result"]["scores"][seat]
        assert int(page.inner_text(f"[data-testid=total-{seat}]")) == final
        # The board's points are the engine's standings, which the board only draws: at the end, the total.
        assert state["view"]["standings"]["seats"][seat]["total"] == final
        assert int(page.inner_text(f"[data-testid=points-{seat}]").split()[0]) == final
    ranking = page.locator("[data-testid=ranking] li")
    assert [int(ranking.nth(i).get_attribute("data-seat")) for i in range(2)] == state["result"]["ranking"]
    own = get_json(f"{base}/api/tables/{table_id}/state", token)
    assert page.locator("[data-testid=log] li").count() == own["log_total"]
    assert not refusals, f"the server refused moves: {refusals}"
    assert not page_errors, f"JavaScript errors: {page_errors}"
    _screenshots(page, artifacts, "arktia-score-screen", element="[data-testid=score-screen]")

    # Replay: the hex board per frame; the last frame shows the final scores.
    page.click("[data-testid=replay-link]")
    page.wait_for_selector("[data-testid=frame-info]:has-text('Frame 1 of')")
    page.wait_for_selector("[data-testid=hexboard]")
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("[data-testid=frame-info]:has-text('Frame 2 of')")
    page.click("[data-testid=replay-last]")
    page.wait_for_selector("[data-testid=score-screen]")
    assert "game over" in page.inner_text("[data-testid=frame-info]")
    assert page.locator("[data-testid=reveal]").is_hidden()  # perfect information: nothing to reveal
    assert "placeholder board layouts" in page.inner_text("[data-testid=game-notice]")
    _screenshots(page, artifacts, "arktia-replay")
    assert not page_errors, f"JavaScript errors: {page_errors}"
    page.close()


def _screenshots(page: Any, artifacts: Path, name: str, element: str | None = None) -> None:
    """Full-page shots at desktop and phone width (no sideways scrolling); the viewport is restored."""
    for label, size in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(size)
        if element:
            page.locator(element).scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / f"{name}-{label}.png"), full_page=True)
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= size["width"], f"{name} is {width}px wide at {size['width']}px"
    page.set_viewport_size(DESKTOP)

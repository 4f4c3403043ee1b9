"""The browser client end to end: lobby → table → a whole game played by clicking → score screen → replay.

A real `floe serve` process and Debian's headless Chromium (fixtures in conftest.py). The person seat
clicks a random clickable thing each time (a highlighted card, the deck, a player, or a choice button),
so every kind of decision the client offers gets exercised over a game. Screenshots go to
tests/web/artifacts/.
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
if os.environ.get("FLOE_REQUIRE_BROWSER"):
    from playwright.sync_api import expect
else:
    expect = pytest.importorskip("playwright.sync_api").expect

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
# Looks at the page before the score screen must be up: a game takes about a hundred clicks, so only a game
# that never ends reaches this (a count: each look waits on the page itself, however slow the machine).
GAME_LOOKS = 2000

# One look at the page per step, in one JS call so the answer is consistent: is the game over, is the
# bot's hidden information on the page, is a refusal shown, and what can be clicked now.
PROBE = """() => {
  const visible = (el) => !el.closest('details:not([open])') && el.getClientRects().length > 0;
  const toast = document.querySelector('[data-testid=toast]');
  const narrowed = !!document.querySelector('[data-testid=choice-back]');
  const choices = [...document.querySelectorAll('[data-testid=choice]')]
    .filter((b) => visible(b) && !b.disabled);
  const objects = narrowed ? [] : [...document.querySelectorAll('[data-legal]')].filter(visible);
  return {
    over: !!document.querySelector('[data-testid=score-screen]'),
    botTotem: !!document.querySelector('[data-testid=totem-1]'),
    botHand: !!document.querySelector('[data-testid=hand-1]'),
    toast: toast && !toast.hidden ? toast.textContent : null,
    clickable: choices.length + objects.length,
  };
}"""

# Click the n-th clickable thing (same order as PROBE counts them), returning what was clicked.
CLICK = """(n) => {
  const visible = (el) => !el.closest('details:not([open])') && el.getClientRects().length > 0;
  const narrowed = !!document.querySelector('[data-testid=choice-back]');
  const choices = [...document.querySelectorAll('[data-testid=choice]')]
    .filter((b) => visible(b) && !b.disabled);
  const objects = narrowed ? [] : [...document.querySelectorAll('[data-legal]')].filter(visible);
  const all = [...choices, ...objects];
  const el = all[n];
  if (!el) return null;
  const what = el.dataset.action ? 'choice ' + el.textContent : 'object ' + (el.dataset.obj || '?');
  el.click();
  return what;
}"""


def test_play_a_whole_game_in_the_browser(browser: Any, server: Any, artifacts: Path) -> None:
    base = server.base
    page = new_page(browser, DESKTOP)
    page_errors: list[str] = []
    page.on("pageerror", lambda exc: page_errors.append(str(exc)))
    page.set_default_timeout(60_000)

    # Lobby: a 2-player table, seat 0 a person, seat 1 the random bot.
    page.goto(f"{base}/")
    page.wait_for_selector("[data-testid=seat-kind-1]")
    page.fill("[data-testid=seat-name-0]", "Ann")
    page.select_option("[data-testid=seat-kind-1]", "bot")
    page.select_option("[data-testid=seat-bot-1]", "random")
    bot_options = page.eval_on_selector_all("[data-testid=seat-bot-1] option", "os => os.map(o => o.value)")
    for spec in ("random", "baseline", "greedy", "ismcts:ms=200", "ismcts:ms=1000"):
        assert spec in bot_options
    # The rules fields come from Arctic's option schema: one select per power card's side (a list option),
    # the advanced flags under "More rules". Only the fields changed are sent.
    assert "build runs of animals" in page.inner_text("[data-testid=game-about]")
    assert page.locator("[data-testid=game-notice]").is_hidden()  # Arctic has no notice
    sides = page.eval_on_selector_all("[data-testid=opt-power_sides-fox] option", "os => os.map(o => o.text)")
    assert sides[0] == "default (random)" and sides[3].startswith("fox-under")
    page.select_option("[data-testid=opt-power_sides-fox]", "2")
    page.select_option("[data-testid=opt-power_sides-bear]", "1")
    assert page.locator("[data-testid=opt-walrus_mode]").is_hidden()  # "More rules" starts collapsed
    page.click("[data-testid=more-rules-toggle]")
    page.select_option("[data-testid=opt-walrus_mode]", "double_move")
    page.select_option("[data-testid=seat-count]", "3")  # a field keeps its value when the seat count changes
    page.select_option("[data-testid=seat-count]", "2")
    assert page.input_value("[data-testid=opt-walrus_mode]") == "double_move"
    page.click("[data-testid=create-table]")
    page.wait_for_selector("[data-testid=open-seat]:visible")
    _screenshots(page, artifacts, "lobby")
    link = page.input_value("[data-testid=link-0]")
    assert "/table/" in link and "#seat=" in link
    assert page.locator("[data-testid^=link-]").count() == 1  # one invitation per person seat
    table_id = link.split("/table/")[1].split("#")[0]
    token = link.split("#seat=")[1]
    options = get_json(f"{base}/api/tables/{table_id}")["options"]
    assert options["power_sides"] == [2, 0, 0, 0, 0, 1] and options["walrus_mode"] == "double_move"
    assert options["end_trigger"] == "deck_emptied" and options["first_player"] is None  # the defaults
    page.click("[data-testid=open-seat]")
    page.wait_for_selector("[data-testid=landscape]")
    assert page.locator("[data-testid=landscape] .token").count() == 6
    assert page.locator("[data-testid=river] .card").count() == 6

    # Leave (the baseline bot plays for the seat) and take the seat back. The bots play a whole game in under
    # a second, so the seat is taken back the moment the page shows it away (in the page, not through
    # Playwright's polling), or the game could be over before the clicking starts.
    toggle = page.locator("[data-testid=leave-toggle]")
    expect(toggle).to_have_text("Leave (a bot plays for me)")
    toggle.click()
    page.click("[data-testid=confirm-ok]")  # leaving asks first (test_browser_help.py tests the question)
    page.wait_for_function(
        """() => {
          const toggle = document.querySelector('[data-testid=leave-toggle]');
          const away = document.querySelector("[data-testid=seats] li[data-seat='0'] .badge-away");
          if (toggle.textContent !== 'Take my seat back' || !away) return false;
          toggle.click();
          return true;
        }""",
        polling=5,
    )
    expect(toggle).to_have_text("Leave (a bot plays for me)")

    # Play: a random clickable thing each time, until the score screen shows.
    rng = random.Random(20240611)
    clicks = 0
    history: list[str] = []  # the last clicks, for the failure message
    refusals: list[str] = []
    mid_game_shot = False
    restarted = False
    for look in range(GAME_LOOKS + 1):
        assert look < GAME_LOOKS, f"no score screen after {GAME_LOOKS} looks; last clicks {history}"
        page.wait_for_function(f"() => {{ const s = ({PROBE})(); return s.over || s.clickable > 0; }}")
        probe = page.evaluate(PROBE)
        if probe["toast"]:
            refusals.append(f"{probe['toast']} (after {history[-1:]})")
        if probe["over"]:
            break
        # The bot's totem and hand are secret until the end.
        assert not probe["botTotem"], "the bot's totem is shown during the game"
        assert not probe["botHand"], "the bot's hand is shown during the game"
        if probe["clickable"] == 0:
            continue
        clicked = page.evaluate(CLICK, rng.randrange(probe["clickable"]))
        if clicked is None:
            continue
        clicks += 1
        history = [*history[-4:], clicked]
        if clicks == 10:
            mid_game_shot = True
            _screenshots(page, artifacts, "table-mid-game")
            # A server restart: the page notices, reconnects by itself (backoff, hello again) and the game
            # goes on from the stored log.
            connection = page.locator("[data-testid=connection]")
            server.stop()
            expect(connection).to_have_attribute("data-state", "closed")
            server.start()
            expect(connection).to_have_attribute("data-state", "open", timeout=60_000)
            restarted = True
    assert restarted and mid_game_shot, f"the game ended after only {clicks} clicks"

    # Score screen: both players' totals (as the server scored them) and the ranking.
    state = get_json(f"{base}/api/tables/{table_id}/state")
    assert state["status"] == "finished"
    scores = state["result"]["scores"]
    for seat in (0, 1):
        shown = page.inner_text(f"[data-testid=total-{seat}]")
        assert int(shown) == scores[seat]
    ranking = page.locator("[data-testid=ranking] li")
    assert ranking.count() == 2
    assert [int(ranking.nth(i).get_attribute("data-seat")) for i in range(2)] == state["result"]["ranking"]
    assert page.locator("[data-testid=totem-1]").count() == 1  # every totem is shown at the end
    # Every log line once, across the reconnection (the server resends the whole log on hello).
    own = get_json(f"{base}/api/tables/{table_id}/state", token)
    assert page.locator("[data-testid=log] li").count() == own["log_total"]
    assert not refusals, f"the server refused moves: {refusals}"
    assert not page_errors, f"JavaScript errors: {page_errors}"
    _screenshots(page, artifacts, "score-screen", element="[data-testid=score-screen]")

    # Replay: the last frame shows the final scores; "reveal" shows the bot's hand.
    page.click("[data-testid=replay-link]")
    page.wait_for_selector("[data-testid=frame-info]:has-text('Frame 1 of')")
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("[data-testid=frame-info]:has-text('Frame 2 of')")
    page.click("[data-testid=replay-last]")
    page.wait_for_selector("[data-testid=score-screen]")
    assert page.locator("[data-testid=hand-1]").count() == 0
    page.check("[data-testid=reveal]")
    page.wait_for_selector("[data-testid=hand-1]", state="attached")
    _screenshots(page, artifacts, "replay-revealed")
    assert not page_errors, f"JavaScript errors: {page_errors}"
    page.close()


def _screenshots(page: Any, artifacts: Path, name: str, element: str | None = None) -> None:
    """Full-page shots at desktop and phone width (no sideways scrolling); the viewport is restored."""
    for label, size in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(size)
        if element:
            page.locator(element).scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / f"{name}-{label}.png"), full_page=True)
        # Everything wraps: nothing is wider than the screen, phone included.
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= size["width"], f"{name} is {width}px wide at {size['width']}px"
    page.set_viewport_size(DESKTOP)

"""The pace of the table page: the server sends every state at once, the page shows the others' moves one
at a time, each the chosen pace after the one before, and marks what the last move changed; the person's
own move is shown at once; a click on the table or a key shows the newest state at once.

The page's WebSocket is wrapped (an init script) to record every `state` it receives, and a
MutationObserver records every state it draws (table.js writes the version on <body>), so the test
compares what came with what was shown, and when.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import urllib.request
from typing import Any

import pytest

from .tabledriver import READY, click, new_page, pick, probe

if not os.environ.get("FLOE_REQUIRE_BROWSER"):
    pytest.importorskip("playwright.sync_api")

DESKTOP = {"width": 1366, "height": 900}
PACE = 0.25  # seconds: short, so the test is quick; the lower bound on the gaps is what it checks

RECORD = """
window.__received = [];
window.__shown = [];
window.__atSkip = [];
const Native = window.WebSocket;
window.WebSocket = class extends Native {
  constructor(...args) {
    super(...args);
    this.addEventListener('message', (ev) => {
      try {
        const m = JSON.parse(ev.data);
        if (m.type === 'state') window.__received.push(m.version);
      } catch (e) {}
    });
  }
};
// What the page had received when a click or a key reached it (before the page's own listeners), and
// how many states it had drawn.
window.__clicks = [];
const atSkip = () => {
  window.__atSkip.push(window.__received[window.__received.length - 1]);
  window.__clicks.push(window.__shown.length);
};
window.addEventListener('click', atSkip, true);
window.addEventListener('keydown', atSkip, true);
document.addEventListener('DOMContentLoaded', () => {
  new MutationObserver(() => {
    const v = Number(document.body.dataset.version);
    const last = window.__shown[window.__shown.length - 1];
    if (last && last.v === v) return;
    window.__shown.push({
      v,
      toMove: document.body.dataset.toMove,
      t: performance.now(),
      marks: document.querySelectorAll('#board .last-move').length,
      slides: document.getAnimations().filter((a) => a.effect && a.effect.target
        && a.effect.target.closest && a.effect.target.closest('#board')).length,
    });
  }).observe(document.body, { attributes: true, attributeFilter: ['data-version'] });
});
"""

# Ann may decide (or the game is over) in the state on the page.
MY_TURN_OR_OVER = (
    f"() => ({READY})() && (document.body.dataset.toMove === '0'"
    " || !!document.querySelector('[data-testid=score-screen]'))"
)


def _table(base: str) -> str:
    """Arctic for Ann (seat 0, who starts) and two random bots; returns Ann's seat link."""
    seats = [
        {"kind": "person", "name": "Ann"},
        {"kind": "bot", "bot": "random"},
        {"kind": "bot", "bot": "random"},
    ]
    body = json.dumps({"game": "arctic", "seats": seats, "options": {"first_player": 0}}).encode()
    request = urllib.request.Request(
        f"{base}/api/tables", data=body, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=60) as answer:
        return f"{base}{json.load(answer)['seats'][0]['link']}"


def _play_my_turn(page: Any, rng: random.Random) -> None:
    """Click until the page shows another seat to move (the state after Ann's last move of the turn)."""
    while True:
        page.wait_for_function(MY_TURN_OR_OVER)
        assert probe(page)["over"] is False, "the game ended before the test was done"
        kind, n = pick(probe(page), rng, frozenset({"stop"}))
        click(page, kind, n)
        page.wait_for_function(f"() => document.body.dataset.toMove !== '0' || ({READY})()")
        if page.evaluate("document.body.dataset.toMove") != "0":
            return


def test_the_others_moves_one_at_a_time_and_a_skip(browser: Any, server: Any) -> None:
    page = new_page(browser, DESKTOP, pace=PACE)
    page.add_init_script(RECORD)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_default_timeout(60_000)
    page.goto(_table(server.base))
    rng = random.Random(5)

    # Ann's turn; her own moves are drawn as they come. Then the two bots' turns, paced.
    _play_my_turn(page, rng)
    # From the state after Ann's last move: the first drawn after her last click.
    start = page.evaluate("window.__clicks[window.__clicks.length - 1]")
    page.wait_for_function(MY_TURN_OR_OVER)
    shown = page.evaluate("window.__shown")[start:]
    mine = shown[0]
    assert mine["toMove"] == "1"
    received = page.evaluate("window.__received")
    came = [v for k, v in enumerate(received) if v >= mine["v"] and (k == 0 or v != received[k - 1])]
    # Every state that came was drawn, in order, none left out (the server sends one per decision).
    assert [s["v"] for s in shown] == came
    by_bot = [s for s in shown[1:] if s["toMove"] in ("1", "2")]
    assert len(by_bot) >= 4, f"the bots' turns were drawn in {len(by_bot)} steps: {shown}"
    seats = [s["toMove"] for s in shown]
    assert any(a == b == "1" for a, b in itertools.pairwise(seats)), (
        f"no bot turn of several actions: {seats}"
    )
    # Each drawn at least the pace after the one before (setTimeout never fires early: a safe bound).
    gaps = [round(b["t"] - a["t"]) for a, b in itertools.pairwise(shown)]
    assert min(gaps) >= PACE * 1000 * 0.95, f"states drawn faster than the pace: {gaps} ms"
    # What each move changed is marked on the board until the next one, and slides (or fades) into place.
    assert sum(1 for s in shown[1:] if s["marks"] > 0) >= len(shown) // 2, shown
    assert sum(1 for s in shown[1:] if s["slides"] > 0) >= len(shown) // 2, shown

    # A slow pace, chosen in the page and remembered; the bots' states queue up; a click on the table
    # draws the newest at once.
    page.select_option("[data-testid=pace]", "2")
    assert page.evaluate("localStorage.getItem('floe.pace')") == "2"
    for skip_with in ("click", "key"):
        _play_my_turn(page, rng)
        before = int(page.evaluate("document.body.dataset.version"))
        page.wait_for_function("() => Number(document.getElementById('skip').dataset.waiting) >= 2")
        if skip_with == "click":
            page.click("[data-testid=landscape]")
        else:
            page.keyboard.press("Escape")
        at_skip = page.evaluate("window.__atSkip[window.__atSkip.length - 1]")
        now = int(page.evaluate("document.body.dataset.version"))
        assert now == at_skip, f"after a {skip_with}, the page shows {now}, not the newest ({at_skip})"
        assert now >= before + 2
    assert not errors, f"JavaScript errors: {errors}"
    page.close()

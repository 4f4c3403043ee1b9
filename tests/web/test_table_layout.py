"""One screen: a whole game of each game in Chromium at 1366×900, and at every decision the prompt, the
person's hand or supply, the board and every opponent's area are inside the window without scrolling; on a
phone (390×844, a touch screen) the prompt stays on screen while a card is picked, and says "tap".

A real `floe serve` seeded by FLOE_TEST_SEED (conftest.py), a person in seat 0 clicking seeded random
highlighted things (tabledriver.py) against random bots, the page's pace set to 0 (states drawn as they come:
pacing has its own test, test_pacing.py).
"""

from __future__ import annotations

import json
import os
import random
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from .tabledriver import new_page, off_screen, play

if not os.environ.get("FLOE_REQUIRE_BROWSER"):
    pytest.importorskip("playwright.sync_api")

DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}

# Per game: the most seats it takes (every opponent's area must fit), its options, and the parts of the
# table a decision needs; "{q}" stands for each opponent's seat.
GAMES: dict[str, dict[str, Any]] = {
    "arctic": {
        "players": 4,
        "options": {},
        "parts": ["[data-testid=hand-0]", "[data-testid=landscape]", "[data-testid=river]", ".zone-powers"],
        "opponent": "[data-testid=player-{q}]",
    },
    "arktia": {
        "players": 4,
        "options": {"max_turns": 60},
        "parts": ["[data-testid=supply-0]", "[data-testid=hexboard]"],
        "opponent": "[data-testid=arktia-player-{q}]",
    },
    "arche": {
        "players": 5,
        "options": {},
        "parts": [
            "[data-testid=hand]",
            "[data-testid=display]",
            "[data-testid=ark]",
            "[data-testid=scale]",
            ".arche-scoring",
        ],
        "opponent": "[data-testid=arche-player-{q}]",
    },
}
PROMPT = "[data-testid=status]"


def _table(base: str, game: str, players: int, options: dict[str, Any]) -> str:
    """A table of a person (seat 0) and random bots; returns the person's seat link."""
    seats = [{"kind": "person", "name": "Ann"}] + [{"kind": "bot", "bot": "random"}] * (players - 1)
    body = json.dumps({"game": game, "seats": seats, "options": options}).encode()
    request = urllib.request.Request(
        f"{base}/api/tables", data=body, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=60) as answer:
        return f"{base}{json.load(answer)['seats'][0]['link']}"


@pytest.mark.parametrize("game", list(GAMES))
def test_a_whole_game_on_one_screen(browser: Any, server: Any, artifacts: Path, game: str) -> None:
    spec = GAMES[game]
    parts = [PROMPT, *spec["parts"], *(spec["opponent"].format(q=q) for q in range(1, spec["players"]))]
    # Without motion (prefers-reduced-motion): nothing slides, so no click waits; seeded so, Arche's game
    # once left its players' panels 3 px below the window at decision 13 (issue 27).
    page = new_page(browser, DESKTOP, still=True)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_default_timeout(60_000)
    page.goto(_table(server.base, game, spec["players"], spec["options"]))
    page.wait_for_selector(PROMPT)
    decisions = 0

    def check(state: dict[str, Any], clicks: int) -> None:
        nonlocal decisions
        decisions += 1
        outside = off_screen(page, parts)
        if outside:
            page.screenshot(path=str(artifacts / f"{game}-off-screen.png"))
        assert not outside, f"{game}, decision {decisions}: not on the screen at 1366×900: {outside}"

    clicks = play(page, random.Random(20261124), before=check)
    assert page.locator("[data-testid=score-screen]").count() == 1
    assert decisions >= 10, f"only {decisions} decisions: the check saw too little of the game"
    assert clicks == decisions
    assert not errors, f"JavaScript errors: {errors}"
    page.close()


# Pick a selectable board object at random and bring it into view as a person scrolling to it would (from
# the bottom of the page, the log); then is the prompt still wholly on the screen, and what does its hint say.
SCROLL_TO_PICK = """([n]) => {
  const visible = (el) => el.getClientRects().length > 0;
  const objects = [...document.querySelectorAll('[data-legal]')].filter(visible);
  if (!objects.length) return null;
  const el = objects[n % objects.length];
  window.scrollTo(0, document.documentElement.scrollHeight);
  el.scrollIntoView({ block: 'nearest' });
  const p = document.querySelector('[data-testid=status]').getBoundingClientRect();
  const hint = document.querySelector('.choices-hint, [data-testid=selection]');
  return {
    prompt: [Math.round(p.top), Math.round(p.bottom)],
    onScreen: p.top >= -1 && p.bottom <= innerHeight + 1,
    scrolled: scrollY,
    hint: hint ? hint.textContent : '',
  };
}"""


@pytest.mark.parametrize("game", list(GAMES))
def test_the_prompt_stays_on_a_phone(browser: Any, server: Any, game: str) -> None:
    spec = GAMES[game]
    page = new_page(browser, PHONE, touch=True)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_default_timeout(60_000)
    page.goto(_table(server.base, game, min(spec["players"], 3), spec["options"]))
    page.wait_for_selector(PROMPT)
    assert page.evaluate("matchMedia('(pointer: coarse)').matches"), "the phone page has no coarse pointer"
    rng = random.Random(7)
    seen = {"picks": 0, "scrolled": 0, "tap": 0}

    def check(state: dict[str, Any], clicks: int) -> None:
        if not (state["play"] or state["source"] or state["dest"]):
            return
        look = page.evaluate(SCROLL_TO_PICK, [rng.randrange(1000)])
        assert look is not None
        assert look["onScreen"], f"{game}: the prompt is off the screen ({look}) while a card is picked"
        assert "click" not in look["hint"].lower(), f"a touch screen is told to click: {look['hint']!r}"
        seen["picks"] += 1
        seen["scrolled"] += look["scrolled"] > 0
        seen["tap"] += "tap" in look["hint"].lower()

    play(page, rng, before=check, until=lambda clicks: clicks >= 14)
    assert seen["picks"] >= 5
    # The board is taller than a phone: picking meant scrolling, and the prompt came along.
    assert seen["scrolled"] >= 1
    assert seen["tap"] >= 1, "no hint told the person what to tap"
    assert not errors, f"JavaScript errors: {errors}"
    page.close()

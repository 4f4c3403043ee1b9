"""Arktia's table in German and Polish (Italian: the catalog and terminal screen checks): a short game
played by clicking, its score screen and its "How to play" panel, read for English the catalogs would have
translated (``floe.testing.untranslated``).

The language is forced with ``?lang=``; the table has a turn limit so the game ends soon. A real ``floe
serve`` and Debian's Chromium (conftest.py); the person's clicks are seeded (tabledriver.py).
"""

from __future__ import annotations

import json
import os
import random
import urllib.request
from typing import Any

import pytest

from floe.core.i18n import FLOE
from floe.core.registry import entry
from floe.testing.untranslated import english_words, untranslated

from .tabledriver import PACE_INIT, play

if not os.environ.get("FLOE_REQUIRE_BROWSER"):
    pytest.importorskip("playwright.sync_api")

DESKTOP = {"width": 1366, "height": 900}
# Words the page shows in every language: names, the game's title, the bots' names, the brand.
ALLOWED = {"floe", "arktia", "ann", "random"}


def _table(base: str) -> tuple[str, str]:
    """A 2-seat Arktia table (a person, the random bot) ending after 14 turns: its id and seat 0's token."""
    seats = [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "random"}]
    body = {"game": "arktia", "seats": seats, "options": {"max_turns": 14}}
    request = urllib.request.Request(f"{base}/api/tables", data=json.dumps(body).encode(), method="POST")
    request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=5) as answer:
        made = json.load(answer)
    return made["table"]["id"], made["seats"][0]["token"]


def _english(page: Any, lang: str) -> list[str]:
    catalog = entry("arktia").catalog()
    assert catalog is not None
    words = english_words([FLOE, catalog], lang)
    # What a reader reads: the text, and the tips and labels of what is on the page.
    text = page.evaluate(
        """() => [document.body.innerText,
          ...[...document.querySelectorAll('[title],[aria-label],[data-tip],[placeholder]')]
            .filter((el) => el.getClientRects().length > 0 || el instanceof SVGElement)
            .map((el) => [el.title, el.getAttribute('aria-label'), el.dataset.tip, el.placeholder]
              .filter(Boolean).join('\\n'))].join('\\n')"""
    )
    return untranslated(text, words, ALLOWED)


@pytest.mark.parametrize("lang", ["de", "pl"])
def test_an_arktia_game_its_scores_and_its_help_in_the_language(browser: Any, server: Any, lang: str) -> None:
    table, token = _table(server.base)
    page = browser.new_page(viewport=DESKTOP)
    page.add_init_script(PACE_INIT.format(pace=0))
    page.set_default_timeout(20_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{server.base}/table/{table}?lang={lang}#seat={token}")
    page.wait_for_selector("[data-testid=arktia-board]")
    problems: list[str] = []

    def look(state: dict[str, Any], clicks: int) -> None:
        if clicks % 3 == 0:
            problems.extend(_english(page, lang))

    play(page, random.Random(15), before=look, max_clicks=300)
    page.wait_for_selector("[data-testid=score-screen]")
    problems.extend(_english(page, lang))
    page.click("[data-testid=help-open]")
    page.locator("[data-testid=help-panel]").wait_for(state="visible")
    problems.extend(_english(page, lang))
    assert not problems, "\n".join(sorted(set(problems))[:30])
    assert not errors, errors
    page.close()

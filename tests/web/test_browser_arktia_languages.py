"""Arktia's table in German and Polish (Italian: the catalog and terminal screen checks): a short game
played by clicking, its score screen and its "How to play" panel, read for English the catalogs would have
translated (``floe.testing.untranslated``).

The language is forced with ``?lang=``; the table has a turn limit so the game ends soon. A real ``floe
serve`` and Debian's Chromium (conftest.py); the person's clicks are seeded (tabledriver.py).
"""

from __future__ import annotations

import os
import random
from typing import Any

import pytest

from .tabledriver import create_table, english_on, play, watched_page

if not os.environ.get("FLOE_REQUIRE_BROWSER"):
    pytest.importorskip("playwright.sync_api")

DESKTOP = {"width": 1366, "height": 900}
# Words the page shows in every language: names, the game's title, the bots' names, the brand.
ALLOWED = {"floe", "arktia", "ann", "random"}


def _english(page: Any, lang: str) -> list[str]:
    return english_on(page, "arktia", lang, ALLOWED)


@pytest.mark.parametrize("lang", ["de", "pl"])
def test_an_arktia_game_its_scores_and_its_help_in_the_language(browser: Any, server: Any, lang: str) -> None:
    # A person and the random bot, the game ending after 14 turns.
    seats = [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "random"}]
    table, token = create_table(server.base, {"game": "arktia", "seats": seats, "options": {"max_turns": 14}})
    page, errors = watched_page(
        browser, DESKTOP, f"{server.base}/table/{table}?lang={lang}#seat={token}", still=True
    )
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

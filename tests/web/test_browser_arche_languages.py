"""Arche Opti Mix's table in German and Polish: a short game played by clicking (a person and two bots),
its score screen and its "How to play" panel, read for English the catalogs would have translated
(``floe.testing.untranslated``): the text, the tips, the labels and the icons' titles.

The language is forced with ``?lang=``. A real ``floe serve`` and Debian's Chromium (conftest.py); the
person's clicks are seeded (tabledriver.py).
"""

from __future__ import annotations

import os
import random
from typing import Any

import pytest

from floe.core.i18n import FLOE
from floe.core.registry import entry
from floe.games.arche.cards import COLUMNS, placeholder_rows
from floe.testing.untranslated import english_words, untranslated

from .tabledriver import create_table, english_on, play, watched_page

if not os.environ.get("FLOE_REQUIRE_BROWSER"):
    pytest.importorskip("playwright.sync_api")

DESKTOP = {"width": 1366, "height": 900}
# Words the page shows in every language: names, the game's title, the bots' names, the brand.
ALLOWED = {"floe", "arche", "opti", "mix", "ann", "random", "greedy"}
# Card names stay English in every language, and so does the ability slug a card line shows ("!immune").
ALLOWED |= {w.lower() for row in placeholder_rows() for w in str(row[COLUMNS.index("name_en")]).split()}
ALLOWED |= {"immune"}


def _english(page: Any, lang: str) -> list[str]:
    return english_on(page, "arche", lang, ALLOWED)


@pytest.mark.parametrize("lang", ["de", "pl"])
def test_an_arche_game_and_its_help_in_the_language(browser: Any, server: Any, lang: str) -> None:
    # Ann, the random and the greedy bot.
    seats = [
        {"kind": "person", "name": "Ann"},
        {"kind": "bot", "bot": "random"},
        {"kind": "bot", "bot": "greedy"},
    ]
    table, token = create_table(server.base, {"game": "arche", "seats": seats})
    page, errors = watched_page(
        browser, DESKTOP, f"{server.base}/table/{table}?lang={lang}#seat={token}", still=True
    )
    page.wait_for_selector("[data-testid=ark]")
    problems: list[str] = []

    def look(state: dict[str, Any], clicks: int) -> None:
        if clicks % 4 == 0:
            problems.extend(_english(page, lang))

    clicks = play(page, random.Random(15), before=look, max_clicks=400)
    assert clicks > 10
    page.wait_for_selector("[data-testid=score-screen]")
    problems.extend(_english(page, lang))  # the table at the end and the score screen
    page.click("[data-testid=help-open]")
    page.locator("[data-testid=help-panel]").wait_for(state="visible")
    problems.extend(_english(page, lang))
    assert not problems, "\n".join(sorted(set(problems))[:30])
    assert not errors, errors
    page.close()


@pytest.mark.parametrize("lang", ["de", "pl"])
def test_arches_options_in_the_lobby_in_the_language(browser: Any, server: Any, lang: str) -> None:
    """The lobby's rules fields for Arche (the "More rules" opened): labels, choices and their tips."""
    page, errors = watched_page(browser, DESKTOP, f"{server.base}/?game=arche&lang={lang}")
    page.wait_for_selector("[data-testid=opt-pet]")
    page.click("[data-testid=more-rules-toggle]")
    page.wait_for_selector("[data-testid=opt-hand_limit]", state="visible")
    text = page.evaluate(
        """() => [...document.querySelectorAll('#options-fieldset, #options-fieldset [title]')]
          .map((el) => [el.innerText, el.title].filter(Boolean).join('\\n')).join('\\n')"""
    )
    catalog = entry("arche").catalog()
    assert catalog is not None
    problems = untranslated(text, english_words([FLOE, catalog], lang), ALLOWED)
    assert not problems, "\n".join(sorted(set(problems))[:30])
    assert not errors, errors
    page.close()

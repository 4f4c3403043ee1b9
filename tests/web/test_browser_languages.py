"""The browser in German and in Polish: a game played by clicking (Polish to its end, German its start), and
no English on the way.

German is chosen with the header's picker (remembered in the browser, so the table page opened from the
lobby is German too); Polish comes from the browser's own language (its Accept-Language), and ``?lang=it``
forces Italian over it. At every few clicks, and on the score screen, the page's text is read for English
words the catalogs would have translated (``floe.testing.untranslated``). A real ``floe serve`` and
Debian's Chromium (conftest.py); the person's clicks are seeded (tabledriver.py). The pages ask for less
motion, as a reader may (prefers-reduced-motion): the words are checked here, not slides, and a click need
not wait for one.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from .tabledriver import english_on, play, watched_page

DESKTOP = {"width": 1366, "height": 900}
# Words the page shows in every language: names, the game's title, the bots' names, the brand.
ALLOWED = {"floe", "arctic", "ann", "ismcts"}


def _english(page: Any, lang: str) -> list[str]:
    return english_on(page, "arctic", lang, ALLOWED)


def _button_reads(page: Any, text: str) -> None:
    """Wait until the lobby's create button reads ``text`` (the catalog loads after the page)."""
    page.wait_for_function(
        "(text) => document.querySelector('[data-testid=create-table]').textContent.trim() === text", arg=text
    )


def _create_and_open(page: Any, base: str) -> None:
    page.wait_for_selector("[data-testid=seat-kind-1]")
    page.fill("[data-testid=seat-name-0]", "Ann")
    page.select_option("[data-testid=seat-bot-1]", "random")
    page.click("[data-testid=create-table]")
    page.wait_for_selector("[data-testid=open-seat]:visible")
    page.click("[data-testid=open-seat]")
    page.wait_for_selector("[data-testid=landscape]")


# Polish plays to the score screen; German stops after this many clicks. A word the catalogs would
# translate but the page writes in English is English in every language, so one whole game finds it; the
# catalogs' completeness in each language is tests/core/test_catalogs.py.
GERMAN_CLICKS = 40


def _play_checking(page: Any, lang: str, artifacts: Path) -> None:
    problems: list[str] = []

    def look(state: dict[str, Any], clicks: int) -> None:
        if clicks % 7 == 0:
            problems.extend(_english(page, lang))

    whole = lang == "pl"
    until = (lambda clicks: False) if whole else (lambda clicks: clicks >= GERMAN_CLICKS)
    play(page, random.Random(15), before=look, until=until, max_clicks=600)
    if whole:
        page.wait_for_selector("[data-testid=score-screen]")
    problems.extend(_english(page, lang))
    page.screenshot(path=str(artifacts / f"language-{lang}-{'score' if whole else 'table-later'}.png"))
    assert not problems, "\n".join(sorted(set(problems))[:30])


@pytest.mark.parametrize("lang", ["de", "pl"])
def test_a_short_game_in_german_and_in_polish(browser: Any, server: Any, artifacts: Path, lang: str) -> None:
    if lang == "de":
        page, page_errors = watched_page(browser, DESKTOP, f"{server.base}/", locale="en-US", still=True)
        page.wait_for_selector("[data-testid=language]")
        _button_reads(page, "Create table")
        with page.expect_navigation():
            page.select_option("[data-testid=language]", "de")  # remembered, and the page reloads
        _button_reads(page, "Tisch anlegen")
    else:
        # The browser's language (Accept-Language, navigator.languages) is Polish; ?lang= forces one over it.
        page, page_errors = watched_page(
            browser, DESKTOP, f"{server.base}/?lang=it", locale="pl-PL", still=True
        )
        page.wait_for_selector("[data-testid=seat-kind-1]")
        _button_reads(page, "Crea tavolo")
        page.goto(f"{server.base}/")
        page.wait_for_selector("[data-testid=seat-kind-1]")
        _button_reads(page, "Utwórz stół")
    page.wait_for_function("() => document.querySelector('[data-testid=game-about]').innerText.length > 10")
    page.click("[data-testid=more-rules-toggle]")  # the advanced rules options too
    assert not _english(page, lang), _english(page, lang)
    _create_and_open(page, server.base)
    deciding = page.inner_text("[data-testid=deciding]")
    assert deciding.startswith({"de": "Du entscheidest", "pl": "Decydujesz"}[lang]), deciding
    page.screenshot(path=str(artifacts / f"language-{lang}-table.png"))
    # The browser's plural rule and refusals' words, from the page's own modules: a page sentence, and the
    # server's detailed refusal in the page's language (api.js sends it as Accept-Language).
    forms = page.evaluate(
        """async () => {
          const i18n = await import('/static/js/i18n.js');
          const errors = await import('/static/js/errors.js');
          const { api } = await import('/static/js/api.js');
          const bot = { kind: 'bot', bot: 'random' };
          const body = { game: 'arche', seats: [bot, bot, bot], options: { start_chips: 9 } };
          const refused = await api('/api/tables', { method: 'POST', body }).catch((err) => err);
          return [[1, 2, 4, 5, 12, 14, 22, 25].map((n) => i18n.nt('card', 'cards', n)),
                  errors.errorText({ code: 'stale', message: 'stale move: made on version 3' }),
                  errors.errorText(refused)];
        }"""
    )
    cards = {
        "de": ["Karte", "Karten", "Karten", "Karten", "Karten", "Karten", "Karten", "Karten"],
        "pl": ["karta", "karty", "karty", "kart", "kart", "kart", "karty", "kart"],
    }
    stale = {
        "de": "Der Tisch war schon weiter, als dein Zug ankam; er wurde nicht gespielt.",
        "pl": "Stół poszedł dalej, zanim dotarł twój ruch; nie został wykonany.",
    }
    bounds = {
        "de": "start_chips muss zwischen 1 und 4 liegen, nicht 9",
        "pl": "start_chips musi być między 1 a 4, nie 9",
    }
    assert forms == [cards[lang], stale[lang], bounds[lang]]
    _play_checking(page, lang, artifacts)
    assert not page_errors, page_errors
    page.close()

"""Arche Opti Mix in the browser: lobby (3–5 seats, the options from the schema, no deck file field, the
placeholder notice) → the ark board → a whole 3-player game (one person, two bots) played by clicking the
board → the score screen's majority tables, checked against the server's result → the replay.

Every click is a real mouse click at a point where the browser's hit-testing finds the highlighted object
itself (a hand or display card, a cabin, a new-cabin place, a card to evict, a scoring card, or a choice
button for done / pass / no pet), so an object that is highlighted but covered fails the test. The person
picks a seeded random highlighted thing each time; the game itself is dealt by the server's secret seed,
so the test holds for any deal. It waits on the page's state, never on a fixed delay. Screenshots go to
tests/web/artifacts/.
"""

from __future__ import annotations

import json
import os
import random
import urllib.request
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from .tabledriver import create_table, new_page, watched_page

# Without Playwright the test is skipped, unless CI asks for the browser test (FLOE_REQUIRE_BROWSER).
if not os.environ.get("FLOE_REQUIRE_BROWSER"):
    pytest.importorskip("playwright.sync_api")

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
# Looks at the page before the score screen must be up: a game takes about a hundred clicks, so only a game
# that never ends reaches this (a count: each look waits on the page itself, however slow the machine).
GAME_LOOKS = 2000
CATEGORIES = ("heavy", "useful", "shy", "slow", "provisions")
NOTICE = "placeholder cards, not the printed ones"

# One consistent look at the page: is it over, a refusal shown, what can be clicked by kind, and whether
# anything of another seat's hidden cards (its hand, its pet) is on the page.
PROBE = """(me) => {
  const visible = (el) => !el.closest('details:not([open])') && el.getClientRects().length > 0;
  const all = (sel) => [...document.querySelectorAll(sel)].filter(visible);
  const toast = document.querySelector('[data-testid=toast]');
  const over = !!document.querySelector('[data-testid=score-screen]');
  const leaks = [];
  for (const el of document.querySelectorAll('[data-testid^=pet-]')) {
    const seat = Number(el.dataset.testid.slice(4));
    if (seat !== me && !['none', 'hidden'].includes(el.dataset.pet)) leaks.push('pet of P' + (seat + 1));
  }
  for (const el of document.querySelectorAll('[data-testid]')) {
    const m = /^hand-(\\d+)$/.exec(el.dataset.testid);
    if (m && Number(m[1]) !== me) leaks.push('hand of P' + (Number(m[1]) + 1));
  }
  return {
    over,
    narrowed: !!document.querySelector('[data-testid=choice-back]'),
    toast: toast && !toast.hidden ? toast.textContent : null,
    leaks: over ? [] : leaks,
    dest: all('[data-legal=dest]').length,
    play: all('[data-legal=play]').length,
    source: all('[data-legal=source]').length,
    free: all('#choices > .choice-list [data-testid=choice]')
      .filter((b) => !b.disabled).map((b) => b.dataset.verb),
  };
}"""

# Scroll the n-th object of a kind into view and find a point where the browser's hit-testing gives the
# click to that object (the innermost highlighted thing there is the object itself, so a click on a cabin
# does not land on a card inside it); null coordinates if it is covered everywhere.
AIM = """([selector, n]) => {
  const visible = (el) => !el.closest('details:not([open])') && el.getClientRects().length > 0;
  const el = [...document.querySelectorAll(selector)].filter(visible)[n];
  if (!el) return null;
  el.scrollIntoView({ block: 'center', inline: 'center' });
  const box = el.getBoundingClientRect();
  const what = el.dataset.obj || el.dataset.verb || el.textContent.trim().slice(0, 40);
  for (const fy of [0.5, 0.1, 0.35, 0.65, 0.9, 0.2, 0.8]) {
    for (const fx of [0.5, 0.1, 0.35, 0.65, 0.9, 0.2, 0.8]) {
      const x = box.left + box.width * fx;
      const y = box.top + box.height * fy;
      const hit = document.elementFromPoint(x, y);
      if (hit && (hit === el || el.contains(hit))) {
        const owner = hit.closest('[data-legal]');
        if (!el.dataset.legal || owner === el) return { x, y, what };
      }
    }
  }
  return { x: null, y: null, what };
}"""

SCALE_AFTER_SCROLL = """() => {
  window.scrollTo(0, document.body.scrollHeight);
  const box = document.querySelector('[data-testid=scale]').getBoundingClientRect();
  return { top: box.top, bottom: box.bottom, window: window.innerHeight };
}"""

READY = (
    f"() => {{ const s = ({PROBE})(0); return s.over || s.dest + s.play + s.source + s.free.length > 0; }}"
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


# The decisions with nothing on the board to click: the choices panel's buttons. Any other choice shown
# as a top-level button would mean the board module has no route for it.
BUTTON_VERBS = {"done", "pass", "no-pet", "no-evict", "no-chip"}


def test_play_a_whole_arche_game_in_the_browser(browser: Any, server: Any, artifacts: Path) -> None:
    base = server.base
    page = new_page(browser, DESKTOP)
    page_errors: list[str] = []
    page.on("pageerror", lambda exc: page_errors.append(str(exc)))
    page.set_default_timeout(60_000)

    # Lobby: Arche with 3 to 5 seats, its options from the schema, the placeholder notice.
    page.goto(f"{base}/?game=arche")
    page.wait_for_selector("[data-testid=opt-pet]")
    assert page.input_value("[data-testid=game]") == "arche"
    counts = page.eval_on_selector_all("[data-testid=seat-count] option", "os => os.map(o => o.value)")
    assert counts == ["3", "4", "5"]
    page.select_option("[data-testid=seat-count]", "5")
    assert page.locator("#seat-rows .seat-row").count() == 5
    assert NOTICE in page.inner_text("[data-testid=game-notice]")
    # The deck is a file option: a browser cannot hand the server a file, so the lobby does not offer it.
    assert page.locator("[data-testid=opt-deck]").count() == 0
    assert page.locator("[data-testid=advanced-options] [data-testid=opt-hand_limit]").count() == 1
    info = next(g for g in _get_json(f"{base}/api/games") if g["name"] == "arche")
    assert info["board"] == "/games/arche/board.js" and info["max_players"] == 5
    options = {"first_player": ("select", "0"), "start_chips": ("fill", "4")}
    table_id, token = _create_in_lobby(page, options, artifacts, shot="arche-lobby")
    summary = _get_json(f"{base}/api/tables/{table_id}")
    assert summary["game"] == "arche" and summary["players"] == 3
    assert summary["options"]["first_player"] == 0 and summary["options"]["start_chips"] == 4
    assert summary["options"]["deck"] == []  # the placeholder deck
    page.click("[data-testid=open-seat]")
    page.wait_for_selector("[data-testid=ark]")
    assert NOTICE in page.inner_text("[data-testid=game-notice]")
    assert page.inner_text("[data-testid=arche-placeholder]").lower() == NOTICE
    assert page.inner_text("#table-title").startswith("Arche")
    assert page.locator("[data-testid=ark] .cabin:not(.cabin-new)").count() == 4  # the opening cabins

    kinds = _play_by_clicking(page, random.Random(20261124), artifacts, shots=True)
    # The main moves were made on the board: cards from the hand and the display into cabins.
    assert {"hand", "display"} <= kinds and kinds & {"cabin", "new", "ark"}, kinds
    state = _check_final(page, base, table_id, token, 3)
    # The scale and the rain count show the view's facts.
    view = state["view"]
    assert int(page.get_attribute("[data-testid=scale]", "data-tilt")) == view["tilt"]
    assert int(page.get_attribute("[data-testid=rain]", "data-rain-out")) == view["rain_out"] == 5
    assert not page_errors, f"JavaScript errors: {page_errors}"
    _screenshots(page, artifacts, "arche-score-screen", element="[data-testid=score-screen]")

    # Replay: the last frame shows the same majority tables; the notice is there too.
    page.click("[data-testid=replay-link]")
    page.wait_for_selector("[data-testid=frame-info]:has-text('Frame 1 of')")
    page.wait_for_selector("[data-testid=ark]")
    assert NOTICE in page.inner_text("[data-testid=game-notice]")
    page.click("[data-testid=replay-last]")
    page.wait_for_selector("[data-testid=majority-heavy]")
    result = state["result"]
    _check_majority(page, "heavy", [b["cards"]["heavy"] for b in result["breakdowns"]])
    assert not page_errors, f"JavaScript errors: {page_errors}"
    page.close()


def test_the_rarer_decisions_by_clicking(browser: Any, server: Any, artifacts: Path) -> None:
    """Options that bring the other decisions to the person: a hand limit (discard a hand card), a figure
    for a card without a category (click a scoring card), eviction from any cabin (click a card in the
    ark, or evict nobody), a voluntary pet (or no pet). Every one is a click; none is a bare button."""
    base = server.base
    page = new_page(browser, DESKTOP, still=True)  # the decisions, not the slides (the whole game has them)
    page_errors: list[str] = []
    page.on("pageerror", lambda exc: page_errors.append(str(exc)))
    page.set_default_timeout(60_000)
    page.goto(f"{base}/?game=arche")
    page.wait_for_selector("[data-testid=opt-pet]")
    options = {
        "hand_limit": ("fill", "2"),
        "uncategorised_figure": ("select", "choose"),
        "evict_from": ("select", "any_cabin"),
        "pet": ("select", "voluntary"),
        "first_player": ("select", "1"),
    }
    table_id, token = _create_in_lobby(page, options, artifacts)
    chosen = _get_json(f"{base}/api/tables/{table_id}")["options"]
    assert chosen["hand_limit"] == 2 and chosen["evict_from"] == "any_cabin" and chosen["pet"] == "voluntary"
    page.click("[data-testid=open-seat]")
    page.wait_for_selector("[data-testid=ark]")
    kinds = _play_by_clicking(page, random.Random(7), artifacts, shots=False)
    assert {"hand", "display"} <= kinds, kinds
    _check_final(page, base, table_id, token, 3)
    assert not page_errors, f"JavaScript errors: {page_errors}"
    page.close()


def test_five_seats_watched_to_the_score_screen(browser: Any, server: Any, artifacts: Path) -> None:
    """Five bots, watched by a spectator: every seat's panel and figures, no hand and no pet of anyone
    before the end, and the majority tables with five rows each."""
    base = server.base
    page, page_errors, table_id = _watch_bots(browser, base, 5)
    page.wait_for_selector("[data-testid=score-screen]")
    assert page.locator("[data-testid^=arche-player-]").count() == 5
    assert page.locator("[data-testid=hand]").count() == 0  # a spectator has no hand
    state = _check_final(page, base, table_id, None, 5)
    assert state["view"]["seat"] is None
    _screenshots(page, artifacts, "arche-five-seats", element="[data-testid=score-screen]")
    assert not page_errors, f"JavaScript errors: {page_errors}"
    page.close()


def _watch_bots(browser: Any, base: str, bots: int, query: str = "") -> tuple[Any, list[str], str]:
    """A table of ``bots`` random bots (they play at once), watched by a spectator's page opened at
    ``query``: the page, its script errors and the table's id."""
    table_id, _ = create_table(base, {"game": "arche", "seats": [{"kind": "bot", "bot": "random"}] * bots})
    page, errors = watched_page(browser, DESKTOP, f"{base}/table/{table_id}{query}", timeout=60_000)
    return page, errors, table_id


def _create_in_lobby(
    page: Any, options: dict[str, tuple[str, str]], artifacts: Path, shot: str | None = None
) -> tuple[str, str]:
    """A 3-seat table made in the lobby form: Ann, a random bot and a greedy bot, with ``options`` set in
    their fields (``select`` or ``fill``); returns the table id and Ann's seat token."""
    page.select_option("[data-testid=seat-count]", "3")
    assert page.locator("#seat-rows .seat-row").count() == 3
    page.fill("[data-testid=seat-name-0]", "Ann")
    page.select_option("[data-testid=seat-kind-1]", "bot")
    page.select_option("[data-testid=seat-bot-1]", "random")
    page.select_option("[data-testid=seat-kind-2]", "bot")
    page.select_option("[data-testid=seat-bot-2]", "greedy")
    page.click("[data-testid=more-rules-toggle]")
    for name, (how, value) in options.items():
        field = f"[data-testid=opt-{name}]"
        if how == "select":
            page.select_option(field, value)
        else:
            page.fill(field, value)
    page.click("[data-testid=create-table]")
    page.wait_for_selector("[data-testid=open-seat]:visible")
    if shot:
        _screenshots(page, artifacts, shot)
    link = page.input_value("[data-testid=link-0]")
    return link.split("/table/")[1].split("#")[0], link.split("#seat=")[1]


def _play_by_clicking(page: Any, rng: random.Random, artifacts: Path, shots: bool) -> set[str]:
    """Play seat 0 to the end by clicking a random highlighted thing each time; returns the kinds of
    things clicked (``hand``, ``display``, ``cabin``, ``new``, ``ark``, ``score``, ``deck``, ``button
    <verb>``). Fails on a hidden card of another seat on the page, a choice with no click on the board,
    something highlighted that cannot be clicked, or a refused move."""
    clicks = 0
    history: list[str] = []
    refusals: list[str] = []
    kinds: set[str] = set()
    taken = {"selected": not shots, "mid": not shots}
    for look in range(GAME_LOOKS + 1):
        assert look < GAME_LOOKS, f"no score screen after {GAME_LOOKS} looks; last clicks {history}"
        page.wait_for_function(READY)
        probe = page.evaluate(PROBE, 0)
        assert not probe["leaks"], f"hidden cards of another seat on the page: {probe['leaks']}"
        if not probe["narrowed"]:  # (a selection lists the choices it keeps as buttons too)
            assert set(probe["free"]) <= BUTTON_VERBS, f"choices with nothing to click: {probe['free']}"
        if probe["toast"]:
            refusals.append(f"{probe['toast']} (after {history[-1:]})")
        if probe["over"]:
            break
        if probe["dest"]:
            if not taken["selected"] and clicks >= 8:
                taken["selected"] = True
                _screenshots(page, artifacts, "arche-table-selected")
            kind = "dest"
        elif probe["free"] and (not (probe["play"] or probe["source"]) or rng.random() < 0.12):
            kind = "free"
        elif probe["play"] and (not probe["source"] or rng.random() < 0.5):
            kind = "play"
        else:
            kind = "source"
        count = len(probe["free"]) if kind == "free" else probe[kind]
        clicked = _click(page, kind, rng.randrange(count))
        what = clicked.split(" ", 1)[1]
        kinds.add(f"button {what}" if kind == "free" else what.split(":")[0])
        clicks += 1
        history = [*history[-5:], clicked]
        if clicks >= 16 and not taken["mid"]:
            taken["mid"] = True
            # The scale stays in sight wherever the page is scrolled to (one JS call: no re-render between).
            box = page.evaluate(SCALE_AFTER_SCROLL)
            assert box["top"] >= 0 and box["bottom"] <= box["window"], box
            _screenshots(page, artifacts, "arche-table-mid-game")
    assert clicks >= 10, f"the game ended after only {clicks} clicks"
    assert not refusals, f"the server refused moves: {refusals}"
    return kinds


def _check_final(page: Any, base: str, table_id: str, token: str | None, players: int) -> Any:
    """The score screen against the server's result: totals, ranking, each scoring card's majority table,
    every pet revealed. Returns the final state."""
    state = _get_json(f"{base}/api/tables/{table_id}/state", token)
    assert state["status"] == "finished"
    result = state["result"]
    for seat in range(players):
        total = page.inner_text(f"[data-testid=total-{seat}]")
        assert _number(total) == pytest.approx(result["scores"][seat])
    ranking = page.locator("[data-testid=ranking] li")
    assert [int(ranking.nth(i).get_attribute("data-seat")) for i in range(players)] == result["ranking"]
    for category in CATEGORIES:
        _check_majority(page, category, [b["cards"][category] for b in result["breakdowns"]])
    for seat in range(players):
        pet = page.get_attribute(f"[data-testid=pet-{seat}]", "data-pet")
        assert pet == (result["breakdowns"][seat]["pet"] or "none")
    assert page.locator("[data-testid=log] li").count() == state["log_total"]
    return state


def _check_majority(page: Any, category: str, parts: list[dict[str, Any]]) -> None:
    """The majority table of ``category``: one row per seat, most figures first, with the server's figures
    and points, and the places (equal figures share a place range) worked out from the figures."""
    rows = page.eval_on_selector_all(
        f"[data-testid=majority-{category}] tbody tr",
        "rs => rs.map(r => ({seat: Number(r.dataset.seat), figures: Number(r.dataset.figures),"
        " points: Number(r.dataset.points), place: r.dataset.place,"
        " text: r.querySelector('.majority-points strong').textContent}))",
    )
    assert sorted(r["seat"] for r in rows) == list(range(len(parts)))
    figures = [r["figures"] for r in rows]
    assert figures == sorted(figures, reverse=True)
    for row in rows:
        part = parts[row["seat"]]
        assert row["figures"] == pytest.approx(part["figures"])
        assert row["points"] == pytest.approx(part["points"])
        assert _number(row["text"]) == pytest.approx(part["points"])
        if part["figures"] > 0:
            # Places from the figures alone: one more than the seats with more, through those with as many.
            better = sum(1 for p in parts if p["figures"] > part["figures"])
            same = sum(1 for p in parts if p["figures"] == part["figures"])
            assert row["place"] == f"{better + 1}-{better + same}"
        else:
            assert row["place"] == "" and part["points"] == 0


# The score screen writes shared points and half figures with these (render.js: fmt).
GLYPHS = {
    "½": Fraction(1, 2),
    "⅓": Fraction(1, 3),
    "⅔": Fraction(2, 3),
    "¼": Fraction(1, 4),
    "¾": Fraction(3, 4),
    "⅕": Fraction(1, 5),
    "⅖": Fraction(2, 5),
    "⅗": Fraction(3, 5),
    "⅘": Fraction(4, 5),
}


def _number(text: str) -> float:
    """ "8", "3⅓", "½", "4.40" as a number."""
    text = text.strip()
    if text and text[-1] in GLYPHS:
        return float(int(text[:-1] or 0) + GLYPHS[text[-1]])
    return float(text)


def _get_json(url: str, token: str | None = None) -> Any:
    request = urllib.request.Request(url)
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.load(answer)


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


def test_the_score_screen_in_polish(browser: Any, server: Any) -> None:
    """Bots to the end, watched with ``?lang=pl``: the majority tables and the score rows read Polish (the
    plural of points by Polish rules), no English of Arche's score screen is left."""
    page, page_errors, _ = _watch_bots(browser, server.base, 3, "?lang=pl")
    page.wait_for_selector("[data-testid=majorities]")
    text = page.inner_text("[data-testid=score-screen]").lower()  # titles are upper case by CSS
    assert "większości na kartach punktacji" in text and "zwierzęta na ręce (przy remisie)" in text
    for english in ("majorities per scoring card", "animals left in hand", "place", "points", "each scoring"):
        assert english not in text, english
    assert not page_errors, f"JavaScript errors: {page_errors}"
    page.close()

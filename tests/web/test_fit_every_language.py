"""Every screen fits, in every language (issue 27, "Checks that keep it so"): for every registered game with
a board module, one seeded game is played by clicking (tabledriver.py) up to a sampled decision; there one
page is turned to each of en/de/it/pl at 1366×900 and at 390×844 (a phone) and checked:

- no text is clipped: neither cut by its own box (an ellipsis, hidden overflow) nor by an ancestor that
  hides its overflow; no text overlaps another (each cut to what its scrolling ancestors show);
- the prompt is wholly on the screen (top of the page), and at 1366×900 so is the board's first part (once
  the game is over, the score screen's top: then no decision needs the board, and the score comes first);
- every highlighted piece can be clicked: brought into view, the browser's hit-testing at its centre gives
  the click to it (or to what it holds), not to a piece above or below it.

The lobby's rules menus (a closed menu cuts its words) are checked at 1366×900 in each language too.

Whole games in eight combinations would take minutes: one game per game, sampled (test_table_layout.py plays
whole games at one size). A game whose screens do not pass yet is an expected failure (strict: once it
passes, the mark must go), its findings named below.
"""

from __future__ import annotations

import json
import os
import random
import urllib.parse
import urllib.request
from typing import Any

import pytest

from floe.core.registry import entries

from .tabledriver import READY, new_page, play

if not os.environ.get("FLOE_REQUIRE_BROWSER"):
    pytest.importorskip("playwright.sync_api")

SIZES = ({"width": 1366, "height": 900}, {"width": 390, "height": 844})
LANGUAGES = ("en", "de", "it", "pl")
SAMPLED = 12  # the decision checked: past the opening, a few cards and pieces in play
# Games whose screens do not pass yet (strict: once a game passes, its name must go), with their findings.
NOT_YET: set[str] = set()

# Text cut by its own box or by an ancestor that hides its overflow: "where: text".
CLIPPED = """() => {
  const out = [];
  const visible = (el) => el.getClientRects().length > 0 && !el.closest('details:not([open])');
  const hides = (s) => ['hidden', 'clip'].includes(s.overflowX) || ['hidden', 'clip'].includes(s.overflowY);
  for (const el of document.querySelectorAll('body *')) {
    if (![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()) || !visible(el)) continue;
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden') continue;
    const text = el.textContent.trim().slice(0, 40);
    const cuts = style.overflowX !== 'visible' || style.textOverflow === 'ellipsis';
    if (cuts && el.scrollWidth > el.clientWidth + 1) {
      out.push(`${el.className || el.tagName}: ${text}`);
      continue;
    }
    const r = el.getBoundingClientRect();
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      if (!hides(getComputedStyle(a))) continue;
      const b = a.getBoundingClientRect();
      if (r.right > b.right + 1 || r.left < b.left - 1 || r.bottom > b.bottom + 1 || r.top < b.top - 1) {
        out.push(`inside ${a.className || a.tagName}: ${text}`);
        break;
      }
    }
  }
  return out;
}"""

# Texts that overlap another text (not one inside the other): each text node's boxes, cut to what its
# scrolling or clipping ancestors show, against every other's: "text / text".
OVERLAPS = """() => {
  const cut = (r, el) => {
    let [l, t, rt, b] = [r.left, r.top, r.right, r.bottom];
    for (let a = el.parentElement; a && a !== document.documentElement; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
      const c = a.getBoundingClientRect();
      [l, t, rt, b] = [Math.max(l, c.left), Math.max(t, c.top), Math.min(rt, c.right), Math.min(b, c.bottom)];
    }
    return rt - l > 1 && b - t > 1 ? [l, t, rt, b] : null;
  };
  const texts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!n.textContent.trim() || !el || !el.getClientRects().length) continue;
    if (el.closest('details:not([open])') || getComputedStyle(el).visibility === 'hidden') continue;
    const range = document.createRange();
    range.selectNodeContents(n);
    for (const r of range.getClientRects()) {
      const box = cut(r, el);
      if (box) texts.push({ el, box, text: n.textContent.trim().slice(0, 30) });
    }
  }
  const out = [];
  for (let i = 0; i < texts.length; i++) {
    for (let j = i + 1; j < texts.length; j++) {
      const [a, b] = [texts[i], texts[j]];
      if (a.el === b.el || a.el.contains(b.el) || b.el.contains(a.el)) continue;
      const w = Math.min(a.box[2], b.box[2]) - Math.max(a.box[0], b.box[0]);
      const h = Math.min(a.box[3], b.box[3]) - Math.max(a.box[1], b.box[1]);
      if (w > 2 && h > 2) out.push(`${a.text} / ${b.text}`);
    }
  }
  return out;
}"""

# Highlighted pieces whose centre, once scrolled into view, gives the click to something else.
UNCLICKABLE = """() => {
  const out = [];
  const visible = (el) => el.getClientRects().length > 0 && !el.closest('details:not([open])');
  for (const el of [...document.querySelectorAll('[data-legal]')].filter(visible)) {
    el.scrollIntoView({ block: 'center', inline: 'center' });
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!hit || !(hit === el || el.contains(hit))) {
      const what = hit ? hit.className.baseVal ?? hit.className : 'nothing';
      out.push(`${el.dataset.obj || el.dataset.legal}: ${what}`);
    }
  }
  window.scrollTo(0, 0);
  return out;
}"""

# The prompt (and at a desktop size the board's first child, or once the game is over the score screen's
# top) on the screen, the page at its top. Arktia's game could end before the sampled decision (the table's
# seed depends on the order the module's server makes tables): its board then lies under the score screen
# and the offer of a rematch (y 627–1025 at 1366×900), as it should.
OFF_SCREEN = """([desktop]) => {
  window.scrollTo(0, 0);
  const out = [];
  const parts = ['[data-testid=status]'];
  const score = document.querySelector('[data-testid=score-screen]');
  if (desktop) parts.push(score ? '[data-testid=score-screen] > *' : '#board > *');
  for (const sel of parts) {
    const el = document.querySelector(sel);
    if (!el) { out.push(sel + ': missing'); continue; }
    const r = el.getBoundingClientRect();
    if (r.top < -1 || r.left < -1 || r.right > innerWidth + 1 || (desktop && r.bottom > innerHeight + 1)) {
      out.push(`${sel}: ${[r.left, r.top, r.right, r.bottom].map(Math.round)}`);
    }
  }
  return out;
}"""


def _table(base: str, game: str, players: int) -> str:
    """A table of a person (seat 0) and random bots; returns the person's seat link."""
    seats = [{"kind": "person", "name": "Ann"}] + [{"kind": "bot", "bot": "random"}] * (players - 1)
    body = json.dumps({"game": game, "seats": seats}).encode()
    request = urllib.request.Request(
        f"{base}/api/tables", data=body, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=60) as answer:
        return f"{base}{json.load(answer)['seats'][0]['link']}"


def _in(link: str, lang: str) -> str:
    """The seat link with ``?lang=``."""
    parts = urllib.parse.urlsplit(link)
    return urllib.parse.urlunsplit(parts._replace(query=urllib.parse.urlencode({"lang": lang})))


def _cases() -> list[Any]:
    marks = {
        name: [pytest.mark.xfail(strict=True, raises=AssertionError, reason="does not fit yet")]
        for name in NOT_YET
    }
    return [
        pytest.param(e.name, max(2, e.min_players), marks=marks.get(e.name, []))
        for e in entries()
        if e.web is not None
    ]


@pytest.mark.parametrize(("game", "players"), _cases())
def test_a_sampled_decision_fits_every_language_and_size(
    browser: Any, server: Any, game: str, players: int
) -> None:
    page = new_page(browser, SIZES[0], still=True)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_default_timeout(60_000)
    link = _table(server.base, game, players)
    page.goto(link)
    play(page, random.Random(20261127), until=lambda clicks: clicks >= SAMPLED)
    found: list[str] = []
    for lang in LANGUAGES:
        for size in SIZES:
            page.set_viewport_size(size)
            page.goto(_in(link, lang))
            page.wait_for_function(READY)
            where = f"{lang} {size['width']}×{size['height']}"
            assert page.evaluate("() => document.documentElement.lang") == lang, where
            found += [f"{where} clipped {x}" for x in page.evaluate(CLIPPED)]
            found += [f"{where} overlapping {x}" for x in page.evaluate(OVERLAPS)]
            found += [f"{where} off screen {x}" for x in page.evaluate(OFF_SCREEN, [size["width"] > 900])]
            found += [f"{where} not clickable {x}" for x in page.evaluate(UNCLICKABLE)]
    page.close()
    assert not errors, f"JavaScript errors: {errors}"
    assert not found, f"{game}: {len(found)} findings: " + "; ".join(found[:12])


# The lobby's rules menus whose widest entry does not fit the closed menu (its arrow included): "name: sizes".
CUT_MENUS = """() => {
  const probe = document.createElement('span');
  probe.style.cssText = 'position: absolute; visibility: hidden; white-space: pre';
  document.body.append(probe);
  const out = [];
  for (const select of document.querySelectorAll('[data-testid=create-form] select[data-opt]')) {
    if (!select.getClientRects().length) continue;
    const style = getComputedStyle(select);
    probe.style.font = style.font;
    const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;
    const widths = [...select.options].map((o) => ((probe.textContent = o.text), probe.offsetWidth));
    const widest = Math.max(...widths);
    if (widest > room + 1) out.push(`${select.dataset.testid}: ${widest} > ${Math.round(room)}`);
  }
  probe.remove();
  return out;
}"""


def test_the_lobbys_rules_menus_show_their_entries_whole(browser: Any, server: Any) -> None:
    """At 1366×900, in every language, every game's rules menus (the "More rules" ones too) are wide enough
    for their longest entry: a closed menu cannot wrap, it cuts (issue 27: Arktia's layouts). A phone's
    menus are as wide as the screen; some entries are longer still (they show whole when the menu opens)."""
    page = new_page(browser, SIZES[0])
    page.set_default_timeout(60_000)
    found: list[str] = []
    for lang in LANGUAGES:
        page.goto(f"{server.base}/?lang={lang}")
        for e in entries():
            page.wait_for_selector(f"[data-testid=game] option[value={e.name}]", state="attached")
            page.select_option("[data-testid=game]", e.name)
            page.wait_for_function(
                "(name) => document.querySelector('[data-testid=game]').value === name", arg=e.name
            )
            if page.locator("[data-testid=more-rules]").is_visible():
                page.evaluate("() => { document.querySelector('[data-testid=more-rules]').open = true; }")
            found += [f"{lang} {e.name} {x}" for x in page.evaluate(CUT_MENUS)]
            if lang == "de" and e.name == "arktia":
                # A default written with notation in backticks is translated too (it once showed in English).
                default = page.locator("[data-testid=opt-layout] option").first.inner_text()
                assert "nach Spielerzahl: placeholder-18" in default, default
    page.close()
    assert not found, f"{len(found)} menus cut: " + "; ".join(found[:12])

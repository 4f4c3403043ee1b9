"""Driving a table page like a person: what can be clicked now, a real mouse click on one of those things,
and whether the parts of the table a decision needs are on the screen. Shared by the layout and pacing
tests and by scripts/screenshots.py; no game is named here (the callers say which parts to look at)."""

from __future__ import annotations

import json
import random
import urllib.request
from collections.abc import Callable
from typing import Any

from floe.core.i18n import FLOE
from floe.core.registry import entry
from floe.testing.untranslated import english_words, untranslated

# The pace a page starts with: "0" draws every state as it comes (the pacing test sets its own).
PACE_INIT = "localStorage.setItem('floe.pace', '{pace}')"

# What a reader reads: the text, and the tips, labels and titles of what shows (an SVG element's too, which
# has no client rectangle of its own): card tips, a scale's sides (data-left/right), icons' <title>s.
PAGE_TEXT = """() => [document.body.innerText,
  ...[...document.querySelectorAll('[title],[aria-label],[data-tip],[placeholder],[data-left],[data-right]')]
    .filter((el) => el.getClientRects().length > 0 || el instanceof SVGElement)
    .map((el) => [el.title, el.getAttribute('aria-label'), el.dataset.tip, el.placeholder,
      el.dataset.left, el.dataset.right].filter(Boolean).join('\\n')),
  ...[...document.querySelectorAll('svg title')].map((el) => el.textContent)].join('\\n')"""

# One consistent look at the page: over, a refusal shown, what can be clicked by kind (choices whose
# route is on the board are "play"/"source" objects, then "dest" ones; "free" are the panel's buttons).
PROBE = """() => {
  const visible = (el) => !el.closest('details:not([open])') && el.getClientRects().length > 0;
  const all = (sel) => [...document.querySelectorAll(sel)].filter(visible);
  const toast = document.querySelector('[data-testid=toast]');
  return {
    over: !!document.querySelector('[data-testid=score-screen]'),
    toast: toast && !toast.hidden ? toast.textContent : null,
    dest: all('[data-legal=dest]').length,
    play: all('[data-legal=play]').length,
    source: all('[data-legal=source]').length,
    free: all('#choices > .choice-list [data-testid=choice]').filter((b) => !b.disabled).length,
    verbs: all('#choices > .choice-list [data-testid=choice]').filter((b) => !b.disabled)
      .map((b) => b.dataset.verb),
  };
}"""

READY = f"() => {{ const s = ({PROBE})(); return s.over || s.dest + s.play + s.source + s.free > 0; }}"

SELECTORS = {
    "dest": "[data-legal=dest]",
    "play": "[data-legal=play]",
    "source": "[data-legal=source]",
    "free": "#choices > .choice-list [data-testid=choice]:not([disabled])",
}

# Scroll the n-th object of a kind into view (a no-op on a page that fits the screen) and find a point
# where the browser's hit-testing gives the click to it; null coordinates if it is covered everywhere.
AIM = """([selector, n]) => {
  const visible = (el) => !el.closest('details:not([open])') && el.getClientRects().length > 0;
  const el = [...document.querySelectorAll(selector)].filter(visible)[n];
  if (!el) return null;
  el.scrollIntoView({ block: 'center', inline: 'center' });
  const box = el.getBoundingClientRect();
  const what = el.dataset.obj || el.dataset.verb || el.textContent.trim().slice(0, 40);
  for (const fy of [0.5, 0.2, 0.8, 0.35, 0.65, 0.1, 0.9]) {
    for (const fx of [0.5, 0.2, 0.8, 0.35, 0.65, 0.1, 0.9]) {
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

# Which of the selectors' elements are not wholly on the screen as it is (scrolled to the top first when
# `top`): a list of "selector: why".
OFF_SCREEN = """([selectors, top]) => {
  if (top) window.scrollTo(0, 0);
  const out = [];
  for (const sel of selectors) {
    const el = document.querySelector(sel);
    if (!el || !el.getClientRects().length) { out.push(sel + ': missing'); continue; }
    const r = el.getBoundingClientRect();
    if (r.top < -1 || r.left < -1 || r.bottom > innerHeight + 1 || r.right > innerWidth + 1) {
      const box = [r.left, r.top, r.right, r.bottom].map(Math.round);
      out.push(`${sel}: ${box[0]},${box[1]}-${box[2]},${box[3]}`);
    }
  }
  return out;
}"""


def new_page(
    browser: Any,
    viewport: dict[str, int],
    *,
    pace: float | None = 0,
    touch: bool = False,
    locale: str | None = None,
    still: bool = False,
) -> Any:
    """A page of its own context, its pace remembered as ``pace`` seconds (None: the page's default);
    ``touch`` makes it a phone (touch screen, coarse pointer); ``locale`` the browser's language (its
    Accept-Language and ``navigator.languages``; None: Chromium's); ``still``: the system asks for less
    motion (prefers-reduced-motion: nothing slides, so a click waits for no animation)."""
    extra: dict[str, Any] = {"locale": locale} if locale else {}
    if still:
        extra["reduced_motion"] = "reduce"
    page = browser.new_page(viewport=viewport, has_touch=touch, is_mobile=touch, **extra)
    if pace is not None:
        page.add_init_script(PACE_INIT.format(pace=pace))
    return page


def watched_page(
    browser: Any,
    viewport: dict[str, int],
    url: str | None = None,
    *,
    locale: str | None = None,
    timeout: int = 60_000,
    still: bool = False,
) -> tuple[Any, list[str]]:
    """``new_page`` (pace 0, ``locale``, ``still``) with ``timeout`` ms for every wait, opened at ``url`` if
    given, and the list its script errors are collected in (a test ends asserting it empty)."""
    page = new_page(browser, viewport, locale=locale, still=still)
    page.set_default_timeout(timeout)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    if url is not None:
        page.goto(url)
    return page, errors


def create_table(base: str, body: dict[str, Any]) -> tuple[str, str | None]:
    """A table made with ``POST /api/tables``: its id and its first person seat's token (None: all bots)."""
    request = urllib.request.Request(
        f"{base}/api/tables", data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=60) as answer:
        made = json.load(answer)
    tokens = [seat["token"] for seat in made.get("seats", []) if seat.get("token")]
    return made["table"]["id"], (tokens[0] if tokens else None)


def page_text(page: Any) -> str:
    """What a reader reads on the page (PAGE_TEXT), for the language tests to read for English."""
    return str(page.evaluate(PAGE_TEXT))


def english_on(page: Any, game: str, lang: str, allowed: set[str]) -> list[str]:
    """The English words on the page (``page_text``) that the generic or ``game``'s catalog translates into
    ``lang`` (``floe.testing.untranslated``), less the ``allowed`` names."""
    catalog = entry(game).catalog()
    assert catalog is not None
    return untranslated(page_text(page), english_words([FLOE, catalog], lang), allowed)


def probe(page: Any) -> dict[str, Any]:
    """What the page offers now (see PROBE)."""
    return dict(page.evaluate(PROBE))


def off_screen(page: Any, selectors: list[str], *, top: bool = True) -> list[str]:
    """The selectors whose element is missing or not wholly inside the viewport."""
    return list(page.evaluate(OFF_SCREEN, [selectors, top]))


def click(page: Any, kind: str, n: int) -> str:
    """A real mouse click on the n-th visible object of ``kind``, once nothing on the page slides (a person
    waits for a move to land); returns what was clicked."""
    page.wait_for_function("() => document.getAnimations().every((a) => a.playState !== 'running')")
    aim = page.evaluate(AIM, [SELECTORS[kind], n])
    assert aim is not None, f"no {kind} object {n}"
    assert aim["x"] is not None, f"the highlighted {aim['what']} cannot be clicked: something covers it"
    page.mouse.click(aim["x"], aim["y"])
    return f"{kind} {aim['what']}"


def pick(state: dict[str, Any], rng: random.Random, avoid: frozenset[str] = frozenset()) -> tuple[str, int]:
    """A seeded random thing to click: a destination once something is selected, else now and then a
    button, else a board object. A button whose verb is in ``avoid`` is clicked only when nothing else is
    (Arktia's "stop" would end the person's game at once)."""
    preferred = [k for k, verb in enumerate(state["verbs"]) if verb not in avoid]
    if state["dest"]:
        return "dest", rng.randrange(state["dest"])
    board = state["play"] or state["source"]
    if preferred and (not board or rng.random() < 0.12):
        return "free", rng.choice(preferred)
    if state["play"] and (not state["source"] or rng.random() < 0.5):
        return "play", rng.randrange(state["play"])
    if state["source"]:
        return "source", rng.randrange(state["source"])
    return "free", rng.randrange(state["free"])  # only buttons to avoid: one of them


def play(
    page: Any,
    rng: random.Random,
    *,
    before: Callable[[dict[str, Any], int], None] | None = None,
    until: Callable[[int], bool] = lambda clicks: False,
    avoid: frozenset[str] = frozenset({"stop"}),
    max_clicks: int = 2000,
) -> int:
    """Click seeded random highlighted things until the score screen shows (or ``until(clicks)``); calls
    ``before(state, clicks)`` at every decision, before the click. Returns the number of clicks; fails on
    a refused move."""
    clicks = 0
    history: list[str] = []
    while clicks < max_clicks:
        page.wait_for_function(READY)
        state = probe(page)
        assert not state["toast"], f"the server refused a move: {state['toast']} (after {history[-3:]})"
        if state["over"] or until(clicks):
            return clicks
        if before is not None:
            before(state, clicks)
        kind, n = pick(state, rng, avoid)
        history = [*history[-5:], click(page, kind, n)]
        clicks += 1
    raise AssertionError(f"no score screen after {max_clicks} clicks; last {history}")

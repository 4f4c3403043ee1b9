"""Rules help and confirmations in the browser: the "How to play" panel of every game (from the lobby and
the table), terms and cards explained on hover and on tap, the question before a seat is left to a bot,
and Arktia's stop question, turn limit and warning on the last turn before the limit.

Tables are made through the API with one person seat (its moves, where a position must be reached, go
through the moves API) and a random bot, so each test starts where it needs to be.
"""

from __future__ import annotations

import json
import os
import time
import urllib.request
from typing import Any

import pytest

from floe.testing.helpexample import help_example

from .tabledriver import new_page
from .webkit import get_json

if not os.environ.get("FLOE_REQUIRE_BROWSER"):
    pytest.importorskip("playwright.sync_api")

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}

# A phrase of each power's effect the panel must state (the engine's twelve powers, floe.games.arctic.powers).
ARCTIC_POWERS = {
    "fox-under": "bottom of your pile",
    "fox-facedown": "face-down directly under your visible card",
    "moose-place": "one card more or one fewer than your placement value",
    "moose-draw": "one card more or one fewer than your draw value",
    "walrus-main": "main animal's token may move one more step",
    "walrus-companion": "companion's token may move one more step",
    "orca-refill": "refilled to 6 cards right after each card you take",
    "orca-deck": "top card of the deck",
    "puffin-swap": "swap one card of your hand with one card of the river",
    "puffin-take-back": "take your visible card back into your hand",
    "bear-draw-penalty": "a card from your own penalty zone",
    "bear-give": "give one card of your penalty zone to another player",
}
ARCHE_ABILITIES = ("fox", "hedgehog", "tortoise", "mosquito", "skunk", "spider", "bronto", "chimp")


def _post(url: str, body: Any, token: str | None = None) -> Any:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST")
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.load(answer)


def _table(base: str, game: str, options: dict[str, Any]) -> tuple[str, str]:
    """A table of ``game``: a person in seat 0, the random bot in seat 1; its id and seat 0's token."""
    seats = [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "random"}]
    made = _post(f"{base}/api/tables", {"game": game, "seats": seats, "options": options})
    return made["table"]["id"], made["seats"][0]["token"]


def _my_turn(base: str, table: str, token: str) -> dict[str, Any]:
    """The state once it is seat 0's turn (the bot answers at once; 60 s only bounds a hang)."""
    deadline = time.monotonic() + 60
    while True:
        state: dict[str, Any] = get_json(f"{base}/api/tables/{table}/state", token)
        if state["to_move"] == 0 or state["status"] == "finished":
            return state
        assert time.monotonic() < deadline, "the bot did not move"
        time.sleep(0.05)


def test_how_to_play_for_every_game_from_the_lobby(browser: Any, server: Any) -> None:
    page = new_page(browser, DESKTOP)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_default_timeout(60_000)
    page.goto(f"{server.base}/")
    page.wait_for_selector("[data-testid=seat-kind-1]")
    panel = page.locator("[data-testid=help-panel]")
    for game in ("arctic", "arktia", "arche"):
        page.select_option("[data-testid=game]", game)
        page.click("[data-testid=help-open]")
        panel.wait_for(state="visible")
        page.wait_for_selector(f"[data-testid=help-panel] h2:text-matches('{game[:4]}', 'i')")
        example = help_example(game)
        if game == "arctic":
            for slug, phrase in ARCTIC_POWERS.items():
                row = page.locator(f"[data-testid=help-panel] tr[data-power={slug}]")
                assert phrase in row.inner_text(), slug
            assert f"= {example['total']}" in page.inner_text("[data-testid=example-total]")
        elif game == "arktia":
            for p, stated in example["players"].items():
                assert page.inner_text(f"[data-testid=example-{p}]").endswith(f"= {stated['total']}")
        else:
            for slug in ARCHE_ABILITIES:
                assert page.locator(f"[data-testid=help-panel] tr[data-ability={slug}]").count() == 1, slug
            for q, total in enumerate(example["totals"]):
                assert page.inner_text(f"[data-testid=example-total-{q}]") == str(total)
        assert page.locator("[data-testid=help-panel] [data-testid=term]").count() > 0  # terms marked
        page.click("[data-testid=help-close]")
        panel.wait_for(state="hidden")
    assert not errors, errors
    page.close()


def test_terms_and_cards_explain_themselves_and_leaving_asks(browser: Any, server: Any) -> None:
    base = server.base
    table, token = _table(base, "arctic", {"first_player": 0})
    page = new_page(browser, DESKTOP)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_default_timeout(60_000)
    page.goto(f"{base}/table/{table}#seat={token}")
    tip = page.locator("[data-testid=tip]")

    # Hover: a term of the prompt, a river card, a power card.
    term = page.locator("[data-testid=deciding] [data-term='placement value']")
    term.hover()
    assert tip.inner_text().startswith("placement value: the number at a card's top left")
    page.locator("[data-testid=river] .card").first.hover()
    assert "Placement value" in tip.inner_text()
    page.locator("[data-testid=power-walrus]").hover()
    assert tip.inner_text().startswith("Walrus: ")
    page.mouse.move(0, 0)
    tip.wait_for(state="hidden")
    # The rules panel from the table's header.
    page.click("[data-testid=help-open]")
    page.wait_for_selector("[data-testid=help-panel] tr[data-power=bear-give]")
    page.keyboard.press("Escape")
    page.locator("[data-testid=help-panel]").wait_for(state="hidden")

    # Tap, on a phone, as a spectator of the same table: the term, then a card (not a choice for a spectator).
    watcher = new_page(browser, PHONE, touch=True)
    watcher.set_default_timeout(60_000)
    watcher.goto(f"{base}/table/{table}")
    watcher.locator("[data-testid=deciding] [data-term='placement value']").tap()
    phone_tip = watcher.locator("[data-testid=tip]")
    assert phone_tip.inner_text().startswith("placement value: ")
    watcher.locator("[data-testid=river] .card").first.tap()
    assert "Placement value" in phone_tip.inner_text()
    watcher.locator("[data-testid=seats]").tap()  # elsewhere: the tip goes
    phone_tip.wait_for(state="hidden")
    watcher.close()

    # Leaving the seat to a bot asks first: "Stay" keeps the seat, confirming leaves it.
    toggle = page.locator("[data-testid=leave-toggle]")
    toggle.click()
    dialog = page.locator("[data-testid=confirm-dialog]")
    assert "A bot plays every move for you" in dialog.inner_text()
    page.click("[data-testid=confirm-cancel]")
    dialog.wait_for(state="hidden")
    assert toggle.inner_text() == "Leave (a bot plays for me)"
    # A leave sent by mistake would have reached the server by now. A negative check: a slow machine can
    # only make it pass wrongly (the leave still on its way), never fail wrongly (nothing else sets away).
    time.sleep(0.3)
    assert not get_json(f"{base}/api/tables/{table}")["seats"][0]["away"]
    toggle.click()
    page.click("[data-testid=confirm-ok]")
    # Away, or already finished: the bots play a whole game in moments, and seat 0 (with no timer) moves
    # only if it was handed to the bot.
    deadline = time.monotonic() + 60  # only bounds a hang
    while not (
        get_json(f"{base}/api/tables/{table}")["seats"][0]["away"]
        or get_json(f"{base}/api/tables/{table}/state")["status"] == "finished"
    ):
        assert time.monotonic() < deadline, "confirming did not leave the seat"
        time.sleep(0.05)
    assert not errors, errors
    page.close()


def test_arktia_stop_asks_and_the_turn_limit_shows(browser: Any, server: Any) -> None:
    base = server.base
    # Two seats, no neutrals, a limit of 5 turns: the person's third turn (turn 5) is the last one.
    table, token = _table(base, "arktia", {"neutrals": False, "max_turns": 5})
    for _ in range(2):  # the two opening placements, through the API
        state = _my_turn(base, table, token)
        place = next(c for c in state["legal"] if c["verb"] == "place")
        _post(f"{base}/api/tables/{table}/moves", {"action": place["id"], "version": state["version"]}, token)
    state = _my_turn(base, table, token)
    assert state["view"]["turn"] == 4 and state["status"] == "playing"
    page = new_page(browser, DESKTOP)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_default_timeout(60_000)
    page.goto(f"{base}/table/{table}#seat={token}")
    warning = page.locator("[data-testid=choice-warning]")
    warning.wait_for(state="visible")
    assert warning.inner_text() == "Careful: every choice you have ends the game: the turn limit is reached."
    status = page.inner_text("[data-testid=status]")
    assert "Turn 5 of at most 5" in status and "the turn limit ends the game after this turn" in status

    stop = page.locator("[data-testid=choice][data-verb=stop]:visible").first
    stop.click()
    dialog = page.locator("[data-testid=confirm-dialog]")
    assert dialog.inner_text().startswith("Stop and end your game here?")
    page.click("[data-testid=confirm-cancel]")
    dialog.wait_for(state="hidden")
    # A move sent by mistake would have been played by now. A negative check: a slow machine can only make it
    # pass wrongly, never fail wrongly (the bot seat cannot move while it is the person's turn).
    time.sleep(0.3)
    assert get_json(f"{base}/api/tables/{table}/state")["version"] == state["version"]
    stop.click()
    page.click("[data-testid=confirm-ok]")
    page.wait_for_selector("[data-testid=score-screen]")
    final = get_json(f"{base}/api/tables/{table}/state")
    assert final["status"] == "finished" and final["view"]["seats"][0]["status"] == "(d) stopped"
    assert not errors, errors
    page.close()

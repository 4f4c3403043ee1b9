"""Arctic's board module draws a seat's face-down penalty cards (``penalties=hidden_look``) as card backs:
the cards it has seen face up, the others as backs, and the count of both. Rendered in Chromium from the
real module the server serves (``/games/arctic/board.js``) and observation dicts made by the engine."""

from __future__ import annotations

from typing import Any

import pytest

from floe.games.arctic.game import ArcticGame, ArcticState

pytest.importorskip("playwright.sync_api")

RENDER = """async (view) => {
  const board = await import('/games/arctic/board.js');
  const root = document.createElement('div');
  document.body.append(root);
  board.render(root, view, {});
  const block = root.querySelector('.zone-mine .penalties');
  const names = [...block.querySelectorAll('[data-obj^="penalty:"]')].map((el) => el.dataset.obj);
  const backs = block.querySelectorAll('.card-back').length;
  root.remove();
  return { text: block.textContent, names, backs };
}"""


def position(penalties: str) -> ArcticState:
    """P1 with three penalty cards, the first one seen (discarded), the other two drawn face down."""
    state = ArcticGame(2, {"penalties": penalties, "first_player": 0}).new_initial_state()
    while state.is_chance_node():
        state.apply(state.legal_actions()[0])
    cards = state.deck[:3]
    for c in cards:
        state.deck.remove(c)
    state.penalties[0] = sorted(cards)
    state.unseen_penalties = sorted(cards[1:]) if penalties == "hidden_look" else []
    state.forget_derived()
    return state


def test_face_down_penalty_cards_show_as_backs_to_their_owner(browser: Any, server: Any) -> None:
    page = browser.new_page()
    try:
        page.goto(server.base + "/")
        hidden = page.evaluate(RENDER, position("hidden_look").observation_dict(0))
        assert len(hidden["names"]) == 1 and hidden["backs"] == 2 and "(3, −1 each)" in hidden["text"]
        seen = page.evaluate(RENDER, position("seen").observation_dict(0))
        assert len(seen["names"]) == 3 and seen["backs"] == 0
    finally:
        page.close()

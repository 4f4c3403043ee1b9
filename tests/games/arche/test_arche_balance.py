"""Arche's balance facts (``floe balance``) against finished games: turn order, starting chips, cards won."""

from __future__ import annotations

import pytest

from floe.core.registry import make_game
from floe.games.arche.balance import facts
from floe.games.arche.game import ArcheState
from floe.lab.runner import play_game


@pytest.mark.parametrize(("seed", "seat_chips"), [(1, "equal"), (2, "later_plus_one"), (3, "later_plus_one")])
def test_facts_of_a_whole_game(seed: int, seat_chips: str) -> None:
    game = make_game("arche", 3, {"seat_chips": seat_chips, "start_chips": 2})
    _, final = play_game(game, ["random"] * 3, seed)
    assert isinstance(final, ArcheState)
    got = facts(game, final)
    first = final.first_player
    assert [s["turn_order"] for s in got.seats] == [(q - first) % 3 + 1 for q in range(3)]
    extra = 1 if seat_chips == "later_plus_one" else 0
    assert [s["starting_chips"] for s in got.seats] == [2 if q == first else 2 + extra for q in range(3)]
    # Scoring cards won, read from the public score breakdowns: the most figures on a card (shared too).
    breakdowns = final.score_breakdowns()
    cards = list(breakdowns[0]["cards"])
    for q, seat in enumerate(got.seats):
        won = [
            k
            for k in cards
            if breakdowns[q]["cards"][k]["figures"] > 0
            and breakdowns[q]["cards"][k]["figures"] == max(b["cards"][k]["figures"] for b in breakdowns)
        ]
        assert seat["scoring_cards_won"] == (won or ["none"])
    assert any(seat["scoring_cards_won"] != ["none"] for seat in got.seats)
    assert got.game["turns"] == final.turn

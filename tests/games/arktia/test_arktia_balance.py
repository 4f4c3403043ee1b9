"""Arktia's balance facts (``floe balance``) against finished games: turn order, layout, how games end."""

from __future__ import annotations

import pytest

from floe.core.registry import make_game
from floe.games.arktia.balance import facts
from floe.games.arktia.game import ArktiaState
from floe.lab.runner import play_game


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_facts_of_a_whole_game(seed: int) -> None:
    game = make_game("arktia", 3, {"first_player": 1})
    _, final = play_game(game, ["random"] * 3, seed)
    assert isinstance(final, ArktiaState)
    got = facts(game, final)
    layout = final.config.layout.name
    assert [s["turn_order"] for s in got.seats] == [3, 1, 2]  # P2 moves first
    assert [s["seat_on_layout"] for s in got.seats] == [f"{layout} · P{q}" for q in (1, 2, 3)]
    assert got.game["layout"] == layout and got.game["turns"] == final.turn
    # The game ended when no seat was left active: every seat says why, and the game lists those reasons.
    reasons = {s["ended_by"] for s in got.seats}
    assert "active" not in reasons
    assert got.game["end_condition"] == " + ".join(sorted(reasons))
    assert got.game["turn_limit"] is ("turn limit" in reasons)


def test_a_game_cut_by_the_turn_limit() -> None:
    game = make_game("arktia", 2, {"max_turns": 8})
    _, final = play_game(game, ["random"] * 2, 4)
    got = facts(game, final)
    assert got.game["turn_limit"] is True and got.game["turns"] == 8
    assert "turn limit" in str(got.game["end_condition"])
    assert [s["ended_by"] for s in got.seats] == ["turn limit", "turn limit"]

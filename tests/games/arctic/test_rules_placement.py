"""Step A without powers: placement value, shortfall penalties, empty hands, taking the power
(docs/arctic-rules.md §5.1)."""

from __future__ import annotations

import pytest

from floe.core.errors import IllegalActionError
from floe.games.arctic.cards import card_name

from .positions import (
    arrange,
    card,
    finish_turn,
    holder_of,
    legal,
    main_deck,
    new_game,
    play,
    pos,
    resolve,
    step_name,
)


def test_placement_value_comes_from_the_visible_card() -> None:
    _, st = new_game(2)
    hand = ["moose-walrus-5", "walrus-orca-5", "orca-puffin-5", "bear-fox-5"]
    arrange(st, player=0, piles={0: ["fox-orca-3"]}, hands={0: hand})
    assert st.placement_value == 3 and (st.place_min, st.place_max) == (3, 3)
    for c in hand[:2]:
        assert "stop" not in legal(st)
        assert legal(st) == [f"place {card_name(h)}" for h in st.hands[0]]
        play(st, f"place {c}")
        assert step_name(st) == "place"
    with pytest.raises(IllegalActionError):
        play(st, "stop")
    play(st, "place orca-puffin-5")
    assert step_name(st) == "move"  # exactly P = 3 cards, then step B
    assert st.hands[0] == [card("bear-fox-5")]
    assert st.piles[0] == [
        card(c) for c in ["fox-orca-3", "moose-walrus-5", "walrus-orca-5", "orca-puffin-5"]
    ]
    assert st.penalties[0] == []


def test_only_the_visible_cards_power_is_taken() -> None:
    _, st = new_game(2)
    arrange(
        st,
        player=0,
        piles={0: ["fox-orca-3"]},
        hands={0: ["moose-walrus-5", "walrus-orca-5", "orca-puffin-5"]},
    )
    play(st, "place moose-walrus-5", "place walrus-orca-5", "place orca-puffin-5")
    assert [holder_of(st, a) for a in ("fox", "moose", "walrus", "orca")] == [-1, -1, -1, 0]


def test_power_card_is_taken_from_another_player() -> None:
    _, st = new_game(2)
    arrange(
        st, player=0, hands={0: ["fox-moose-5", "bear-fox-5"]}, piles={0: ["moose-fox-1"]}, holder={"fox": 1}
    )
    play(st, "place fox-moose-5")
    assert holder_of(st, "fox") == 0


def test_step_b_and_c_use_the_card_on_top_after_placement() -> None:
    _, st = new_game(2)
    arrange(
        st, player=0, piles={0: ["fox-puffin-2"]}, hands={0: ["orca-walrus-1", "bear-fox-5", "moose-fox-1"]}
    )
    play(st, "place bear-fox-5", "place orca-walrus-1")
    assert step_name(st) == "move"
    play(st, "main right")
    assert (pos(st, "orca"), pos(st, "walrus")) == (3, 1)
    assert (st.draw_min, st.draw_max) == (5, 5)  # draw value of orca-walrus-1


# --- shortfall (§13.5) -----------------------------------------------------------------------


def test_shortfall_hand_two_target_four_gives_two_penalty_cards() -> None:
    _, st = new_game(2)
    arrange(st, player=0, piles={0: ["fox-walrus-4"]}, hands={0: ["moose-walrus-5", "walrus-orca-5"]})
    stock_before = set(st.deck)
    deck_before = main_deck(st)
    play(st, "place moose-walrus-5", "place walrus-orca-5")
    assert st.is_chance_node()
    resolve(st)
    assert st.hands[0] == [] and st.placed == 2
    assert len(st.penalties[0]) == 2 and set(st.penalties[0]) <= stock_before
    assert main_deck(st) == deck_before - 2
    assert holder_of(st, "walrus") == 0


def test_shortfall_with_moose_place_power_is_one_less() -> None:
    _, st = new_game(2, powers=["moose-place"])
    arrange(
        st,
        player=0,
        piles={0: ["fox-walrus-4"]},
        hands={0: ["moose-walrus-5", "walrus-orca-5"]},
        holder={"moose": 0},
    )
    assert (st.place_min, st.place_max) == (3, 5)
    play(st, "place moose-walrus-5", "place walrus-orca-5")
    resolve(st)
    assert len(st.penalties[0]) == 1


def test_shortfall_with_empty_deck_and_reserve_gives_nothing() -> None:
    _, st = new_game(2)
    arrange(
        st,
        player=0,
        piles={0: ["fox-walrus-4"]},
        hands={0: ["moose-walrus-5", "walrus-orca-5"]},
        main_deck=0,
        reserve=0,
        end_triggered=True,
    )
    assert st.deck == []
    play(st, "place moose-walrus-5", "place walrus-orca-5")
    assert not st.is_chance_node()
    assert st.penalties[0] == [] and step_name(st) == "move"


def test_shortfall_partly_covered_by_the_stock() -> None:
    _, st = new_game(2)
    arrange(
        st,
        player=0,
        piles={0: ["fox-orca-3"]},
        hands={0: ["moose-walrus-5"]},
        main_deck=0,
        reserve=1,
        end_triggered=True,
    )
    play(st, "place moose-walrus-5")
    resolve(st)
    assert len(st.penalties[0]) == 1 and st.deck == []


def test_empty_hand_at_turn_start_plays_a_normal_step_a() -> None:
    """§D13: P penalty cards, the visible card's power is re-taken, B and C use the player's own card."""
    _, st = new_game(2, powers=["walrus-main"])
    arrange(st, player=0, piles={0: ["walrus-bear-3"]}, hands={0: []}, holder={"walrus": 1})
    assert st.is_chance_node()
    resolve(st)
    assert len(st.penalties[0]) == 3
    assert holder_of(st, "walrus") == 0
    assert step_name(st) == "move"
    play(st, "main right")
    assert (pos(st, "walrus"), pos(st, "bear")) == (3, 1)
    assert step_name(st) == "extra"  # the Walrus power was re-taken in A6
    play(st, "pass")
    assert step_name(st) == "draw" and (st.draw_min, st.draw_max) == (3, 3)


def test_a_normal_turn_makes_decisions_only_in_steps_a_b_c() -> None:
    _, st = new_game(2)
    arrange(
        st, player=0, piles={0: ["fox-puffin-2"]}, hands={0: ["orca-walrus-1", "bear-fox-5", "moose-fox-1"]}
    )
    steps = finish_turn(st, seed=3)
    assert steps[:2] == ["place", "place"] and "draw" in steps
    assert st.turn_player == 1 and st.turns == [1, 0]

"""A turn (docs/arche-rules.md §6): draw, or play one or two cards; new cabins; the display refilled only
after the turn."""

from __future__ import annotations

from floe.games.arche.cards import SHY, SLOW, USEFUL
from floe.games.arche.state import SECOND, START

from .arche_helpers import card, draw, mask, notations, play, position

FULL = ("camel", "zebra", "pig")  # a full display: nothing to refill after the turn


def test_draw_takes_a_display_card_then_the_top_card_then_refills() -> None:
    st = position(left=[["goat"]], right=[["sheep"]], hands={0: ["hare"]}, display=["cow", "horse", "camel"])
    legal = notations(st)
    assert legal[:3] == ["draw cow", "draw horse", "draw camel"]
    play(st, "draw horse")
    assert st.hands[0] == mask(st, ["hare", "horse"]) and st.known[0] >> card(st, "horse") & 1
    assert st.is_chance_node()
    draw(st, "card zebra")  # the deck's top card, into the hand
    assert st.hands[0] >> card(st, "zebra") & 1 and not st.known[0] >> card(st, "zebra") & 1
    draw(st, "card donkey")  # the display refilled
    assert st.display == mask(st, ["cow", "camel", "donkey"])
    assert st.current_player() == 1 and st.phase == START


def test_one_or_two_cards_into_different_cabins_each_with_a_figure() -> None:
    st = position(left=[["cow"]], right=[["horse"]], hands={0: ["goat", "sheep", "hare"]}, display=FULL)
    play(st, "play goat l1")
    assert st.phase == SECOND and st.figures[USEFUL] == 1
    legal = notations(st)
    assert "play sheep l1" not in legal, "a different cabin for the second card"
    assert "play sheep r1" in legal and "done" in legal
    play(st, "play sheep r1")
    assert st.figures[USEFUL] == 2
    assert st.current_player() == 1, "two cards end the play"


def test_done_after_one_card() -> None:
    st = position(left=[["cow"]], right=[["horse"]], hands={0: ["goat", "sheep"]}, display=FULL)
    play(st, "play goat l1", "done")
    assert st.current_player() == 1


def test_slow_animals_and_provisions_only_alone() -> None:
    st = position(left=[["cow"]], right=[["horse"]], hands={0: ["goat", "sloth", "nuts"]})
    legal = notations(st)
    assert "play sloth new-l" in legal and "play nuts new-l" in legal, "alone, as the first card"
    play(st, "play goat l1")
    assert not any("sloth" in t or "nuts" in t for t in notations(st)), "never as the second card"
    st = position(left=[["cow"]], right=[["horse"]], hands={0: ["goat", "sloth"]}, display=FULL)
    play(st, "play sloth r1")
    assert st.figures[SLOW] == 1
    assert st.current_player() == 1, "a slow animal ends the play step"


def test_a_new_cabin_costs_a_chip_to_the_right_neighbour_and_takes_a_display_card() -> None:
    st = position(
        left=[["cow"]], right=[["horse"]], hands={0: ["goat", "sheep"]}, display=["camel", "hare", "zebra"]
    )
    play(st, "play goat new-l")
    assert st.chips == [2, 3, 3, 4], "the right-hand neighbour of P1 is P4"
    assert len(st.left) == 2 and st.left[1] == mask(st, ["goat"])
    assert notations(st) == ["take camel", "take zebra", "take hare"], "in the deck's order"
    play(st, "take hare")
    assert st.hands[0] == mask(st, ["sheep", "hare"])
    play(st, "play sheep new-r")
    assert st.chips == [1, 3, 3, 5]
    assert notations(st) == ["take camel", "take zebra"], "the display is refilled only after the turn"
    play(st, "take zebra")
    assert st.is_chance_node()
    draw(st, "card donkey", "card pig")
    assert st.display == mask(st, ["camel", "donkey", "pig"]) and st.current_player() == 1


def test_no_chips_no_new_cabin() -> None:
    st = position(left=[["cow"]], right=[["horse"]], hands={0: ["goat"]}, chips=[0, 3, 3, 3])
    assert not any("new-" in t for t in notations(st))
    st = position(
        left=[["cow"]],
        right=[["horse"]],
        hands={0: ["goat"]},
        chips=[0, 3, 3, 3],
        options={"open_without_chips": True},
    )
    play(st, "play goat new-l")
    assert st.chips == [0, 3, 3, 3], "nothing to give"


def test_an_uncategorised_card_gives_no_figure() -> None:
    st = position(left=[["cow"]], right=[["horse"]], hands={0: ["skunk"]})
    play(st, "play skunk l1")
    assert sum(st.figures[:5]) == 0 and st.figures_left[0] == 17


def test_no_figures_left_none_placed() -> None:
    st = position(left=[["cow"]], right=[["horse"]], hands={0: ["goat"]}, options={"figures": 10})
    st.figures_left[0] = 0
    st.figures[SHY] = 10
    play(st, "play goat l1")
    assert st.figures[USEFUL] == 0


def test_hand_limit_discards_face_up_at_the_end_of_the_turn() -> None:
    st = position(
        left=[["cow"]],
        right=[["horse"]],
        hands={0: ["goat", "sheep", "hare"]},
        display=["camel", "zebra", "donkey"],
        options={"hand_limit": 3},
    )
    play(st, "draw camel")
    draw(st, "card pig", "card okapi")
    assert notations(st)[0].startswith("discard ") and len(notations(st)) == 5
    play(st, "discard goat")
    assert st.current_player() == 0, "five cards: two to discard"
    play(st, "discard sheep")
    assert st.out == mask(st, ["goat", "sheep"]) and st.hands[0].bit_count() == 3
    assert st.current_player() == 1

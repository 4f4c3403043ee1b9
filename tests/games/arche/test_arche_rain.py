"""Rain (docs/arche-rules.md §4.4, §8), the pet round, the end-game (10) and the end (11.1)."""

from __future__ import annotations

import random

from floe.games.arche.cards import SHY, USEFUL
from floe.games.arche.game import ArcheGame
from floe.games.arche.state import ENDGAME, OVER

from .arche_helpers import card, draw, mask, notations, play, position

FULL = ("camel", "zebra", "pig")


def test_rain_placement_middle_and_lower_half() -> None:
    """Spec 4.4: with N cards left after the deal, the top N // 2 hold no rain; then rain 1; the rest with
    rains 2–5. The chance outcomes say exactly that."""
    game = ArcheGame(4, {"first_player": 0})
    st = game.new_initial_state()
    rng = random.Random(3)
    while not st.rain_placed:
        st.apply(st.sample_chance(rng))
    assert len(st.stock) == 55 - 4 - 8
    assert (st.top_left, st.middle_rain, st.lower_rain) == (43 // 2, 1, 4)
    rain = st.config.space.rain
    while st.is_chance_node():
        assert rain not in st.legal_actions(), "no rain in the top part"
        st.apply(st.sample_chance(rng))
    assert st.top_left == 43 // 2 - 3 and st.current_player() == 0
    st.top_left = 0  # as if the top part were drawn: the middle rain comes next, certainly
    play(st, notations(st)[0])
    assert st.legal_actions() == [rain]
    draw(st, "rain")
    assert st.rain_out == 1 and st.middle_rain == 0 and st.is_chance_node(), "a replacement is drawn"
    outcomes = dict(st.chance_outcomes())
    assert abs(outcomes[rain] - 4 / (len(st.stock) + 4)) < 1e-12, "a rain as likely as its count"


def test_second_rain_starts_the_pet_round_before_the_replacement() -> None:
    st = position(
        hands={0: ["goat", "elephant"], 1: ["hare", "mouse"], 2: ["nuts"], 3: ["sloth", "bison"]},
        left=[["cow"]],
        right=[["horse"]],
        display=FULL,
        rain_out=1,
    )
    play(st, "draw camel")
    draw(st, "rain")
    assert st.rain_out == 2 and st.current_player() == 0
    assert notations(st) == ["pet goat"], "the elephant and the camel weigh 3 or more"
    play(st, "pet goat")
    assert notations(st) == ["pet hare", "pet mouse"]
    play(st, "pet mouse")
    assert notations(st) == ["no-pet"], "provisions are no pets: no eligible card"
    play(st, "no-pet")
    assert notations(st) == ["pet sloth"], "the bison weighs 3"
    play(st, "pet sloth")
    assert st.is_chance_node(), "now the replacement card"
    assert st.pets == [card(st, "goat"), card(st, "mouse"), -1, card(st, "sloth")]
    assert st.hands[0] == mask(st, ["elephant", "camel"])


def test_pets_are_hidden_until_the_end() -> None:
    st = position(
        hands={0: ["goat"], 1: ["hare"]}, left=[["cow"]], right=[["horse"]], display=FULL, rain_out=1
    )
    play(st, "draw camel")
    draw(st, "rain")
    assert st.observe_action(st.string_to_action("pet goat"), 1) == "pet ?"
    assert st.observe_action(st.string_to_action("pet goat"), 0) == "pet goat"
    play(st, "pet goat")
    assert st.observation(1).pets[0] == -1 and st.observation(1).has_pet[0]
    assert st.observation(0).pets[0] == card(st, "goat")


def test_voluntary_pets_and_the_end_of_turn_timing() -> None:
    st = position(
        hands={0: ["goat"], 1: ["hare"]},
        left=[["cow"]],
        right=[["horse"]],
        display=FULL,
        rain_out=1,
        options={"pet": "voluntary", "pet_timing": "end_of_turn"},
    )
    play(st, "draw camel")
    draw(st, "rain")
    assert st.is_chance_node() and st.pets_due, "the replacement first; pets after the turn"
    draw(st, "card bison", "card donkey")
    assert notations(st) == ["no-pet", "pet goat"]


def test_fifth_rain_ends_the_drawing_and_starts_the_end_game_left_of_the_player() -> None:
    st = position(
        hands={0: ["goat"], 1: ["hare"], 2: ["sheep"], 3: ["cow"]},
        left=[["horse"]],
        right=[["bison"]],
        display=FULL,
        rain_out=4,
        turn_player=2,
    )
    play(st, "draw zebra")
    draw(st, "rain")
    assert st.rain_out == 5 and not st.is_chance_node(), "no replacement, no refill"
    assert st.phase == ENDGAME and st.current_player() == 3 and st.endgame_from == 2
    assert notations(st)[0] == "pass"


def test_end_game_plays_cost_a_chip_new_cabins_another_and_everyone_passes_in_the_end() -> None:
    st = position(
        hands={0: ["goat", "sloth", "nuts"], 1: ["hare"], 2: [], 3: ["marmot"]},
        left=[["cow"]],
        right=[["horse"]],
        display=FULL,
        rain_out=5,
        chips=[2, 1, 0, 3],
    )
    st.phase = ENDGAME
    st._legal = None
    legal = notations(st)
    assert "pass" in legal and "play goat l1" in legal and "play goat new-l" in legal
    assert not any("sloth" in t or "nuts" in t for t in legal), "no slow animals, no provisions"
    bank = st.bank
    play(st, "play goat new-l")
    assert st.chips[0] == 0 and st.chips[3] == 4 and st.bank == bank + 1
    assert st.figures[USEFUL] == 1 and st.current_player() == 1
    assert notations(st)[0] == "pass" and "play hare new-r" not in notations(st), "one chip: no new cabin"
    play(st, "pass")
    assert notations(st) == ["pass"], "P3 has no chips"
    play(st, "pass")
    play(st, "pass")  # P4
    assert st.current_player() == 0 and notations(st) == ["pass"]
    play(st, "pass")
    assert st.is_terminal() and st.phase == OVER


def test_pets_score_at_the_end() -> None:
    st = position(
        hands={0: [], 1: [], 2: [], 3: []}, left=[["cow"]], right=[["horse"]], display=FULL, rain_out=5
    )
    st.pets[1] = card(st, "hare")
    st.phase = ENDGAME
    st._legal = None
    for _ in range(4):
        play(st, "pass")
    assert st.is_terminal()
    assert st.figures[5 + SHY] == 1, "the pet's figure on its category"
    assert st.observation(0).pets[1] == card(st, "hare"), "every pet is shown at the end"


def test_refill_rain_options() -> None:
    st = position(hands={0: ["goat"]}, left=[["cow"]], right=[["horse"]], display=("camel",), rain_out=1)
    play(st, "play goat l1", "done")
    assert st.config.space.rain in st.legal_actions(), "a rain revealed while refilling counts"
    st = position(
        hands={0: ["goat"]},
        left=[["cow"]],
        right=[["horse"]],
        display=("camel",),
        rain_out=1,
        options={"refill_rain": "reshuffle"},
    )
    play(st, "play goat l1", "done")
    assert st.config.space.rain not in st.legal_actions()

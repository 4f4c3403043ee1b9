"""The eight special abilities (docs/arche-rules.md §9) and eviction (9.1), one test per ability and per
eviction case."""

from __future__ import annotations

from floe.games.arche.cards import HEAVY, SHY, SLOW, USEFUL
from floe.games.arche.state import bits

from .arche_helpers import card, mask, notations, play, position

# figures[5 * seat + category]


def test_fox_brings_two_chips_from_the_bank() -> None:
    st = position(left=[["sheep"]], right=[["goat"]], hands={0: ["fox"]})
    bank = st.bank
    play(st, "play fox l1")
    assert st.chips[0] == 5 and st.bank == bank - 2
    assert st.figures[SHY] == 1, "the Fox is shy: a figure on shy"


def test_fox_with_a_nearly_empty_bank_gets_what_is_left() -> None:
    st = position(left=[["sheep"]], right=[["goat"]], hands={0: ["fox"]}, chips=[3, 7, 6, 5])
    assert st.bank == 1
    play(st, "play fox l1")
    assert st.chips[0] == 4 and st.bank == 0
    st = position(
        left=[["sheep"]],
        right=[["goat"]],
        hands={0: ["fox"]},
        chips=[3, 7, 6, 6],
        options={"bank": "unlimited"},
    )
    play(st, "play fox l1")
    assert st.chips[0] == 5 and st.bank == -2


def test_bronto_counts_one_and_a_half_on_heavy() -> None:
    st = position(left=[["donkey"]], right=[["elephant"]], hands={0: ["brontosaurus"]})
    assert st.tilt == -2 and "play brontosaurus l1" in notations(st)
    bank = st.bank
    play(st, "play brontosaurus new-l")
    assert st.figures[HEAVY] == 1 and st.halves[HEAVY] == 1 and st.bank == bank - 1
    assert st.chips[0] == 2, "the new cabin's chip went to the right-hand neighbour"
    assert st.chips[3] == 4


def test_chimpanzee_puts_a_chip_under_an_own_figure() -> None:
    st = position(left=[["camel"]], right=[["horse"]], hands={0: ["chimpanzee"]})
    st.figures[USEFUL] = 2
    st.figures_left[0] -= 2
    st.figures[SLOW] = 1
    st.halves[SLOW] = 1
    st.figures_left[0] -= 1
    st.bank -= 1
    play(st, "play chimpanzee l1")
    legal = notations(st)
    assert legal == ["chip useful", "no-chip"], "slow has its chip already, provisions never"
    play(st, "chip useful")
    assert st.halves[USEFUL] == 1


def test_chimpanzee_with_nothing_to_mark_does_nothing() -> None:
    st = position(left=[["camel"]], right=[["horse"]], hands={0: ["chimpanzee", "goat"]})
    play(st, "play chimpanzee l1")
    assert "done" in notations(st), "no figure yet: the turn goes on"


def test_chimpanzee_figure_first_or_chip_first() -> None:
    """With uncategorised_figure=choose the Chimpanzee gets a figure of its player's choice: placed first
    (the chip may go under it), or after the chip (chimp_order=chip_first)."""
    st = position(
        left=[["camel"]],
        right=[["horse"]],
        hands={0: ["chimpanzee"]},
        options={"uncategorised_figure": "choose"},
    )
    play(st, "play chimpanzee l1")
    assert notations(st) == [
        "figure heavy",
        "figure useful",
        "figure shy",
        "figure slow",
        "figure provisions",
    ]
    play(st, "figure shy")
    assert notations(st) == ["chip shy", "no-chip"]
    st = position(
        left=[["camel"]],
        right=[["horse"]],
        hands={0: ["chimpanzee"]},
        options={"uncategorised_figure": "choose", "chimp_order": "chip_first"},
    )
    play(st, "play chimpanzee l1")
    assert notations(st)[0] == "figure heavy", "no figure to mark yet: the chip is skipped"


def test_hedgehog_and_tortoise_are_left_alone_by_predators() -> None:
    st = position(left=[["tyrannosaurus"]], right=[["elephant"]], hands={0: ["hedgehog", "tortoise"]})
    legal = notations(st)
    assert "play hedgehog l1" in legal and "play tortoise l1" in legal
    assert "play hedgehog r1" in legal, "the Hedgehog (O, 1) below the heavier herbivore"


def test_mosquito_evicts_an_animal_of_weight_two() -> None:
    st = position(left=[["donkey"], ["goat"]], right=[["camel"]], hands={0: ["mosquito"]})
    legal = notations(st)
    assert "play mosquito evict donkey" in legal
    assert "play mosquito evict goat" not in legal, "the goat weighs 1"
    tilt = st.tilt
    play(st, "play mosquito evict donkey")
    assert st.left[0] == mask(st, ["mosquito"]), "the Mosquito takes the donkey's place"
    assert st.out >> card(st, "donkey") & 1, "the evicted card leaves the game"
    assert st.tilt == tilt - 2, "the scale corrected by the difference"
    assert st.figures[USEFUL] == 1, "a figure on the evicted animal's category"


def test_skunk_evicts_any_animal_even_from_a_full_cabin() -> None:
    st = position(left=[["goat", "sheep", "cow"]], right=[["horse"], ["camel"]], hands={0: ["skunk"]})
    legal = notations(st)
    assert "play skunk evict goat" in legal, "O 1 with the sheep (2) and the cow (3)"
    assert "play skunk evict sheep" not in legal and "play skunk evict cow" not in legal, (
        "the goat (1) is not heavier than the skunk (1)"
    )
    assert "play skunk l1" not in legal, "a full cabin takes a card only in an evicted card's place"
    play(st, "play skunk evict goat")
    assert st.left[0] == mask(st, ["skunk", "sheep", "cow"]) and st.figures[USEFUL] == 1


def test_spider_evicts_a_shy_animal_but_never_the_fox() -> None:
    st = position(left=[["hare"], ["fox"]], right=[["goat"], ["sheep"]], hands={0: ["spider"]})
    legal = notations(st)
    assert "play spider evict hare" in legal
    assert "play spider evict fox" not in legal, "Fox, Spider and Mosquito cannot be evicted"
    play(st, "play spider evict hare")
    assert st.figures[SHY] == 1


def test_provisions_are_not_evicted_unless_the_option_says_so() -> None:
    hands = {0: ["skunk"]}
    st = position(left=[["hay"]], right=[["cow"]], hands=hands)
    assert "play skunk evict hay" not in notations(st)
    st = position(left=[["hay"]], right=[["cow"]], hands=hands, options={"evict_provisions": True})
    assert "play skunk evict hay" in notations(st)


def test_an_eviction_must_keep_the_scale() -> None:
    st = position(left=[["cow"]], right=[["horse"]], hands={0: ["skunk"]})
    assert "play skunk evict cow" in notations(st), "-2 is within the scale"
    st = position(left=[["cow"], ["goat"]], right=[["horse"], ["sheep"]], hands={0: ["skunk"]})
    assert st.tilt == -1
    assert "play skunk evict cow" not in notations(st), "-1 - 2 = -3 tips the ark"


def test_evicting_the_bronto_gives_its_half_point() -> None:
    st = position(left=[["brontosaurus"]], right=[["donkey"]], hands={0: ["skunk"]})
    play(st, "play skunk evict brontosaurus")
    assert st.figures[HEAVY] == 1 and st.halves[HEAVY] == 1


def test_evicting_the_chimpanzee_gives_its_chip() -> None:
    st = position(left=[["chimpanzee"]], right=[["donkey"]], hands={0: ["skunk"]})
    st.figures[SLOW] = 1
    st.figures_left[0] -= 1
    play(st, "play skunk evict chimpanzee")
    assert notations(st) == ["chip slow", "no-chip"]


def test_mandatory_eviction() -> None:
    hands = {0: ["skunk"]}
    st = position(left=[["cow"]], right=[["horse"]], hands=hands)
    assert "play skunk l1" in notations(st), "optional: the skunk may simply join"
    st = position(left=[["cow"]], right=[["horse"]], hands=hands, options={"eviction": "mandatory"})
    legal = notations(st)
    assert "play skunk l1" not in legal and "play skunk evict cow" in legal


def test_evicting_from_any_cabin() -> None:
    st = position(
        left=[["cow"], ["hare"]],
        right=[["horse"]],
        hands={0: ["spider"]},
        options={"evict_from": "any_cabin"},
    )
    legal = notations(st)
    assert not any("evict" in t for t in legal), "the evicter enters like any card"
    play(st, "play spider r1")
    assert notations(st) == ["no-evict", "evict hare"]
    play(st, "evict hare")
    assert st.left[1] == 0, "an emptied cabin stays a cabin"
    assert st.figures[SHY] == 1


def test_no_abilities_in_the_end_game_when_the_option_says_so() -> None:
    opts = {"endgame_abilities": False}
    st = position(left=[["cow"]], right=[["horse"]], hands={0: ["skunk"]}, options=opts, rain_out=5)
    st.phase = 3  # ENDGAME
    st._legal = None
    assert not any("evict" in t for t in notations(st))


def test_the_evicted_cards_figure_stays() -> None:
    st = position(left=[["donkey"]], right=[["goat"]], hands={0: ["mosquito"]})
    st.figures[5 * 1 + USEFUL] = 1  # P2 played the donkey earlier
    play(st, "play mosquito evict donkey")
    assert st.figures[5 + USEFUL] == 1 and st.figures[USEFUL] == 1
    assert bits(st.out) == [card(st, "donkey")]

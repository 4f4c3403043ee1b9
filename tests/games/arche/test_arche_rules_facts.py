"""Facts of Arche's rules that the golden games and the perft counts do not pin, each from the spec or an
option's stated meaning: where the rain goes into the deck (4.4), the bank running dry under a Bronto
(9.2, option ``bank``), chips under a figure (option ``chips_per_figure``), a second chip from the
Chimpanzee, and the order of a pet round before the first turn (found by mutation testing)."""

from __future__ import annotations

import pytest

from floe.games.arche import rules
from floe.games.arche.cards import HEAVY, USEFUL
from floe.games.arche.state import J_PET

from .arche_helpers import play, position


@pytest.mark.parametrize(
    ("placement", "expected"),
    [("middle", (15, 1, 4)), ("lower_half", (15, 0, 5)), ("anywhere", (0, 0, 5))],
)
def test_the_rain_goes_into_the_deck_as_the_option_says(placement: str, expected: tuple[int, ...]) -> None:
    # 30 cards left: the top 15 hold no rain; then rain 1 (middle) or nothing; the rest hold the others.
    st = position(options={"rain_placement": placement})
    st.stock = list(range(30))
    rules._rain_into_deck(st)
    assert (st.top_left, st.middle_rain, st.lower_rain) == expected and st.rain_placed is True


@pytest.mark.parametrize(("bank", "half"), [("finite", 0), ("unlimited", 1)])
def test_a_bronto_with_the_bank_empty(bank: str, half: int) -> None:
    # The 22 discs are all with the players: a finite bank has no chip for the Bronto's half point.
    st = position(
        left=[["donkey"]], right=[["elephant"]], hands={0: ["brontosaurus"]}, chips=[6, 6, 5, 5],
        options={"bank": bank},
    )  # fmt: skip
    assert st.bank == 0
    play(st, "play brontosaurus l1")
    assert st.figures[HEAVY] == 1 and st.halves[HEAVY] == half and st.bank == -half


@pytest.mark.parametrize(("rule", "halves"), [("one", 2), ("any", 3)])
def test_chips_under_figures(rule: str, halves: int) -> None:
    # Two chips under one heavy figure already (possible with "any"); the Bronto's new figure brings the
    # figures to two: with "one" (at most one chip per figure) there is no room for a third chip.
    st = position(
        left=[["donkey"]],
        right=[["elephant"]],
        hands={0: ["brontosaurus"]},
        options={"chips_per_figure": rule},
    )
    st.figures[HEAVY], st.halves[HEAVY] = 1, 2
    st.figures_left[0] -= 1
    play(st, "play brontosaurus l1")
    assert (st.figures[HEAVY], st.halves[HEAVY]) == (2, halves)


def test_the_chimpanzee_adds_a_chip_to_those_under_a_category() -> None:
    st = position(left=[["camel"]], right=[["horse"]], hands={0: ["chimpanzee"]})
    st.figures[USEFUL], st.halves[USEFUL] = 2, 1
    st.figures_left[0] -= 2
    bank = st.bank
    play(st, "play chimpanzee l1", "chip useful")
    assert st.halves[USEFUL] == 2 and st.bank == bank - 1


def test_a_pet_round_before_the_first_turn_starts_with_the_first_seat() -> None:
    st = position()
    st.turn_player = -1  # set-up: nobody's turn yet
    assert [seat for kind, seat, _ in rules._pet_jobs(st)] == [0, 1, 2, 3]
    assert {kind for kind, _, _ in rules._pet_jobs(st)} == {J_PET}
    st.turn_player = 2
    assert [seat for _, seat, _ in rules._pet_jobs(st)] == [2, 3, 0, 1]

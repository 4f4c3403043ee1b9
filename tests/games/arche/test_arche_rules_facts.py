"""Facts of Arche's rules that the golden games and the perft counts do not pin, each from the spec or an
option's stated meaning: where the rain goes into the deck (§4.4), the bank running dry under a Bronto
(9.2, option ``bank``), chips under a figure (option ``chips_per_figure``), a second chip from the
Chimpanzee, and the order of a pet round before the first turn (found by mutation testing)."""

from __future__ import annotations

import pytest

from floe.games.arche import rules
from floe.games.arche.cards import HEAVY, SHY, USEFUL
from floe.games.arche.config import MAX_ROW, MAX_TILT, NEW_LEFT
from floe.games.arche.game import ArcheGame, ArcheState
from floe.games.arche.state import ENDGAME, J_PET, SECOND, SETUP, START

from .arche_helpers import card, check_state, draw, make_state, mask, notations, play, position

FULL = ("camel", "zebra", "pig")  # a full display: nothing to refill after the turn


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


# --- found by the second mutation run: each a rule fact the other tests left open ---------------------------


def test_a_rain_due_at_the_middle_but_shuffled_back_joins_the_lower_part() -> None:
    # The top part is drawn out and rain 1 is next; a refill may not reveal a rain (refill_rain=reshuffle),
    # so rain 1 goes back into the lower part: no middle rain left, one more rain below.
    st = position(
        hands={0: ["goat"]},
        left=[["cow"]],
        right=[["horse"]],
        display=("camel",),
        top_left=0,
        options={"refill_rain": "reshuffle"},
    )
    assert (st.top_left, st.middle_rain, st.lower_rain) == (0, 1, 4)
    play(st, "play goat l1", "done")
    draw(st, "card zebra")
    assert (st.top_left, st.middle_rain, st.lower_rain, st.rain_out) == (0, 0, 5, 0)


def test_lower_half_rain_placement_with_an_odd_deck() -> None:
    st = position(options={"rain_placement": "lower_half"})
    st.stock = list(range(31))
    rules._rain_into_deck(st)
    assert (st.top_left, st.middle_rain, st.lower_rain) == (15, 0, 5) and isinstance(st.top_left, int)


def test_an_eviction_from_the_right_row_lightens_the_right_side() -> None:
    st = position(
        left=[["cow"]],
        right=[["horse"], ["hare"]],
        hands={0: ["spider"]},
        options={"evict_from": "any_cabin"},
    )
    assert st.tilt == 3 - (3 + 1)
    play(st, "play spider l1", "evict hare")  # the spider weighs 0
    assert st.tilt == 3 - 3 and st.figures[SHY] == 1


def test_the_evicted_cards_figure_comes_before_the_display_card_of_a_new_cabin() -> None:
    """The spec's order (rules module): the card's figure, the eviction's figure, then the display card."""
    st = position(
        left=[["cow"]],
        right=[["horse"], ["hare"]],
        hands={0: ["spider"]},
        display=FULL,
        options={"evict_from": "any_cabin"},
    )
    play(st, "play spider new-l", "evict hare")
    assert st.figures[SHY] == 1 and notations(st)[0].startswith("take ")


def test_drawing_the_first_card_of_the_deck_from_the_display() -> None:
    st = position(left=[["cow"]], right=[["horse"]], display=("brontosaurus", "camel", "zebra"))
    assert card(st, "brontosaurus") == 0
    play(st, "draw brontosaurus")
    assert st.hands[0] == mask(st, ["brontosaurus"]) and st.is_chance_node()


def test_the_skunk_evicts_the_brontosaurus_and_gets_its_half_point() -> None:
    st = position(left=[["brontosaurus"], ["goat"]], right=[["elephant"]], hands={0: ["skunk"]})
    bank = st.bank
    play(st, "play skunk evict brontosaurus")
    assert st.left[0] == mask(st, ["skunk"]) and st.tilt == (1 + 1) - 4
    assert (st.figures[HEAVY], st.halves[HEAVY], st.bank) == (1, 1, bank - 1)


@pytest.mark.parametrize("endgame", [False, True])
def test_endgame_options_switch_off_abilities_and_figures_only_in_the_end_game(endgame: bool) -> None:
    opts = {"endgame_abilities": False, "endgame_figures": False}
    st = position(left=[["sheep"]], right=[["goat"]], hands={0: ["fox"]}, options=opts, rain_out=5 * endgame)
    if endgame:
        st.phase = ENDGAME
        st._legal = None
    chips, bank = st.chips[0], st.bank
    play(st, "play fox l1")
    fee = 1 if endgame else 0
    gain = 0 if endgame else 2
    assert st.chips[0] == chips - fee + gain and st.bank == bank + fee - gain
    assert st.figures[SHY] == (0 if endgame else 1)


@pytest.mark.parametrize("figures", [True, False])
def test_an_eviction_in_the_end_game_gives_a_figure_unless_the_option_says_no(figures: bool) -> None:
    st = position(
        left=[["donkey"]], right=[["goat"]], hands={0: ["mosquito"]}, rain_out=5,
        options={"endgame_figures": figures},
    )  # fmt: skip
    st.phase = ENDGAME
    st._legal = None
    play(st, "play mosquito evict donkey")
    assert st.figures[USEFUL] == (1 if figures else 0)


def test_outside_the_end_game_an_eviction_gives_a_figure_whatever_the_end_game_option() -> None:
    st = position(
        left=[["donkey"]], right=[["goat"]], hands={0: ["mosquito"]}, options={"endgame_figures": False}
    )
    play(st, "play mosquito evict donkey")
    assert st.figures[USEFUL] == 1


def test_chip_first_puts_the_chimpanzees_chip_before_its_figure() -> None:
    st = position(
        left=[["camel"]],
        right=[["horse"]],
        hands={0: ["chimpanzee"]},
        options={"uncategorised_figure": "choose", "chimp_order": "chip_first"},
    )
    st.figures[USEFUL] = 1
    st.figures_left[0] -= 1
    play(st, "play chimpanzee l1")
    assert notations(st) == ["chip useful", "no-chip"], "the chip first, under the figure already there"
    play(st, "chip useful")
    assert notations(st)[0] == "figure heavy" and st.halves[USEFUL] == 1


def test_the_fox_gets_nothing_from_an_empty_bank() -> None:
    st = position(left=[["sheep"]], right=[["goat"]], hands={0: ["fox"]}, chips=[3, 7, 6, 6])
    assert st.bank == 0
    play(st, "play fox l1")
    assert st.chips[0] == 3 and st.bank == 0


def test_the_last_figure_is_placed_and_the_bronto_takes_the_last_bank_chip() -> None:
    st = position(left=[["donkey"]], right=[["elephant"]], hands={0: ["brontosaurus"]}, chips=[6, 6, 5, 4])
    st.figures_left[0] = 1
    st.figures[SHY] = 16
    assert st.bank == 1
    play(st, "play brontosaurus l1")
    assert (st.figures[HEAVY], st.halves[HEAVY], st.figures_left[0], st.bank) == (1, 1, 0, 0)


def test_a_refill_with_nothing_left_to_draw_is_skipped_and_the_turn_passes() -> None:
    st = position(
        hands={0: ["goat"]}, left=[["cow"]], right=[["horse"]], display=("camel",), rain_out=4,
        options={"refill_rain": "reshuffle"},
    )  # fmt: skip
    for c in st.stock:  # the deck holds only the last rain, which a refill may not reveal
        st.out |= 1 << c
    st.stock = []
    play(st, "play goat l1", "done")
    assert st.current_player() == 1 and st.phase == START and st.display == mask(st, ["camel"])


def test_a_second_card_chimpanzee_with_nothing_to_mark_ends_the_turn() -> None:
    st = position(left=[["camel"]], right=[["horse"]], hands={0: ["goat", "chimpanzee"]}, display=FULL)
    play(st, "play goat l1")
    st.halves[USEFUL] = 1  # the goat's figure already has its chip: nothing left to mark
    st.bank -= 1
    play(st, "play chimpanzee r1")
    assert st.current_player() == 1 and st.phase == START


def _set_up(options: dict[str, object], *, rains: int) -> tuple[ArcheState, list[ArcheState]]:
    """A 4-player set-up with rains able to show in the display (rain_placement=anywhere, setup_rain=counts):
    the first ``rains`` reveals are rains, then cards; each seat answers a pet round with its first choice.
    Returns the state after set-up and the states at each decision taken during set-up."""
    game = ArcheGame(4, {"first_player": 0, "rain_placement": "anywhere", "setup_rain": "counts", **options})
    st = game.new_initial_state()
    rain = st.config.space.rain
    asked: list[ArcheState] = []
    for _ in range(200):
        if st.phase != SETUP:
            return st, asked
        legal = st.legal_actions()
        if st.is_chance_node():
            st.apply(rain if rain in legal and st.rain_out < rains else legal[0])
        else:
            asked.append(st.clone())
            st.apply(legal[0])
    raise AssertionError("the set-up does not end")


def test_a_pet_round_due_at_the_end_of_set_up_comes_once_before_the_first_turn() -> None:
    st, asked = _set_up({"pet_timing": "end_of_turn"}, rains=2)
    assert st.rain_out == 2 and st.phase == START and st.current_player() == 0
    assert [s.current_player() for s in asked] == [0, 1, 2, 3], "one pet round, from the first player"
    for s in asked:  # still set-up: turn 0, nothing played, no chips dealt, the 22 discs all counted
        assert (s.turn, s.played, s.chips) == (0, 0, [0, 0, 0, 0])
        check_state(s)
    assert st.turn == 1 and st.chips == [3, 3, 3, 3]


def test_the_fifth_rain_in_set_up_starts_the_end_game_with_the_first_player() -> None:
    """Spec 10: the left neighbour of the seat that revealed the fifth rain begins; in set-up that is as if
    the seat before the first player had, so the first player begins, chips dealt."""
    st, _ = _set_up({}, rains=5)
    assert st.rain_out == 5 and st.phase == ENDGAME
    assert (st.current_player(), st.endgame_from, st.chips) == (0, 3, [3, 3, 3, 3])
    assert notations(st)[0] == "pass"


def test_second_card_scale_both_uses_the_tilt_at_the_start_of_each_turn() -> None:
    """second_card_scale=both: the second card must fit the scale after the first card and from where it
    stood when the turn began, in every turn (here the first two, each with second cards to play)."""
    st = make_state(4, {"second_card_scale": "both"}, seed=51)
    cfg = st.config
    sp, n = cfg.space, cfg.deck.n
    checked = []
    for _ in range(2):
        checked.append(0)
        start = st.tilt
        firsts = [a for a in st.legal_actions() if sp.play <= a < sp.evict]
        for a in firsts:
            trial = st.clone()
            trial.apply(a)
            if trial.phase != SECOND:
                continue
            for b in trial.legal_actions():
                if not sp.play <= b < sp.evict:
                    continue
                slot, c = divmod(b - sp.play, n)
                w = cfg.weight[c] if slot < MAX_ROW or slot == NEW_LEFT else -cfg.weight[c]
                assert abs(trial.tilt + w) <= MAX_TILT and abs(start + w) <= MAX_TILT
                checked[-1] += 1
        play(st, notations(st)[0])  # a draw: the turn passes
        while st.is_chance_node():
            st.apply(st.legal_actions()[0])
    assert all(checked), checked


def test_end_game_turns_start_with_nothing_played_and_the_end_is_nobodys_turn() -> None:
    st = position(
        hands={0: ["goat"], 1: ["hare"], 2: ["sheep"], 3: ["chicken"]},
        left=[["horse"]],
        right=[["bison"]],
        display=FULL,
        rain_out=4,
        turn_player=2,
    )
    assert st.endgame_from == -1
    play(st, "draw zebra")
    draw(st, "rain")
    assert st.phase == ENDGAME and st.current_player() == 3 and st.played == 0
    play(st, next(t for t in notations(st) if t.startswith("play ")))
    assert st.current_player() == 0 and st.played == 0
    for _ in range(4):
        play(st, "pass")
    assert st.is_terminal() and st.turn_player == -1


def test_before_the_end_game_nobody_triggered_it() -> None:
    st = make_state(3, seed=4)
    assert st.phase == START and st.endgame_from == -1

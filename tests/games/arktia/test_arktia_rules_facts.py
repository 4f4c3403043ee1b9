"""Facts of Arktia's rules that the golden games and the perft counts do not pin: what set-up lays out, a
neutral set-up that runs out of room, the melt duty of a seat whose neighbour still has pieces, what a
removed seat puts back in the box, and the state at the end (docs/arktia-rules.md §5, §9, §10; found by
mutation testing)."""

from __future__ import annotations

import pytest

from floe.games.arktia import rules
from floe.games.arktia.game import ArktiaGame
from floe.games.arktia.state import (
    ACTIVE,
    MELT,
    NEUTRAL_SETUP,
    OUT_ONE_PIECE,
    OUT_STOPPED,
    OUT_STUCK,
    OVER,
    TURN,
)
from floe.games.arktia.towers import N_COLOURS

from .arktia_helpers import board_text, position


@pytest.mark.parametrize(("players", "neutrals"), [(2, True), (2, False), (3, True), (3, False), (4, False)])
def test_set_up_lays_out_the_supplies_and_nothing_else(players: int, neutrals: bool) -> None:
    st = ArktiaGame(players, {"neutrals": neutrals}).new_initial_state()
    # Spec 5.1: three Muglus of each size per seat; 5.2: one neutral of each size per seat, if neutrals.
    assert st.supply == [3] * (3 * players)
    assert st.neutral_supply == [1 if neutrals else 0] * (3 * players)
    assert st.lost == [0] * (3 * N_COLOURS) and st.boxed == [0] * (3 * N_COLOURS)
    assert st.captured == [0] * players and st.melted == [0] * players and st.out == [ACTIVE] * players
    assert st.step == (NEUTRAL_SETUP if neutrals else TURN) and st.melt_due is False
    assert st.current_player() == 0 and st.turns == [0] * players


def test_neutrals_with_no_room_left_stay_in_the_box() -> None:
    # Three fields for six neutral Muglus: once the three fields are taken, the other three are never placed
    # and the game goes on to its first turn (where nobody can place: everybody is stuck, the game ends).
    st = ArktiaGame(2, {"layout": "b1 c1 d1", "neutrals": True}).new_initial_state()
    placed = 0
    while st.step == NEUTRAL_SETUP:
        assert st.legal_actions()
        st.apply(st.legal_actions()[0])
        placed += 1
    assert placed == 3 and sum(st.neutral_supply) == 3
    assert st.step == OVER and st.is_terminal() and st.out == [OUT_STUCK, OUT_STUCK]


def test_a_seat_with_an_empty_supply_must_melt_whatever_the_next_seat_holds() -> None:
    # Spec 9 [GUESS] (the default melt_start, "next_turn"): P2 begins its turn with an empty supply while P3
    # still has pieces; after its move it melts a field.
    board = {"b2": "t1", "c2": "t2", "d2": "t3", "c3": "d2"}
    st = position(3, board, player=1, supply={1: (0, 0, 0)})
    assert st.step == TURN and st.melt_due is True
    st.apply(st.parse_legal("d c3-c1"))
    assert st.step == MELT and st.current_player() == 1


def test_a_removed_seat_s_pieces_go_to_the_box_by_size() -> None:
    # P2 stops with out_pieces=remove: its two Tori and its Globus leave the board (docs/arktia-rules.md §10,
    # option).
    board = {"b2": "t2", "c2": "t2 d1", "d2": "g2", "c3": "t1", "b3": "d1"}
    st = position(2, board, player=1, options={"out_pieces": "remove"})
    st.apply(st.parse_legal("stop"))
    assert st.out == [ACTIVE, OUT_STOPPED]
    assert st.boxed[3:6] == [1, 0, 2] and st.boxed[:3] == [0, 0, 0]
    assert board_text(st) == {"c2": "d1", "c3": "t1", "b3": "d1"}


def test_the_state_at_the_end() -> None:
    st = position(2, {"c3": "t1 d2 gn", "d3": "t2 d1 gn"}, supply={0: (0, 0, 0), 1: (0, 0, 0)})
    assert st.is_terminal() and st.step == OVER
    assert st.player == -1 and st.legal_actions() == [] and st.pending_keep == []
    with pytest.raises(ValueError, match=r"^the game is over$"):
        rules.apply_action(st, 0)


def test_a_field_between_two_arcs_of_ice_may_melt_when_the_rest_holds_together() -> None:
    # Spec 9: c1's ice neighbours are d1 and b1-b2, two arcs around it (c2 melted between them), yet the ice
    # stays one region without c1 (b2-b3-c3-d2 joins the two sides): c1 may melt. Only the full check shows
    # it; the one-arc shortcut alone would refuse the field.
    st = position(2, {"a4": "t1", "b4": "t2"}, melted=["c2"])
    layout = st.space.layout
    choices, _ = rules.melt_choices(st)
    assert layout.index("c1") in choices
    assert layout.index("b1") in choices  # one arc (a2, b2, c1): the shortcut's case


def test_a_single_muglu_on_the_first_field_ends_its_seat_s_game() -> None:
    # Spec 10(c) for the field with index 0 (b1): its bit set is 1, a case a test for "one field" by bit
    # arithmetic may get wrong.
    st = position(2, {"b1": "g2", "c3": "t1", "d3": "d1"}, player=0)
    assert st.space.layout.index("b1") == 0
    st.apply(st.parse_legal("g@c4"))
    assert st.out[1] == OUT_ONE_PIECE


def test_a_seat_out_during_the_opening_does_not_hold_back_rule_10c() -> None:
    # Spec 10(c) is checked from the end of round 2 on; a seat whose game ended in the opening (the third,
    # stuck in turn 0) never reaches round 2 and must not hold the check back for the others: the second
    # seat, down to one Muglu, retires once the first ends its turn.
    st = position(3, {"c3": "t1", "d3": "d1", "b3": "g2"}, player=0, turns=[2, 2, 0], out={2: OUT_STUCK})
    st.apply(st.parse_legal("g@c4"))
    assert st.out[1] == OUT_ONE_PIECE and st.out[0] == ACTIVE

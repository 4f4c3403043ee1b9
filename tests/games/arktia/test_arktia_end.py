"""Per-seat end conditions (a), (c), (d), the options for a seat's pieces and the turn limit, and scoring
(docs/arktia-rules.md §10, §11). (b) is in ``test_arktia_melting.py``; (c) after someone else's move in the
removal tests.
"""

from __future__ import annotations

import random

import pytest

from floe.games.arktia.game import ArktiaGame
from floe.games.arktia.scoring import rank, rank_returns, winners
from floe.games.arktia.state import ACTIVE, OUT_LIMIT, OUT_ONE_PIECE, OUT_STOPPED, OUT_STUCK, TURN

from .arktia_helpers import board_text, names, position


def test_a_seat_that_can_neither_place_nor_move_is_out_as_its_turn_begins() -> None:
    # P1's Muglus all lie under P2's and its supply is empty (docs/arktia-rules.md §10(a)).
    st = position(2, {"c3": "d1 g2", "d3": "t1 d2"}, supply={0: (0, 0, 0)})
    assert st.out == [OUT_STUCK, ACTIVE] and st.player == 1 and st.step == TURN


def test_the_game_ends_when_nobody_can_act() -> None:
    # Neutral Muglus top every stack: nobody can move, nobody can place.
    st = position(2, {"c3": "t1 d2 gn", "d3": "t2 d1 gn"}, supply={0: (0, 0, 0), 1: (0, 0, 0)})
    assert st.out == [OUT_STUCK, OUT_STUCK] and st.is_terminal()
    assert st.scores() == [0, 0] and st.winners() == [0, 1] and st.returns() == [0.0, 0.0]


def test_one_muglu_left_is_not_checked_during_the_opening() -> None:
    game = ArktiaGame(3)
    st = game.new_initial_state()
    for _ in range(3):  # round 1: everyone has exactly one Muglu on the board
        st.apply(st.legal_actions()[0])
    assert st.out == [ACTIVE] * 3 and [st.on_board(q) for q in range(3)] == [1, 1, 1]
    for _ in range(3):  # round 2
        st.apply(st.legal_actions()[0])
    assert st.out == [ACTIVE] * 3 and st.turns == [2, 2, 2]


def test_one_muglu_left_ends_a_seats_game_even_with_a_supply() -> None:
    # P2 keeps a single Muglu: out at the end of P1's turn (docs/arktia-rules.md §10(c)), although it could
    # still place.
    st = position(2, {"c3": "d2 g1", "c2": "t1", "b3": "t2"})
    st.apply(st.parse_legal("dg c3-c1"))  # b3 (1) and c1 (1) tie
    st.apply(st.parse_legal("keep p2 b3"))
    assert st.out == [ACTIVE, OUT_ONE_PIECE] and sum(st.supply[3:]) == 7


def test_stopping_is_permanent_and_the_pieces_stay_and_score() -> None:
    st = position(2, {"c3": "t1 d2 g1", "d3": "t2", "b3": "d1"})
    assert "stop" in names(st)
    st.apply(st.parse_legal("stop"))
    assert st.out == [OUT_STOPPED, ACTIVE] and st.player == 1
    st.apply(st.parse_legal("t d3-d2"))  # P1 is skipped from now on
    assert st.player == 1 and st.out[0] == OUT_STOPPED
    assert board_text(st)["c3"] == "t1 d2 g1" and st.scores()[0] == 2  # c3 and b3 still count


def test_option_remove_takes_a_seats_pieces_off_the_board() -> None:
    # D without its Globus becomes B: control passes to P2's Diskus.
    board = {"c3": "t2 d2 g1", "d3": "t2", "b3": "d1"}
    st = position(2, board, options={"out_pieces": "remove"})
    st.apply(st.parse_legal("stop"))
    assert board_text(st) == {"c3": "t2 d2", "d3": "t2"}
    assert st.boxed[:3] == [1, 1, 0] and st.scores() == [0, 2]


def test_stop_is_not_offered_in_the_opening_rounds() -> None:
    st = ArktiaGame(3).new_initial_state()
    for _ in range(6):
        assert "stop" not in names(st)
        st.apply(st.legal_actions()[0])
    assert names(st)[0] == "stop"


def test_the_turn_limit_ends_and_scores_the_game() -> None:
    game = ArktiaGame(2, {"max_turns": 12})
    st = game.new_initial_state()
    rng = random.Random(1)
    while not st.is_terminal():
        legal = st.legal_actions()
        st.apply(rng.choice(legal[1:] if len(legal) > 1 and legal[0] == 0 else legal))
    assert st.turn == 12 and set(st.out) == {OUT_LIMIT}
    assert len(st.history) == 6 + 12  # the neutral set-up, then one decision per turn (no captures yet)
    assert st.scores() == [b["total"] for b in st.score_breakdowns()]


def test_scoring_counts_captures_controlled_fields_and_melted_fields() -> None:
    board = {"b2": "t1 d2", "c2": "g2 t1", "d2": "t2 d1 g1", "e2": "dn", "a3": "d2 g1"}
    st = position(2, board, melted=["a4", "d4"])
    st.captured = [2, 1]
    st.melted = [1, 1]
    breakdowns = st.score_breakdowns()
    assert breakdowns[0] == {"captured": 2, "controlled": 3, "melted": 1, "lost": 0, "total": 6}
    assert breakdowns[1] == {"captured": 1, "controlled": 1, "melted": 1, "lost": 0, "total": 3}
    assert st.ranking() == [0, 1] and st.winners() == [0]


def test_equal_totals_share_the_win_or_break_on_fewer_lost() -> None:
    assert rank([4, 6, 6], [0, 3, 1], "shared") == [1, 2, 0]
    assert rank_returns([4, 6, 6], [0, 3, 1], "shared") == [-1.0, 0.5, 0.5]
    assert rank([4, 6, 6], [0, 3, 1], "fewer_lost") == [2, 1, 0]
    assert rank_returns([4, 6, 6], [0, 3, 1], "fewer_lost") == [-1.0, 0.0, 1.0]
    assert rank_returns([5, 5, 5, 5], [1, 2, 3, 4], "shared") == pytest.approx([0.0] * 4)
    st = position(2, {"c3": "g1", "b3": "t1", "d3": "g2", "e3": "t2"})
    assert st.scores() == [2, 2] and st.winners() == [0, 1] and st.returns() == [0.0, 0.0]
    st.lost = [0, 0, 0, 1, 0, 0] + [0] * 9  # P2 lost a Globus
    st.config = ArktiaGame(2, {"tie_break": "fewer_lost"}).config
    assert st.winners() == [0] and st.returns() == [1.0, -1.0]


def test_winners_under_fewer_lost_are_the_seats_equal_in_both() -> None:
    assert winners([5, 5, 3], [2, 0, 0], "fewer_lost") == [1]
    assert winners([5, 5, 3], [1, 2, 0], "fewer_lost") == [0]
    assert winners([5, 5, 3], [1, 1, 0], "fewer_lost") == [0, 1]
    assert winners([5, 5, 3], [1, 2, 0], "shared") == [0, 1]

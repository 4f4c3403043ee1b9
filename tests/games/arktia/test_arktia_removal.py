"""Removal of cut-off Muglus (docs/arktia-rules.md §8), each case from a hand-built position on the 18-field
board::

  b1  c1  d1  e1
a2  b2  c2  d2  e2
  a3  b3  c3  d3  e3
    a4  b4  c4  d4
"""

from __future__ import annotations

from floe.games.arktia.scoring import controlled_fields
from floe.games.arktia.state import ACTIVE, KEEP, OUT_ONE_PIECE, TURN
from floe.games.arktia.towers import NEUTRAL

from .arktia_helpers import board_text, names, position


def test_carrying_a_piece_away_removes_the_smaller_groups() -> None:
    # P2's line a3-b3-c3-d3 runs under P1's Globus at c3; P1 lifts tower A (P2's Diskus + own Globus).
    st = position(2, {"a3": "g2", "b3": "t2", "c3": "d2 g1", "d3": "t2", "c2": "t1"})
    st.apply(st.parse_legal("dg c3-c1"))
    # Groups of P2 now: a3+b3 (2), d3 (1), c1 (the carried Diskus, 1): only a3+b3 survives.
    assert board_text(st) == {"a3": "g2", "b3": "t2", "c2": "t1", "c1": "g1"}
    assert st.captured == [2, 0] and st.lost_by(1) == 2
    assert st.step == TURN and st.player == 1


def test_group_size_counts_muglus_not_fields() -> None:
    # P2: a3 holds three Muglus (one field); c3+d3 two Muglus on two fields; b3's Diskus links them.
    st = position(2, {"a3": "t2 d2 g2", "b3": "d2 g1", "c3": "t2", "d3": "t2", "b2": "t1"})
    st.apply(st.parse_legal("dg b3-b1"))
    assert board_text(st) == {"a3": "t2 d2 g2", "b2": "t1", "b1": "g1"}
    assert st.captured == [3, 0]


def test_a_tie_is_chosen_by_the_mover() -> None:
    board = {"a3": "g2", "b3": "t2", "c3": "d2 g1", "d3": "t2", "e3": "g2", "c2": "t1"}
    for keep, survivors in (("keep p2 a3", {"a3", "b3"}), ("keep p2 d3", {"d3", "e3"})):
        st = position(2, board)
        st.apply(st.parse_legal("dg c3-c1"))
        assert st.step == KEEP and st.current_player() == 0
        assert names(st) == ["keep p2 a3", "keep p2 d3"]  # each tied group by its first field
        assert st.captured == [0, 0]  # nothing is removed before the choice
        st.apply(st.parse_legal(keep))
        assert {f for f, text in board_text(st).items() if "2" in text} == survivors
        assert st.captured == [3, 0]  # the other pair and the carried Diskus
        assert st.step == TURN and st.player == 1


def test_a_carried_neutral_piece_is_removed_and_control_passes_to_a_torus() -> None:
    # Spec 8 / Abb. 4: P1 carries a neutral Diskus onto P2's Torus (tower D); the Diskus is cut off from
    # the neutral group, so D loses its middle: the Globus drops into the Torus (C) and P2 controls.
    board = {"a3": "gn", "b3": "tn", "c3": "dn g1", "d3": "t2", "e3": "d2", "c4": "t1"}
    st = position(2, board, options={"neutrals": True})
    assert controlled_fields(st.fields, 1) == 2
    st.apply(st.parse_legal("dg c3-d3"))
    assert board_text(st) == {"a3": "gn", "b3": "tn", "d3": "g1 t2", "e3": "d2", "c4": "t1"}
    assert st.captured == [1, 0] and st.lost_by(NEUTRAL) == 1
    assert controlled_fields(st.fields, 1) == 2 and controlled_fields(st.fields, 0) == 1


def test_d_without_its_torus_becomes_a() -> None:
    st = position(2, {"a3": "d2", "b3": "g2", "c3": "t2 d1 g1"})
    st.apply(st.parse_legal("tdg c3-e3"))
    assert board_text(st) == {"a3": "d2", "b3": "g2", "e3": "d1 g1"}
    assert st.captured == [1, 0]


def test_c_without_its_globus_leaves_the_torus() -> None:
    # The Globus enclosed in C is carried along with the Torus, and can be cut off.
    st = position(2, {"a3": "t2", "b3": "d2", "c3": "g2 t1", "d3": "d1"})
    st.apply(st.parse_legal("gt c3-e3"))
    assert board_text(st) == {"a3": "t2", "b3": "d2", "d3": "d1", "e3": "t1"}
    assert st.captured == [1, 0]


def test_two_colours_cut_at_once_one_of_them_tied() -> None:
    # P1 carries a whole D of a neutral Torus, P2's Diskus and its own Globus away from both groups.
    board = {"b3": "dn", "c3": "tn d2 g1", "d3": "t2", "e3": "g2", "c2": "t1"}
    st = position(2, board, options={"neutrals": True})
    st.apply(st.parse_legal("tdg c3-c1"))
    # P2: d3+e3 (2) beats c1 (1) at once; the neutral colour ties 1-1 (c1, b3): the mover chooses.
    assert st.step == KEEP and names(st) == ["keep n c1", "keep n b3"]
    assert board_text(st)["c1"] == "g1 tn" and st.captured == [1, 0]  # D without its Diskus: C
    st.apply(st.parse_legal("keep n b3"))
    assert board_text(st) == {"b3": "dn", "d3": "t2", "e3": "g2", "c2": "t1", "c1": "g1"}
    assert st.captured == [2, 0] and st.step == TURN


def test_two_ties_are_chosen_one_colour_after_the_other() -> None:
    # P2's chain d1-d2-c3-b4-a4 is cut at c3: c1+d1+d2 (3 Muglus) against b4+a4 (3 Muglus).
    board = {"b3": "dn", "c3": "tn d2 g1", "c2": "t1", "d1": "g2", "d2": "t2", "b4": "g2", "a4": "t2 d2"}
    st = position(2, board, options={"neutrals": True})
    st.apply(st.parse_legal("tdg c3-c1"))
    assert names(st) == ["keep p2 c1", "keep p2 a4"]  # the seats' colours first, then neutral
    st.apply(st.parse_legal("keep p2 c1"))
    assert st.captured == [3, 0] and names(st) == ["keep n c1", "keep n b3"]
    st.apply(st.parse_legal("keep n c1"))
    assert board_text(st) == {"c1": "tn d2 g1", "c2": "t1", "d1": "g2", "d2": "t2"}
    assert st.captured == [4, 0] and st.player == 1


def test_a_seat_cut_down_to_one_muglu_is_out_after_someone_elses_move() -> None:
    # Spec 10(c), checked after every turn whoever moved: P2 keeps one Muglu and is out, supply or not.
    st = position(2, {"c3": "d2 g1", "d3": "t2", "c2": "t1"})
    st.apply(st.parse_legal("dg c3-c1"))
    assert names(st) == ["keep p2 c1", "keep p2 d3"]
    st.apply(st.parse_legal("keep p2 d3"))
    assert st.out == [ACTIVE, OUT_ONE_PIECE]
    assert st.player == 0 and st.step == TURN  # P1 plays on alone

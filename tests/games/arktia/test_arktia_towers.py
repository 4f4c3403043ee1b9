"""Towers, lifting, straight-line moves and control (docs/arktia-rules.md §3.2, §4, §6(b)), each from a
hand-built position.

Fields of the placeholder 18-field board (2 players)::

     b1  c1  d1  e1
   a2  b2  c2  d2  e2
     a3  b3  c3  d3  e3
       a4  b4  c4  d4
"""

from __future__ import annotations

import pytest

from floe.core.errors import InvalidActionError
from floe.games.arktia.board import Layout
from floe.games.arktia.scoring import controlled_fields

from .arktia_helpers import board_text, names, position

# Spec 4.3, the complete table: mover (whole stack of P1) x field it lands on (P2's stack) -> legal?
SHAPES = {"g": "g", "d": "d", "t": "t", "A": "dg", "B": "td", "C": "gt", "D": "tdg"}
TABLE = {
    "g": {"": True, "g": False, "d": True, "t": False, "A": False, "B": True, "C": False, "D": False},
    "d": {"": True, "g": False, "d": False, "t": True, "A": False, "B": False, "C": False, "D": False},
    "t": {"": True, "g": True, "d": False, "t": False, "A": False, "B": False, "C": False, "D": False},
    "A": {"": True, "g": False, "d": False, "t": True, "A": False, "B": False, "C": False, "D": False},
    "B": {"": True, "g": False, "d": False, "t": False, "A": False, "B": False, "C": False, "D": False},
    "C": {"": True, "g": False, "d": False, "t": False, "A": False, "B": False, "C": False, "D": False},
    "D": {"": True, "g": False, "d": False, "t": False, "A": False, "B": False, "C": False, "D": False},
}


def stack_of(shape: str, colour: str) -> str:
    return " ".join(f"{letter}{colour}" for letter in SHAPES[shape])


@pytest.mark.parametrize("mover", list(TABLE))
@pytest.mark.parametrize("target", ["", "g", "d", "t", "A", "B", "C", "D"])
def test_tower_table_of_spec_4_3(mover: str, target: str) -> None:
    board = {"c3": stack_of(mover, "1")}
    if target:
        board["d3"] = stack_of(target, "2")
    st = position(2, board)
    whole = f"{SHAPES[mover]} c3-d3"
    assert (whole in names(st)) == TABLE[mover][target], f"{mover} onto {target or 'empty'}"


@pytest.mark.parametrize(
    ("stack", "lifts"),
    [
        ("g1", {"g"}),
        ("d1", {"d"}),
        ("t1", {"t"}),
        ("d1 g1", {"g", "dg"}),  # A: the Globus, or all of A
        ("t1 d1", {"d", "td"}),  # B: the Diskus, or all of B
        ("g1 t1", {"t", "gt"}),  # C: the Torus, or all of C; never the enclosed Globus alone
        ("t1 d1 g1", {"g", "dg", "tdg"}),  # D: the Globus, the top two (an A unit), or all of D
    ],
)
def test_what_can_be_lifted(stack: str, lifts: set[str]) -> None:
    st = position(2, {"c3": stack})
    lifted = {text.split()[0] for text in names(st) if text.endswith(" c3-d3")}
    assert lifted == lifts


def test_building_d_both_ways_and_c_from_a_torus_only() -> None:
    # D from tower A moving onto an empty Torus, and from a Globus moving onto tower B
    # (docs/arktia-rules.md §4.1, item 3).
    st = position(2, {"c3": "d1 g1", "d3": "t2"})
    st.apply(st.parse_legal("dg c3-d3"))
    assert board_text(st) == {"d3": "t2 d1 g1"}
    st = position(2, {"b3": "g1", "a3": "t2 d2"})
    st.apply(st.parse_legal("g b3-a3"))
    assert board_text(st) == {"a3": "t2 d2 g1"}
    # C only by a Torus moving onto a Globus, never a Globus onto a Torus (item 2).
    st = position(2, {"b3": "g1", "a3": "t2"})
    assert "g b3-a3" not in names(st)
    st = position(2, {"c3": "t1", "d3": "g2"})
    st.apply(st.parse_legal("t c3-d3"))
    assert board_text(st) == {"d3": "g2 t1"}
    assert controlled_fields(st.fields, 0) == 1  # the Torus around P2's Globus controls d3 (item 5)


def test_only_the_owner_of_the_top_piece_moves_a_stack() -> None:
    st = position(2, {"c3": "t1 d1 g2", "b3": "t2", "d3": "g1 tn"})
    moving_from = {text.split()[1].split("-")[0] for text in names(st) if "-" in text}
    assert "c3" not in moving_from  # P1's Torus and Diskus lie under P2's Globus
    # a neutral Torus tops d3: nobody moves it (docs/arktia-rules.md §13, item 9)
    assert "d3" not in moving_from
    assert moving_from == set()


def test_straight_lines_any_distance_over_pieces_in_six_directions() -> None:
    st = position(2, {"c3": "g1", "b2": "t2", "d3": "tn"})
    targets = {text.split("-")[1] for text in names(st) if text.startswith("g c3-")}
    # E: d3 is a neutral Torus (a Globus may not go onto it) but the Globus passes over it to e3.
    # NE: d2, e1; NW: c2, c1; W: b3, a3; SW: b4; SE: c4.
    assert targets == {"e3", "d2", "e1", "c2", "c1", "b3", "a3", "b4", "c4"}
    assert "g c3-d3" not in names(st)


def test_a_melted_field_blocks_the_line_but_a_piece_does_not() -> None:
    st = position(2, {"c3": "g1", "d3": "t2"}, melted=["b3"])
    targets = {text.split("-")[1] for text in names(st) if text.startswith("g c3-")}
    assert "a3" not in targets and "b3" not in targets  # the hole at b3 ends the line westwards
    assert "e3" in targets  # the Torus at d3 is passed over


def test_a_gap_in_a_custom_layout_blocks_like_a_hole() -> None:
    ring = [[q, r] for q in range(-2, 3) for r in range(-2, 3) if abs(q + r) <= 2 and (q, r) != (0, 0)]
    layout = Layout.from_cells(ring)
    assert len(layout.cells) == 18 and "c3" not in layout.names  # the centre is missing
    st = position(2, {"a3": "g1", "b3": "g2"}, options={"layout": ring})
    assert "g a3-d3" not in names(st) and "g a3-e3" not in names(st)  # the line a3 b3 [c3] d3 e3
    with pytest.raises(InvalidActionError):  # never a straight line on this layout: no such action
        st.space.string_to_action("g a3-e3")


def test_a_move_may_not_split_the_movers_own_colour() -> None:
    # P1 holds b3 - c3 - d3 in a row: the middle Globus may not leave (no field touches both ends).
    st = position(2, {"b3": "d1", "c3": "g1", "d3": "t1"})
    moves = [text for text in names(st) if "-" in text]
    assert not any(" c3-" in text for text in moves)
    # The Diskus at b3 may go only where it still touches c3 or d3 (d3 itself: Diskus onto a Torus).
    assert {text.split("-")[1] for text in moves if text.startswith("d b3-")} == {"d3", "e3", "c2", "b4"}
    # With P2's pieces under P1's Globus, lifting it (or the A unit, or all of D) empties c3 of P1.
    st = position(2, {"b3": "d1", "c3": "t2 d2 g1", "d3": "t1"})
    assert not any(" c3-" in text for text in names(st))
    # With P1's own Torus left behind at c3, the Globus may go.
    st = position(2, {"b3": "d1", "c3": "t1 d2 g1", "d3": "t1"}, supply={0: (2, 2, 0)})
    assert "g c3-c4" in names(st) and "dg c3-c4" in names(st) and "tdg c3-c4" not in names(st)


def test_control_is_the_top_piece() -> None:
    st = position(2, {"b2": "t1 d2", "c2": "g2 t1", "d2": "t2 d1 g1", "e2": "dn", "a3": "d2 g1"})
    assert controlled_fields(st.fields, 0) == 3  # c2 (Torus around a Globus), d2 (Globus of D), a3
    assert controlled_fields(st.fields, 1) == 1  # b2 (Diskus of B); the neutral e2 counts for nobody

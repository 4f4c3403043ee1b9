"""Melting (docs/arktia-rules.md §9) and end condition (b), from hand-built positions on the 18-field board::

  b1  c1  d1  e1
a2  b2  c2  d2  e2
  a3  b3  c3  d3  e3
    a4  b4  c4  d4
"""

from __future__ import annotations

from floe.games.arktia.board import Layout
from floe.games.arktia.state import ACTIVE, MELT, OUT_NO_MELT, TURN

from .arktia_helpers import board_text, names, position, ref_melts

FULL = {name: "tn" for name in Layout.named("18").names}


def test_no_melting_while_the_supply_is_not_empty() -> None:
    st = position(2, {"c3": "d1 g1", "d3": "t2 d2"}, supply={0: (0, 0, 1)})
    assert not st.melt_due
    st.apply(st.parse_legal("g c3-c2"))
    assert st.step == TURN and st.player == 1 and st.melted == [0, 0]


def test_the_first_melt_comes_the_turn_after_the_last_placement() -> None:
    st = position(2, {"c3": "g1", "d3": "t2", "d2": "d2"}, supply={0: (0, 0, 1)})
    # the last Muglu of P1: no melt yet (docs/arktia-rules.md §9 [GUESS], default)
    st.apply(st.parse_legal("t@b3"))
    assert st.step == TURN and st.player == 1
    st.apply(st.parse_legal("d d2-e2"))
    assert st.player == 0 and st.melt_due
    st.apply(st.parse_legal("g c3-b4"))
    assert st.step == MELT and st.current_player() == 0
    st.apply(st.parse_legal("melt a2"))
    assert st.melted == [1, 0] and board_text(st)["a2"] == "~" and st.player == 1


def test_option_same_turn_melts_right_after_the_last_placement() -> None:
    board = {"c3": "g1", "d3": "t2", "d2": "d2"}
    st = position(2, board, supply={0: (0, 0, 1)}, options={"melt_start": "same_turn"})
    st.apply(st.parse_legal("t@b3"))
    assert st.step == MELT and st.current_player() == 0


def test_only_free_edge_fields_that_keep_the_continent_whole_may_melt() -> None:
    # Row 3 melted except e3: rows 4 hangs on e3 - d4. Bridges (e3, d4, c4, b4) may not melt; the
    # interior field c2 has become an edge next to the holes.
    board = {"c1": "t1", "b1": "g1", "e2": "t2", "d2": "d2"}
    st = position(2, board, melted=["a3", "b3", "c3", "d3"], supply={0: (0, 0, 0)})
    st.apply(st.parse_legal("g b1-d1"))
    assert st.step == MELT
    expected = {"melt b1", "melt e1", "melt a2", "melt b2", "melt c2", "melt a4"}
    assert set(names(st)) == expected == ref_melts(st)


def test_interior_fields_do_not_melt() -> None:
    st = position(2, {"c3": "g1", "d3": "t1"}, supply={0: (0, 0, 0)})
    st.apply(st.parse_legal("g c3-c4"))
    melts = {text.split()[1] for text in names(st)}
    assert melts == {
        "b1",
        "c1",
        "d1",
        "e1",
        "a2",
        "e2",
        "a3",
        "e3",
        "a4",
        "b4",
        "d4",
    }  # not b2, c2, d2, b3, c3


def test_no_free_edge_field_ends_the_movers_game() -> None:
    # Spec 10(b): every field is occupied once P1's Globus lands on c3.
    board = dict(FULL) | {"a3": "d1 g1", "b3": "t1", "b1": "t2", "c1": "d2"}
    del board["c3"]
    st = position(2, board, supply={0: (0, 0, 0)})
    st.apply(st.parse_legal("g a3-c3"))
    assert st.out == [OUT_NO_MELT, ACTIVE] and st.player == 1
    assert "d c1-b2" in names(st)  # P2's Diskus may still climb a neutral Torus


def test_only_bridges_free_ends_the_game_by_default_or_skips_the_melt() -> None:
    melted = [name for name in FULL if name not in ("b3", "c3", "d3", "e3")]
    for bridge_melt_ends, out in ((True, OUT_NO_MELT), (False, ACTIVE)):
        opts = {"bridge_melt_ends": bridge_melt_ends}
        board = {"b3": "g1", "c3": "t1", "e3": "t2 d2"}
        st = position(2, board, melted=melted, supply={0: (0, 0, 0)}, options=opts)
        # The Torus encloses the Globus (C); c3 is left free but it links b3 to d3: it may not melt.
        st.apply(st.parse_legal("t c3-b3"))
        assert st.out[0] == out and st.melted == [0, 0]
        assert st.player == 1 and st.step == TURN

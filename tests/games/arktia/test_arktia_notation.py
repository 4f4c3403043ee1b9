"""Notation: every id round-trips through its text, aliases parse, bad text is refused (docs/style.md §4).

That the legal actions of random games round-trip (``string_to_action``, ``parse_legal``) is checked by the
conformance kit in ``test_arktia_kit.py``.
"""

from __future__ import annotations

import pytest

from floe.core.errors import AmbiguousActionError, IllegalActionError, InvalidActionError
from floe.games.arktia.actions import ActionSpace
from floe.games.arktia.board import Layout

from .arktia_helpers import RING_18, position

LAYOUTS = [Layout.named("18"), Layout.named("27"), Layout.named("36"), Layout.from_cells(RING_18)]


@pytest.mark.parametrize("layout", LAYOUTS, ids=lambda layout: f"{layout.name}-{layout.size}")
def test_every_id_round_trips(layout: Layout) -> None:
    space = ActionSpace(layout)
    texts = set()
    for action in space.all_action_ids():
        text = space.action_to_string(action)
        assert text == text.lower() and text.strip() == text
        assert space.string_to_action(text) == action
        assert space.string_to_action(f"  {text.upper()} ") == action
        texts.add(text)
    assert len(texts) == space.N_ACTIONS
    with pytest.raises(InvalidActionError):
        space.action_to_string(space.N_ACTIONS)
    with pytest.raises(InvalidActionError):
        space.action_to_string(-1)


def test_cell_names_follow_columns_and_rows() -> None:
    layout = Layout.named("18")
    assert layout.names[:5] == ("b1", "c1", "d1", "e1", "a2")
    assert layout.index("C3") == layout.names.index("c3")
    with pytest.raises(ValueError, match="no field"):
        layout.index("a1")  # the top row of the 18-field board starts at b1


def test_aliases() -> None:
    space = ActionSpace(Layout.named("18"))
    place = space.string_to_action("g@c3")
    assert space.string_to_action("place g c3") == place
    assert space.string_to_action("place g@c3") == place
    assert space.string_to_action("G C3") == place
    assert space.string_to_action("gd c3-e3") == space.string_to_action("dg c3-e3")
    assert space.string_to_action("TGD c3-e3") == space.string_to_action("tdg c3-e3")
    assert space.string_to_action("keep P2 c3") == space.string_to_action("keep p2 c3")
    assert space.string_to_action("keep neutral c3") == space.string_to_action("keep n c3")


@pytest.mark.parametrize(
    "text",
    ["", "x@c3", "g@a1", "gg c3-e3", "g c3-d4", "g c3-c3", "keep p5 c3", "keep p1", "melt", "melt z9", "hop"],
)
def test_bad_text_is_refused(text: str) -> None:
    space = ActionSpace(Layout.named("18"))
    with pytest.raises(InvalidActionError):
        space.string_to_action(text)


def test_parse_legal_reads_a_bare_move_and_prefixes() -> None:
    st = position(2, {"c3": "t1 d1 g1", "c2": "t2", "b3": "g2"})
    with pytest.raises(AmbiguousActionError):
        st.parse_legal("c3-d3")  # the Globus, the A unit or the whole of D
    assert st.action_to_string(st.parse_legal("c3-e3")) == "tdg c3-e3"  # only the whole stays connected
    assert st.action_to_string(st.parse_legal("c3-c2")) == "dg c3-c2"  # only the A unit may land on a Torus
    with pytest.raises(IllegalActionError):
        st.parse_legal("c3-b3")  # nothing of D may land on a Globus
    with pytest.raises(IllegalActionError):
        st.parse_legal("g@c3")
    with pytest.raises(InvalidActionError):
        st.parse_legal("c3-d4")  # not on a line
    assert st.action_to_string(st.parse_legal("tdg c3-a")) == "tdg c3-a3"  # a unique prefix

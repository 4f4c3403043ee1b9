"""Set-up, the neutral Muglus, the opening rounds (docs/arktia-rules.md §5, §12) and the options (layouts,
flags)."""

from __future__ import annotations

import json

import pytest

from floe.core.errors import OptionError
from floe.core.registry import make_game
from floe.games.arktia.board import Layout
from floe.games.arktia.config import ArktiaConfig
from floe.games.arktia.game import ArktiaGame
from floe.games.arktia.state import NEUTRAL_SETUP, TURN
from floe.games.arktia.towers import NEUTRAL

from .arktia_helpers import names


def test_two_players_place_six_neutrals_alternately_as_one_group() -> None:
    st = ArktiaGame(2).new_initial_state()
    assert st.step == NEUTRAL_SETUP and st.current_player() == 0
    assert len(st.legal_actions()) == 18 * 3  # the first neutral goes anywhere, any size
    order = []
    choices = ["neutral t@c2", "neutral g@c3", "neutral d@b3", "neutral t@b4", "neutral g@b2", "neutral d@d3"]
    for text in choices:
        order.append(st.current_player())
        st.apply(st.parse_legal(text))
    assert order == [0, 1, 0, 1, 0, 1]
    assert st.step == TURN and st.current_player() == 0 and st.on_board(NEUTRAL) == 6
    assert st.neutral_supply == [0] * 6


def test_each_seat_places_one_neutral_of_each_size_next_to_the_group() -> None:
    st = ArktiaGame(2).new_initial_state()
    st.apply(st.parse_legal("neutral t@c3"))
    # P2: any size, only on the six fields around c3.
    assert {text.split("@")[1] for text in names(st)} == {"d3", "d2", "c2", "b3", "b4", "c4"}
    assert {text[8] for text in names(st)} == {"g", "d", "t"}
    st.apply(st.parse_legal("neutral g@d3"))
    assert {text[8] for text in names(st)} == {"g", "d"}  # P1 already placed its neutral Torus
    assert "neutral g@d3" not in names(st) and "neutral d@c3" not in names(st)  # free fields only


def test_neutral_starter_option() -> None:
    st = ArktiaGame(2, {"neutral_starter": "previous_player"}).new_initial_state()
    assert st.current_player() == 1
    st = ArktiaGame(3, {"neutrals": True, "first_player": 1, "neutral_starter": "previous_player"})
    state = st.new_initial_state()
    seats = []
    while state.step == NEUTRAL_SETUP:
        seats.append(state.current_player())
        state.apply(state.legal_actions()[0])
    assert seats == [0, 1, 2] * 3
    assert state.current_player() == 1  # the start player opens round 1


def test_three_player_variant_with_nine_neutrals() -> None:
    st = ArktiaGame(3, {"neutrals": True}).new_initial_state()
    count = 0
    while st.step == NEUTRAL_SETUP:
        st.apply(st.legal_actions()[-1])
        count += 1
    assert count == 9 and st.on_board(NEUTRAL) == 9
    # Round 1: the start player too must place next to an occupied field (docs/arktia-rules.md §5.3, §12).
    layout = st.space.layout
    occupied = {c for c, code in enumerate(st.fields) if code > 0}
    for text in names(st):
        cell = layout.index(text.split("@")[1])
        assert any(j in occupied for j in layout.neighbours[cell])


def test_without_neutrals_the_first_muglu_goes_anywhere_and_the_next_beside_an_occupied_field() -> None:
    st = ArktiaGame(3).new_initial_state()
    assert st.step == TURN and len(st.legal_actions()) == 27 * 3
    st.apply(st.parse_legal("d@c3"))
    assert {text.split("@")[1] for text in names(st)} == {"d3", "d2", "c2", "b3", "b4", "c4"}
    st.apply(st.parse_legal("g@d3"))
    st.apply(st.parse_legal("t@e3"))  # P3: next to P2's Globus is enough (any occupied field)
    # Round 2: next to one's own Muglu only; still no moves and no stop.
    assert st.current_player() == 0
    assert {text.split("@")[1] for text in names(st)} == {"d2", "c2", "b3", "b4", "c4"}
    st.apply(st.parse_legal("g@b3"))
    assert st.current_player() == 1 and all("@" in text for text in names(st))


def test_round_three_brings_moves_and_stop() -> None:
    st = ArktiaGame(2).new_initial_state()
    for text in (
        "neutral t@c2",
        "neutral g@c3",
        "neutral d@b3",
        "neutral t@b4",
        "neutral g@b2",
        "neutral d@d3",
    ):
        st.apply(st.parse_legal(text))
    for text in ("g@a3", "d@d2", "t@a2", "t@e2"):
        st.apply(st.parse_legal(text))
    legal = names(st)
    assert legal[0] == "stop" and any("-" in text for text in legal)
    assert "t a2-c2" not in legal and "g a3-c3" not in legal  # a Globus never onto a Torus or a Globus


def test_first_player_option() -> None:
    st = ArktiaGame(4, {"first_player": 2}).new_initial_state()
    assert st.current_player() == 2
    st.apply(st.legal_actions()[0])
    assert st.current_player() == 3


def test_four_players_have_no_neutral_colour_and_options_are_checked() -> None:
    with pytest.raises(OptionError, match="no neutral colour"):
        ArktiaGame(4, {"neutrals": True})
    with pytest.raises(OptionError, match="unknown option"):
        ArktiaGame(2, {"melting": "soon"})
    with pytest.raises(OptionError, match="melt_start"):
        ArktiaGame(2, {"melt_start": "never"})
    with pytest.raises(OptionError, match="first_player"):
        ArktiaGame(2, {"first_player": 2})
    with pytest.raises(OptionError, match="2 to 4"):
        ArktiaGame(5)
    with pytest.raises(OptionError, match="true or false"):
        ArktiaGame(2, {"bridge_melt_ends": "maybe"})


def test_options_are_recorded_in_full() -> None:
    game = make_game("arktia", 3, {"tie_break": "fewer_lost"})
    assert game.options_dict() == {
        "layout": "placeholder-27",
        "neutrals": False,
        "first_player": 0,
        "neutral_starter": "start_player",
        "melt_start": "next_turn",
        "bridge_melt_ends": True,
        "out_pieces": "stay",
        "tie_break": "fewer_lost",
        "max_turns": 1000,
    }
    assert ArktiaConfig.from_options(game.options_dict(), 3) == game.config


def test_placeholder_layouts_have_the_spec_rows() -> None:
    rows = {}
    for name, expected in (("18", [4, 5, 5, 4]), ("27", [4, 5, 6, 5, 4, 3]), ("36", [5, 6, 7, 7, 6, 5])):
        layout = Layout.named(name)
        rows[name] = [sum(1 for _, r in layout.cells if r == row) for row in range(len(expected))]
        assert rows[name] == expected and len(layout.cells) == int(name)
        assert layout.is_connected((1 << layout.size) - 1)


def test_custom_layouts() -> None:
    ring = [[q, r] for q in range(-2, 3) for r in range(-2, 3) if abs(q + r) <= 2 and (q, r) != (0, 0)]
    game = ArktiaGame(2, {"layout": ring})
    assert game.config.layout.size == 18 and game.options["layout"][0] == [2, 0]
    assert ArktiaGame(2, {"layout": game.options["layout"]}).config.layout.cells == game.config.layout.cells
    by_name = ArktiaGame(2, {"layout": "b1 c1 d1 e1 a2 b2 c2 d2 e2 a3 b3 c3 d3 e3 a4 b4 c4 d4"})
    assert by_name.options["layout"] == "placeholder-18"  # recognised as the placeholder
    assert ArktiaGame(2, {"layout": "18"}).options["layout"] == "placeholder-18"
    as_text = ArktiaGame(2, {"layout": json.dumps(ring)})  # the command line passes JSON as text
    assert as_text.config.layout == game.config.layout
    named = ArktiaGame(2, {"layout": "c1 d1 e1 b2 c2 d2 e2 a3 b3 d3 e3 a4 b4 c4 d4 a5 b5 c5"})
    assert named.config.layout == game.config.layout
    with pytest.raises(OptionError, match="connected"):
        ArktiaGame(2, {"layout": "a1 b1 d1"})
    with pytest.raises(OptionError, match="twice"):
        ArktiaGame(2, {"layout": "a1 b1 b1"})
    with pytest.raises(OptionError, match="cell"):
        ArktiaGame(2, {"layout": "a1 b1 9z"})
    with pytest.raises(OptionError, match="unknown layout"):
        ArktiaGame(2, {"layout": "hexagon"})

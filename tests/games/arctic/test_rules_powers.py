"""The 12 powers (docs/arctic-rules.md §6, §13.7): windows, optionality, once per turn, and the 6.3 cases.

Walrus (step B) is tested with token movement in ``test_rules_movement.py``.
"""

from __future__ import annotations

import pytest

from floe.core.errors import IllegalActionError
from floe.games.arctic.cards import ANIMALS, card_name
from floe.games.arctic.observation import FACE_DOWN_UNKNOWN
from floe.games.arctic.state import FACE_DOWN_FLAG, IN_HAND, visible_card

from .positions import (
    arrange,
    card,
    deal,
    fd,
    finish_turn,
    holder_of,
    legal,
    main_deck,
    new_game,
    play,
    pos,
    resolve,
    step_name,
)

RIVER = ["fox-walrus-5", "moose-orca-5", "walrus-puffin-5", "orca-bear-5", "puffin-fox-5", "bear-moose-5"]


def to_draw(st) -> None:  # type: ignore[no-untyped-def]
    """Go through step B with fixed choices until step C (or the next turn)."""
    while step_name(st) in ("move", "extra"):
        play(st, "main right" if step_name(st) == "move" else "pass")


def places(st) -> list[str]:  # type: ignore[no-untyped-def]
    return [t for t in legal(st) if t.split()[0] in ("place", "under", "facedown")]


# --- Fox "under pile" (12) -----------------------------------------------------------------------------


def fox(slug: str, top: list[object], hand: list[str], **options: object):  # type: ignore[no-untyped-def]
    _, st = new_game(2, powers=[slug], **options)
    return arrange(st, player=0, piles={0: top}, hands={0: hand}, holder={"fox": 0})


def test_fox_under_is_offered_only_for_the_final_card() -> None:
    st = fox("fox-under", ["moose-bear-2"], ["walrus-orca-5", "orca-puffin-5", "bear-fox-5"])
    assert places(st) == ["place walrus-orca-5", "place orca-puffin-5", "place bear-fox-5"]
    play(st, "place walrus-orca-5")
    assert places(st) == [
        "place orca-puffin-5",
        "place bear-fox-5",
        "under orca-puffin-5",
        "under bear-fox-5",
    ]
    play(st, "under bear-fox-5")
    assert st.piles[0] == [card(c) for c in ["bear-fox-5", "moose-bear-2", "walrus-orca-5"]]
    assert st.placed == 2 and step_name(st) == "move"
    assert holder_of(st, "walrus") == 0 and holder_of(st, "bear") == -1


def test_fox_under_as_the_only_card_keeps_the_visible_card_and_retakes_its_power() -> None:
    st = fox("fox-under", ["bear-puffin-1"], ["walrus-orca-5", "moose-fox-1"])
    arrange(st, player=0, holder={"bear": 1}, start_turn=False)
    play(st, "under walrus-orca-5")
    assert st.piles[0] == [card("walrus-orca-5"), card("bear-puffin-1")]
    assert visible_card(st.piles[0]) == card("bear-puffin-1")
    assert holder_of(st, "bear") == 0 and holder_of(st, "walrus") == -1
    play(st, "main right")
    assert (pos(st, "bear"), pos(st, "puffin")) == (3, 1)
    assert (st.draw_min, st.draw_max) == (5, 5)


@pytest.mark.parametrize("bga_limit", [False, True])
def test_fox_on_the_last_card_of_a_short_hand(bga_limit: bool) -> None:
    """§D11: the last card may go under even when it is the first card and P > 1 (not with the BGA limit)."""
    st = fox("fox-under", ["fox-orca-3"], ["walrus-orca-5"], fox_first_card_bga_limit=bga_limit)
    if bga_limit:
        assert places(st) == ["place walrus-orca-5"]
        return
    assert places(st) == ["place walrus-orca-5", "under walrus-orca-5"]
    play(st, "under walrus-orca-5")
    resolve(st)
    assert len(st.penalties[0]) == 2  # the shortfall is still 3 - 1
    assert visible_card(st.piles[0]) == card("fox-orca-3")


def test_fox_bga_limit_allows_the_first_card_when_p_is_one_and_later_cards() -> None:
    st = fox("fox-under", ["moose-fox-1"], ["walrus-orca-5", "bear-fox-5"], fox_first_card_bga_limit=True)
    assert "under walrus-orca-5" in places(st)
    st = fox("fox-under", ["moose-bear-2"], ["walrus-orca-5", "bear-fox-5"], fox_first_card_bga_limit=True)
    assert places(st) == ["place walrus-orca-5", "place bear-fox-5"]
    play(st, "place walrus-orca-5")
    assert "under bear-fox-5" in places(st)


def test_fox_powers_need_a_visible_card() -> None:
    for slug in ("fox-under", "fox-facedown"):
        st = fox(slug, [], ["walrus-orca-5", "bear-fox-5"])
        assert places(st) == ["place walrus-orca-5", "place bear-fox-5"]


def test_only_the_fox_side_in_play_is_offered() -> None:
    st = fox("fox-facedown", ["moose-fox-1"], ["walrus-orca-5"])
    assert places(st) == ["place walrus-orca-5", "facedown walrus-orca-5"]
    st = fox("fox-under", ["moose-fox-1"], ["walrus-orca-5"])
    assert places(st) == ["place walrus-orca-5", "under walrus-orca-5"]


# --- Fox "face-down wildcard" (11) -----------------------------------------------------------------------


def test_fox_facedown_goes_directly_beneath_the_visible_card() -> None:
    st = fox("fox-facedown", ["bear-orca-2", "moose-fox-1"], ["walrus-orca-5", "orca-puffin-5"])
    play(st, "facedown walrus-orca-5")
    assert st.piles[0] == [card("bear-orca-2"), fd("walrus-orca-5"), card("moose-fox-1")]
    assert visible_card(st.piles[0]) == card("moose-fox-1")
    # The face-down card gives no power and moves no token; its identity is hidden from the opponent.
    assert holder_of(st, "moose") == 0 and holder_of(st, "walrus") == -1
    assert st.observation(1).piles[0] == [card("bear-orca-2"), FACE_DOWN_UNKNOWN, card("moose-fox-1")]
    assert st.observation(0).piles[0][1] == card("walrus-orca-5") + FACE_DOWN_FLAG
    assert st.observation_dict(1)["players_view"][0]["pile"][1] == {"face_down": True}
    play(st, "main left")
    assert (pos(st, "moose"), pos(st, "fox"), pos(st, "walrus")) == (1, 3, 2)


def test_fox_facedown_only_on_the_final_card() -> None:
    st = fox("fox-facedown", ["moose-bear-2"], ["walrus-orca-5", "orca-puffin-5", "bear-fox-5"])
    assert places(st) == ["place walrus-orca-5", "place orca-puffin-5", "place bear-fox-5"]
    play(st, "place walrus-orca-5")
    assert "facedown bear-fox-5" in places(st)
    play(st, "facedown bear-fox-5")
    assert st.piles[0] == [card("moose-bear-2"), fd("bear-fox-5"), card("walrus-orca-5")]
    assert step_name(st) == "move"


def test_face_down_card_is_never_the_visible_card() -> None:
    """A take-back exposing a face-down card: no visible card, P = 1, no second face-down placement."""
    _, st = new_game(2, powers=["fox-facedown", "puffin-take-back"])
    arrange(
        st,
        player=0,
        piles={0: ["moose-fox-1", fd("walrus-orca-5"), "fox-orca-3"]},
        hands={0: ["orca-puffin-5", "bear-fox-5"]},
        holder={"fox": 0, "puffin": 0},
    )
    play(st, "take-back")
    assert (
        visible_card(st.piles[0]) == -1 and st.placement_value == 1 and (st.place_min, st.place_max) == (1, 1)
    )
    assert places(st) == ["place fox-orca-3", "place orca-puffin-5", "place bear-fox-5"]
    assert "take-back" not in legal(st)
    play(st, "place bear-fox-5")
    assert step_name(st) == "move" and holder_of(st, "bear") == 0 and holder_of(st, "walrus") == -1
    assert st.piles[0][-2] == fd("walrus-orca-5")


# --- A-power windows: from the next turn on, optional, once per turn --------------------------------------


def test_a_power_taken_this_turn_works_only_from_the_next_turn() -> None:
    _, st = new_game(2, powers=["fox-under"])
    arrange(
        st,
        player=0,
        hands={
            0: ["fox-bear-1", "walrus-orca-5", "orca-puffin-5"],
            1: ["moose-walrus-5", "bear-orca-2", "walrus-bear-3"],
        },
    )
    assert places(st) == ["place fox-bear-1", "place walrus-orca-5", "place orca-puffin-5"]
    play(st, "place fox-bear-1")
    assert holder_of(st, "fox") == 0 and st.powers_held_at_start == 0
    finish_turn(st, seed=1)
    finish_turn(st, seed=2)
    assert st.turn_player == 0 and st.powers_held_at_start == 1 << ANIMALS.index("fox")
    assert any(t.startswith("under ") for t in places(st))  # P = 1: the first card is the last


def test_a_power_lost_before_the_next_turn_cannot_be_used() -> None:
    _, st = new_game(2, powers=["fox-under"])
    arrange(
        st,
        player=0,
        hands={
            0: ["fox-bear-1", "walrus-orca-5", "orca-puffin-5"],
            1: ["fox-moose-5", "fox-walrus-4", "fox-orca-3"],
        },
    )
    play(st, "place fox-bear-1")
    finish_turn(st, seed=1)
    finish_turn(st, seed=2)  # the opponent places a fox card and takes the fox power
    assert holder_of(st, "fox") == 1 and st.turn_player == 0
    assert not any(t.startswith("under ") for t in places(st))


def test_moose_place_taken_on_the_first_turn_counts_from_the_next_turn() -> None:
    _, st = new_game(2, powers=["moose-place"])
    arrange(
        st,
        player=0,
        hands={
            0: ["moose-fox-1", "walrus-orca-5", "orca-puffin-5"],
            1: ["walrus-bear-3", "bear-orca-2", "fox-orca-3"],
        },
    )
    assert "stop" not in legal(st)
    play(st, "place moose-fox-1")
    finish_turn(st, seed=1)
    finish_turn(st, seed=2)
    assert (st.place_min, st.place_max) == (0, 2)
    assert "stop" in legal(st)


# --- Moose "placement ±1" (22) ---------------------------------------------------------------------------


def moose(top: list[object], hand: list[str], **options: object):  # type: ignore[no-untyped-def]
    _, st = new_game(2, powers=["moose-place", "puffin-take-back", "fox-facedown"], **options)
    return arrange(st, player=0, piles={0: top}, hands={0: hand}, holder={"moose": 0})


def test_moose_place_allows_p_minus_one_p_and_p_plus_one() -> None:
    hand = ["walrus-orca-5", "orca-puffin-5", "bear-fox-5", "puffin-bear-5", "bear-moose-4"]
    st = moose(["fox-orca-3"], hand)
    assert (st.place_min, st.place_max) == (2, 4)
    seen = []
    for c in hand[:4]:
        seen.append("stop" in legal(st))
        play(st, f"place {c}")
    assert seen == [False, False, True, True]
    assert step_name(st) == "move" and st.hands[0] == [card("bear-moose-4")]
    st = moose(["fox-orca-3"], hand)
    play(st, "place walrus-orca-5", "place orca-puffin-5", "stop")
    assert step_name(st) == "move" and st.placed == 2 and st.penalties[0] == []


def test_moose_place_to_zero_keeps_the_visible_card_and_retakes_its_power() -> None:
    st = moose(["fox-bear-1"], ["walrus-orca-5", "orca-puffin-5"])
    arrange(st, player=0, holder={"fox": 1}, start_turn=False)
    assert (st.place_min, st.place_max) == (0, 2)
    play(st, "stop")
    assert st.placed == 0 and st.piles[0] == [card("fox-bear-1")]
    assert holder_of(st, "fox") == 0  # §D17: A6 happens even though the visible card did not change
    play(st, "main right")
    assert (pos(st, "fox"), pos(st, "bear")) == (3, 1)


def test_moose_place_to_six() -> None:
    hand = [
        "walrus-orca-5",
        "orca-puffin-5",
        "bear-fox-5",
        "puffin-bear-5",
        "bear-moose-4",
        "fox-walrus-5",
        "orca-bear-5",
    ]
    st = moose(["fox-moose-5"], hand)
    assert (st.place_min, st.place_max) == (4, 6)
    for c in hand[:6]:
        play(st, f"place {c}")
    assert st.placed == 6 and step_name(st) == "move" and st.hands[0] == [card("orca-bear-5")]


@pytest.mark.parametrize("mode", ["one_or_two", "bga_exactly_one"])
def test_moose_place_without_visible_card(mode: str) -> None:
    """§D12: after a take-back empties the pile, T is 1 or 2 (exactly 1 in BGA mode), never 0."""
    st = moose(["walrus-orca-5"], ["bear-fox-5", "orca-puffin-5"], moose_no_visible=mode)
    arrange(st, player=0, holder={"puffin": 0, "fox": 0}, start_turn=True)
    play(st, "take-back")
    assert st.piles[0] == [] and st.placement_value == 1
    assert "stop" not in legal(st)
    play(st, "place bear-fox-5")
    if mode == "bga_exactly_one":
        assert (st.place_min, st.place_max) == (1, 1) and step_name(st) == "move"
        return
    assert (st.place_min, st.place_max) == (1, 2)
    assert "stop" in legal(st) and "place orca-puffin-5" in legal(st)
    assert "facedown orca-puffin-5" in legal(st)  # the 2nd card may go face-down beneath the 1st
    play(st, "facedown orca-puffin-5")
    assert st.piles[0] == [fd("orca-puffin-5"), card("bear-fox-5")]


def test_moose_place_with_a_face_down_top_after_take_back() -> None:
    st = moose(
        ["fox-orca-3", fd("walrus-orca-5"), "bear-moose-4"], ["orca-puffin-5"], moose_no_visible="one_or_two"
    )
    arrange(st, player=0, holder={"puffin": 0, "fox": 0}, start_turn=True)
    play(st, "take-back")
    assert (st.place_min, st.place_max) == (1, 2)
    assert places(st) == ["place orca-puffin-5", "place bear-moose-4"]  # no face-down on a face-down top
    play(st, "place bear-moose-4")
    assert "facedown orca-puffin-5" in legal(st) and "stop" in legal(st)


def test_moose_place_short_hand_reduces_penalty_automatically() -> None:
    st = moose(["fox-moose-5"], ["walrus-orca-5"])
    play(st, "place walrus-orca-5")
    resolve(st)
    assert len(st.penalties[0]) == 3  # T = P - 1 = 4, one card placed


# --- Puffin "swap" (51) -----------------------------------------------------------------------------------


def puffin(slug: str, top: list[object], hand: list[str], **kw: object):  # type: ignore[no-untyped-def]
    _, st = new_game(2, powers=[slug])
    return arrange(st, player=0, piles={0: top}, hands={0: hand}, holder={"puffin": 0}, **kw)


def test_puffin_swap_exchanges_one_hand_card_with_one_river_card() -> None:
    st = puffin("puffin-swap", ["fox-orca-3"], ["walrus-orca-5", "orca-puffin-5", "bear-fox-5"], river=RIVER)
    assert "swap walrus-orca-5" in legal(st) and "place walrus-orca-5" in legal(st)  # optional
    play(st, "swap walrus-orca-5")
    assert step_name(st) == "swap"
    assert legal(st) == [f"river {c}" for c in sorted(RIVER, key=card)]
    play(st, "river orca-bear-5")
    assert card("orca-bear-5") in st.hands[0] and card("walrus-orca-5") not in st.hands[0]
    assert card("walrus-orca-5") in st.river and card("orca-bear-5") not in st.river and len(st.river) == 6
    assert step_name(st) == "place" and st.placement_value == 3 and st.placed == 0
    assert not any(t.startswith("swap") for t in legal(st))  # once per turn
    # The swap is public: the opponent knows the card is now in P1's hand.
    assert card_name(card("orca-bear-5")) in st.observation_dict(1)["players_view"][0]["known_hand"]


@pytest.mark.parametrize("public", [True, False])
def test_a_take_back_is_undoable_only_from_a_public_pile(public: bool) -> None:
    """A private pile (``piles_public=false``) hides its covered cards from the others: a take-back shows
    them the card it uncovers, which an undo cannot make them forget (``python -m floe.testing arctic``
    found it)."""
    _, st = new_game(2, powers=["puffin-take-back"], piles_public=public)
    st = arrange(
        st,
        player=0,
        piles={0: ["fox-orca-3", "moose-bear-2"]},
        hands={0: ["walrus-orca-5"]},
        holder={"puffin": 0},
    )
    assert "take-back" in legal(st)
    assert st.undoable(st.string_to_action("take-back")) is public


def test_puffin_swap_only_before_placing_and_with_a_river() -> None:
    st = puffin("puffin-swap", ["moose-bear-2"], ["walrus-orca-5", "orca-puffin-5"], river=RIVER)
    play(st, "place walrus-orca-5")
    assert not any(t.startswith("swap") for t in legal(st))
    st = puffin("puffin-swap", ["moose-bear-2"], ["walrus-orca-5", "orca-puffin-5"], river=[])
    assert not any(t.startswith("swap") for t in legal(st))


def test_puffin_swap_works_in_the_final_round() -> None:
    st = puffin(
        "puffin-swap",
        ["moose-bear-2"],
        ["walrus-orca-5"],
        river=RIVER,
        end_triggered=True,
        final_round=True,
        round=9,
    )
    assert "swap walrus-orca-5" in legal(st)


# --- Puffin "take back" (52) ------------------------------------------------------------------------------


def test_take_back_moves_the_visible_card_to_the_hand_and_uses_the_next_card() -> None:
    st = puffin("puffin-take-back", ["fox-orca-3", "moose-walrus-5"], ["walrus-orca-5"])
    assert "take-back" in legal(st) and "place walrus-orca-5" in legal(st)
    play(st, "take-back")
    assert st.hands[0] == sorted([card("walrus-orca-5"), card("moose-walrus-5")])
    assert st.piles[0] == [card("fox-orca-3")] and st.placement_value == 3
    assert "take-back" not in legal(st)
    play(st, "place moose-walrus-5", "place walrus-orca-5")
    resolve(st)
    assert len(st.penalties[0]) == 1  # P = 3 from fox-orca-3, hand of 2 after the take-back


def test_take_back_only_before_placing() -> None:
    st = puffin("puffin-take-back", ["fox-puffin-2", "moose-bear-2"], ["walrus-orca-5", "orca-puffin-5"])
    play(st, "place walrus-orca-5")
    assert "take-back" not in legal(st)


def test_take_back_on_a_one_card_pile_places_exactly_one_card() -> None:
    """§D24: the pile becomes empty, P = 1, the card placed becomes the visible card."""
    st = puffin("puffin-take-back", ["fox-orca-3"], ["walrus-orca-5", "orca-puffin-5"])
    play(st, "take-back")
    assert st.piles[0] == [] and st.placement_value == 1 and (st.place_min, st.place_max) == (1, 1)
    assert "stop" not in legal(st)
    play(st, "place fox-orca-3")
    assert st.piles[0] == [card("fox-orca-3")] and step_name(st) == "move"
    assert holder_of(st, "fox") == 0


def test_take_back_with_an_empty_hand() -> None:
    st = puffin("puffin-take-back", ["fox-orca-3", "moose-bear-2"], [])
    assert legal(st) == ["stop", "take-back"]
    declined = st.clone()
    play(declined, "stop")
    resolve(declined)
    assert len(declined.penalties[0]) == 2
    play(st, "take-back")
    assert legal(st) == ["place moose-bear-2"]


# --- Moose "draw ±1" (21) ---------------------------------------------------------------------------------


def drawing(  # type: ignore[no-untyped-def]
    powers: list[str], hand_card: str, options: dict[str, object] | None = None, **kw: object
):
    """P1 places ``hand_card`` on fox-bear-1 (P = 1), goes through step B and arrives in step C (``options``
    for the game, the rest for ``arrange``)."""
    _, st = new_game(2, powers=powers, **(options or {}))
    arrange(st, player=0, piles={0: ["fox-bear-1"]}, hands={0: [hand_card]}, **kw)
    play(st, f"place {hand_card}")
    to_draw(st)
    return st


def test_moose_draw_allows_n_minus_one_to_n_plus_one() -> None:
    st = drawing(["moose-draw"], "puffin-moose-3", holder={"moose": 0}, river=RIVER)
    assert step_name(st) == "draw" and (st.draw_min, st.draw_max) == (2, 4)
    stops = []
    for c in RIVER[:4]:
        stops.append("stop" in legal(st))
        play(st, f"river {c}")
    assert stops == [False, False, True, True]
    assert step_name(st) != "draw" and st.drawn == 4


def test_moose_draw_to_zero() -> None:
    st = drawing(["moose-draw"], "puffin-bear-5", holder={"moose": 0}, river=RIVER)
    assert (st.draw_min, st.draw_max) == (0, 2)
    hand = st.hands[0][:]
    play(st, "stop")
    assert st.hands[0] == hand and len(st.river) == 6 and st.turn_player == 1


def test_moose_draw_to_six_takes_the_whole_river() -> None:
    st = drawing(["moose-draw"], "puffin-orca-1", holder={"moose": 0}, river=RIVER)
    assert (st.draw_min, st.draw_max) == (4, 6)
    for c in RIVER:
        play(st, f"river {c}")
    assert st.is_chance_node() and st.river == []
    resolve(st)
    assert len(st.river) == 6 and all(card(c) in st.hands[0] for c in RIVER)


def test_without_moose_draw_exactly_n_cards() -> None:
    st = drawing([], "puffin-moose-3", river=RIVER)
    assert (st.draw_min, st.draw_max) == (3, 3)
    for c in RIVER[:2]:
        assert "stop" not in legal(st)
        play(st, f"river {c}")
    play(st, f"river {RIVER[2]}")
    assert st.drawn == 3 and st.is_chance_node()


# --- Orca "refill after each" (41) and "draw from deck" (42) ----------------------------------------------


def test_orca_refill_refills_the_river_after_each_river_draw() -> None:
    st = drawing(["orca-refill"], "puffin-moose-3", holder={"orca": 0}, river=RIVER)
    deck0 = main_deck(st)
    for i, c in enumerate(RIVER[:3], start=1):
        play(st, f"river {c}")
        assert st.is_chance_node() and len(st.river) == 5
        resolve(st, seed=i)
        assert len(st.river) == 6 and main_deck(st) == deck0 - i
    assert st.turn_player == 1 and main_deck(st) == deck0 - 3


def test_without_orca_refill_the_river_shrinks_until_the_end_of_step_c() -> None:
    st = drawing([], "puffin-moose-3", river=RIVER)
    for i, c in enumerate(RIVER[:2], start=1):
        play(st, f"river {c}")
        assert not st.is_chance_node() and len(st.river) == 6 - i


def test_orca_refill_not_after_a_penalty_draw() -> None:
    st = drawing(
        ["orca-refill", "bear-draw-penalty"],
        "puffin-moose-3",
        holder={"orca": 0, "bear": 0},
        river=RIVER,
        penalties={0: ["walrus-fox-2"]},
    )
    play(st, f"river {RIVER[0]}")
    resolve(st)
    deck0, river0 = main_deck(st), st.river[:]
    play(st, "penalty walrus-fox-2")
    assert not st.is_chance_node() and main_deck(st) == deck0 and st.river == river0
    assert st.penalties[0] == []


def test_orca_deck_draw_takes_the_top_of_the_deck_hidden() -> None:
    st = drawing(["orca-deck"], "puffin-moose-3", holder={"orca": 0}, river=RIVER)
    assert "deck" in legal(st)
    play(st, "deck")
    assert st.is_chance_node()
    a, b = st.deck[0], st.deck[1]
    world_a, world_b = st.clone(), st.clone()
    deal(world_a, a)
    deal(world_b, b)
    assert a in world_a.hands[0] and len(world_a.river) == 6 and world_a.drawn == 1
    # Only the drawer sees the card: the opponent's observation is the same in both worlds.
    assert world_a.observation_dict(1) == world_b.observation_dict(1)
    assert (world_a.observation_vector(1) == world_b.observation_vector(1)).all()
    assert world_a.observation_dict(0) != world_b.observation_dict(0)
    assert world_a.known[a] == 0
    # Mixed with river draws, in any order.
    play(world_a, f"river {RIVER[0]}", "deck")
    resolve(world_a)
    assert world_a.turn_player == 1 and len(world_a.hands[0]) == 3 and len(world_a.river) == 6


def test_orca_deck_draw_with_an_empty_river() -> None:
    """§D15: deck draws stay possible when the river is empty."""
    st = drawing(["orca-deck"], "puffin-moose-3", holder={"orca": 0}, river=[])
    assert step_name(st) == "draw" and legal(st) == ["deck"]
    st = drawing([], "puffin-moose-3", river=[])
    assert step_name(st) != "draw"  # no source: drawing ends at once


# --- Polar bear "draw from penalty zone" (61) and "give" (62) -------------------------------------------


def test_bear_draw_penalty_lowers_the_penalty_count() -> None:
    st = drawing(
        ["bear-draw-penalty"],
        "puffin-moose-3",
        holder={"bear": 0},
        river=RIVER,
        penalties={0: ["walrus-fox-2", "orca-moose-2"]},
    )
    assert "penalty walrus-fox-2" in legal(st) and "penalty orca-moose-2" in legal(st)
    play(st, "penalty walrus-fox-2", "penalty orca-moose-2")
    assert st.penalties[0] == [] and card("walrus-fox-2") in st.hands[0] and st.drawn == 2
    assert not any(t.startswith("penalty") for t in legal(st))


def test_bear_draw_penalty_with_an_empty_river() -> None:
    st = drawing(
        ["bear-draw-penalty"], "puffin-moose-3", holder={"bear": 0}, river=[], penalties={0: ["walrus-fox-2"]}
    )
    assert legal(st) == ["penalty walrus-fox-2"]


def test_bear_draw_penalty_blind_when_owners_cannot_look() -> None:
    st = drawing(
        ["bear-draw-penalty"],
        "puffin-moose-3",
        holder={"bear": 0},
        river=RIVER,
        penalties={0: ["walrus-fox-2", "orca-moose-2"]},
        options={"penalties": "hidden_blind"},
    )
    assert "penalty ?" in legal(st) and not any(t.startswith("penalty w") for t in legal(st))
    play(st, "penalty ?")
    assert st.is_chance_node() and len(st.legal_actions()) == 2
    resolve(st)
    assert len(st.penalties[0]) == 1


def test_bear_give_after_the_discards() -> None:
    _, st = new_game(3, powers=["bear-give"])
    arrange(
        st,
        player=0,
        piles={0: ["fox-bear-1"]},
        hands={0: ["puffin-moose-3"]},
        penalties={0: ["walrus-fox-2"]},
        holder={"bear": 0},
    )
    play(st, "place puffin-moose-3")
    to_draw(st)
    while step_name(st) == "draw":
        st.apply(st.legal_actions()[0])
    resolve(st)
    assert step_name(st) == "give"
    assert legal(st) == ["pass", "give walrus-fox-2 to P2", "give walrus-fox-2 to P3"]
    play(st, "give walrus-fox-2 to P3")
    assert st.penalties[0] == [] and st.penalties[2] == [card("walrus-fox-2")]
    assert st.turn_player == 1  # once per turn: the turn is over


def test_bear_give_can_pass_on_a_card_just_discarded() -> None:
    _, st = new_game(2, powers=["bear-give"])
    hand = [
        "puffin-moose-3",
        "walrus-fox-2",
        "orca-moose-2",
        "walrus-bear-3",
        "moose-bear-2",
        "bear-walrus-3",
        "fox-bear-2",
    ]
    arrange(st, player=0, piles={0: ["fox-bear-1"]}, hands={0: hand}, holder={"bear": 0}, river=RIVER)
    play(st, "place puffin-moose-3")
    to_draw(st)
    play(st, *(f"river {c}" for c in RIVER[:3]))
    resolve(st)
    assert step_name(st) == "discard" and len(st.hands[0]) == 9
    play(st, "discard walrus-fox-2", "discard orca-moose-2")
    assert step_name(st) == "give" and len(st.hands[0]) == 7
    play(st, "give orca-moose-2 to P2")
    assert st.penalties == [[card("walrus-fox-2")], [card("orca-moose-2")]]


def test_bear_give_needs_a_penalty_card() -> None:
    _, st = new_game(2, powers=["bear-give"])
    arrange(st, player=0, piles={0: ["fox-bear-1"]}, hands={0: ["puffin-moose-3"]}, holder={"bear": 0})
    play(st, "place puffin-moose-3")
    steps = finish_turn(st)
    assert "give" not in steps and st.turn_player == 1


def test_bear_give_taken_this_turn_is_usable_at_once() -> None:
    _, st = new_game(2, powers=["bear-give"])
    arrange(
        st, player=0, piles={0: ["fox-bear-1"]}, hands={0: ["bear-moose-4"]}, penalties={0: ["walrus-fox-2"]}
    )
    play(st, "place bear-moose-4")
    assert holder_of(st, "bear") == 0
    to_draw(st)
    while step_name(st) == "draw":
        st.apply(st.legal_actions()[-1])
    resolve(st)
    assert step_name(st) == "give"


def test_bear_give_not_in_the_final_round() -> None:
    _, st = new_game(2, powers=["bear-give"])
    arrange(
        st,
        player=0,
        piles={0: ["fox-bear-1"]},
        hands={0: ["puffin-moose-3"]},
        penalties={0: ["walrus-fox-2"]},
        holder={"bear": 0},
        end_triggered=True,
        final_round=True,
        round=9,
    )
    play(st, "place puffin-moose-3")
    steps = finish_turn(st)
    assert steps == ["move"] and st.penalties[0] == [card("walrus-fox-2")]


def test_bear_give_in_step_a_variant_needs_the_power_since_the_start_of_the_turn() -> None:
    _, st = new_game(2, powers=["bear-give"], bear_give_step="A")
    arrange(
        st,
        player=0,
        piles={0: ["fox-bear-1"]},
        hands={0: ["puffin-moose-3"]},
        penalties={0: ["walrus-fox-2"]},
        holder={"bear": 0},
    )
    assert "give walrus-fox-2 to P2" in legal(st)
    play(st, "give walrus-fox-2 to P2")
    assert step_name(st) == "place" and not any(t.startswith("give") for t in legal(st))
    steps = finish_turn(st)
    assert "give" not in steps


def test_illegal_power_use_is_refused() -> None:
    st = puffin("puffin-take-back", ["fox-orca-3", "moose-walrus-5"], ["walrus-orca-5"])
    play(st, "take-back")
    before = st.to_json()
    with pytest.raises(IllegalActionError):
        play(st, "take-back")
    assert st.to_json() == before


def test_orca_refill_taken_this_turn_works_at_once() -> None:
    _, st = new_game(2, powers=["orca-refill"])
    arrange(st, player=0, piles={0: ["fox-bear-1"]}, hands={0: ["orca-fox-3"]}, river=RIVER)
    play(st, "place orca-fox-3")
    to_draw(st)
    assert holder_of(st, "orca") == 0
    play(st, f"river {RIVER[0]}")
    assert st.is_chance_node() and len(st.river) == 5


def test_bear_draw_penalty_taken_this_turn_works_at_once() -> None:
    _, st = new_game(2, powers=["bear-draw-penalty"])
    arrange(
        st,
        player=0,
        piles={0: ["fox-bear-1"]},
        hands={0: ["bear-walrus-3"]},
        river=RIVER,
        penalties={0: ["walrus-fox-2"]},
    )
    play(st, "place bear-walrus-3")
    to_draw(st)
    assert "penalty walrus-fox-2" in legal(st)


def test_c_powers_are_optional() -> None:
    st = drawing(
        ["orca-deck", "bear-draw-penalty"],
        "puffin-moose-3",
        holder={"orca": 0, "bear": 0},
        river=RIVER,
        penalties={0: ["walrus-fox-2"]},
    )
    assert {"deck", "penalty walrus-fox-2", f"river {RIVER[0]}"} <= set(legal(st))
    play(st, *(f"river {c}" for c in RIVER[:3]))
    resolve(st)
    assert st.turn_player == 1 and st.penalties[0] == [card("walrus-fox-2")]


def test_fox_needs_a_visible_card_even_when_the_face_down_top_is_the_lowest_card() -> None:
    # fox-moose-5 is card 0: face down it is stored as exactly FACE_DOWN_FLAG. After the take-back it is the
    # top of the pile, face down, so there is no visible card for either Fox power.
    assert card("fox-moose-5") == 0
    for slug in ("fox-under", "fox-facedown"):
        _, st = new_game(2, powers=["puffin-take-back", slug])
        arrange(
            st,
            player=0,
            piles={0: ["fox-orca-3", fd("fox-moose-5"), "bear-moose-4"]},
            hands={0: ["orca-puffin-5"]},
            holder={"puffin": 0, "fox": 0},
        )
        play(st, "take-back")
        assert visible_card(st.piles[0]) == -1
        assert places(st) == ["place orca-puffin-5", "place bear-moose-4"], slug


@pytest.mark.parametrize("bga_limit", [False, True])
def test_fox_bga_limit_forbids_a_first_card_on_p_two(bga_limit: bool) -> None:
    """§D11 with the BGA limit: the first card may not go under when P > 1, so P = 2 forbids it too."""
    st = fox("fox-under", ["moose-bear-2"], ["walrus-orca-5"], fox_first_card_bga_limit=bga_limit)
    expected = ["place walrus-orca-5"] if bga_limit else ["place walrus-orca-5", "under walrus-orca-5"]
    assert places(st) == expected


@pytest.mark.parametrize("slug", ["fox-under", "fox-facedown"])
def test_a_fox_card_ends_the_placement_even_below_the_moose_maximum(slug: str) -> None:
    """A Fox card is the last card placed (docs/arctic-rules.md §12): with the Moose's P + 1 still open,
    placing stops."""
    _, st = new_game(2, powers=["moose-place", slug])
    arrange(
        st,
        player=0,
        piles={0: ["fox-orca-3"]},
        hands={0: ["walrus-orca-5", "orca-puffin-5", "bear-fox-5", "puffin-bear-5"]},
        holder={"moose": 0, "fox": 0},
    )
    assert (st.place_min, st.place_max) == (2, 4)
    word = slug.split("-")[1]
    play(st, "place walrus-orca-5", f"{word} orca-puffin-5")
    assert st.placed == 2 and step_name(st) != "place"


def test_a_puffin_swap_by_another_seat_is_public_and_then_settled() -> None:
    """The offered hand card is announced (known to be in P2's hand) until it goes to the river; once the
    swap is done no swap card is pending."""
    _, st = new_game(2, powers=["puffin-swap"])
    arrange(
        st,
        player=1,
        piles={1: ["fox-orca-3"]},
        hands={1: ["walrus-orca-5", "orca-puffin-5"]},
        river=RIVER,
        holder={"puffin": 1},
    )
    play(st, "swap walrus-orca-5")
    assert st.known[card("walrus-orca-5")] == IN_HAND + 1
    assert card_name(card("walrus-orca-5")) in st.observation_dict(0)["players_view"][1]["known_hand"]
    play(st, "river orca-bear-5")
    assert st.swap_card == -1 and st.known[card("walrus-orca-5")] == 0
    assert st.known[card("orca-bear-5")] == IN_HAND + 1


def test_a_face_down_card_of_another_seat_blurs_what_is_known_of_its_hand() -> None:
    """A card known to be in P2's hand may be the one P2 just put face down: it is now only known to be
    somewhere P2 hides cards."""
    _, st = new_game(2, powers=["fox-facedown"])
    arrange(
        st,
        player=1,
        piles={1: ["fox-orca-3"]},
        hands={1: ["walrus-orca-5", "orca-puffin-5", "puffin-bear-5", "bear-fox-5"]},
        holder={"fox": 1},
    )
    st.known[card("bear-fox-5")] = IN_HAND + 1  # taken from the river in an earlier turn
    play(st, "place walrus-orca-5", "place orca-puffin-5", "facedown puffin-bear-5")
    assert st.known[card("bear-fox-5")] == 1 << 1

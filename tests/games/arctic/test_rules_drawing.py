"""Step C without powers: draws from the river, the refill, the hand limit (docs/arctic-rules.md §5.3, §5.4,
§13.6)."""

from __future__ import annotations

import pytest

from floe.core.errors import IllegalActionError

from .positions import arrange, card, finish_turn, legal, main_deck, new_game, play, resolve, step_name

RIVER = ["fox-walrus-5", "moose-orca-5", "walrus-puffin-5", "orca-bear-5", "puffin-fox-5", "bear-moose-5"]
SEVEN = [
    "walrus-fox-2",
    "orca-moose-2",
    "walrus-bear-3",
    "moose-bear-2",
    "bear-walrus-3",
    "fox-bear-2",
    "orca-fox-3",
]


def at_draw(hand: list[str], hand_card: str = "puffin-moose-3", **kw: object):  # type: ignore[no-untyped-def]
    """P1 places ``hand_card`` (on fox-bear-1, P = 1) and arrives in step C with ``hand`` left."""
    _, st = new_game(2, powers=["walrus-companion"])
    arrange(st, player=0, piles={0: ["fox-bear-1"]}, hands={0: [hand_card, *hand]}, **kw)
    play(st, f"place {hand_card}", "main right")
    assert step_name(st) == "draw"
    return st


def test_draw_value_cards_from_the_river_then_refill() -> None:
    st = at_draw([], river=RIVER)
    assert (st.draw_min, st.draw_max) == (3, 3)
    assert legal(st) == [f"river {c}" for c in sorted(RIVER, key=card)]
    deck0 = main_deck(st)
    play(st, f"river {RIVER[0]}", f"river {RIVER[3]}")
    assert len(st.river) == 4 and not st.is_chance_node()
    with pytest.raises(IllegalActionError):
        play(st, "stop")
    play(st, f"river {RIVER[5]}")
    assert st.is_chance_node()
    resolve(st)
    assert len(st.river) == 6 and main_deck(st) == deck0 - 3
    assert sorted(st.hands[0]) == sorted(card(c) for c in (RIVER[0], RIVER[3], RIVER[5]))
    assert st.turn_player == 1


def test_drawing_stops_when_the_river_runs_out() -> None:
    st = at_draw([], hand_card="puffin-orca-1", river=RIVER[:2], main_deck=0, reserve=0, end_triggered=True)
    assert (st.draw_min, st.draw_max) == (5, 5)
    play(st, f"river {RIVER[0]}", f"river {RIVER[1]}")
    assert (
        not st.is_chance_node() and st.river == [] and st.turn_player == 1
    )  # no refill possible, no penalty


def test_hand_limit_nine_cards_means_two_chosen_discards() -> None:
    st = at_draw(SEVEN[:6], hand_card="puffin-moose-3", river=RIVER)
    play(st, *(f"river {c}" for c in RIVER[:3]))
    resolve(st)
    assert step_name(st) == "discard" and len(st.hands[0]) == 9
    assert legal(st) == [f"discard {c}" for c in sorted((*SEVEN[:6], *RIVER[:3]), key=card)]
    play(st, f"discard {RIVER[1]}")
    assert step_name(st) == "discard" and len(st.hands[0]) == 8
    play(st, "discard walrus-fox-2")
    assert len(st.hands[0]) == 7 and st.turn_player == 1
    assert st.penalties[0] == sorted([card(RIVER[1]), card("walrus-fox-2")])


def test_no_discard_at_seven_cards() -> None:
    st = at_draw(SEVEN[:4], river=RIVER)
    play(st, *(f"river {c}" for c in RIVER[:3]))
    resolve(st)
    assert len(st.hands[0]) == 7 and st.turn_player == 1 and st.penalties[0] == []


def test_no_hand_limit_in_the_final_round() -> None:
    _, st = new_game(2)
    hand = [*SEVEN, "puffin-moose-3", "bear-orca-2", "moose-walrus-5"]
    arrange(
        st,
        player=0,
        piles={0: ["fox-bear-1"]},
        hands={0: hand},
        end_triggered=True,
        final_round=True,
        round=9,
    )
    steps = finish_turn(st)
    assert "discard" not in steps and "draw" not in steps
    assert len(st.hands[0]) == 9 and st.penalties[0] == []


def test_hand_limit_checked_only_after_step_c() -> None:
    """A hand above 7 during step A is fine; it is only cut at the end of step C."""
    _, st = new_game(2)
    hand = [*SEVEN, "puffin-moose-3", "bear-orca-2", "moose-walrus-5"]
    arrange(st, player=0, piles={0: ["fox-bear-1"]}, hands={0: hand}, river=RIVER)
    assert step_name(st) == "place" and len(st.hands[0]) == 10
    play(st, "place puffin-moose-3", "main right")
    play(st, *(f"river {c}" for c in RIVER[:3]))
    resolve(st)
    assert step_name(st) == "discard" and len(st.hands[0]) == 12
    while step_name(st) == "discard":
        st.apply(st.legal_actions()[0])
    assert len(st.hands[0]) == 7 and len(st.penalties[0]) == 5


def test_river_refill_comes_from_the_reserve_after_the_trigger() -> None:
    st = at_draw([], river=RIVER, main_deck=0, reserve=2, end_triggered=True)
    play(st, *(f"river {c}" for c in RIVER[:3]))
    resolve(st)
    assert len(st.river) == 5 and st.deck == []  # only 2 cards were left

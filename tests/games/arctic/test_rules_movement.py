"""Step B (docs/arctic-rules.md §5.2, §13.4) and the Walrus powers (§6.3, §D7, §D8)."""

from __future__ import annotations

import pytest

from floe.games.arctic.cards import ANIMALS

from .positions import arrange, legal, new_game, play, pos, step_name

# (main position, companion position) -> the legal outcomes, written out from the table in
# docs/arctic-rules.md §5.2.
# Positions: 0 = value 0 (edge), 2 = value 3 (middle), 5 = value 15 (edge).
MOVES: dict[tuple[int, int], set[tuple[int, int]]] = {
    (0, 0): {(1, 1)},  # B-3, same edge: both towards the centre
    (0, 2): {(1, 1)},  # B-2: main off the edge, companion the opposite way
    (0, 5): {(1, 4)},  # B-3, opposite edges
    (2, 0): {(1, 1)},  # B-2: companion off the edge, main the opposite way
    (2, 2): {(3, 1), (1, 3)},  # B-1: the player chooses
    (2, 5): {(3, 4)},  # B-2
    (5, 0): {(4, 1)},  # B-3
    (5, 2): {(4, 3)},  # B-2
    (5, 5): {(4, 4)},  # B-3, same edge
}


def placed(main_pos: int, comp_pos: int, **options: object):  # type: ignore[no-untyped-def]
    """P1 places fox-moose-5 (main fox, companion moose) with the tokens on the given positions."""
    _, st = new_game(2, **options)
    arrange(st, player=0, hands={0: ["fox-moose-5"]}, tokens={"fox": main_pos, "moose": comp_pos})
    play(st, "place fox-moose-5")
    return st


@pytest.mark.parametrize(("main_pos", "comp_pos"), sorted(MOVES))
def test_base_move_table(main_pos: int, comp_pos: int) -> None:
    st = placed(main_pos, comp_pos)
    others = [st.tokens[a] for a in range(2, 6)]
    outcomes = set()
    if step_name(st) == "move":
        assert legal(st) == ["main right", "main left"]
        for choice in ("main right", "main left"):
            branch = st.clone()
            play(branch, choice)
            outcomes.add((pos(branch, "fox"), pos(branch, "moose")))
            assert step_name(branch) == "draw"
    else:
        assert step_name(st) == "draw"  # forced moves need no decision
        outcomes.add((pos(st, "fox"), pos(st, "moose")))
    assert outcomes == MOVES[(main_pos, comp_pos)]
    assert [st.tokens[a] for a in range(2, 6)] == others  # no other token moves


@pytest.mark.parametrize("main_pos", range(1, 5))
@pytest.mark.parametrize("comp_pos", range(1, 5))
def test_inner_positions_always_give_the_choice(main_pos: int, comp_pos: int) -> None:
    st = placed(main_pos, comp_pos)
    assert step_name(st) == "move" and legal(st) == ["main right", "main left"]
    play(st, "main left")
    assert (pos(st, "fox"), pos(st, "moose")) == (main_pos - 1, comp_pos + 1)


# --- Walrus ------------------------------------------------------------------------------------------------


def walrus(slug: str, hand_card: str, tokens: dict[str, int], **options: object):  # type: ignore[no-untyped-def]
    _, st = new_game(2, powers=[slug], **options)
    arrange(st, player=0, hands={0: [hand_card]}, tokens=tokens, holder={"walrus": 0})
    play(st, f"place {hand_card}")
    return st


def test_walrus_main_at_15_steps_back_then_may_go_either_way() -> None:
    st = walrus("walrus-main", "walrus-orca-5", {"walrus": 5, "orca": 2})
    assert (pos(st, "walrus"), pos(st, "orca")) == (4, 3)  # forced B-2 first
    assert step_name(st) == "extra" and legal(st) == ["pass", "extra right", "extra left"]
    for choice, expected in (("extra right", 5), ("extra left", 3), ("pass", 4)):
        branch = st.clone()
        play(branch, choice)
        assert pos(branch, "walrus") == expected and pos(branch, "orca") == 3
        assert step_name(branch) == "draw"


def test_walrus_extra_step_cannot_leave_the_landscape() -> None:
    st = walrus("walrus-main", "walrus-orca-5", {"walrus": 1, "orca": 2})
    play(st, "main left")
    assert pos(st, "walrus") == 0
    assert legal(st) == ["pass", "extra right"]


def test_walrus_companion_moves_the_companion_token() -> None:
    st = walrus("walrus-companion", "fox-walrus-4", {"fox": 2, "walrus": 2})
    play(st, "main right")
    assert (pos(st, "fox"), pos(st, "walrus")) == (3, 1)
    assert legal(st) == ["pass", "extra right", "extra left"]
    play(st, "extra left")
    assert (pos(st, "fox"), pos(st, "walrus")) == (3, 0)


def test_walrus_main_extra_is_for_the_main_token_even_if_walrus_is_the_companion() -> None:
    st = walrus("walrus-main", "fox-walrus-4", {"fox": 2, "walrus": 2})
    play(st, "main right", "extra right")
    assert (pos(st, "fox"), pos(st, "walrus")) == (4, 1)


def test_walrus_double_move_mode_only_continues_in_the_same_direction() -> None:
    st = walrus("walrus-main", "walrus-orca-5", {"walrus": 2, "orca": 2}, walrus_mode="double_move")
    play(st, "main right")
    assert legal(st) == ["pass", "extra right"]
    play(st, "extra right")
    assert pos(st, "walrus") == 4
    st = walrus("walrus-main", "walrus-orca-5", {"walrus": 5, "orca": 2}, walrus_mode="double_move")
    assert pos(st, "walrus") == 4 and legal(st) == ["pass", "extra left"]


def test_no_extra_step_without_the_walrus_power() -> None:
    _, st = new_game(2, powers=["walrus-main"])
    arrange(st, player=0, hands={0: ["fox-moose-5"]}, holder={"walrus": 1})
    play(st, "place fox-moose-5", "main right")
    assert step_name(st) == "draw"


def test_walrus_extra_step_in_the_final_round() -> None:
    _, st = new_game(2, powers=["walrus-main"])
    arrange(
        st,
        player=0,
        hands={0: ["walrus-orca-5"]},
        holder={"walrus": 0},
        end_triggered=True,
        final_round=True,
        round=9,
    )
    play(st, "place walrus-orca-5", "main right")
    assert legal(st) == ["pass", "extra right", "extra left"]
    play(st, "extra right")
    assert pos(st, "walrus") == 4 and st.turn_player == 1  # no step C in the final round


def test_walrus_double_move_continues_left_onto_the_edge() -> None:
    # Main left from position 2 leaves the walrus on position 1 (value 1): one more step left reaches 0.
    st = walrus("walrus-main", "walrus-orca-5", {"walrus": 2, "orca": 2}, walrus_mode="double_move")
    play(st, "main left")
    assert pos(st, "walrus") == 1 and legal(st) == ["pass", "extra left"]
    play(st, "extra left")
    assert pos(st, "walrus") == 0


def test_walrus_companion_double_move_follows_the_companion_token() -> None:
    # The companion (walrus) goes left when the main token (fox) goes right: the extra step goes left too.
    st = walrus("walrus-companion", "fox-walrus-4", {"fox": 2, "walrus": 2}, walrus_mode="double_move")
    play(st, "main right")
    assert (pos(st, "fox"), pos(st, "walrus")) == (3, 1)
    assert legal(st) == ["pass", "extra left"]


def test_pushes_record_the_net_steps_each_seat_chose() -> None:
    """The public ``pushes`` record (state.py): the steps a seat chose, + right, per animal, added up."""
    _, st = new_game(3, powers=["walrus-main"])
    arrange(st, player=1, hands={1: ["walrus-orca-5"]}, tokens={"walrus": 2, "orca": 2}, holder={"walrus": 1})
    walrus_i, orca_i = ANIMALS.index("walrus"), ANIMALS.index("orca")
    st.pushes[6 + walrus_i], st.pushes[6 + orca_i] = 2, -1  # earlier turns of P2
    play(st, "place walrus-orca-5", "main right")
    expected = [0] * 18
    expected[6 + walrus_i], expected[6 + orca_i] = 3, -2
    assert st.pushes == expected
    play(st, "extra right")
    expected[6 + walrus_i] = 4
    assert st.pushes == expected

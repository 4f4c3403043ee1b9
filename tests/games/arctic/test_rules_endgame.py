"""The end of the game (docs/arctic-rules.md §7, §13.8)."""

from __future__ import annotations

import pytest

from floe.games.arctic.game import ArcticState

from .positions import arrange, deal, fd, finish_turn, main_deck, new_game, play, resolve, step_name

RIVER = ["fox-walrus-5", "moose-orca-5", "walrus-puffin-5", "orca-bear-5", "puffin-fox-5", "bear-moose-5"]


def at_draw(hand_card: str, *, players: int = 2, powers: tuple[str, ...] = (), **kw: object) -> ArcticState:
    """P1 places ``hand_card`` on fox-bear-1 (P = 1), moves, and arrives in step C."""
    options = {k: kw.pop(k) for k in list(kw) if k in ("end_trigger",)}
    _, st = new_game(players, powers=powers, **options)
    arrange(st, player=0, piles={0: ["fox-bear-1"]}, hands={0: [hand_card]}, river=RIVER, **kw)
    play(st, f"place {hand_card}", "main right")
    return st


def run_to_end(st: ArcticState, seed: int = 0) -> list[tuple[int, bool, list[str]]]:
    """Play the rest of the game at random: (seat, final round?, decision steps) per turn."""
    log = []
    while not st.is_terminal():
        assert len(st.history) < 4000, "the game does not end"
        seat, final = st.turn_player, st.final_round
        log.append((seat, final, finish_turn(st, seed)))
        seed += 1
    return log


# --- when the end triggers --------------------------------------------------------------------------------


def test_deck_emptied_triggers_when_the_refill_takes_the_last_main_card() -> None:
    st = at_draw("fox-walrus-4", main_deck=1, reserve=5)  # draw value 2
    play(st, f"river {RIVER[0]}", f"river {RIVER[1]}")
    assert not st.end_triggered
    resolve(st)
    assert st.end_triggered and st.trigger_player == 0
    assert st.reserve_count == 0 and len(st.deck) == 4  # the 2nd refill card came from the reserve
    assert len(st.river) == 6 and not st.final_round


def test_deck_emptied_triggers_in_step_a_by_a_penalty_draw() -> None:
    _, st = new_game(2)
    arrange(st, player=1, piles={1: ["fox-bear-2"]}, hands={1: []}, main_deck=1, reserve=5, turns=[1, 0])
    assert st.is_chance_node() and not st.end_triggered
    deal(st, st.deck[0])
    assert st.end_triggered and st.trigger_player == 1 and st.reserve_count == 0
    resolve(st)
    assert len(st.penalties[1]) == 2 and len(st.deck) == 4


def test_refill_fails_waits_for_the_next_refill_when_the_last_card_fills_the_river() -> None:
    st = at_draw("puffin-bear-5", main_deck=1, reserve=5, end_trigger="refill_fails")  # draw value 1
    play(st, f"river {RIVER[0]}")
    resolve(st)
    assert st.turn_player == 1 and main_deck(st) == 0 and not st.end_triggered and st.reserve_count == 5
    finish_turn(st, seed=4)  # the next player draws and needs a refill
    assert st.end_triggered and st.trigger_player == 1
    # The same position under deck_emptied triggers in the first player's turn.
    st = at_draw("puffin-bear-5", main_deck=1, reserve=5)
    play(st, f"river {RIVER[0]}")
    resolve(st)
    assert st.end_triggered and st.trigger_player == 0


def test_refill_fails_triggers_on_a_penalty_draw_from_an_empty_main_deck() -> None:
    _, st = new_game(2, end_trigger="refill_fails")
    arrange(st, player=0, piles={0: ["fox-bear-2"]}, hands={0: []}, main_deck=0, reserve=5)
    assert st.is_chance_node()
    assert st.end_triggered and st.trigger_player == 0
    resolve(st)
    assert len(st.penalties[0]) == 2 and len(st.deck) == 3


@pytest.mark.parametrize("end_trigger", ["bga", "deck_emptied", "refill_fails"])
def test_one_main_card_left_and_a_full_river(end_trigger: str) -> None:
    """BGA's quirk: main deck <= 1 at the refill check triggers even when the river is already full."""
    st = at_draw(
        "moose-walrus-5", powers=("moose-draw",), holder={"moose": 0}, main_deck=1, end_trigger=end_trigger
    )
    assert (st.draw_min, st.draw_max) == (0, 2)
    play(st, "stop")
    assert st.turn_player == 1 and len(st.deck) == 6 and len(st.river) == 6
    assert st.end_triggered == (end_trigger == "bga")
    assert st.reserve_count == (0 if end_trigger == "bga" else 5)


def test_bga_records_a_deck_emptied_in_step_a_at_the_end_of_the_turn() -> None:
    _, st = new_game(2, end_trigger="bga")
    arrange(st, player=0, piles={0: ["fox-bear-2"]}, hands={0: []}, main_deck=1, reserve=5, river=RIVER)
    resolve(st)
    assert len(st.penalties[0]) == 2
    assert not st.end_triggered and st.reserve_count == 4  # the second penalty card came from the reserve
    finish_turn(st)
    assert st.end_triggered and st.trigger_player == 0


def test_the_end_triggers_only_once() -> None:
    st = at_draw("fox-walrus-4", main_deck=1, reserve=5)
    play(st, f"river {RIVER[0]}", f"river {RIVER[1]}")
    resolve(st)
    assert st.trigger_player == 0
    run_to_end(st)
    assert st.trigger_player == 0


# --- finishing the round and the final round -----------------------------------------------------------


def trigger_in_turn_of(seat: int, first: int, players: int = 3) -> ArcticState:
    """A game in round 5 whose main deck runs out in ``seat``'s turn (a penalty draw in step A)."""
    _, st = new_game(players, first=first)
    order = [(first + i) % players for i in range(players)]
    turns = [5 if order.index(q) < order.index(seat) else 4 for q in range(players)]
    arrange(
        st, player=seat, piles={seat: ["fox-bear-2"]}, hands={seat: []}, main_deck=1, round=5, turns=turns
    )
    deal(st, st.deck[0])
    assert st.end_triggered and st.trigger_player == seat
    return st


@pytest.mark.parametrize(
    ("first", "seat", "normal_after", "final"),
    [
        (0, 0, [1, 2], [0, 1, 2]),
        (0, 1, [2], [0, 1, 2]),
        (0, 2, [], [0, 1, 2]),
        (1, 2, [0], [1, 2, 0]),
        (1, 0, [], [1, 2, 0]),
    ],
)
def test_the_round_is_finished_then_one_final_round_of_steps_a_and_b(
    first: int, seat: int, normal_after: list[int], final: list[int]
) -> None:
    st = trigger_in_turn_of(seat, first)
    log = run_to_end(st, seed=10 * first + seat)
    assert st.is_terminal()
    trigger_turn, *rest = log
    assert trigger_turn[0] == seat and not trigger_turn[1] and "draw" in trigger_turn[2]
    normal = [(q, steps) for q, final_round, steps in rest if not final_round]
    last = [(q, steps) for q, final_round, steps in rest if final_round]
    assert [q for q, _ in normal] == normal_after
    assert all("draw" in steps for _, steps in normal)
    assert [q for q, _ in last] == final
    for _, steps in last:
        assert not {"draw", "discard", "give"} & set(steps)
    assert st.turns == [6] * 3 and st.round == 6


def test_final_round_has_no_refill_and_no_hand_limit() -> None:
    st = trigger_in_turn_of(2, 0)
    finish_turn(st)  # the rest of the trigger turn
    assert st.final_round and st.turn_player == 0
    river = len(st.river)
    stock = len(st.deck)
    penalties = sum(len(p) for p in st.penalties)
    while not st.is_terminal():
        assert len(st.history) < 4000, "the game does not end"
        finish_turn(st, seed=len(st.history))
        assert len(st.river) == river
        assert stock - len(st.deck) == sum(len(p) for p in st.penalties) - penalties  # only penalty draws


def test_final_round_penalty_draws_come_from_the_reserve_while_it_lasts() -> None:
    _, st = new_game(2)
    arrange(
        st,
        player=0,
        piles={0: ["fox-orca-3"]},
        hands={0: []},
        main_deck=0,
        reserve=2,
        end_triggered=True,
        final_round=True,
        round=9,
        turns=[8, 8],
    )
    resolve(st)
    assert len(st.penalties[0]) == 2 and st.deck == []  # 3 wanted, 2 available


def test_two_players_run_out_of_the_reserve_and_the_game_still_ends() -> None:
    _, st = new_game(2)
    arrange(
        st,
        player=0,
        piles={0: ["fox-bear-1"], 1: ["moose-bear-2"]},
        hands={0: ["puffin-moose-3"], 1: []},
        river=RIVER,
        main_deck=0,
        reserve=1,
        end_triggered=True,
        round=9,
        turns=[8, 8],
    )
    play(st, "place puffin-moose-3", "main right")
    play(st, *(f"river {c}" for c in RIVER[:3]))
    resolve(st)
    assert st.deck == [] and len(st.river) == 4  # only one refill card was left
    assert st.turn_player == 1 and not st.is_chance_node()
    assert st.penalties[1] == []  # P2's shortfall of 2 could not be drawn
    log = run_to_end(st)
    assert st.is_terminal() and st.turns == [10, 10]
    assert [(q, final) for q, final, _ in log] == [(1, False), (0, True), (1, True)]
    assert len(st.scores()) == 2


def test_random_two_player_games_often_exhaust_the_reserve_and_end() -> None:
    import random

    from floe.games.arctic.game import ArcticGame

    exhausted = 0
    for seed in range(60):
        rng = random.Random(seed)
        st = ArcticGame(2, {}).new_initial_state()
        while not st.is_terminal():
            assert len(st.history) < 4000, "the game does not end"
            st.apply(rng.choice(st.legal_actions()))
        assert st.turns[0] == st.turns[1] and st.final_round
        exhausted += not st.deck
    assert exhausted > 0


def test_step_names_of_the_final_round_turn() -> None:
    st = trigger_in_turn_of(2, 0)
    finish_turn(st)
    assert st.final_round and step_name(st) in ("place", "move", "extra")


@pytest.mark.parametrize(("mode", "runs"), [("free_max", 34), ("bga_adjacent", 31)])
def test_wildcard_scoring_flag_reaches_final_scoring(mode: str, runs: int) -> None:
    """Spec 8.6: fox x5, four face-down cards, moose x5 scores 34 (free) or 31 (BGA's splits)."""
    _, st = new_game(2, wildcard_scoring=mode)
    foxes = ["fox-moose-5", "fox-walrus-4", "fox-orca-3", "fox-puffin-2", "fox-bear-1"]
    mooses = ["moose-walrus-5", "moose-orca-4", "moose-puffin-3", "moose-bear-2", "moose-fox-1"]
    hidden = ["walrus-orca-5", "orca-puffin-5", "puffin-bear-5", "bear-fox-5"]
    arrange(
        st,
        player=1,
        piles={0: [*foxes, *(fd(c) for c in hidden), *mooses]},
        hands={1: ["walrus-puffin-4"], 0: []},
        penalties={0: [], 1: []},
        end_triggered=True,
        final_round=True,
        round=9,
        turns=[9, 8],
        dump_seat=1,
    )
    finish_turn(st)
    assert st.is_terminal()
    totem = (0, 1, 3, 6, 10, 15)[st.tokens[st.totems[0]]]
    assert st.scores()[0] == runs + totem
    assert st.score_breakdowns()[0]["total"] == runs + totem

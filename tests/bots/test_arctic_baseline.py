"""The Arctic ``baseline`` bot: one test per rule of spec section 11, plus whole games and a measurement.

Positions are built by dealing a real table (fixed powers, first player 0), then overwriting the plain
state fields a rule looks at and letting the engine recompute what is legal. The bot only ever sees
``st.observation(seat)`` and ``st.legal_actions()``, as in a real game.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

import pytest

from floe.bots.registry import make_bot
from floe.core.match import Match
from floe.core.registry import make_game
from floe.games.arctic import actions as act
from floe.games.arctic import rules
from floe.games.arctic.actions import LEFT, RIGHT, ActionKind, ArcticAction
from floe.games.arctic.baseline import (
    LAST_CARD_PREFERENCE,
    ArcticBaselineBot,
    last_card_choice,
    preferred_main_direction,
)
from floe.games.arctic.cards import BEAR, DECK, DRAW, FOX, MAIN, MOOSE, N_CARDS, ORCA, PUFFIN, WALRUS
from floe.games.arctic.game import ArcticState
from floe.games.arctic.powers import Power
from floe.games.arctic.state import DISCARD, EXTRA, GIVE, MOVE, PLACE, SWAP_RIVER, TAKE_POWER
from floe.games.arctic.state import DRAW as STEP_DRAW
from floe.lab.runner import play_game

# Every power fixed so no side is drawn at setup; tests that need another side say so.
DEFAULT_POWERS = "fox-under,moose-draw,walrus-main,orca-refill,puffin-swap,bear-draw-penalty"
SEEDS = range(40)


# --- building positions -------------------------------------------------------------------------------


def card(animal: int, draw: int, deck: int = 1) -> int:
    """The card id of ``animal`` with draw value ``draw`` in deck ``deck`` (1..4)."""
    return next(c for c in range(N_CARDS) if MAIN[c] == animal and DRAW[c] == draw and DECK[c] == deck - 1)


def table(players: int = 2, powers: str = DEFAULT_POWERS, **options: Any) -> ArcticState:
    """A dealt table at seat 0's first decision (decks 1..n, seat 0 first)."""
    game = make_game(
        "arctic", players, {"first_player": 0, "deck_selection": "first_n", "powers": powers, **options}
    )
    st = game.new_initial_state()
    rng = random.Random(0)
    while st.is_chance_node():
        st.apply(rng.choice(st.legal_actions()))
    assert st.current_player() == 0
    return st


def put(
    st: ArcticState,
    *,
    hand: Sequence[int] | None = None,
    pile: Sequence[int] | None = None,
    river: Sequence[int] | None = None,
    penalties: Sequence[int] | None = None,
) -> None:
    """Give seat 0 these cards, taking each from wherever it was (deck, river, any hand or pile)."""
    named = [*(hand or ()), *(pile or ()), *(river or ()), *(penalties or ())]
    assert len(set(named)) == len(named), "a card is named twice"
    for c in named:
        for area in (st.deck, st.river, *st.hands, *st.piles, *st.penalties):
            if c in area:
                area.remove(c)
    if hand is not None:
        st.deck += st.hands[0]
        st.hands[0] = sorted(hand)
    if pile is not None:
        st.deck += st.piles[0]
        st.piles[0] = list(pile)
    if river is not None:
        st.deck += st.river
        st.river = sorted(river)
    if penalties is not None:
        st.deck += st.penalties[0]
        st.penalties[0] = sorted(penalties)
    st.deck.sort()


def give_power(st: ArcticState, animal: int, *, at_start: bool = True) -> None:
    """Seat 0 holds ``animal``'s power card (since the start of the turn if ``at_start``)."""
    st.holder[animal] = 0
    if at_start:
        st.powers_held_at_start |= 1 << animal


def ready(st: ArcticState, step: int) -> list[int]:
    """Put seat 0 to act in ``step``; return the engine's legal actions there."""
    st.turn_player = 0
    st.step = step
    st.forget_derived()
    rules.settle(st)
    assert st.step == step and st.current_player() == 0, "the position is not a decision of seat 0"
    return st.legal_actions()


def at_place(
    st: ArcticState,
    hand: Sequence[int],
    pile: Sequence[int],
    *,
    placed: int = 0,
    placement_value: int | None = None,
) -> list[int]:
    """Seat 0 in step A with ``placed`` cards already placed; P from the turn's starting pile."""
    put(st, hand=hand, pile=pile)
    st.placed, st.placing_closed, st.puffin_used = 0, False, False
    st.turn_player = 0
    if placement_value is None:
        rules._set_placement_target(st)
    else:
        # Placement already under way: the pile top changed but P and T were fixed at the turn start.
        st.placement_value = p = placement_value
        moose = st.powers[MOOSE] == Power.MOOSE_PLACE and st.powers_held_at_start >> MOOSE & 1
        st.place_min, st.place_max = (max(0, p - 1), p + 1) if moose else (p, p)
    st.placed = placed
    return ready(st, PLACE)


def decide(st: ArcticState, seed: int = 0, legal: list[int] | None = None) -> int:
    """What a baseline bot seeded ``seed`` in seat 0 chooses here; it must be legal."""
    legal = st.legal_actions() if legal is None else legal
    bot = ArcticBaselineBot(make_game("arctic", st.players), 0, seed)
    action = bot.choose(st.observation(0), list(legal))
    assert action in legal
    return action


def decisions(st: ArcticState, seeds: Iterable[int] = SEEDS) -> set[int]:
    """Every choice of the bot over several seeds (for the rules that pick at random)."""
    return {decide(st, seed) for seed in seeds}


def ids(kind: ActionKind, cards: Iterable[int]) -> set[int]:
    """The ids of the actions of ``kind`` on ``cards``."""
    return {ArcticAction(kind, card=c).id for c in cards}


def places(cards: Iterable[int]) -> set[int]:
    """The PLACE action ids of ``cards``."""
    return ids(ActionKind.PLACE, cards)


def rivers(cards: Iterable[int]) -> set[int]:
    """The RIVER action ids of ``cards``."""
    return ids(ActionKind.RIVER, cards)


def test_registered_as_baseline() -> None:
    game = make_game("arctic", 2)
    assert isinstance(make_bot("baseline", game, 1, 5), ArcticBaselineBot)


# --- 11.1 placing -----------------------------------------------------------------------------------


def test_place_step1_single_card_of_top_animal() -> None:
    st = table()
    fox = card(FOX, 2)
    # Moose is the majority in hand, but step 1 follows the pile's top animal first.
    at_place(st, [fox, card(MOOSE, 1), card(MOOSE, 2), card(MOOSE, 3)], [card(FOX, 3)])
    assert decide(st) in places([fox])


def test_place_step1_several_not_last_is_random_among_them() -> None:
    st = table()
    foxes = [card(FOX, 1), card(FOX, 2)]
    legal = at_place(st, [*foxes, card(MOOSE, 1), card(MOOSE, 2), card(MOOSE, 3)], [card(FOX, 3)])
    assert st.placement_value == 3  # three cards to place: the first is not the last
    assert places(foxes) <= set(legal)
    assert decisions(st) == places(foxes)


def test_place_step1_several_last_card_uses_table() -> None:
    st = table()
    foxes = [card(FOX, 1), card(FOX, 4), card(FOX, 5, deck=2)]
    at_place(st, [*foxes, card(MOOSE, 3)], [card(FOX, 5)])
    assert st.placement_value == 1
    # h = 4: draw values 2, 3, 1, 4, 5 best first; among fox draw values {1, 4, 5} that is 1.
    assert decisions(st) == places([card(FOX, 1)])


def test_place_step1_last_card_when_target_reached_next() -> None:
    st = table()
    foxes = [card(FOX, 5), card(FOX, 3)]
    # P = 4 and 3 cards already placed: this is the last card, so the h = 2 row (4, 3, 5, 2, 1) decides.
    pile = [card(FOX, 2), card(BEAR, 1), card(BEAR, 2), card(FOX, 4)]
    at_place(st, foxes, pile, placed=3, placement_value=4)
    assert decisions(st) == places([card(FOX, 3)])
    # With 2 still to place, the card gets covered: any fox.
    at_place(st, foxes, pile, placed=2, placement_value=4)
    assert decisions(st) == places(foxes)


def test_place_step2_first_turn_most_frequent_animal() -> None:
    st = table()
    moose = [card(MOOSE, 2), card(MOOSE, 4)]
    at_place(st, [*moose, card(FOX, 3)], [])
    # Empty pile, P = 1: the moose group (2 cards) and the h = 3 row (3, 4, 2, 5, 1) gives draw 4, not
    # the fox with draw 3 that the row would prefer from the whole hand.
    assert decisions(st) == places([card(MOOSE, 4)])


def test_place_step2_top_animal_not_in_hand() -> None:
    st = table()
    puffins = [card(PUFFIN, 1), card(PUFFIN, 3), card(PUFFIN, 5)]
    at_place(st, [card(FOX, 1), *puffins], [card(BEAR, 4)])
    assert st.placement_value == 2
    assert decisions(st) == places(puffins)


def test_place_step2_tie_goes_to_first_animal_in_hand_order() -> None:
    st = table()
    walruses = [card(WALRUS, 1), card(WALRUS, 2)]  # ids 10, 11
    foxes = [card(FOX, 1, deck=2), card(FOX, 2, deck=2)]  # ids 30, 31
    at_place(st, [*foxes, *walruses], [])
    assert st.observation(0).hand[0] == walruses[0]
    # Walrus is met first in the hand (ordered by card id), so it wins the tie; h = 4 row picks draw 2.
    assert decisions(st) == places([card(WALRUS, 2)])


def test_place_step2_single_card_group_is_placed_without_table() -> None:
    st = table()
    at_place(st, [card(FOX, 1), card(MOOSE, 5)], [card(BEAR, 5)])
    # All counts tie at 1: the first card in hand order (fox) is the group and is placed as is, although
    # the h = 2 row would prefer draw 5.
    assert decisions(st) == places([card(FOX, 1)])


@pytest.mark.parametrize("h", [1, 2, 3, 4, 5, 6, 7, 8])
def test_last_card_table_rows(h: int) -> None:
    row = LAST_CARD_PREFERENCE[min(h, 6)]
    assert sorted(row) == [1, 2, 3, 4, 5]
    # Remove the best draw values one by one: the choice walks down the row.
    for k in range(5):
        candidates = [card(BEAR, d) for d in (5, 3, 1, 4, 2) if d not in row[:k]]
        assert DRAW[last_card_choice(candidates, h)] == row[k]


def test_last_card_table_exact_rows() -> None:
    assert LAST_CARD_PREFERENCE == {
        1: (4, 5, 3, 2, 1),
        2: (4, 3, 5, 2, 1),
        3: (3, 4, 2, 5, 1),
        4: (2, 3, 1, 4, 5),
        5: (2, 1, 3, 4, 5),
        6: (1, 2, 3, 4, 5),
    }


def test_last_card_first_candidate_wins_equal_draw_values() -> None:
    a, b = card(ORCA, 3, deck=2), card(ORCA, 3)
    assert last_card_choice([a, b], 3) == a
    assert last_card_choice([b, a], 3) == b


@pytest.mark.parametrize(
    ("draws", "expected"),
    [
        ([3], 3),
        ([5, 3], 3),  # h = 2; row 1 would take 5
        ([4, 3, 5], 3),  # h = 3; row 2 would take 4
        ([4, 3, 2, 5], 2),  # h = 4; row 3 would take 3
        ([1, 3, 4, 5, 3], 1),  # h = 5; row 4 would take 3
        ([1, 2, 3, 4, 5, 2], 1),  # h = 6; row 5 would take 2
        ([1, 2, 3, 4, 5, 1, 2], 1),  # h = 7: BGA has no row and stalls; the baseline uses row 6
    ],
)
def test_place_last_card_row_follows_hand_size(draws: list[int], expected: int) -> None:
    st = table()
    used: dict[int, int] = {}
    hand = []
    for d in draws:
        used[d] = used.get(d, 0) + 1
        hand.append(card(FOX, d, deck=used[d]))
    at_place(st, hand, [card(FOX, 5, deck=4)])  # P = 1: the only card is the last one
    assert st.placement_value == 1 and len(st.hands[0]) == len(draws)
    chosen = decisions(st, range(10))
    assert len(chosen) == 1
    (action,) = chosen
    assert DRAW[act.decode(action).card] == expected
    if len(draws) == 7:
        assert action in places([card(FOX, 1, deck=1)])  # first in hand order among the draw-1 cards


def test_place_moose22_keeps_placing_until_p_then_stops() -> None:
    st = table(powers="fox-under,moose-place,walrus-main,orca-refill,puffin-swap,bear-give")
    give_power(st, MOOSE)
    hand = [card(ORCA, 1), card(ORCA, 2), card(PUFFIN, 1), card(PUFFIN, 2)]
    start = card(FOX, 4)  # P = 2, so Moose allows 1..3
    legal = at_place(st, hand, [start])
    assert (st.place_min, st.place_max) == (1, 3)
    assert act.STOP not in legal
    assert decide(st) in places(hand)
    # One placed: stopping is legal (Moose -1) but the baseline goes on to P.
    legal = at_place(st, hand, [start, card(ORCA, 3)], placed=1, placement_value=2)
    assert act.STOP in legal
    assert decide(st) in places(hand)
    # P reached: Moose would allow one more; BGA's zombie stalls here, the baseline stops.
    legal = at_place(st, hand, [start, card(ORCA, 3), card(ORCA, 4)], placed=2, placement_value=2)
    assert act.STOP in legal and places(hand) <= set(legal)
    assert decide(st) == act.STOP


def test_place_moose22_never_places_zero() -> None:
    st = table(powers="fox-under,moose-place,walrus-main,orca-refill,puffin-swap,bear-give")
    give_power(st, MOOSE)
    legal = at_place(st, [card(ORCA, 1), card(ORCA, 2)], [card(FOX, 5)])
    assert st.place_min == 0 and act.STOP in legal
    assert decide(st) != act.STOP


def test_place_moose22_without_visible_card_places_one() -> None:
    st = table(powers="fox-under,moose-place,walrus-main,orca-refill,puffin-swap,bear-give")
    give_power(st, MOOSE)
    hand = [card(ORCA, 1), card(ORCA, 2), card(PUFFIN, 3)]
    at_place(st, hand, [])
    assert (st.placement_value, st.place_min, st.place_max) == (1, 1, 2)
    assert decide(st) in places(hand)
    at_place(st, hand, [card(ORCA, 3)], placed=1, placement_value=1)
    st.place_min, st.place_max = 1, 2
    st.forget_derived()
    assert decide(st) == act.STOP


@pytest.mark.parametrize(
    "powers",
    [
        "fox-under,moose-place,walrus-main,orca-refill,puffin-swap,bear-give",
        "fox-facedown,moose-place,walrus-main,orca-refill,puffin-take-back,bear-give",
    ],
)
def test_place_never_uses_optional_powers(powers: str) -> None:
    st = table(powers=powers, bear_give_step="A")
    for animal in (FOX, MOOSE, PUFFIN, BEAR):
        give_power(st, animal)
    put(st, penalties=[card(BEAR, 1, deck=2)])
    hand = [card(ORCA, 1), card(ORCA, 2), card(PUFFIN, 3)]
    legal = at_place(st, hand, [card(FOX, 5)])  # P = 1, so Moose 22 makes STOP legal at once
    # Fox placements, a Puffin power, a Bear gift and a Moose stop are all on offer.
    assert any(act.decode(a).kind is not ActionKind.PLACE for a in legal if a != act.STOP)
    assert act.STOP in legal
    assert decisions(st, range(20)) <= places(hand)


def test_place_stops_when_only_stop_and_powers_are_legal() -> None:
    st = table(powers="fox-under,moose-draw,walrus-main,orca-refill,puffin-take-back,bear-give")
    give_power(st, PUFFIN)
    legal = at_place(st, [], [card(FOX, 4)])
    assert legal == [act.STOP, act.TAKE_BACK]
    assert decide(st) == act.STOP


# --- 11.2 moving tokens -------------------------------------------------------------------------------

# A visible card with main animal fox and companion moose.
FOX_MOOSE = card(FOX, 1)


def at_move(st: ArcticState, main_pos: int, comp_pos: int, totem: int) -> list[int]:
    """Seat 0 to choose the base move for FOX_MOOSE with the given token positions and totem."""
    put(st, pile=[FOX_MOOSE])
    st.tokens[FOX], st.tokens[MOOSE] = main_pos, comp_pos
    st.totems[0] = totem
    return ready(st, MOVE)


@pytest.mark.parametrize(
    ("main_pos", "comp_pos", "totem", "expected"),
    [
        (2, 3, FOX, act.MOVE_RIGHT),  # case 1: own animal is the main one
        (4, 1, FOX, act.MOVE_RIGHT),
        (2, 4, MOOSE, act.MOVE_LEFT),  # case 2: own animal is the companion
        (3, 1, MOOSE, act.MOVE_LEFT),
        (3, 3, ORCA, act.MOVE_LEFT),  # case 3, m >= c (ties included): push the main token back
        (4, 1, ORCA, act.MOVE_LEFT),
        (1, 4, ORCA, act.MOVE_RIGHT),  # case 3, m < c: push the companion back
    ],
)
def test_move_cases(main_pos: int, comp_pos: int, totem: int, expected: int) -> None:
    st = table()
    assert at_move(st, main_pos, comp_pos, totem) == [act.MOVE_RIGHT, act.MOVE_LEFT]
    assert decide(st) == expected


@pytest.mark.parametrize(
    ("m", "c", "totem", "expected"),
    [
        (3, 2, FOX, RIGHT),  # case 1
        (5, 2, FOX, LEFT),  # case 1, main on 15
        (3, 2, MOOSE, LEFT),  # case 2, companion not on 15
        (0, 2, MOOSE, RIGHT),  # case 2, main on 0
        (3, 5, MOOSE, RIGHT),  # case 2, companion on 15
        (5, 5, MOOSE, LEFT),  # case 2, companion on 15, main on 15
        (3, 3, ORCA, LEFT),  # case 3, m >= c
        (0, 0, ORCA, RIGHT),  # case 3, m >= c, main on 0
        (1, 3, ORCA, RIGHT),  # case 3, m < c
    ],
)
def test_preferred_direction_edges(m: int, c: int, totem: int, expected: int) -> None:
    tokens = [2] * 6
    tokens[FOX], tokens[MOOSE] = m, c
    assert preferred_main_direction(FOX, MOOSE, tokens, totem) == expected


def test_move_takes_the_other_direction_when_preferred_is_illegal() -> None:
    st = table()
    at_move(st, 2, 3, FOX)
    assert decide(st) == act.MOVE_RIGHT
    # Had only the other move been legal, the baseline takes it (BGA would play the illegal one).
    assert decide(st, legal=[act.MOVE_LEFT]) == act.MOVE_LEFT


def test_move_at_edge_is_forced_by_the_engine() -> None:
    # BGA's example: own animal mid-line, companion on 0. The engine makes the forced move itself
    # (companion right, main left), so the bot is never asked to choose a move that B-2 forbids.
    st = table()
    at_move(st, 3, 2, FOX)
    st.tokens[MOOSE] = 0
    st.step = TAKE_POWER
    st.forget_derived()
    rules.settle(st)
    assert st.step != MOVE
    assert (st.tokens[FOX], st.tokens[MOOSE]) == (2, 1)


def at_extra(
    st: ArcticState, walrus: int, main_pos: int, comp_pos: int, totem: int, direction: int = 1
) -> list[int]:
    """Seat 0 with the Walrus power, to decide the extra step after a base move in ``direction``."""
    put(st, pile=[FOX_MOOSE])
    st.powers[WALRUS] = walrus
    give_power(st, WALRUS, at_start=False)
    st.tokens[FOX], st.tokens[MOOSE] = main_pos, comp_pos
    st.totems[0] = totem
    st.walrus_token = FOX if walrus == Power.WALRUS_MAIN else MOOSE
    st.walrus_dir = direction if walrus == Power.WALRUS_MAIN else -direction
    return ready(st, EXTRA)


@pytest.mark.parametrize(
    ("main_pos", "comp_pos", "totem", "expected"),
    [
        (3, 1, FOX, act.EXTRA_RIGHT),  # case 1
        (5, 1, FOX, act.EXTRA_LEFT),  # case 1, main on 15
        (3, 2, MOOSE, act.EXTRA_LEFT),  # case 2
        (2, 2, ORCA, act.EXTRA_LEFT),  # case 3, m >= c
        (0, 0, ORCA, act.EXTRA_RIGHT),  # case 3, m >= c with main on 0
        (1, 3, ORCA, act.EXTRA_RIGHT),  # case 3, m < c
    ],
)
def test_walrus31_extra_step_uses_the_same_rule(
    main_pos: int, comp_pos: int, totem: int, expected: int
) -> None:
    st = table()
    legal = at_extra(st, Power.WALRUS_MAIN, main_pos, comp_pos, totem)
    assert act.PASS in legal
    assert decide(st) == expected


def test_walrus31_takes_the_legal_direction() -> None:
    # In walrus_mode="double_move" the extra step must follow the base move; the rule wants right here.
    st = table(walrus_mode="double_move")
    legal = at_extra(st, Power.WALRUS_MAIN, 3, 1, FOX, direction=-1)
    assert legal == [act.PASS, act.EXTRA_LEFT]
    assert decide(st) == act.EXTRA_LEFT


@pytest.mark.parametrize(
    ("comp_pos", "totem", "expected"),
    [
        (3, MOOSE, act.EXTRA_RIGHT),  # the companion is our animal: push it forward
        (0, MOOSE, act.EXTRA_RIGHT),
        (5, MOOSE, act.PASS),  # already on 15
        (3, FOX, act.PASS),  # the main animal is ours: the companion's step is declined
        (3, ORCA, act.PASS),
    ],
)
def test_walrus32_companion_right_if_totem_else_decline(comp_pos: int, totem: int, expected: int) -> None:
    st = table(powers="fox-under,moose-draw,walrus-companion,orca-refill,puffin-swap,bear-draw-penalty")
    at_extra(st, Power.WALRUS_COMPANION, 2, comp_pos, totem)
    assert decide(st) == expected


# --- 11.3 drawing -------------------------------------------------------------------------------------


def at_draw(
    st: ArcticState,
    river: Sequence[int],
    hand: Sequence[int],
    top: int | None = None,
    *,
    drawn: int = 0,
    n_range: tuple[int, int] | None = None,
) -> list[int]:
    """Seat 0 in step C with visible card ``top`` (a bear by default); ``n_range`` is (n_min, n_max)."""
    top = card(BEAR, 2) if top is None else top
    put(st, river=river, hand=hand, pile=[top])
    st.draw_min, st.draw_max = n_range or (DRAW[top], DRAW[top])
    st.drawn = drawn
    return ready(st, STEP_DRAW)


def test_draw_rule1_visible_animal_from_river() -> None:
    st = table()
    foxes = [card(FOX, 1), card(FOX, 4, deck=2)]
    river = [*foxes, card(MOOSE, 1), card(MOOSE, 2), card(MOOSE, 3), card(WALRUS, 1)]
    at_draw(st, river, [card(MOOSE, 4)], top=card(FOX, 2))
    assert decisions(st) == rivers(foxes)


def test_draw_rule2_most_frequent_river_animal_in_hand() -> None:
    st = table()
    moose = [card(MOOSE, 1), card(MOOSE, 2)]
    river = [card(ORCA, 1), card(ORCA, 2), card(ORCA, 3), *moose, card(WALRUS, 1)]
    # Orca is the most frequent but not in hand; moose (2) beats walrus (1) among the hand's animals.
    at_draw(st, river, [card(WALRUS, 2), card(MOOSE, 3), card(PUFFIN, 1)])
    assert decisions(st) == rivers(moose)


def test_draw_rule2_tie_goes_to_first_in_river_order() -> None:
    st = table()
    walruses = [card(WALRUS, 1), card(WALRUS, 2)]  # ids 10, 11
    moose = [card(MOOSE, 1, deck=2), card(MOOSE, 2, deck=2)]  # ids 35, 36
    at_draw(st, [*moose, *walruses, card(FOX, 1, deck=2)], [card(MOOSE, 3), card(WALRUS, 3)])
    assert st.observation(0).river[0] == walruses[0]
    assert decisions(st) == rivers(walruses)


def test_draw_rule3_animal_seen_twice() -> None:
    st = table()
    moose = [card(MOOSE, 1), card(MOOSE, 2)]
    river = [*moose, card(WALRUS, 1), card(ORCA, 1), card(PUFFIN, 1)]
    # No river card matches the visible bear or the fox-only hand. Moose appears exactly twice: BGA's
    # off-by-one ("≥ 3") would pick at random, the baseline ("≥ 2") takes a moose.
    at_draw(st, river, [card(FOX, 1), card(FOX, 2)])
    assert decisions(st) == rivers(moose)


def test_draw_rule4_random_river_card() -> None:
    st = table()
    river = [card(MOOSE, 1), card(WALRUS, 1), card(ORCA, 1), card(PUFFIN, 1)]
    at_draw(st, river, [card(FOX, 1)])
    chosen = decisions(st)
    assert chosen <= rivers(river) and len(chosen) >= 3


@pytest.mark.parametrize("drawn", [1, 2])
def test_draw_moose21_keeps_drawing_while_allowed(drawn: int) -> None:
    st = table()
    give_power(st, MOOSE, at_start=False)
    river = [card(MOOSE, 1), card(WALRUS, 1), card(ORCA, 1), card(PUFFIN, 1)]
    legal = at_draw(st, river, [card(FOX, 1)], drawn=drawn, n_range=(1, 3))
    assert act.STOP in legal
    assert decide(st) in rivers(river)


def test_draw_never_from_deck_or_penalties_while_river_has_cards() -> None:
    st = table(powers="fox-under,moose-draw,walrus-main,orca-deck,puffin-swap,bear-draw-penalty")
    give_power(st, ORCA, at_start=False)
    give_power(st, BEAR, at_start=False)
    put(st, penalties=[card(FOX, 5, deck=2)])
    river = [card(MOOSE, 1), card(WALRUS, 1)]
    legal = at_draw(st, river, [card(FOX, 1)])
    assert act.DRAW_DECK in legal and ArcticAction(ActionKind.PENALTY, card=card(FOX, 5, deck=2)).id in legal
    assert decisions(st) <= rivers(river)


def test_draw_empty_river_stops_when_allowed() -> None:
    st = table(powers="fox-under,moose-draw,walrus-main,orca-deck,puffin-swap,bear-draw-penalty")
    give_power(st, ORCA, at_start=False)
    give_power(st, MOOSE, at_start=False)
    legal = at_draw(st, [], [card(FOX, 1)], drawn=1, n_range=(1, 3))
    assert legal == [act.STOP, act.DRAW_DECK]
    assert decide(st) == act.STOP
    # Not allowed to stop yet: the only draw left is the deck, and it is taken.
    st.drawn = 0
    st.forget_derived()
    assert st.legal_actions() == [act.DRAW_DECK]
    assert decide(st) == act.DRAW_DECK


# --- 11.4 discarding, Bear 62, other steps ------------------------------------------------------------


def at_discard(st: ArcticState, hand: Sequence[int], top: int) -> list[int]:
    """Seat 0 over the hand limit with visible card ``top``."""
    put(st, hand=hand, pile=[top])
    return ready(st, DISCARD)


def test_discard_rule1_other_animal_at_random() -> None:
    st = table()
    foxes = [card(FOX, d, deck) for deck in (1, 2) for d in (1, 2, 3)]
    others = [card(MOOSE, 1), card(ORCA, 2), card(BEAR, 3)]
    legal = at_discard(st, [*foxes, *others], top=card(FOX, 5))
    assert len(legal) == 9
    assert decisions(st) == ids(ActionKind.DISCARD, others)


def test_discard_rule2_all_same_animal_any_card() -> None:
    st = table()
    foxes = [card(FOX, d, deck) for deck in (1, 2) for d in (1, 2, 3, 4)]
    at_discard(st, foxes, top=card(FOX, 5))
    chosen = decisions(st)
    assert chosen <= ids(ActionKind.DISCARD, foxes) and len(chosen) >= 4


def test_give_is_declined() -> None:
    st = table(powers="fox-under,moose-draw,walrus-main,orca-refill,puffin-swap,bear-give")
    give_power(st, BEAR, at_start=False)
    put(st, hand=[card(FOX, 1)], pile=[card(FOX, 2)], penalties=[card(ORCA, 1), card(ORCA, 2)])
    legal = ready(st, GIVE)
    assert act.PASS in legal and len(legal) > 1
    assert decisions(st) == {act.PASS}


def test_other_steps_pick_a_random_legal_action() -> None:
    st = table()
    put(st, hand=[card(FOX, 1)], river=[card(MOOSE, 1), card(WALRUS, 1), card(ORCA, 1)])
    st.swap_card = card(FOX, 1)
    legal = ready(st, SWAP_RIVER)
    chosen = decisions(st)
    assert chosen <= set(legal) and len(chosen) >= 2


# --- whole games --------------------------------------------------------------------------------------


def play_checked(
    players: int, specs: list[str], seed: int, options: dict[str, Any]
) -> tuple[list[int], list[int]]:
    """Play one game, asserting each chosen action is legal; return the record's actions and the scores."""
    game = make_game("arctic", players, options)
    bots = [make_bot(spec, game, seat, seed * 31 + seat) for seat, spec in enumerate(specs)]
    match = Match(game, seed)
    st = match.state
    steps = 0
    while not st.is_terminal():
        seat = st.current_player()
        legal = list(st.legal_actions())
        action = bots[seat].choose(st.observation(seat), legal)
        assert action in legal, f"seed {seed}: {specs[seat]} chose illegal {action} from {legal}"
        match.apply(action)
        steps += 1
        assert steps < 5000, "game does not end"
    return list(st.history), list(st.scores())


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize(
    "options", [{}, {"preset": "bga"}, {"walrus_mode": "double_move", "bear_give_step": "A"}]
)
def test_full_games_finish_with_legal_actions(players: int, options: dict[str, Any]) -> None:
    for seed in range(12):
        specs = ["baseline" if (seat + seed) % 2 == 0 else "random" for seat in range(players)]
        if seed % 3 == 0:
            specs = ["baseline"] * players
        history, scores = play_checked(players, specs, seed, options)
        assert len(scores) == players
        if seed < 3:
            assert play_checked(players, specs, seed, options) == (history, scores)


def test_same_seed_same_game_via_runner() -> None:
    game = make_game("arctic", 3)
    first, st1 = play_game(game, ["baseline", "random", "baseline"], 11)
    second, st2 = play_game(game, ["baseline", "random", "baseline"], 11)
    assert first == second
    assert st1.history == st2.history


def test_baseline_beats_random() -> None:
    game = make_game("arctic", 2)
    wins = 0
    n_games = 60
    for seed in range(n_games):
        seat = seed % 2  # alternate seats so moving first is no advantage
        specs = ["random", "random"]
        specs[seat] = "baseline"
        result, _ = play_game(game, specs, seed)
        wins += result.ranking[0] == seat
    assert wins / n_games > 0.6, f"baseline won {wins} of {n_games}"

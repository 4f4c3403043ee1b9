"""Setup (docs/arctic-rules.md §4, §13.2) and the first turn (§13.3)."""

from __future__ import annotations

import random
from math import comb

import pytest

from floe.games.arctic import actions as act
from floe.games.arctic.actions import ActionKind, ArcticAction
from floe.games.arctic.cards import ANIMALS, DECK_CARDS, MAIN, START_POSITION
from floe.games.arctic.game import ArcticGame
from floe.games.arctic.powers import Power, power_id
from floe.games.arctic.state import PLACE

from .positions import arrange, legal, new_game, play, step_name

SIZES = {2: (43, 5), 3: (65, 10), 4: (87, 15)}


def set_up(players: int, seed: int, **options: object) -> tuple[ArcticGame, object]:
    game = ArcticGame(players, options)
    st = game.new_initial_state()
    rng = random.Random(seed)
    while st.is_chance_node():
        st.apply(st.sample_chance(rng))
    return game, st


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("deck_selection", ["random", "first_n"])
@pytest.mark.parametrize("seed", range(6))
def test_setup_sizes_and_table(players: int, deck_selection: str, seed: int) -> None:
    _, st = set_up(players, seed, deck_selection=deck_selection)
    main_deck, reserve = SIZES[players]
    assert len(st.deck) - st.reserve_count == main_deck
    assert st.reserve_count == reserve
    assert [len(h) for h in st.hands] == [3] * players
    assert len(st.river) == 6
    assert st.tokens == [START_POSITION] * 6 and START_POSITION == 2  # the card worth 3
    assert len(st.totems) == players and len(set(st.totems)) == players
    assert all(0 <= t < 6 for t in st.totems)
    for a in range(6):
        assert st.powers[a] in (power_id(a, 1), power_id(a, 2))  # exactly one side per animal
    assert st.holder == [-1] * 6
    assert st.piles == [[]] * players and st.penalties == [[]] * players
    assert bin(st.decks_in_play).count("1") == players
    in_play = sorted(c for k in range(4) if st.decks_in_play >> k & 1 for c in DECK_CARDS[k])
    located = sorted([*st.deck, *st.river, *(c for h in st.hands for c in h)])
    assert located == in_play and len(located) == 30 * players
    for a in range(6):  # 10/15/20 cards of each main animal (docs/arctic-rules.md §4; 2.4 item 8 says "10·n")
        assert sum(1 for c in in_play if MAIN[c] == a) == 5 * players
    assert st.step == PLACE and st.turn_player == st.first_player and st.current_player() == st.first_player
    assert st.round == 1 and st.turns == [0] * players and not st.end_triggered


@pytest.mark.parametrize("players", [2, 3, 4])
def test_deck_selection_first_n_uses_decks_one_to_n(players: int) -> None:
    for seed in range(5):
        _, st = set_up(players, seed, deck_selection="first_n")
        assert st.decks_in_play == (1 << players) - 1


@pytest.mark.parametrize("players", [2, 3])
def test_deck_selection_random_is_a_uniform_chance_event(players: int) -> None:
    game = ArcticGame(players, {"deck_selection": "random"})
    st = game.new_initial_state()
    assert st.is_chance_node()
    outcomes = st.chance_outcomes()
    masks = [act.decode(a).decks for a, _ in outcomes]
    assert len(masks) == comb(4, players)
    assert all(bin(m).count("1") == players for m in masks)
    assert all(abs(p - 1 / len(masks)) < 1e-12 for _, p in outcomes)
    seen = {set_up(players, seed)[1].decks_in_play for seed in range(60)}
    assert seen == set(masks)


def test_four_players_always_use_all_decks() -> None:
    game = ArcticGame(4, {"deck_selection": "random"})
    st = game.new_initial_state()
    assert not any(act.decode(a).kind is ActionKind.DECKS for a in st.legal_actions())
    assert st.decks_in_play == 15


def test_power_sides_random_fixed_and_first_player_chance() -> None:
    game = ArcticGame(3, {"deck_selection": "first_n", "powers": "fox-under,orca=2"})
    st = game.new_initial_state()
    kinds: list[str] = []
    rng = random.Random(1)
    while st.is_chance_node():
        legal_ids = st.legal_actions()
        kinds.append(act.decode(legal_ids[0]).kind)
        if kinds[-1] == "side":
            assert len(legal_ids) == 2
        if kinds[-1] == "first":
            assert len(legal_ids) == 3
        st.apply(rng.choice(legal_ids))
    assert kinds.count("side") == 4  # fox and orca are fixed by the options
    assert kinds.count("totem") == 3 and kinds.count("first") == 1 and kinds.count("card") == 3 * 3 + 6
    assert st.powers[0] == Power.FOX_UNDER and st.powers[3] == Power.ORCA_DECK
    sides = {set_up(2, seed)[1].powers[1] for seed in range(30)}
    assert sides == {Power.MOOSE_DRAW, Power.MOOSE_PLACE}


def test_totems_are_dealt_without_replacement() -> None:
    game = ArcticGame(4, {"first_player": 0})
    st = game.new_initial_state()
    counts = []
    rng = random.Random(5)
    while st.is_chance_node():
        legal_ids = st.legal_actions()
        if act.decode(legal_ids[0]).kind is ActionKind.TOTEM:
            counts.append(len(legal_ids))
        st.apply(rng.choice(legal_ids))
    assert counts == [6, 5, 4, 3]


@pytest.mark.parametrize("first", [0, 1, 2])
def test_first_player_option_is_respected(first: int) -> None:
    _, st = set_up(3, 0, first_player=first)
    assert st.first_player == first and st.turn_player == first


# --- the first turn ------------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["rules", "bga"])
@pytest.mark.parametrize("seed", range(4))
def test_first_turn_places_exactly_one_card_and_takes_its_power(preset: str, seed: int) -> None:
    _, st = set_up(3, seed, preset=preset)
    p = st.turn_player
    hand = st.hands[p][:]
    # P = 1 and no power is held: the only choices are which card to place.
    assert st.placement_value == 1 and st.place_min == st.place_max == 1
    assert [act.decode(a) for a in st.legal_actions()] == [
        ArcticAction(ActionKind.PLACE, card=c) for c in hand
    ]
    c = hand[seed % 3]
    st.apply(ArcticAction(ActionKind.PLACE, card=c).id)
    assert st.piles[p] == [c] and len(st.hands[p]) == 2
    assert st.holder[MAIN[c]] == p
    assert sum(1 for h in st.holder if h >= 0) == 1
    assert step_name(st) in ("move", "extra", "draw")


def test_walrus_taken_on_the_first_turn_is_used_at_once() -> None:
    _, st = new_game(2, powers=["walrus-main"])
    arrange(st, player=0, hands={0: ["walrus-orca-5", "fox-moose-5", "moose-walrus-5"]})
    play(st, "place walrus-orca-5")
    assert st.holder[ANIMALS.index("walrus")] == 0
    assert step_name(st) == "move"
    play(st, "main right")
    assert step_name(st) == "extra"
    assert legal(st) == ["pass", "extra right", "extra left"]
    play(st, "extra right")
    assert st.tokens[ANIMALS.index("walrus")] == START_POSITION + 2


def test_orca_and_moose_draw_taken_on_the_first_turn_work_in_step_c() -> None:
    _, st = new_game(2, powers=["orca-deck", "moose-draw"])
    arrange(st, player=0, hands={0: ["orca-puffin-5", "fox-moose-5", "moose-walrus-5"]})
    play(st, "place orca-puffin-5", "main left")
    assert step_name(st) == "draw"
    assert "deck" in legal(st)  # Orca 42 taken this turn
    _, st = new_game(2, powers=["orca-deck", "moose-draw"])
    arrange(st, player=0, hands={0: ["moose-walrus-5", "fox-moose-5", "walrus-orca-5"]})
    play(st, "place moose-walrus-5", "main left")
    assert (st.draw_min, st.draw_max) == (0, 2)  # Moose 21: draw value 1 ± 1
    assert "stop" in legal(st)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_first_turn_starts_with_no_moves_no_trigger_no_draws_and_no_swap(players: int) -> None:
    """Nothing has happened yet when the first player starts: no seat has pushed a token (the public
    ``pushes`` record), nobody has triggered the end, nothing is drawn and no Puffin swap is pending."""
    game = ArcticGame(players, {"first_player": 0})
    st = game.new_initial_state()
    rng = random.Random(players)
    while st.is_chance_node():
        st.apply(st.sample_chance(rng))
    assert st.step == PLACE and st.current_player() == 0
    assert st.pushes == [0] * (6 * players)
    assert (st.end_triggered, st.trigger_player) == (False, -1)
    assert (st.drawn, st.swap_card) == (0, -1)
    scalars = st.observation(1).scalars
    assert (scalars["trigger_player"], scalars["drawn"], scalars["swap_card"]) == (-1, 0, -1)


def test_each_turn_starts_with_nothing_drawn() -> None:
    """The draw count of step C belongs to one turn: the next player starts at 0."""
    _, st = new_game(2)
    arrange(st, player=0, hands={0: ["puffin-moose-3", "fox-moose-5"]})
    drawn = 0
    while st.current_player() == 0 or st.is_chance_node():
        drawn = max(drawn, st.drawn)
        st.apply(st.legal_actions()[-1] if step_name(st) == "draw" else st.legal_actions()[0])
    assert drawn > 0 and st.turns[0] == 1 and st.step == PLACE and st.current_player() == 1
    assert st.drawn == 0 and st.observation(1).scalars["drawn"] == 0

"""Final scoring (docs/arche-rules.md §11): the KSR's three tie examples, shared places in general, half
points, chips, the tie-breaker; and set-up (docs/arche-rules.md §4)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from floe.core.errors import OptionError
from floe.games.arche.cards import HEAVY, SHY, USEFUL
from floe.games.arche.game import ArcheGame
from floe.games.arche.scoring import majority_fractions, majority_points, rank, rounded, score, strength
from floe.games.arche.state import START, bits

from .arche_helpers import play, position


def test_the_short_rules_three_tie_examples() -> None:
    assert majority_points([4, 4, 1]) == [8, 8, 2], "two tied for 1st: 8 each"
    assert majority_points([5, 2, 2]) == [10, 4, 4], "two tied for 2nd: 4 each"
    assert majority_points([3, 3, 3]) == [6, 6, 6], "three tied for 1st: 6 each"


def test_places_ties_and_fractions() -> None:
    assert majority_points([3, 2, 1, 1, 0]) == [10, 6, 2, 2, 0], "every later place 2, no figure 0"
    assert majority_fractions([4, 2, 2, 2]) == [10, Fraction(10, 3), Fraction(10, 3), Fraction(10, 3)]
    assert majority_points([4, 2, 2, 2], "halves") == [10, 3.5, 3.5, 3.5]
    assert majority_points([1, 1, 1, 1, 1]) == [4.4] * 5
    assert majority_points([1, 1, 1, 1, 1], "halves") == [4.5] * 5
    assert majority_points([1.5, 1, 0]) == [10, 6, 0], "a figure with a chip counts 1.5"
    assert majority_points([0, 0, 0]) == [0, 0, 0]


def test_totals_chips_and_the_tie_breaker() -> None:
    figures = [0] * 15
    figures[HEAVY] = 2  # P1: heavy 2
    figures[5 + HEAVY] = 2  # P2: heavy 2
    figures[10 + SHY] = 1  # P3: shy 1
    breakdowns = score(3, figures, [0] * 15, [1, 1, 3], [2, 1, 0], [-1] * 3, "exact")
    assert [b.total for b in breakdowns] == [9, 9, 13]
    assert rank(breakdowns, 0) == [2, 1, 0], "equal totals: fewer animal cards in hand first"


def test_places_follow_strength_not_seat_order() -> None:
    assert majority_points([1, 3, 2]) == [2, 10, 6]
    assert majority_points([0, 1, 2, 2]) == [0, 2, 8, 8]


def test_strength_counts_a_chip_as_half_a_figure() -> None:
    assert [str(strength(f, h)) for f, h in [(0, 0), (2, 0), (2, 1), (1, 2), (0, 3), (3, 1)]] == [
        "0", "2", "2.5", "2", "1.5", "3.5",
    ]  # fmt: skip


def test_half_points_round_to_the_nearest_half_and_halves_up() -> None:
    assert rounded(Fraction(10, 3), "halves") == Fraction(7, 2)
    assert rounded(Fraction(13, 3), "halves") == Fraction(9, 2)
    assert rounded(Fraction(5, 4), "halves") == Fraction(3, 2), "a quarter past is halfway: up"
    assert rounded(Fraction(6, 5), "halves") == 1
    assert rounded(Fraction(10, 3), "exact") == Fraction(10, 3)


def test_breakdown_per_seat_with_chips_under_figures_and_pets() -> None:
    figures, halves = [0] * 10, [0] * 10
    figures[HEAVY], halves[HEAVY] = 1, 1  # P1: heavy 1.5
    figures[5 + HEAVY] = 1  # P2: heavy 1
    figures[5 + SHY], halves[5 + SHY] = 2, 1  # P2: shy 2.5
    breakdowns = score(2, figures, halves, [4, 0], [1, 3], [0, -1], "exact")
    slugs = ["otter", "lynx"]
    assert breakdowns[0].to_dict(slugs) == {
        "seat": 0,
        "cards": {
            "heavy": {"figures": 1.5, "points": 10},
            "useful": {"figures": 0, "points": 0},
            "shy": {"figures": 0, "points": 0},
            "slow": {"figures": 0, "points": 0},
            "provisions": {"figures": 0, "points": 0},
        },
        "chips": 4,
        "total": 14,
        "animals_in_hand": 1,
        "pet": "otter",
    }
    assert breakdowns[1].to_dict(slugs)["cards"]["heavy"] == {"figures": 1, "points": 6}
    assert breakdowns[1].to_dict(slugs)["cards"]["shy"] == {"figures": 2.5, "points": 10}
    assert (breakdowns[1].seat, breakdowns[1].chips, breakdowns[1].total) == (1, 0, 16)
    assert breakdowns[1].to_dict(slugs)["pet"] is None


def test_seats_equal_in_everything_are_listed_from_the_first_player() -> None:
    breakdowns = score(3, [0] * 15, [0] * 15, [2, 2, 2], [1, 1, 1], [-1] * 3, "exact")
    assert rank(breakdowns, 1) == [1, 2, 0]
    assert rank(breakdowns, 2) == [2, 0, 1]


def test_a_finished_game_reports_fractions_and_shares_places() -> None:
    st = position(
        3, hands={0: [], 1: [], 2: []}, left=[["cow"]], right=[["horse"]], rain_out=5, chips=[0, 0, 0]
    )
    st.figures[USEFUL] = 3
    st.figures[5 + USEFUL] = 1
    st.figures[10 + USEFUL] = 1
    st.figures[5 + SHY] = 1
    st.figures[10 + SHY] = 1
    st.phase = 3
    st._legal = None
    for _ in range(3):
        play(st, "pass")
    assert st.is_terminal()
    assert st.scores() == [10, 12, 12]
    assert st.ranking() == [1, 2, 0]
    assert st.returns() == [-1.0, 0.5, 0.5], "equal in total and cards in hand: a shared place"
    breakdown = st.score_breakdowns()[1]
    assert breakdown["cards"]["shy"] == {"figures": 1, "points": 8} and breakdown["total"] == 12


def test_a_fractional_score_goes_through_records() -> None:
    st = position(4, hands={q: [] for q in range(4)}, left=[["cow"]], right=[["horse"]], rain_out=5)
    st.chips = [0, 0, 0, 0]
    st.bank = 22
    for q, n in enumerate((4, 2, 2, 2)):
        st.figures[5 * q + USEFUL] = n
    st.phase = 3
    st._legal = None
    for _ in range(4):
        play(st, "pass")
    assert st.scores() == [10, 10 / 3, 10 / 3, 10 / 3]


# --- set-up --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5])
def test_set_up(players: int) -> None:
    game = ArcheGame(players)
    for seed in range(40):
        st = game.new_initial_state()
        rng = random.Random(seed)
        assert st.legal_actions() == [st.config.space.first + q for q in range(players)], (
            "a random first player"
        )
        while st.is_chance_node():
            st.apply(st.sample_chance(rng))
        cfg = st.config
        assert len(st.left) == len(st.right) == 2
        cards = [c for cab in (*st.left, *st.right) for c in bits(cab)]
        assert len(cards) == 4 and all(cfg.weight[c] in (1, 2) for c in cards)
        cats = [cfg.category[c] for c in cards]
        assert all(cats.count(k) <= 2 for k in range(5))
        assert st.tilt == sum(cfg.weight[c] for cab in st.left for c in bits(cab)) - sum(
            cfg.weight[c] for cab in st.right for c in bits(cab)
        )
        assert [h.bit_count() for h in st.hands] == [2] * players
        assert st.chips == [3] * players and st.bank == 22 - 3 * players
        assert st.display.bit_count() == 3 and st.rain_out == 0
        assert st.phase == START and st.current_player() == st.first_player


def test_chips_by_seat_and_their_limit() -> None:
    game = ArcheGame(5, {"seat_chips": "later_plus_one", "first_player": 2})
    st = game.new_initial_state()
    rng = random.Random(1)
    while st.is_chance_node():
        st.apply(st.sample_chance(rng))
    assert st.chips == [4, 4, 3, 4, 4]
    with pytest.raises(OptionError, match="more than the 22 discs"):
        ArcheGame(5, {"start_chips": 4, "seat_chips": "later_plus_one"})
    ArcheGame(5, {"start_chips": 4, "seat_chips": "later_plus_one", "bank": "unlimited"})


def test_opening_rejects_out_of_the_game() -> None:
    game = ArcheGame(4, {"opening_rejects": "out_of_game", "first_player": 0})
    for seed in range(20):
        st = game.new_initial_state()
        rng = random.Random(seed)
        while st.is_chance_node():
            st.apply(st.sample_chance(rng))
        cats = [st.config.category[c] for cab in (*st.left, *st.right) for c in bits(cab)]
        for c in bits(st.out):
            unfit = st.config.weight[c] not in (1, 2) or cats.count(st.config.category[c]) >= 2
            assert unfit, f"{st.config.deck.names[c]} could have opened the ark"

"""Statistics of a tournament: Wilson intervals, the Bradley–Terry Elo fit, pairwise wins and summaries."""

from __future__ import annotations

import pytest

from floe.lab.runner import GameResult
from floe.lab.stats import elo_expected, fit_elo, pairwise_wins, summarize, wilson_interval


@pytest.mark.parametrize(
    ("wins", "n", "low", "high"),
    [
        # Published values of the 95% Wilson score interval.
        (8, 10, 0.4902, 0.9433),
        (5, 10, 0.2366, 0.7634),
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (50, 100, 0.4038, 0.5962),
    ],
)
def test_wilson_known_values(wins: int, n: int, low: float, high: float) -> None:
    got = wilson_interval(wins, n)
    assert got == pytest.approx((low, high), abs=1e-4)


def test_wilson_without_games_is_the_whole_range() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_elo_known_two_bot_example() -> None:
    # A beats B 3 times out of 4: the maximum-likelihood gap is 400·log10(3) ≈ 190.85, centred on 1500.
    elo = fit_elo({("A", "B"): 3, ("B", "A"): 1}, ["A", "B"], prior=0)
    assert elo["A"] == pytest.approx(1595.424, abs=1e-3)
    assert elo["B"] == pytest.approx(1404.576, abs=1e-3)
    assert elo_expected(elo["A"], elo["B"]) == pytest.approx(0.75)


def test_elo_is_the_maximum_likelihood_fit() -> None:
    # At the maximum of the Bradley–Terry likelihood each bot's expected wins equal its actual wins.
    wins = {("A", "B"): 5, ("B", "A"): 2, ("B", "C"): 4, ("C", "B"): 3, ("A", "C"): 6, ("C", "A"): 1}
    elo = fit_elo(wins, ["A", "B", "C"], prior=0)
    assert sum(elo.values()) / 3 == pytest.approx(1500.0)
    for bot in "ABC":
        actual = sum(count for (w, _), count in wins.items() if w == bot)
        expected = sum(
            (wins.get((bot, other), 0) + wins.get((other, bot), 0)) * elo_expected(elo[bot], elo[other])
            for other in "ABC"
            if other != bot
        )
        assert expected == pytest.approx(actual, abs=1e-6)
    assert elo["A"] > elo["B"] > elo["C"]


def test_elo_equal_bots_are_equal() -> None:
    elo = fit_elo({("A", "B"): 7, ("B", "A"): 7}, ["A", "B"])
    assert elo["A"] == pytest.approx(1500.0) and elo["B"] == pytest.approx(1500.0)


def test_elo_a_bot_that_always_wins_is_rated_higher_and_finite() -> None:
    elo = fit_elo({("A", "B"): 10, ("A", "C"): 10, ("B", "C"): 5, ("C", "B"): 5}, ["A", "B", "C"])
    assert elo["A"] > elo["B"] + 300 and elo["A"] > elo["C"] + 300
    assert elo["B"] == pytest.approx(elo["C"])
    assert elo["A"] < 3000  # the virtual draws keep a clean sweep finite
    # The default prior is one virtual draw per pair: 10 wins to 0 reads as 10.5 to 0.5.
    two = fit_elo({("A", "B"): 10}, ["A", "B"])
    assert two["A"] - two["B"] == pytest.approx(400 * 1.3222192947339193, abs=1e-6)  # log10(21)


def test_elo_of_a_single_bot_is_1500() -> None:
    assert fit_elo({}, ["A"]) == {"A": 1500.0}


def _game(bots: tuple[str, ...], scores: tuple[int, ...], ranking: tuple[int, ...]) -> GameResult:
    return GameResult(seed=0, bots=bots, scores=scores, ranking=ranking, decisions=0)


def test_pairwise_wins_skip_seats_of_the_same_bot() -> None:
    game = _game(("x", "y", "x"), (5, 9, 1), (1, 0, 2))  # y first, then x (seat 0), then x (seat 2)
    assert pairwise_wins([game]) == {("y", "x"): 2}


def test_summarize_counts_seat_games_wins_scores_and_ranks() -> None:
    games = [
        _game(("a", "b", "b"), (10, 5, 3), (0, 1, 2)),
        _game(("b", "a", "b"), (8, 4, 6), (0, 2, 1)),
    ]
    stats = summarize(games, order=("b", "a"))
    assert [s.bot for s in stats.bots] == ["b", "a"]
    b, a = stats.bots
    assert (a.games, a.wins, a.mean_score, a.mean_rank) == (2, 1, 7.0, 2.0)
    assert (b.games, b.wins, b.mean_score, b.mean_rank) == (4, 1, 5.5, 2.0)
    assert stats.wins_over("a", "b") == 2 and stats.wins_over("b", "a") == 2
    assert a.elo == pytest.approx(b.elo)
    d = a.to_dict()
    keys = ["bot", "seat_games", "seat_games_won", "win_rate", "ci95", "mean_score", "mean_rank", "elo"]
    assert list(d) == keys
    # Wilson's 95% interval for 1 win in 2, worked by hand: centre (0.5 + z²/4) / (1 + z²/2) = 0.5, half-width
    # z·sqrt(0.125 + z²/16) / (1 + z²/2) = 0.40547 with z = 1.96.
    assert d["ci95"] == [0.0945, 0.9055]

"""``floe.lab.simulate`` by its functions: the lineup (``fill_seats``), the rotation of seats, the per-bot
summary and the games played (seeds and results), on ``fixed_game`` whose results are known in advance (the
first seat wins)."""

from __future__ import annotations

import pytest

from floe.core.errors import OptionError
from floe.core.registry import make_game, shared_game
from floe.lab.runner import GameResult, fill_seats, play_game, rotated
from floe.lab.simulate import BotSummary, SeatedGame, play_seated, simulate

from .fixed_game import fixed_game

__all__ = ["fixed_game"]


def test_fill_seats_repeats_the_last_bot() -> None:
    # The lab's one seat-filling rule (simulate, tournament, balance, bench lab): the last bot is the field.
    assert fill_seats(["ismcts", "baseline"], 4) == ["ismcts", "baseline", "baseline", "baseline"]
    assert fill_seats(["a", "b", "c"], 3) == ["a", "b", "c"]  # one bot per seat is allowed
    assert fill_seats(["a"], 2) == ["a", "a"]
    with pytest.raises(OptionError, match=r"^name at least one bot$"):
        fill_seats([], 3)
    with pytest.raises(OptionError, match=r"^3 bots for 2 seats; name at most 2$"):
        fill_seats(["a", "b", "c"], 2)


def test_rotated_moves_every_bot_on_by_the_shift() -> None:
    # Shifted by one, the bot of seat 0 sits in seat 1, the bot of seat 1 in seat 2, the last in seat 0.
    assert rotated(["a", "b", "c"], 1) == ["c", "a", "b"]
    assert rotated(["a", "b", "c"], 2) == ["b", "c", "a"]
    assert rotated(["a", "b", "c"], 3) == ["a", "b", "c"]


def test_summary_counts_only_first_places_as_wins() -> None:
    summary = BotSummary("x")
    for score, rank in [(5, 1), (3, 2), (4, 2)]:
        summary.add(score, rank)
    assert (summary.games, summary.wins, summary.score_total, summary.rank_total) == (3, 1, 12, 5)
    assert summary.scores == [5, 3, 4]
    assert summary.to_dict() == {
        "bot": "x", "seat_games": 3, "seat_games_won": 1, "win_rate": 0.3333, "mean_score": 4.0,
        "mean_rank": 1.667,
    }  # fmt: skip


def test_summary_rounds_means_to_three_places() -> None:
    summary = BotSummary("x")
    for score, rank in [(1, 1), (0, 1), (0, 2)]:
        summary.add(score, rank)
    assert summary.to_dict()["mean_score"] == 0.333
    assert summary.to_dict()["mean_rank"] == 1.333
    assert summary.to_dict()["win_rate"] == 0.6667


def test_summary_of_no_games_is_all_zero() -> None:
    assert BotSummary("x").to_dict() == {
        "bot": "x", "seat_games": 0, "seat_games_won": 0, "win_rate": 0.0, "mean_score": 0.0,
        "mean_rank": 0.0,
    }  # fmt: skip


def test_simulate_plays_each_game_from_its_seed_with_the_lineup_rotated(fixed_game: str) -> None:
    p, q = "random", "mcts:it=3"
    summaries, results = simulate("fixed", 3, 4, [p, q], seed=10, options={})
    # Lineup [p, q, q] (fill_seats); game i is played from seed 10 + i with the lineup rotated by i.
    assert [r.seed for r in results] == [10, 11, 12, 13]
    assert [r.bots for r in results] == [
        (p, q, q), (q, p, q), (q, q, p), (p, q, q),
    ]  # fmt: skip
    assert all(r.scores == (3, 2, 1) for r in results)
    by_bot = {s.bot: s for s in summaries}
    # p sat in seats 0, 1, 2, 0: scores 3, 2, 1, 3, two of them first places.
    assert by_bot[p].scores == [3, 2, 1, 3]
    assert (by_bot[p].games, by_bot[p].wins) == (4, 2)
    # q sat in seats 1+2, 0+2, 0+1, 1+2.
    assert by_bot[q].scores == [2, 1, 3, 1, 3, 2, 2, 1]
    assert (by_bot[q].games, by_bot[q].wins) == (8, 2)


def _played(
    game: str, players: int, options: dict[str, object], seats: tuple[str, ...], seed: int
) -> GameResult:
    """The game as ``play_game`` plays it on a game built here: what a simulation's job must give."""
    result, _ = play_game(make_game(game, players, options), list(seats), seed)
    return result


def test_a_job_plays_its_own_game_and_options() -> None:
    seats = ("baseline", "random", "random")
    bga = SeatedGame(7, "arctic", 3, {"preset": "bga"}, seats, 5)
    rulebook = SeatedGame(8, "arctic", 3, {}, seats, 5)
    assert play_seated(bga) == (7, _played("arctic", 3, {"preset": "bga"}, seats, 5))
    assert play_seated(rulebook) == (8, _played("arctic", 3, {}, seats, 5))
    assert play_seated(bga)[1] != play_seated(rulebook)[1]  # the options reach the game (same seed)


def test_the_shared_game_is_built_once_per_game_players_and_options() -> None:
    # The one per-process cache of the lab's workers and the server's bot workers.
    bga = shared_game("arctic", 3, {"preset": "bga"})
    assert shared_game("arctic", 3, {"preset": "bga"}) is bga
    assert shared_game("arctic", 3, {}) is not bga
    assert shared_game("arctic", 2, {"preset": "bga"}) is not bga
    assert shared_game("arctic", 3, {}).options == make_game("arctic", 3, {}).options


def test_simulate_plays_under_its_options() -> None:
    _, results = simulate("arctic", 3, 3, ["baseline", "random"], 5, {"preset": "bga"})
    base = fill_seats(["baseline", "random"], 3)
    expected = [_played("arctic", 3, {"preset": "bga"}, tuple(rotated(base, i)), 5 + i) for i in range(3)]
    assert results == expected

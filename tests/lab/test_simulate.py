"""``floe.lab.simulate`` by its functions: the lineup, the rotation of seats, the per-bot summary and the
games played (seeds and results), on ``fixed_game`` whose results are known in advance (the first seat
wins)."""

from __future__ import annotations

import pytest

from floe.core.errors import OptionError
from floe.core.registry import make_game
from floe.lab import simulate as simulate_module
from floe.lab.runner import GameResult, play_game
from floe.lab.simulate import BotSummary, SeatedGame, lineup, play_seated, rotated, simulate

from .fixed_game import fixed_game

__all__ = ["fixed_game"]


def test_lineup_repeats_the_bots_over_the_seats() -> None:
    assert lineup(["a", "b"], 4) == ["a", "b", "a", "b"]
    assert lineup(["a", "b", "c"], 3) == ["a", "b", "c"]  # one bot per seat is allowed
    with pytest.raises(OptionError, match=r"^name at least one bot$"):
        lineup([], 3)
    with pytest.raises(OptionError, match=r"^3 bots for 2 seats$"):
        lineup(["a", "b", "c"], 2)


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
    # Lineup [p, q, p]; game i is played from seed 10 + i with the lineup rotated by i.
    assert [r.seed for r in results] == [10, 11, 12, 13]
    assert [r.bots for r in results] == [
        (p, q, p), (p, p, q), (q, p, p), (p, q, p),
    ]  # fmt: skip
    assert all(r.scores == (3, 2, 1) for r in results)
    by_bot = {s.bot: s for s in summaries}
    # p sat in seats 0+2, 0+1, 1+2, 0+2: scores 3+1, 3+2, 2+1, 3+1, three of them first places.
    assert by_bot[p].scores == [3, 1, 3, 2, 2, 1, 3, 1]
    assert (by_bot[p].games, by_bot[p].wins) == (8, 3)
    assert by_bot[q].scores == [2, 1, 3, 2]
    assert (by_bot[q].games, by_bot[q].wins) == (4, 1)


def _played(
    game: str, players: int, options: dict[str, object], seats: tuple[str, ...], seed: int
) -> GameResult:
    """The game as ``play_game`` plays it on a game built here: what a simulation's job must give."""
    result, _ = play_game(make_game(game, players, options), list(seats), seed)
    return result


def test_a_job_plays_its_own_game_and_options(monkeypatch: pytest.MonkeyPatch) -> None:
    # An empty per-process cache, as in a fresh worker: the job builds its game from what it carries.
    monkeypatch.setattr(simulate_module, "_GAMES", {})
    seats = ("baseline", "random", "random")
    bga = SeatedGame(7, "arctic", 3, {"preset": "bga"}, seats, 5)
    rulebook = SeatedGame(8, "arctic", 3, {}, seats, 5)
    assert play_seated(bga) == (7, _played("arctic", 3, {"preset": "bga"}, seats, 5))
    assert play_seated(rulebook) == (8, _played("arctic", 3, {}, seats, 5))
    assert play_seated(bga)[1] != play_seated(rulebook)[1]  # the options reach the game (same seed)
    assert len(simulate_module._GAMES) == 2  # each game built once, then reused


def test_simulate_plays_under_its_options(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(simulate_module, "_GAMES", {})
    _, results = simulate("arctic", 3, 3, ["baseline", "random"], 5, {"preset": "bga"})
    base = lineup(["baseline", "random"], 3)
    expected = [_played("arctic", 3, {"preset": "bga"}, tuple(rotated(base, i)), 5 + i) for i in range(3)]
    assert results == expected

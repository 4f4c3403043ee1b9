"""``floe simulate``: many bot games with the seats rotated, summarised per bot."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from floe.bots.registry import make_bot
from floe.bots.specs import parse_bot_list
from floe.core.errors import OptionError
from floe.core.game import Game
from floe.core.registry import make_game
from floe.lab.backends import Backend, execute
from floe.lab.runner import GameResult, play_game


@dataclass
class BotSummary:
    """What one bot (by spec) achieved over all the seats it played."""

    bot: str
    games: int = 0
    wins: int = 0
    score_total: int = 0
    rank_total: int = 0
    scores: list[int] = field(default_factory=list)

    def add(self, score: int, rank: int) -> None:
        """Count one seat-game."""
        self.games += 1
        self.wins += rank == 1
        self.score_total += score
        self.rank_total += rank
        self.scores.append(score)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready summary. The counts are of seat-games, and named so: a bot that holds two seats of a
        game plays two seat-games of it, and ``win_rate`` is the share of its seat-games it won."""
        return {
            "bot": self.bot,
            "seat_games": self.games,
            "seat_games_won": self.wins,
            "win_rate": round(self.wins / self.games, 4) if self.games else 0.0,
            "mean_score": round(self.score_total / self.games, 3) if self.games else 0.0,
            "mean_rank": round(self.rank_total / self.games, 3) if self.games else 0.0,
        }


def lineup(specs: Sequence[str], players: int) -> list[str]:
    """The bots of one game: the given specs repeated cyclically to fill every seat."""
    if not specs:
        raise OptionError("name at least one bot")
    if len(specs) > players:
        raise OptionError(f"{len(specs)} bots for {players} seats")
    return [specs[i % len(specs)] for i in range(players)]


def rotated(seats: Sequence[str], shift: int) -> list[str]:
    """The lineup moved ``shift`` seats on, so every bot plays every seat in turn."""
    n = len(seats)
    return [seats[(i - shift) % n] for i in range(n)]


@dataclass(frozen=True)
class SeatedGame:
    """One game of a simulation, as a job for ``execute``: its index, the game and the bot at each seat."""

    index: int
    game: str
    players: int
    options: dict[str, Any]
    seats: tuple[str, ...]
    seed: int


_GAMES: dict[str, Game] = {}  # per process: a worker builds each game once, not once per game played


def play_seated(job: SeatedGame) -> tuple[int, GameResult]:
    """Play one game of a simulation (a top-level function so that worker processes and Ray can run it)."""
    key = json.dumps([job.game, job.players, job.options], sort_keys=True, default=str)
    if key not in _GAMES:
        _GAMES[key] = make_game(job.game, job.players, job.options)
    result, _ = play_game(_GAMES[key], job.seats, job.seed)
    return job.index, result


def simulate(
    game_name: str,
    players: int,
    games: int,
    specs: Sequence[str],
    seed: int,
    options: Mapping[str, Any],
    backend: Backend | None = None,
) -> tuple[list[BotSummary], list[GameResult]]:
    """Play ``games`` games (game i uses seed ``seed + i`` and the lineup rotated by i) on ``backend``
    (default: in this process). The results and summaries are in game order wherever the games ran."""
    # Bad options or bots fail here, with one message, before any game (and not in a worker).
    game = make_game(game_name, players, options)
    base = lineup(specs, players)
    for seat, spec in enumerate(base):
        make_bot(spec, game, seat, seed)
    jobs = [
        SeatedGame(i, game_name, players, dict(options), tuple(rotated(base, i)), seed + i)
        for i in range(games)
    ]
    finished: dict[int, GameResult] = {}
    with Progress(transient=True, console=Console(stderr=True)) as progress:
        task = progress.add_task("games", total=games)

        def keep(played: tuple[int, GameResult]) -> None:
            finished[played[0]] = played[1]
            progress.advance(task)

        execute(play_seated, jobs, backend or Backend(), keep)
    results = [finished[i] for i in range(games)]
    summaries = {spec: BotSummary(spec) for spec in base}
    for result in results:
        for seat, spec in enumerate(result.bots):
            summaries[spec].add(result.scores[seat], result.rank_of(seat))
    return list(summaries.values()), results


def run_simulation(
    game_name: str,
    players: int,
    games: int,
    bots: str,
    seed: int,
    options: Mapping[str, Any],
    as_json: bool,
    backend: Backend | None = None,
) -> None:
    """The ``floe simulate`` command: play and print the summary table (or JSON)."""
    specs = parse_bot_list(bots)
    summaries, _ = simulate(game_name, players, games, specs, seed, options, backend)
    if as_json:
        print(json.dumps([s.to_dict() for s in summaries]))
        return
    table = Table(title=f"{game_name}: {games} games, {players} players, seats rotated")
    for column in ("bot", "seat-games", "wins", "win rate", "mean score", "mean rank"):
        table.add_column(column, justify="right" if column != "bot" else "left")
    for s in summaries:
        d = s.to_dict()
        table.add_row(
            d["bot"],
            str(d["seat_games"]),
            str(d["seat_games_won"]),
            f"{d['win_rate']:.1%}",
            f"{d['mean_score']:.2f}",
            f"{d['mean_rank']:.2f}",
        )
    Console().print(table)

"""``floe simulate``: many bot games with the seats rotated, summarised per bot."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from floe.bots.registry import make_bot
from floe.bots.specs import parse_bot_list
from floe.core.errors import OptionError
from floe.core.registry import make_game, shared_game
from floe.lab.backends import execute
from floe.lab.results import ResultsError, ResultsFile, append
from floe.lab.runner import GameResult, fill_seats, play_game, result_of, rotated
from floe.lab.where import Backend


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


@dataclass(frozen=True)
class SeatedGame:
    """One game of a simulation, as a job for ``execute``: its index, the game and the bot at each seat."""

    index: int
    game: str
    players: int
    options: dict[str, Any]
    seats: tuple[str, ...]
    seed: int


def play_seated(job: SeatedGame) -> tuple[int, GameResult]:
    """Play one game of a simulation (a top-level function so that worker processes and Ray can run it)."""
    result, _ = play_game(shared_game(job.game, job.players, job.options), job.seats, job.seed)
    return job.index, result


FORMAT = "floe-simulate/1"


def _check_line(lineup: Sequence[str], seed: int, record: Any, where: str) -> int:
    """The game index of a simulation's results line, if it is one of this simulation's games."""
    if not isinstance(record, dict) or record.get("type") != "game":
        raise ResultsError(f"{where}: not a game line")
    try:
        index = int(record["index"])
        result = result_of(record)
        fits = (
            index >= 0
            and result.seed == seed + index
            and list(result.bots) == rotated(lineup, index)
            and len(result.scores) == len(lineup)
            and sorted(result.ranking) == list(range(len(lineup)))
        )
    except (KeyError, TypeError, ValueError):
        raise ResultsError(f"{where}: malformed game line") from None
    if not fits:
        raise ResultsError(f"{where}: game line does not belong to this simulation")
    return index


def results_file(
    path: Path, game_name: str, players: int, lineup: Sequence[str], seed: int, options: Mapping[str, Any]
) -> ResultsFile[int]:
    """A simulation's results file (``floe.lab.results``): the header names the game, the lineup after
    filling, the seed and the options (not the number of games: a resume may extend the run)."""
    header = {
        "type": "header",
        "format": FORMAT,
        "game": game_name,
        "players": players,
        "bots": list(lineup),
        "seed": seed,
        # Round-tripped through JSON, as they will be read back.
        "options": json.loads(json.dumps(dict(options))),
    }
    return ResultsFile(
        path, header, lambda record, where: _check_line(lineup, seed, record, where), "simulation"
    )


def simulate(
    game_name: str,
    players: int,
    games: int,
    specs: Sequence[str],
    seed: int,
    options: Mapping[str, Any],
    backend: Backend | None = None,
    out: Path | None = None,
    resume: bool = False,
) -> tuple[list[BotSummary], list[GameResult]]:
    """Play ``games`` games (game i uses seed ``seed + i`` and the lineup rotated by i) on ``backend``
    (default: in this process). The results and summaries are in game order wherever the games ran.

    ``out``: append each finished game to that results file (``resume``: continue it, playing only the
    games it lacks; the summaries are then exactly an uninterrupted run's)."""
    # Bad options or bots fail here, with one message, before any game (and not in a worker).
    game = make_game(game_name, players, options)
    base = fill_seats(specs, players)
    for seat, spec in enumerate(base):
        make_bot(spec, game, seat, seed)
    if resume and out is None:
        raise OptionError("--resume continues the results file named by --out")
    finished: dict[int, GameResult] = {}
    file = None if out is None else results_file(out, game_name, players, base, seed, options)
    try:
        if file is not None:
            file.start(resume, lambda index, line: finished.__setitem__(index, result_of(line)))
        jobs = [
            SeatedGame(i, game_name, players, dict(options), tuple(rotated(base, i)), seed + i)
            for i in range(games)
            if i not in finished
        ]
        with (
            file.appending() if file is not None else nullcontext() as written,
            Progress(transient=True, console=Console(stderr=True)) as progress,
        ):
            task = progress.add_task("games", total=games, completed=games - len(jobs))

            def keep(played: tuple[int, GameResult]) -> None:
                index, result = played
                if written is not None:
                    append(written, {"type": "game", "index": index, **result.fields()})
                finished[index] = result
                progress.advance(task)

            execute(play_seated, jobs, backend or Backend(), keep)
    except OSError as exc:
        raise ResultsError(f"cannot use {exc.filename or out}: {exc.strerror or exc}") from None
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
    out: Path | None = None,
    resume: bool = False,
) -> None:
    """The ``floe simulate`` command: play and print the summary table (or JSON); with ``out``, keep the
    games in that results file (``resume``: continue it)."""
    specs = parse_bot_list(bots)
    summaries, _ = simulate(game_name, players, games, specs, seed, options, backend, out, resume)
    if out is not None:
        Console(stderr=True).print(f"results: {out}", highlight=False, soft_wrap=True)
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

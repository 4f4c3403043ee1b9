"""``floe tournament``: bot tournaments in the duplicate format, over worker processes, resumable.

Duplicate format: the games come in *deals*. Deal d uses seed ``seed + d`` and is played once for every
rotation r = 0..N−1 of the lineup (the bot listed j-th sits at seat (j + r) mod N), so every bot plays
every seat on the same shuffles and the luck of the deal cancels out. ``--games`` is rounded up to whole
deals (a note says so), because a partial deal would give some bots the good seats of a shuffle and not
the others.

Each game depends only on (deal, rotation), so games can run in any worker and in any order. Every
finished game is appended as one JSON line to the results file (``floe.lab.results``), after a header line
that records the configuration (game, players, lineup, seed, options; not the number of games, so a
finished run can be resumed with a larger ``--games`` to extend it). ``--resume`` reads that file, refuses
it if the header differs, drops a half-written last line, and plays only the missing games. Statistics are
computed from the games of the requested plan in (deal, rotation) order, so a resumed run prints exactly
what an uninterrupted one would.
"""

from __future__ import annotations

import hashlib
import json
import math
import shlex
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from floe.bots.registry import make_bot
from floe.bots.specs import parse_bot_list
from floe.core.errors import OptionError
from floe.core.registry import make_game, shared_game
from floe.lab.backends import execute
from floe.lab.results import Line, ResultsError, ResultsFile, append
from floe.lab.resultsdir import new_results_file
from floe.lab.runner import GameResult, fill_seats, play_game, result_of, rotated
from floe.lab.stats import TournamentStats, summarize
from floe.lab.where import Backend

FORMAT = "floe-tournament/1"

Key = tuple[int, int]  # (deal, rotation)
GameLine = Line  # one JSON line of the results file: a header or one finished game


class TournamentError(ResultsError):
    """The results file cannot be used: another tournament's, corrupt, or not writable."""


# --- configuration --------------------------------------------------------------------------------------


def deals_for(games: int, players: int) -> int:
    """Whole deals needed for at least ``games`` games (one game per rotation, ``players`` per deal)."""
    return max(1, math.ceil(games / players))


@dataclass(frozen=True)
class Tournament:
    """What is played: the game, the lineup before rotation, the base seed and the rule options."""

    game: str
    players: int
    bots: tuple[str, ...]
    seed: int
    options: dict[str, Any] = field(default_factory=dict)

    def seats(self, rotation: int) -> list[str]:
        """The bot at each seat for ``rotation``: the lineup moved ``rotation`` seats on."""
        return rotated(self.bots, rotation)

    def seed_of(self, deal: int) -> int:
        """The game seed of ``deal``: every rotation of a deal shares its shuffle."""
        return self.seed + deal

    def plan(self, deals: int) -> list[Key]:
        """Every (deal, rotation) of the first ``deals`` deals, in playing order."""
        return [(deal, rotation) for deal in range(deals) for rotation in range(self.players)]

    def header(self) -> GameLine:
        """The first line of the results file; a resume must find exactly this."""
        return {
            "type": "header",
            "format": FORMAT,
            "game": self.game,
            "players": self.players,
            "bots": list(self.bots),
            "seed": self.seed,
            "options": dict(self.options),
        }

    def default_name(self) -> str:
        """``tournament-<game>-<N>p-seed<K>-<hash>``: the name of a results file nobody named (``--out``).

        The hash is of the header, so files of different lineups or rule sets are told apart by name.
        """
        digest = hashlib.sha256(json.dumps(self.header(), sort_keys=True).encode()).hexdigest()[:8]
        return f"tournament-{self.game}-{self.players}p-seed{self.seed}-{digest}"


def make_tournament(
    game_name: str, players: int, bots: str, seed: int, options: Mapping[str, Any]
) -> Tournament:
    """Check everything up front (game, players, options, every bot and its parameters), so bad input
    fails with one message here and not in a worker halfway through the run."""
    game = make_game(game_name, players, options)
    lineup = fill_seats(parse_bot_list(bots), players)
    for seat, spec in enumerate(lineup):
        make_bot(spec, game, seat, seed)
    # Round-trip through JSON so the options compare equal to those read back from a header.
    return Tournament(game.name, players, tuple(lineup), seed, json.loads(json.dumps(dict(options))))


# --- playing ----------------------------------------------------------------------------------------------


def play_one(t: Tournament, deal: int, rotation: int) -> GameLine:
    """Play game (deal, rotation) of ``t`` and return its results line (a top-level function so that
    worker processes can run it)."""
    seats = t.seats(rotation)
    start = time.perf_counter()
    result, _ = play_game(shared_game(t.game, t.players, t.options), seats, t.seed_of(deal))
    return {**game_line(deal, rotation, result), "seconds": round(time.perf_counter() - start, 4)}


def game_line(deal: int, rotation: int, result: GameResult) -> GameLine:
    """The results line of a played game (deal, rotation): what a tournament and a balance run both keep."""
    return {"type": "game", "deal": deal, "rotation": rotation, **result.fields()}


def _play_job(job: tuple[Tournament, Key]) -> GameLine:
    """``play_one`` for one job of ``execute``: the tournament and the game's (deal, rotation)."""
    t, (deal, rotation) = job
    return play_one(t, deal, rotation)


def _check_record(t: Tournament, record: Any, where: str) -> Key:
    if not isinstance(record, dict) or record.get("type") != "game":
        raise TournamentError(f"{where}: not a game line")
    try:
        deal, rotation = int(record["deal"]), int(record["rotation"])
        players = t.players
        fits = (
            deal >= 0
            and 0 <= rotation < players
            and record["seed"] == t.seed_of(deal)
            and record["seats"] == t.seats(rotation)
            and len(record["scores"]) == players
            and sorted(record["ranking"]) == list(range(players))
        )
        result_of(record)
    except (KeyError, TypeError, ValueError):
        raise TournamentError(f"{where}: malformed game line") from None
    if not fits:
        raise TournamentError(f"{where}: game line does not belong to this tournament")
    return deal, rotation


def results_file(path: Path, t: Tournament) -> ResultsFile[Key]:
    """``t``'s results file at ``path`` (``floe.lab.results``): its header and how its game lines are
    checked."""
    return ResultsFile(
        path, t.header(), lambda record, where: _check_record(t, record, where), "tournament", TournamentError
    )


def load_results(path: Path, t: Tournament) -> dict[Key, GameLine]:
    """The games already in ``path`` (the first line of each, should one be written twice); a half-written
    last line is left out. ``TournamentError`` if the header is not ``t``'s or a line is corrupt."""
    done: dict[Key, GameLine] = {}
    for key, record in results_file(path, t).games():
        done.setdefault(key, record)
    return done


@dataclass
class RunOutcome:
    """The games of the plan in (deal, rotation) order, and how many were played now or found on file."""

    results: list[GameResult]
    played: int
    resumed: int
    path: Path


def run_tournament(
    t: Tournament,
    deals: int,
    workers: int | Backend,
    path: Path,
    *,
    resume: bool = False,
    progress: bool = True,
) -> RunOutcome:
    """Play the games of the first ``deals`` deals that ``path`` does not hold yet, appending each as it
    finishes; ``workers`` is where they run (a number: that many local processes, see
    ``floe.lab.backends``). Returns every game of the plan."""
    if deals <= 0:
        raise OptionError("deals must be positive")
    backend = workers if isinstance(workers, Backend) else Backend(workers)
    file = results_file(path, t)
    done: dict[Key, GameLine] = {}
    file.start(resume, done.__setitem__)
    plan = t.plan(deals)
    todo = [key for key in plan if key not in done]
    console = Console(stderr=True)
    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
        disable=not progress,
    )
    with file.appending() as out, bar:
        task = bar.add_task("games", total=len(plan), completed=len(plan) - len(todo))

        def keep(record: GameLine) -> None:
            append(out, record)
            done[record["deal"], record["rotation"]] = record
            bar.advance(task)

        execute(_play_job, [(t, key) for key in todo], backend, keep)
    results = [result_of(done[key]) for key in plan]
    return RunOutcome(results, played=len(todo), resumed=len(plan) - len(todo), path=path)


# --- the command ------------------------------------------------------------------------------------------


def run_tournament_command(
    game_name: str,
    players: int,
    bots: str,
    games: int,
    seed: int,
    workers: int | Backend,
    options: Mapping[str, Any],
    *,
    as_json: bool = False,
    out: Path | None = None,
    resume: bool = False,
    plot: Path | None = None,
    command: str | None = None,
) -> TournamentStats:
    """The ``floe tournament`` command: play (or resume), then print the table or the JSON summary.

    ``workers``: where the games run (a number: that many local processes). ``command``: the command line
    (without ``--out``/``--resume``), for the resume hint a Ctrl-C prints."""
    if games <= 0:
        raise OptionError("--games must be positive")
    if isinstance(workers, int) and workers <= 0:
        raise OptionError("--workers must be positive")
    t = make_tournament(game_name, players, bots, seed, options)
    deals = deals_for(games, players)
    note = Console(stderr=True) if as_json else Console()
    if deals * players != games:
        Console(stderr=True).print(
            f"note: {games} games is not a whole number of deals; playing {deals * players} "
            f"({deals} deals × {players} seatings)",
            highlight=False,
        )
    if resume and out is None:
        raise OptionError("--resume continues the results file named by --out")
    try:
        # Without --out, a new file in the user's cache each run (resultsdir.py): never the current folder.
        path = out if out is not None else new_results_file("tournaments", t.default_name())
        outcome = run_tournament(t, deals, workers, path, resume=resume)
    except KeyboardInterrupt:
        # Every finished game is already in the file (written and flushed one by one): say where, and how
        # to go on from there.
        again = f"{command or 'floe tournament …'} --out {shlex.quote(str(path))} --resume"
        Console(stderr=True).print(
            f"interrupted: the games played so far are in {path}\nto continue: {again}",
            highlight=False,
            soft_wrap=True,
        )
        raise
    except OSError as exc:
        raise TournamentError(f"cannot use {exc.filename or path}: {exc.strerror or exc}") from None
    stats = summarize(outcome.results, order=t.bots)
    if as_json:
        print(json.dumps([b.to_dict() for b in stats.bots]))
    else:
        print_stats(stats, t, deals)
    where = f"{outcome.played} games played" + (f", {outcome.resumed} from before" if outcome.resumed else "")
    again = "" if out is not None else f"; to continue an interrupted run: --out {path} --resume"
    note.print(f"results: {path} ({where}{again})", highlight=False, soft_wrap=True)
    if plot is not None:
        from floe.lab.plots import plot_score_distributions

        title = f"{t.game}, {t.players} players: final score per seat-game ({len(outcome.results)} games)"
        try:
            plot_score_distributions({b.bot: b.scores for b in stats.bots}, plot, title)
        except OSError as exc:
            raise TournamentError(f"cannot write the plot {plot}: {exc.strerror or exc}") from None
        note.print(f"plot: {plot}", highlight=False, soft_wrap=True)
    return stats


def print_stats(stats: TournamentStats, t: Tournament, deals: int, console: Console | None = None) -> None:
    """The summary table and, with two bots or more, the head-to-head table."""
    console = console or Console()
    table = Table(
        title=f"{t.game}: {deals * t.players} games ({deals} deals × {t.players} seatings), duplicate format"
    )
    for column in ("bot", "seat-games", "wins", "win rate", "95% CI", "mean score", "mean rank", "Elo"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for b in stats.bots:
        low, high = b.ci95
        table.add_row(
            b.bot,
            str(b.games),
            str(b.wins),
            f"{b.win_rate:.1%}",
            f"{low:.1%}–{high:.1%}",
            f"{b.mean_score:.2f}",
            f"{b.mean_rank:.2f}",
            f"{b.elo:.0f}",
        )
    console.print(table)
    names = [b.bot for b in stats.bots]
    if len(names) < 2:
        return
    h2h = Table(title="head-to-head: times the row bot finished above the column bot")
    h2h.add_column("")
    for name in names:
        h2h.add_column(name, justify="right")
    for a in names:
        h2h.add_row(a, *("—" if a == b else str(stats.wins_over(a, b)) for b in names))
    console.print(h2h)

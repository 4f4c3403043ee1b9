"""The ``floe balance`` command: play (or resume, or read back) a balance run, then report it."""

from __future__ import annotations

import json
import platform
from collections.abc import Mapping
from importlib import metadata
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from floe.core.errors import OptionError
from floe.lab.backends import MAX_RUN_GAMES
from floe.lab.balance.analysis import Collected, collect, differences, figures, score_counts
from floe.lab.balance.plan import BalanceError, BalanceRun, make_run, play_run, read_run
from floe.lab.balance.statistics import ALPHA, CORRECTION
from floe.lab.balance.terminal import print_summary
from floe.lab.resultsdir import new_results_file
from floe.lab.tournament import deals_for
from floe.lab.where import Backend

SUMMARY_FORMAT = "floe-balance-summary/1"


def backend_for(workers: int | Backend) -> Backend:
    """Where the games run: a ``Backend`` as given (the CLI's ``--workers``/``--ray``/``--ray-address``), or
    that many local processes."""
    return workers if isinstance(workers, Backend) else Backend(workers)


def versions(run: BalanceRun) -> dict[str, str]:
    """The versions behind a report: Floe, the game's rules, Python, numpy and matplotlib."""

    def of(package: str) -> str:
        try:
            return metadata.version(package)
        except metadata.PackageNotFoundError:
            return "unknown"

    return {
        "floe": of("floe"),
        "game": run.version,
        "python": platform.python_version(),
        "numpy": of("numpy"),
        "matplotlib": of("matplotlib"),
    }


def _options_text(options: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in options.items()) or "default rules"


def summary(c: Collected, command: str, results: Path) -> dict[str, Any]:
    """The run's figures as one JSON document (what ``--json`` prints and the HTML report shows)."""
    run = c.run
    t = run.tournament
    names = ["base"] if run.compare is None else ["base", _options_text(run.compare)]
    variant_docs = [
        {
            "name": names[v],
            "options": run.variants[v],
            "figures": [f.to_dict() for f in figures(c, v)],
            "scores": {
                "all": score_counts(c.variants[v]),
                "winners": score_counts(c.variants[v], winners_only=True),
            },
        }
        for v in range(len(run.variants))
    ]
    diffs = [d.to_dict() for d in differences(c)]
    games = c.deals * run.per_deal
    doc: dict[str, Any] = {
        "format": SUMMARY_FORMAT,
        "title": (
            f"{t.game}, {t.players} players, bots {', '.join(t.bots)}: {games} games per variant "
            f"({c.deals} deals × {run.per_deal} distinct seatings), seed {t.seed}, {_options_text(t.options)}"
        ),
        "command": command,
        "played_by": run.command,
        "versions": versions(run),
        "game": t.game,
        "players": t.players,
        "bots": list(t.bots),
        "seed": t.seed,
        "options": dict(t.options),
        "compare": run.compare,
        "deals": c.deals,
        "games": games,
        "results": str(results),
        "correction": {"method": CORRECTION, "alpha": ALPHA},
        "correction_note": (
            f"* significant at family-wise α = {ALPHA} after {CORRECTION} correction over the tests of each "
            "variant (win rate against 1/N by the score test, mean score against the other seat-games by "
            "Welch's z)" + ("; the differences are corrected as a family of their own." if diffs else ".")
        ),
        "bots_note": (
            f"Balance is measured for these bots ({', '.join(dict.fromkeys(t.bots))}): a bot that never "
            "takes a choice of the rules cannot show what it is worth, and random play measures the rules, "
            "not the game as people play it."
        ),
        "variants": variant_docs,
    }
    if run.compare is not None:
        doc["compare_title"] = f"differences: {names[1]} less base (same seeds and seatings)"
        doc["differences"] = diffs
    return doc


def run_balance_command(
    game_name: str,
    players: int,
    bots: str,
    games: int,
    seed: int,
    workers: int | Backend,
    options: Mapping[str, Any],
    *,
    compare: Mapping[str, Any] | None = None,
    command: str = "",
    as_json: bool = False,
    out: Path | None = None,
    resume: bool = False,
    report: Path | None = None,
) -> dict[str, Any]:
    """Play (or resume) the run, then print the tables or the JSON document, and write the report."""
    if not 1 <= games <= MAX_RUN_GAMES:
        raise OptionError(f"--games must be 1 to {MAX_RUN_GAMES:,}, not {games:,}")
    backend = backend_for(workers)
    run = make_run(game_name, players, bots, seed, options, compare, command)
    deals = deals_for(games, run.per_deal)
    note = Console(stderr=True)
    if deals * run.per_deal != games:
        note.print(
            f"note: {games} games is not a whole number of deals; playing {deals * run.per_deal} "
            f"({deals} deals × {run.per_deal} distinct seatings)",
            highlight=False,
        )
    if resume and out is None:
        raise OptionError("--resume continues the results file named by --out")
    path = out
    try:
        path = out if out is not None else new_results_file("balance", run.default_name())
        bar = Progress(
            TextColumn("games"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=note,
            transient=True,
        )
        with bar:
            task = bar.add_task("games", total=len(run.plan(deals)))
            played = play_run(
                run,
                deals,
                backend,
                path,
                resume=resume,
                advance=lambda done, total: bar.update(task, completed=done),
            )
        collected = collect(path, run, deals)
    except OSError as exc:
        raise BalanceError(f"cannot use {exc.filename or path}: {exc.strerror or exc}") from None
    where = f"{played.played} games played" + (f", {played.resumed} from before" if played.resumed else "")
    again = "" if out is not None else f"; to continue an interrupted run: --out {path} --resume"
    return _report(collected, command, path, as_json, report, note, f"results: {path} ({where}{again})")


def report_from_file(
    path: Path, *, command: str = "", as_json: bool = False, report: Path | None = None
) -> dict[str, Any]:
    """``floe balance --from FILE``: report the whole deals of an existing results file, playing nothing."""
    note = Console(stderr=True)
    try:
        run = read_run(path)
        collected = collect(path, run)
    except OSError as exc:
        raise BalanceError(f"cannot read {exc.filename or path}: {exc.strerror or exc}") from None
    if collected.deals == 0:
        raise BalanceError(f"{path} holds no whole deal yet")
    return _report(collected, command, path, as_json, report, note, f"results: {path} (read back)")


def _report(
    c: Collected, command: str, path: Path, as_json: bool, report: Path | None, note: Console, where: str
) -> dict[str, Any]:
    doc = summary(c, command, path)
    if as_json:
        print(json.dumps(doc))
    else:
        print_summary(doc)
    note.print(where, highlight=False, soft_wrap=True)
    if report is not None:
        from floe.lab.balance.report import write_report

        try:
            write_report(doc, report)
        except OSError as exc:
            raise BalanceError(f"cannot write the report {report}: {exc.strerror or exc}") from None
        note.print(f"report: {report}", highlight=False, soft_wrap=True)
    return doc

"""The terminal summary of ``floe balance`` (Rich tables): seat facts, game facts, differences."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.table import Table

from floe.lab.balance.analysis import MEAN_SCORE, SHARE, WIN_RATE

Row = dict[str, Any]


def _rate(x: float | None) -> str:
    return "–" if x is None else f"{x:.1%}"


def _num(x: float | None) -> str:
    return "–" if x is None else f"{x:.2f}"


def _flag(row: Row) -> str:
    return "*" if row["significant"] else ""


def print_summary(summary: dict[str, Any], console: Console | None = None) -> None:
    """Print the summary document (``floe.lab.balance.command.summary``) as tables."""
    console = console or Console()
    console.print(f"[bold]{summary['title']}[/]", highlight=False)
    for variant in summary["variants"]:
        name = f" ({variant['name']})" if len(summary["variants"]) > 1 else ""
        _print_seat_table(variant["figures"], f"by seat fact{name}", console)
        _print_game_table(variant["figures"], f"per game{name}", console)
    if summary.get("differences"):
        _print_differences(summary["differences"], summary["compare_title"], console)
    console.print(summary["correction_note"], highlight=False, soft_wrap=True)
    console.print(summary["bots_note"], highlight=False, soft_wrap=True)


def _print_seat_table(rows: Sequence[Row], title: str, console: Console) -> None:
    table = Table(title=title)
    for column in ("fact", "group", "seat-games", "win rate", "95% CI", "", "mean score", "95% CI", ""):
        table.add_column(column, justify="left" if column in ("fact", "group") else "right")
    scores = {(r["fact"], r["group"]): r for r in rows if r["metric"] == MEAN_SCORE}
    last = None
    for r in rows:
        if r["metric"] != WIN_RATE:
            continue
        s = scores[r["fact"], r["group"]]
        table.add_row(
            r["label"] if r["label"] != last else "",
            r["group"],
            str(r["n"]),
            _rate(r["value"]),
            f"{_rate(r['ci95'][0])}–{_rate(r['ci95'][1])}",
            _flag(r),
            _num(s["value"]),
            f"{_num(s['ci95'][0])}–{_num(s['ci95'][1])}",
            _flag(s),
        )
        last = r["label"]
    console.print(table)


def _print_game_table(rows: Sequence[Row], title: str, console: Console) -> None:
    table = Table(title=title)
    for column in ("fact", "group", "games", "value", "95% CI"):
        table.add_column(column, justify="left" if column in ("fact", "group") else "right")
    last = None
    for r in rows:
        if r["metric"] in (WIN_RATE, MEAN_SCORE):
            continue
        show = _rate if r["metric"] == SHARE else _num
        table.add_row(
            r["label"] if r["label"] != last else "",
            r["group"],
            str(r["n"]),
            show(r["value"]),
            f"{show(r['ci95'][0])}–{show(r['ci95'][1])}",
        )
        last = r["label"]
    console.print(table)


def _print_differences(rows: Sequence[Row], title: str, console: Console) -> None:
    table = Table(title=title)
    for column in ("fact", "group", "metric", "base", "compared", "difference", "95% CI", "paired", ""):
        table.add_column(column, justify="left" if column in ("fact", "group", "metric") else "right")
    for r in rows:
        show = _rate if r["metric"] in (WIN_RATE, SHARE) else _num
        table.add_row(
            r["label"],
            r["group"],
            r["metric"],
            show(r["base"]),
            show(r["compared"]),
            show(r["difference"]),
            f"{show(r['ci95'][0])}–{show(r['ci95'][1])}",
            "yes" if r["paired"] else "no",
            _flag(r),
        )
    console.print(table)

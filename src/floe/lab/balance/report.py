"""The HTML report of ``floe balance``: one self-contained page (plots inlined as base64 PNG, no external
resource of any kind), with the exact command and the versions that produced it.

Plots are drawn with matplotlib's Agg canvas on a ``Figure`` (no ``pyplot``: no global backend, no window).
"""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from floe.lab.balance.analysis import MEAN_SCORE, SHARE, WIN_RATE

Row = dict[str, Any]

_STYLE = """
body { font-family: system-ui, sans-serif; max-width: 70em; margin: 2em auto; padding: 0 1em; color: #222; }
table { border-collapse: collapse; margin: 1em 0; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.6em; text-align: right; }
th:first-child, td:first-child, td.group { text-align: left; }
code, pre { background: #f4f4f4; padding: 0.1em 0.3em; }
pre { white-space: pre-wrap; padding: 0.6em; }
.note { background: #fff8e0; border-left: 4px solid #e0b000; padding: 0.5em 1em; }
img { max-width: 100%; }
"""


def _png(fig: Figure) -> str:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png")
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def _new_figure(width: float, height: float) -> Figure:
    fig = Figure(figsize=(width, height), dpi=100)
    FigureCanvasAgg(fig)
    return fig


def plot_win_rates(rows: Sequence[Row], title: str, fair: float) -> str:
    """Win rate per group with its 95% interval and the fair 1/N line, as a data URL."""
    rows = list(rows)
    fig = _new_figure(8.0, 1.2 + 0.32 * len(rows))
    ax = fig.add_subplot()
    ys = list(range(len(rows)))[::-1]
    values = [r["value"] for r in rows]
    lows = [r["value"] - r["ci95"][0] for r in rows]
    highs = [r["ci95"][1] - r["value"] for r in rows]
    colours = ["tab:red" if r["significant"] else "tab:blue" for r in rows]
    ax.errorbar(values, ys, xerr=[lows, highs], fmt="none", ecolor="0.4", capsize=3)
    ax.scatter(values, ys, c=colours, zorder=3)
    ax.axvline(fair, color="0.3", linestyle="--", linewidth=1, label=f"fair: 1/N = {fair:.1%}")
    ax.set_yticks(ys)
    ax.set_yticklabels([f"{r['group']} (n={r['n']})" for r in rows])
    ax.xaxis.set_major_formatter(lambda x, _: f"{x:.0%}")
    ax.set_xlabel("win rate, 95% interval (red: significant after correction)")
    ax.set_title(title)
    ax.grid(axis="x", alpha=0.3)
    ax.legend(loc="lower right", fontsize="small")
    fig.tight_layout()
    return _png(fig)


def plot_scores(scores: dict[str, dict[str, int]], title: str) -> str:
    """The distribution of final scores, all seat-games and the winners', as a data URL."""
    fig = _new_figure(8.0, 4.0)
    ax = fig.add_subplot()
    for name, colour in (("all", "tab:blue"), ("winners", "tab:orange")):
        counts = scores[name]
        total = sum(counts.values()) or 1
        xs = [float(k) for k in counts]
        ax.bar(
            xs,
            [v / total for v in counts.values()],
            width=0.9,
            alpha=0.55,
            color=colour,
            label=f"{name} ({total} seat-games)",
        )
    ax.yaxis.set_major_formatter(lambda y, _: f"{y:.0%}")
    ax.set_xlabel("final score")
    ax.set_ylabel("share of seat-games")
    ax.set_title(title)
    ax.legend(fontsize="small")
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    return _png(fig)


def plot_differences(rows: Sequence[Row], title: str) -> str:
    """Win-rate differences (compared less base) with their 95% intervals, as a data URL."""
    rows = list(rows)
    fig = _new_figure(8.0, 1.2 + 0.32 * len(rows))
    ax = fig.add_subplot()
    ys = list(range(len(rows)))[::-1]
    values = [r["difference"] for r in rows]
    lows = [r["difference"] - r["ci95"][0] for r in rows]
    highs = [r["ci95"][1] - r["difference"] for r in rows]
    ax.errorbar(values, ys, xerr=[lows, highs], fmt="o", color="tab:blue", ecolor="0.4", capsize=3)
    ax.axvline(0.0, color="0.3", linestyle="--", linewidth=1)
    ax.set_yticks(ys)
    ax.set_yticklabels([f"{r['label']}: {r['group']}" for r in rows])
    ax.xaxis.set_major_formatter(lambda x, _: f"{x:+.0%}")
    ax.set_xlabel("difference in win rate, 95% interval")
    ax.set_title(title)
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    return _png(fig)


def _e(x: Any) -> str:
    return html.escape(str(x))


def _fmt(x: float | None, rate: bool) -> str:
    if x is None:
        return "–"
    return f"{x:.1%}" if rate else f"{x:.2f}"


def _table(rows: Sequence[Row], rate_metrics: tuple[str, ...]) -> str:
    out = [
        "<table><tr><th>fact</th><th>group</th><th>measure</th><th>n</th><th>value</th>"
        "<th>95% interval</th><th>compared with</th><th>p</th><th>significant</th></tr>"
    ]
    for r in rows:
        rate = r["metric"] in rate_metrics
        out.append(
            f"<tr><td>{_e(r['label'])}</td><td class=group>{_e(r['group'])}</td><td>{_e(r['metric'])}</td>"
            f"<td>{r['n']}</td><td>{_fmt(r['value'], rate)}</td>"
            f"<td>{_fmt(r['ci95'][0], rate)} – {_fmt(r['ci95'][1], rate)}</td>"
            f"<td>{_fmt(r['reference'], rate)}</td><td>{'' if r['p'] is None else _e(r['p'])}</td>"
            f"<td>{'yes' if r['significant'] else ''}</td></tr>"
        )
    out.append("</table>")
    return "\n".join(out)


def _difference_table(rows: Sequence[Row]) -> str:
    out = [
        "<table><tr><th>fact</th><th>group</th><th>measure</th><th>base</th><th>compared</th>"
        "<th>difference</th><th>95% interval</th><th>paired</th><th>p</th><th>significant</th></tr>"
    ]
    for r in rows:
        rate = r["metric"] in (WIN_RATE, SHARE)
        out.append(
            f"<tr><td>{_e(r['label'])}</td><td class=group>{_e(r['group'])}</td><td>{_e(r['metric'])}</td>"
            f"<td>{_fmt(r['base'], rate)}</td><td>{_fmt(r['compared'], rate)}</td>"
            f"<td>{_fmt(r['difference'], rate)}</td>"
            f"<td>{_fmt(r['ci95'][0], rate)} – {_fmt(r['ci95'][1], rate)}</td>"
            f"<td>{'yes' if r['paired'] else 'no'}</td><td>{'' if r['p'] is None else _e(r['p'])}</td>"
            f"<td>{'yes' if r['significant'] else ''}</td></tr>"
        )
    out.append("</table>")
    return "\n".join(out)


def render_report(doc: dict[str, Any]) -> str:
    """The report page for summary document ``doc`` (``floe.lab.balance.command.summary``)."""
    fair = 1.0 / doc["players"]
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>Balance: {_e(doc['title'])}</title><style>{_STYLE}</style></head><body>",
        f"<h1>Balance report</h1><p>{_e(doc['title'])}</p>",
        f"<p class=note>{_e(doc['bots_note'])}</p>",
        f"<h2>How it was made</h2><pre>{_e(doc['command'])}</pre>",
        (
            f"<p>The games were played by:</p><pre>{_e(doc['played_by'])}</pre>"
            if doc.get("played_by") and doc["played_by"] != doc["command"]
            else ""
        ),
        "<p>Versions: " + ", ".join(f"{_e(k)} {_e(v)}" for k, v in doc["versions"].items()) + "</p>",
        f"<p>{_e(doc['correction_note'])} Intervals: Wilson for rates, "
        "normal (mean ± 1.96 s/√n) for means.</p>",
    ]
    for variant in doc["variants"]:
        rows = variant["figures"]
        heading = f" — {variant['name']}" if len(doc["variants"]) > 1 else ""
        parts.append(f"<h2>Win rate by seat fact{_e(heading)}</h2>")
        facts = list(dict.fromkeys(r["fact"] for r in rows if r["metric"] == WIN_RATE))
        for fact in facts:
            group = [r for r in rows if r["fact"] == fact and r["metric"] == WIN_RATE]
            title = f"win rate by {group[0]['label']} ({doc['players']} players)"
            parts.append(f'<img alt="{_e(title)}" src="{plot_win_rates(group, title, fair)}">')
        title = f"final scores, {doc['players']} players"
        parts.append(f"<h2>Score distribution{_e(heading)}</h2>")
        parts.append(f'<img alt="{_e(title)}" src="{plot_scores(variant["scores"], title)}">')
        parts.append(f"<h2>Every figure{_e(heading)}</h2>")
        parts.append(_table([r for r in rows if r["metric"] in (WIN_RATE, MEAN_SCORE)], (WIN_RATE,)))
        parts.append(_table([r for r in rows if r["metric"] not in (WIN_RATE, MEAN_SCORE)], (SHARE,)))
    if doc.get("differences"):
        rows = doc["differences"]
        parts.append(f"<h2>{_e(doc['compare_title'])}</h2>")
        wins = [r for r in rows if r["metric"] == WIN_RATE]
        if wins:
            title = "win rate: compared less base"
            parts.append(f'<img alt="{_e(title)}" src="{plot_differences(wins, title)}">')
        parts.append(_difference_table(rows))
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def write_report(doc: dict[str, Any], path: Path) -> Path:
    """Write the report page of ``doc`` to ``path`` (its folder made); ``OSError`` if it cannot be."""
    text = render_report(doc)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path

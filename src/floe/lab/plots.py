"""Charts of a tournament, drawn with matplotlib's Agg renderer straight to a PNG file.

The figure is built with ``matplotlib.figure.Figure`` and an Agg canvas rather than ``pyplot``, so no
global backend is chosen, no window can open and nothing leaks between calls.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure


def plot_score_distributions(scores: Mapping[str, Sequence[int]], path: Path, title: str) -> Path:
    """Write a box plot of each bot's final scores (one point per seat-game, mean marked) to ``path``,
    creating its folder if need be; ``OSError`` if it cannot be written."""
    names = list(scores)
    data = [list(scores[name]) for name in names]
    width = max(6.0, 1.6 * len(names) + 2.0)
    fig = Figure(figsize=(width, 5.0), dpi=100)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    positions = list(range(1, len(names) + 1))
    ax.boxplot(data, positions=positions, showmeans=True, showfliers=False, widths=0.5)  # points drawn below
    # The individual scores, spread sideways by a fixed pattern (not random) so the same run draws the
    # same picture; they show how many seat-games stand behind each box.
    for pos, values in zip(positions, data, strict=True):
        offsets = [((k * 37) % 21 - 10) / 60 for k in range(len(values))]
        ax.scatter([pos + o for o in offsets], values, s=8, alpha=0.35, color="tab:blue", zorder=3)
    ax.set_xticks(positions)
    ax.set_xticklabels([f"{name}\n(n={len(values)})" for name, values in zip(names, data, strict=True)])
    ax.set_xlabel("bot")
    ax.set_ylabel("final score")
    ax.set_title(title)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, format="png")
    return path

"""From the results file to the figures: collect every game's facts into arrays, then compute each figure.

The collector reads the results file as a stream and puts each game at its place in the plan (game
g = deal × seatings + the rotation's index, seat-game g × N + seat), so the figures depend only on which
games were played, never on the order the workers finished them in (a resumed run prints exactly what
an uninterrupted one does). Per seat-game it keeps the win (rank 1) and the score; per seat fact, the
seat-games in each group (a compact array of positions); per game fact, one number per game (NaN: does
not apply) or one category code per game (-1: does not apply).

Seat facts every game has: ``seat`` (P1, P2…, the place at the table) and, when the lineup mixes bots,
``bot``. Game facts every game has: ``decisions`` (the game's length in player decisions).
"""

from __future__ import annotations

import math
from array import array
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from floe.core.balance import BalanceSpec
from floe.lab.balance.plan import BalanceRun, balance_spec, results_file
from floe.lab.balance.statistics import (
    difference,
    holm,
    mean_interval,
    proportion_p,
    welch_p,
    wilson_interval,
)
from floe.lab.results import Line

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]

GENERIC_LABELS = {"seat": "seat at the table", "bot": "bot", "decisions": "decisions per game (game length)"}
WIN_RATE, MEAN_SCORE, SHARE, MEAN = "win rate", "mean score", "share of games", "mean per game"


def _order(value: str) -> tuple[int, float, str]:
    """Groups in natural order: numbers by value, then words alphabetically."""
    try:
        return 0, float(value), value
    except ValueError:
        return 1, 0.0, value


def _word(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


@dataclass
class VariantData:
    """One variant's games as arrays (see the module docstring)."""

    players: int
    games: int
    filled: npt.NDArray[np.bool_]
    win: Floats
    score: Floats
    seat_groups: dict[str, dict[str, array[int]]] = field(default_factory=dict)
    numbers: dict[str, Floats] = field(default_factory=dict)
    categories: dict[str, tuple[list[str], Ints]] = field(default_factory=dict)

    @classmethod
    def empty(cls, players: int, games: int) -> VariantData:
        units = games * players
        return cls(players, games, np.zeros(games, bool), np.zeros(units), np.zeros(units))

    def add(self, g: int, line: Line, mixed_bots: bool) -> None:
        """Put game line ``line`` at game position ``g``."""
        n = self.players
        self.filled[g] = True
        winner = line["ranking"][0]
        facts = line["facts"]
        for seat in range(n):
            unit = g * n + seat
            self.win[unit] = seat == winner
            self.score[unit] = float(line["scores"][seat])
            seat_facts: dict[str, Any] = {"seat": f"P{seat + 1}"}
            if mixed_bots:
                seat_facts["bot"] = line["seats"][seat]
            seat_facts.update(facts["seats"][seat])
            for key, value in seat_facts.items():
                groups = self.seat_groups.setdefault(key, {})
                for v in value if isinstance(value, list) else [value]:
                    groups.setdefault(_word(v), array("q")).append(unit)
        for key, value in {"decisions": line["decisions"], **facts["game"]}.items():
            if value is None:
                continue
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                if key not in self.numbers:
                    self.numbers[key] = np.full(self.games, np.nan)
                self.numbers[key][g] = float(value)
            else:
                names, codes = self.categories.setdefault(key, ([], np.full(self.games, -1, np.int64)))
                word = _word(value)
                if word not in names:
                    names.append(word)
                codes[g] = names.index(word)

    def members(self, key: str, group: str) -> Ints:
        """The seat-game positions of ``group`` of seat fact ``key``, ascending."""
        found = self.seat_groups.get(key, {}).get(group)
        return np.sort(np.frombuffer(found, dtype=np.int64)) if found is not None else np.zeros(0, np.int64)


@dataclass
class Collected:
    """Every variant's data, how many whole deals they hold, and the game's balance spec."""

    run: BalanceRun
    deals: int
    variants: list[VariantData]
    spec: BalanceSpec | None

    def label(self, key: str) -> str:
        """The name people see for fact ``key``."""
        if key in GENERIC_LABELS:
            return GENERIC_LABELS[key]
        return self.spec.label(key) if self.spec else key


def collect(path: Path, run: BalanceRun, deals: int | None = None) -> Collected:
    """Read ``path``'s games of ``run`` into arrays: the first ``deals`` deals, or (None) every deal that
    is whole in every variant (an interrupted run's file is analysed up to its last whole deal)."""
    file = results_file(path, run)  # read as a stream, twice when the whole deals are to be found first
    t = run.tournament
    n = t.players
    if deals is None:
        seen = {key for key, _ in file.games()}
        deals = 0
        while all((v, deals, r) in seen for v in range(len(run.variants)) for r in run.rotations):
            deals += 1
    games = deals * run.per_deal
    variants = [VariantData.empty(n, games) for _ in run.variants]
    mixed = len(set(t.bots)) > 1
    for (v, deal, rotation), record in file.games():
        g = run.position(deal, rotation)
        if deal < deals and not variants[v].filled[g]:
            variants[v].add(g, record, mixed)
    return Collected(run, deals, variants, balance_spec(t.game))


# --- figures ---------------------------------------------------------------------------------------------


@dataclass
class Figure:
    """One figure: a group's win rate, mean score, share of games or mean, with its interval and test."""

    key: str
    label: str
    group: str
    metric: str
    n: int
    value: float
    low: float
    high: float
    reference: float | None = None  # what the test compares against (1/N, the other seat-games' mean)
    p: float | None = None
    significant: bool = False

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready (rounded so that equal runs print equal text; NaN as null)."""
        return {
            "fact": self.key,
            "label": self.label,
            "group": self.group,
            "metric": self.metric,
            "n": self.n,
            "value": _round(self.value),
            "ci95": [_round(self.low), _round(self.high)],
            "reference": None if self.reference is None else _round(self.reference),
            "p": None if self.p is None else float(f"{self.p:.4g}"),
            "significant": self.significant,
        }


def _round(x: float, digits: int = 5) -> float | None:
    return None if math.isnan(x) else round(x, digits)


def _seat_figures(c: Collected, data: VariantData) -> list[Figure]:
    out: list[Figure] = []
    fair = 1.0 / data.players
    everyone = np.zeros(len(data.score), bool)
    for key, groups in data.seat_groups.items():
        label = c.label(key)
        for group in sorted(groups, key=_order):
            idx = data.members(key, group)
            n = len(idx)
            wins = int(data.win[idx].sum())
            low, high = wilson_interval(wins, n)
            out.append(
                Figure(key, label, group, WIN_RATE, n, wins / n, low, high, fair, proportion_p(wins, n, fair))
            )
            scores = data.score[idx]
            others = everyone.copy()
            others[idx] = True
            rest = data.score[~others]
            mean, low, high = mean_interval(scores)
            reference = float(rest.mean()) if len(rest) else None
            out.append(
                Figure(key, label, group, MEAN_SCORE, n, mean, low, high, reference, welch_p(scores, rest))
            )
    return out


def _game_figures(c: Collected, data: VariantData) -> list[Figure]:
    out: list[Figure] = []
    for key, (names, codes) in data.categories.items():
        present = codes[codes >= 0]
        for code, name in sorted(enumerate(names), key=lambda item: _order(item[1])):
            k = int((present == code).sum())
            low, high = wilson_interval(k, len(present))
            out.append(Figure(key, c.label(key), name, SHARE, len(present), k / len(present), low, high))
    for key, values in data.numbers.items():
        real = values[~np.isnan(values)]
        mean, low, high = mean_interval(real)
        out.append(Figure(key, c.label(key), "all games", MEAN, len(real), mean, low, high))
    return out


def figures(c: Collected, variant: int = 0) -> list[Figure]:
    """Every figure of ``variant``, the tested ones flagged by Holm–Bonferroni over the variant's tests."""
    data = c.variants[variant]
    out = _seat_figures(c, data) + _game_figures(c, data)
    for figure, significant in zip(out, holm([f.p for f in out]), strict=True):
        figure.significant = significant
    return out


@dataclass
class Difference:
    """One figure under the compared option less the same figure under the base options."""

    key: str
    label: str
    group: str
    metric: str
    base: float
    other: float
    n_base: int
    n_other: int
    diff: float
    low: float
    high: float
    paired: bool
    p: float | None
    significant: bool = False

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready (rounded; NaN as null)."""
        return {
            "fact": self.key,
            "label": self.label,
            "group": self.group,
            "metric": self.metric,
            "base": _round(self.base),
            "compared": _round(self.other),
            "n_base": self.n_base,
            "n_compared": self.n_other,
            "difference": _round(self.diff),
            "ci95": [_round(self.low), _round(self.high)],
            "paired": self.paired,
            "p": None if self.p is None else float(f"{self.p:.4g}"),
            "significant": self.significant,
        }


def _unit_values(data: VariantData, f: Figure) -> tuple[Ints, Floats]:
    """The units (seat-games or games) behind figure ``f`` in ``data`` and each one's value."""
    if f.metric in (WIN_RATE, MEAN_SCORE):
        idx = data.members(f.key, f.group)
        return idx, (data.win if f.metric == WIN_RATE else data.score)[idx]
    if f.metric == SHARE:
        names, codes = data.categories.get(f.key, ([], np.full(data.games, -1, np.int64)))
        idx = np.flatnonzero(codes >= 0)
        code = names.index(f.group) if f.group in names else -2
        return idx, (codes[idx] == code).astype(float)
    values = data.numbers.get(f.key, np.full(data.games, np.nan))
    idx = np.flatnonzero(~np.isnan(values))
    return idx, values[idx]


def differences(c: Collected) -> list[Difference]:
    """Each figure of the compared variant less the base's (the same units: paired), Holm-corrected."""
    if len(c.variants) < 2:
        return []
    base, other = c.variants
    keys = {(f.key, f.group, f.metric) for f in figures(c, 1)}
    out: list[Difference] = []
    for f in figures(c, 0):
        if (f.key, f.group, f.metric) not in keys:
            continue
        idx_a, a = _unit_values(base, f)
        idx_b, b = _unit_values(other, f)
        paired = bool(np.array_equal(idx_a, idx_b))
        diff, low, high, p = difference(a, b, paired)
        mean_b = float(b.mean()) if len(b) else math.nan
        out.append(
            Difference(
                f.key, f.label, f.group, f.metric, f.value, mean_b, len(a), len(b), diff, low, high, paired, p
            )
        )
    for d, significant in zip(out, holm([d.p for d in out]), strict=True):
        d.significant = significant
    return out


def score_counts(data: VariantData, winners_only: bool = False) -> dict[str, int]:
    """How many seat-games ended on each final score (only the winners' with ``winners_only``)."""
    scores = data.score[data.win == 1] if winners_only else data.score
    values, counts = np.unique(scores, return_counts=True)
    return {
        _word(int(v) if float(v).is_integer() else float(v)): int(k)
        for v, k in zip(values, counts, strict=True)
    }

"""Tournament statistics: per-bot win rates with Wilson intervals, mean score and rank, Elo and head-to-head.

Elo is fitted by maximum likelihood over every pairwise outcome of the run (Bradley–Terry, on the Elo
scale of 400/ln 10), so it does not depend on the order the games were played in, unlike the online
K-factor update. A game of n seats gives n(n−1)/2 outcomes: for each pair of seats the better-ranked one
wins. Pairs of seats held by the same bot spec say nothing about its strength and are skipped.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from floe.lab.runner import GameResult

Z95 = 1.959963984540054  # two-sided 95% quantile of the standard normal
ELO_MEAN = 1500.0
ELO_SCALE = 400.0 / math.log(10.0)


def wilson_interval(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for ``wins`` successes in ``n`` trials; (0, 1) when ``n`` is 0.

    Unlike the normal approximation it stays inside [0, 1] and is sensible at 0 or ``n`` wins, which a
    short tournament between unequal bots produces all the time.
    """
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def pairwise_wins(results: Iterable[GameResult]) -> dict[tuple[str, str], int]:
    """(A, B) → how many times a seat played by A finished above a seat played by B in the same game."""
    wins: dict[tuple[str, str], int] = {}
    for result in results:
        order = [result.bots[seat] for seat in result.ranking]
        for i, winner in enumerate(order):
            for loser in order[i + 1 :]:
                if winner != loser:
                    wins[winner, loser] = wins.get((winner, loser), 0) + 1
    return wins


def fit_elo(
    wins: Mapping[tuple[str, str], float],
    bots: Sequence[str],
    *,
    prior: float = 1.0,
    max_iterations: int = 10_000,
    tolerance: float = 1e-10,
) -> dict[str, float]:
    """Maximum-likelihood Bradley–Terry ratings on the Elo scale, their mean anchored at 1500.

    ``wins[A, B]`` is how often A beat B. ``prior`` adds that many virtual draws to every pair that met
    (half a win each way, as BayesElo does): without it a bot that won every game would have an infinite
    rating. ``prior=0`` gives the plain maximum-likelihood estimate. The fit is Hunter's (2004) MM update
    γ_i ← W_i / Σ_j n_ij / (γ_i + γ_j), run until no strength changes by more than ``tolerance``
    (relative) or ``max_iterations`` is reached; rating_i = 1500 + 400·log10(γ_i / geometric mean of γ).
    """
    names = list(dict.fromkeys([*bots, *(name for pair in wins for name in pair)]))
    index = {name: i for i, name in enumerate(names)}
    n = len(names)
    w = [[0.0] * n for _ in range(n)]  # w[i][j]: wins of i over j, prior included
    for (a, b), count in wins.items():
        if a != b and count:
            w[index[a]][index[b]] += float(count)
    for i in range(n):
        for j in range(i + 1, n):
            if w[i][j] + w[j][i] > 0:
                w[i][j] += prior / 2
                w[j][i] += prior / 2
    total_wins = [sum(row) for row in w]
    games = [[w[i][j] + w[j][i] for j in range(n)] for i in range(n)]
    gamma = [1.0] * n
    for _ in range(max_iterations):
        new = []
        for i in range(n):
            denom = sum(games[i][j] / (gamma[i] + gamma[j]) for j in range(n) if j != i and games[i][j])
            # A bot that never played keeps its strength; one that never won would go to 0 (−∞ Elo),
            # so keep it tiny but positive for the logarithm (only possible with prior=0).
            new.append(gamma[i] if denom == 0 else max(total_wins[i] / denom, 1e-300))
        # Normalising to a geometric mean of 1 each round keeps the numbers in range and fixes the anchor.
        log_mean = sum(math.log(g) for g in new) / n if n else 0.0
        new = [g / math.exp(log_mean) for g in new]
        change = max((abs(a - b) / b for a, b in zip(new, gamma, strict=True)), default=0.0)
        gamma = new
        if change < tolerance:
            break
    return {name: ELO_MEAN + ELO_SCALE * math.log(gamma[index[name]]) for name in names}


def elo_expected(rating_a: float, rating_b: float) -> float:
    """The probability that a bot rated ``rating_a`` beats one rated ``rating_b``."""
    return 1.0 / (1.0 + math.pow(10.0, (rating_b - rating_a) / 400.0))


@dataclass
class BotStats:
    """What one bot spec achieved over all the seats it held."""

    bot: str
    games: int = 0
    wins: int = 0
    scores: list[int] = field(default_factory=list)
    ranks: list[int] = field(default_factory=list)
    elo: float = ELO_MEAN

    def add(self, score: int, rank: int) -> None:
        """Count one seat-game."""
        self.games += 1
        self.wins += rank == 1
        self.scores.append(score)
        self.ranks.append(rank)

    @property
    def win_rate(self) -> float:
        """Share of seat-games won (rank 1)."""
        return self.wins / self.games if self.games else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        """95% Wilson interval of the win rate."""
        return wilson_interval(self.wins, self.games)

    @property
    def mean_score(self) -> float:
        """Mean final score per seat-game."""
        return sum(self.scores) / self.games if self.games else 0.0

    @property
    def mean_rank(self) -> float:
        """Mean finishing place per seat-game (1 is best)."""
        return sum(self.ranks) / self.games if self.games else 0.0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready summary (rounded so that equal runs print equal text). The counts are of seat-games,
        and named so as ``floe simulate --json`` names them: a bot that holds two seats of a game plays two
        seat-games of it."""
        low, high = self.ci95
        return {
            "bot": self.bot,
            "seat_games": self.games,
            "seat_games_won": self.wins,
            "win_rate": round(self.win_rate, 4),
            "ci95": [round(low, 4), round(high, 4)],
            "mean_score": round(self.mean_score, 3),
            "mean_rank": round(self.mean_rank, 3),
            "elo": round(self.elo, 1),
        }


@dataclass
class TournamentStats:
    """The summary of a run: one ``BotStats`` per distinct spec and the head-to-head wins."""

    bots: list[BotStats]
    head_to_head: dict[tuple[str, str], int]

    def wins_over(self, a: str, b: str) -> int:
        """How many times A finished above B in a game they both played."""
        return self.head_to_head.get((a, b), 0)


def summarize(results: Sequence[GameResult], order: Sequence[str] = ()) -> TournamentStats:
    """Per-bot statistics of ``results``; bots listed in ``order`` first, then as they appear.

    Feed the results in a fixed order (the tournament sorts by deal and rotation) so that floating-point
    sums, and hence the printed numbers, do not depend on which worker finished first.
    """
    names = list(dict.fromkeys([*order, *(spec for r in results for spec in r.bots)]))
    stats = {name: BotStats(name) for name in names}
    for result in results:
        for seat, spec in enumerate(result.bots):
            stats[spec].add(result.scores[seat], result.rank_of(seat))
    head = pairwise_wins(results)
    for name, rating in fit_elo(head, names).items():
        stats[name].elo = rating
    return TournamentStats([stats[name] for name in names], head)

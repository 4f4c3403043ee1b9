"""Checks of a game's spec sheet and of its results at the end."""

from __future__ import annotations

import itertools
import math

from floe.core.entry import GameEntry
from floe.core.errors import IllegalActionError
from floe.core.game import GameSpec, State
from floe.testing.context import Where
from floe.testing.positions import check_json


def check_spec(found: GameEntry, spec: GameSpec, players: int, where: Where) -> None:
    """The spec sheet agrees with the game class and is self-consistent."""
    facts = [
        (spec.players == players, f"spec.players is {spec.players}"),
        ((spec.min_players, spec.max_players) == (found.min_players, found.max_players), "the player range"),
        (spec.information == found.information, f"spec.information is {spec.information!r}"),
        (spec.information in ("perfect", "imperfect"), f"information {spec.information!r}"),
        (0 < spec.player_actions <= spec.num_distinct_actions, "player_actions vs num_distinct_actions"),
        (spec.min_utility <= spec.max_utility, "min_utility > max_utility"),
        (spec.observation_size > 0 and spec.max_game_length > 0, "observation_size or max_game_length"),
    ]
    for ok, what in facts:
        where.expect(ok, "spec", what)


def check_results(state: State, where: Where, spec: GameSpec) -> None:
    """Scores, ranking and returns at the end; nothing more may be applied."""
    n = spec.players
    with where.checking("results"):
        scores, ranking, returns = state.scores(), state.ranking(), state.returns()
        breakdowns = state.score_breakdowns()
    where.expect(len(scores) == n, "scores", f"{len(scores)} scores for {n} seats")
    where.expect(sorted(ranking) == list(range(n)), "ranking", f"{ranking} is not an order of the seats")
    where.expect(len(breakdowns) == n, "score_breakdowns", f"{len(breakdowns)} for {n} seats")
    check_json(breakdowns, where, "score_breakdowns")
    where.expect(len(returns) == n, "returns", f"{len(returns)} returns for {n} seats")
    for r in returns:
        where.expect(
            math.isfinite(r) and spec.min_utility <= r <= spec.max_utility,
            "returns",
            f"{returns} outside spec.min_utility..max_utility = {spec.min_utility}..{spec.max_utility}",
        )
    ordered = [returns[q] for q in ranking]
    where.expect(
        all(a >= b - 1e-9 for a, b in itertools.pairwise(ordered)),
        "returns",
        f"a better-ranked seat gets less: ranking {ranking}, returns {returns}",
    )
    where.expect(
        len(state.history) <= spec.max_game_length,
        "max_game_length",
        f"{len(state.history)} actions, more than spec.max_game_length = {spec.max_game_length}",
    )
    before = state.to_json()
    try:
        state.apply(0)
    except IllegalActionError:
        pass
    else:
        raise where.failure("illegal apply", "an action was accepted after the end of the game")
    after = state.to_json()
    where.same(before, after, "illegal apply", "a refused action changed the final state")

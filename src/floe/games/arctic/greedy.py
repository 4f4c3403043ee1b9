"""The ``greedy`` bot: one-step look-ahead with the hand-written Arctic evaluation.

For each legal action it samples a few worlds consistent with its observation, applies the action in each,
lets chance resolve (cards drawn, refills), and scores the result with ``evaluation.values``: runs, totem
position, hand and penalties. It takes the action with the best mean, ties broken at random. It sees only
its observation: the worlds come from ``game.determinize``.

Parameter: ``worlds`` (default 4, up to 1,000), the number of sampled worlds per decision. With a
``time_cap`` (``Bot.time_cap``) the bot stops sampling when the time is up and judges by the worlds it has
(at least one).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any, cast

from floe.bots.base import Bot
from floe.bots.params import read_params, whole_option
from floe.bots.searching import deadline
from floe.core.game import CHANCE, Game, State
from floe.core.options import OptionSchema
from floe.games.arctic.evaluation import values
from floe.games.arctic.state import ArcticStateData

MAX_WORLDS = 1000
# One world's share of a decision, an upper estimate (measured: ~0.2 ms a world, ~1.5 ms at worst with the
# most legal actions; docs/server.md, "Bot lanes").
SECONDS_PER_WORLD = 0.003

PARAMETERS = OptionSchema((whole_option("worlds", 4, "worlds sampled per decision", 1, MAX_WORLDS),))


class GreedyBot(Bot):
    """Best immediate evaluation, averaged over a few sampled worlds."""

    name = "greedy"

    def __init__(self, game: Game, seat: int, seed: int, **params: str) -> None:
        super().__init__(game, seat, seed)
        self.worlds: int = read_params("greedy", PARAMETERS, params, game.players)["worlds"]

    @classmethod
    def parameters(cls, game: type[Game]) -> OptionSchema:
        return PARAMETERS

    @classmethod
    def cost(cls, params: Mapping[str, str]) -> float | None:
        try:
            return int(params.get("worlds", "4")) * SECONDS_PER_WORLD
        except ValueError:
            return None

    def choose(self, observation: Any, legal_actions: list[int]) -> int:
        if len(legal_actions) == 1:
            return legal_actions[0]
        stop = deadline(None, self.time_cap)
        # All worlds are drawn first, then judged: the generator's draws (and so a seeded game) stay as
        # they were before the time cap.
        worlds = [self.game.determinize(observation, self.rng) for _ in range(self.worlds)]
        totals = dict.fromkeys(legal_actions, 0.0)
        for k, world in enumerate(worlds):
            if k and time.perf_counter() >= stop:
                break  # out of time: the worlds judged so far decide (every action was judged in each)
            for action in legal_actions:
                state = world.clone()
                state.apply_unchecked(action)
                _resolve_chance(state, self.rng)
                if state.is_terminal():
                    totals[action] += _final(state, self.seat)
                else:
                    totals[action] += values(cast(ArcticStateData, state))[self.seat]
        best = max(totals.values())
        choices = [a for a in legal_actions if totals[a] >= best - 1e-9]
        return choices[self.rng.randrange(len(choices))] if len(choices) > 1 else choices[0]


def _resolve_chance(state: State, rng: Any) -> None:
    while state.current_player() == CHANCE:
        state.apply_unchecked(state.sample_chance(rng))


def _final(state: State, seat: int) -> float:
    order = state.ranking()
    return (len(order) - 1 - order.index(seat)) / (len(order) - 1)

"""The ``greedy`` bot: one-step look-ahead with the hand-written Arche evaluation.

For each legal action it samples a few worlds consistent with its observation, applies the action in each,
lets chance resolve (cards drawn, the display refilled), settles the small follow-up choices of its own
turn the same greedy way (the display card a new cabin takes, the Chimpanzee's chip, a figure's scoring
card, and after a first card the turn's second card or ``done``), and scores the result with
``evaluation.values``: majorities likely won, chips, hand. It takes the action with the best mean, ties
broken at random. It sees only its observation: the worlds come from ``game.determinize``.

Parameter: ``worlds`` (default 3), the number of sampled worlds per decision.
"""

from __future__ import annotations

import random
from typing import Any, cast

from floe.bots.base import Bot
from floe.bots.params import read_params, whole_option
from floe.core.game import CHANCE, Game, State
from floe.core.options import OptionSchema
from floe.games.arche.evaluation import values
from floe.games.arche.state import J_CHIMP, J_FIGURE, J_TAKE, SECOND, ArcheStateData

# The most worlds one decision may sample (each costs a look-ahead over every legal action).
MAX_WORLDS = 100
# Follow-up decisions of the same seat that are settled greedily inside the look-ahead.
_FOLLOW_UPS = frozenset((J_TAKE, J_CHIMP, J_FIGURE))

PARAMETERS = OptionSchema((whole_option("worlds", 3, "worlds sampled per decision", 1, MAX_WORLDS),))


class GreedyBot(Bot):
    """Best immediate evaluation, averaged over a few sampled worlds."""

    name = "greedy"

    def __init__(self, game: Game, seat: int, seed: int, **params: str) -> None:
        super().__init__(game, seat, seed)
        self.worlds: int = read_params("greedy", PARAMETERS, params, game.players)["worlds"]

    @classmethod
    def parameters(cls, game: type[Game]) -> OptionSchema:
        return PARAMETERS

    def choose(self, observation: Any, legal_actions: list[int]) -> int:
        if len(legal_actions) == 1:
            return legal_actions[0]
        worlds = [self.game.determinize(observation, self.rng) for _ in range(self.worlds)]
        totals = dict.fromkeys(legal_actions, 0.0)
        for world in worlds:
            for action in legal_actions:
                totals[action] += self.value_after(world, action)
        best = max(totals.values())
        choices = [a for a in legal_actions if totals[a] >= best - 1e-9]
        return choices[self.rng.randrange(len(choices))] if len(choices) > 1 else choices[0]

    def value_after(self, world: State, action: int, follow: int = 2) -> float:
        """The evaluation for this seat after ``action`` in ``world`` (which is not changed)."""
        state = world.clone()
        state.apply_unchecked(action)
        _resolve_chance(state, self.rng)
        if state.is_terminal():
            return _final(state, self.seat)
        st = cast(ArcheStateData, state)
        # The same seat decides again: a follow-up of this card, or the turn's second card (or ``done``).
        # Judging a first card by the best second one lets the bot see the turn's two figures together.
        again = (st.pending[0][0] in _FOLLOW_UPS) if st.pending else st.phase == SECOND
        if follow and st.to_act == self.seat and again:
            return max(self.value_after(state, a, follow - 1) for a in state.legal_actions())
        return values(st)[self.seat]


def _resolve_chance(state: State, rng: random.Random) -> None:
    while state.current_player() == CHANCE:
        state.apply_unchecked(state.sample_chance(rng))


def _final(state: State, seat: int) -> float:
    returns = state.returns()
    return (returns[seat] + 1.0) / 2.0

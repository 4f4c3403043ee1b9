"""Arktia's ``greedy`` bot: one-step look-ahead with the hand-written evaluation (``evaluation``).

Arktia has perfect information, so the bot rebuilds the exact position from its observation
(``game.determinize``, which for Arktia ignores the generator) and tries every legal action on a copy.
When the action leaves the same seat with a follow-up decision of the same turn (choosing which tied
group survives, melting a field), the best follow-up counts. The position after the turn is scored with
``evaluation.values_with_mobility`` (a finished game by its result); the bot takes the action with the
best value for its seat, ties broken at random.

No parameters.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from floe.bots.base import Bot
from floe.core.game import State
from floe.games.arktia.evaluation import values_with_mobility
from floe.games.arktia.state import TURN, ArktiaStateData

# At most this many follow-up decisions of the same turn are searched (keep choices, then a melt).
_FOLLOW_UP_DEPTH = 3


def final_values(state: State) -> list[float]:
    """A finished game's result per seat in [0, 1] (shared places share their value)."""
    return [(r + 1.0) / 2.0 for r in state.returns()]


class ArktiaGreedyBot(Bot):
    """Best evaluation after its own turn (one step, follow-up decisions of the turn included)."""

    name = "greedy"

    @classmethod
    def cost(cls, params: Mapping[str, str]) -> float | None:
        # Measured: ~4 ms a decision on the default boards, ~90 ms at worst (a hundred actions, each with its
        # follow-ups); docs/server.md, "Bot lanes".
        return 0.02

    def choose(self, observation: Any, legal_actions: list[int]) -> int:
        if len(legal_actions) == 1:
            return legal_actions[0]
        root = self.game.determinize(observation, self.rng)
        scored = [(self._value(root, a, _FOLLOW_UP_DEPTH), a) for a in legal_actions]
        best = max(v for v, _ in scored)
        choices = [a for v, a in scored if v >= best - 1e-9]
        return choices[self.rng.randrange(len(choices))] if len(choices) > 1 else choices[0]

    def _value(self, state: State, action: int, depth: int) -> float:
        after = state.clone()
        after.apply_unchecked(action)
        if after.is_terminal():
            return final_values(after)[self.seat]
        data = cast(ArktiaStateData, after)
        if depth > 0 and after.current_player() == self.seat and data.step != TURN:
            return max(self._value(after, a, depth - 1) for a in after.legal_actions())
        return values_with_mobility(data)[self.seat]

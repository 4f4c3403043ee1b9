"""What the generic search bots may ask of a game: its ``SearchHooks``, named by the game's entry.

``ismcts`` and ``mcts`` know no game. Where a game offers an evaluation of a position, a cheap rollout
policy, a way to recognise a repeated position or a better way to sample hidden information, it says so
here and the search uses it; where it does not, the search plays to the end with random moves and samples
worlds with ``game.determinize``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any

from floe.core.entry import resolve_as
from floe.core.game import Game, State
from floe.core.registry import entry

# A full state -> one value in [0, 1] per seat (1: certainly first).
Evaluator = Callable[[Any], list[float]]
# (state, legal actions, generator) -> one of the legal actions.
RolloutPolicy = Callable[[Any, list[int], random.Random], int]
# A full state -> a key equal for positions that are the same for the game's purposes.
PositionKey = Callable[[Any], Hashable]
# (game, a seat's observation, generator, the world parameters chosen) -> a full state consistent with it.
WorldSampler = Callable[[Game, Any, random.Random, Mapping[str, str]], State]


@dataclass(frozen=True)
class SearchHooks:
    """A game's help for search (every field optional; see the module docstring).

    - ``evaluate``: each seat's chance of finishing ahead, for rollouts cut off early;
    - ``evaluate_win``: each seat's chance of finishing first (``ismcts:reward=win``), else ``evaluate``;
    - ``rollout``: a cheap, plausible move for rollouts;
    - ``position_key``: what makes two positions the same (``mcts`` answers a position met again at once);
    - ``sample_world`` and ``world_parameters``: how to sample a world from an observation, with the
      parameters it takes (name -> allowed values, the first the default), which the bots accept too
      (e.g. ``ismcts:totems=uniform``).
    """

    evaluate: Evaluator | None = None
    evaluate_win: Evaluator | None = None
    rollout: RolloutPolicy | None = None
    position_key: PositionKey | None = None
    sample_world: WorldSampler | None = None
    world_parameters: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def world(self, game: Game, observation: Any, rng: random.Random, params: Mapping[str, str]) -> State:
        """A world consistent with ``observation``: the game's sampler, else ``game.determinize``."""
        if self.sample_world is not None:
            return self.sample_world(game, observation, rng, params)
        return game.determinize(observation, rng)


NO_HOOKS = SearchHooks()


def ahead_chances(estimates: list[float], scale: float) -> list[float]:
    """Each seat's chance of finishing ahead of the others from estimated final scores: the mean over the
    other seats of a logistic in the score difference (``scale`` points ahead is a ~73% chance). The shape
    of ``SearchHooks.evaluate``."""
    n = len(estimates)
    out = []
    for i in range(n):
        total = 0.0
        for j in range(n):
            if j != i:
                total += 1.0 / (1.0 + math.exp((estimates[j] - estimates[i]) / scale))
        out.append(total / (n - 1))
    return out


def first_chances(estimates: list[float], scale: float) -> list[float]:
    """Each seat's chance of finishing first: the product of its chances of beating each other seat (as if
    the pairwise contests were independent); unlike ``ahead_chances`` it gives nothing for a second place."""
    n = len(estimates)
    out = []
    for i in range(n):
        p = 1.0
        for j in range(n):
            if j != i:
                p /= 1.0 + math.exp((estimates[j] - estimates[i]) / scale)
        out.append(p)
    return out


def hooks_for(game: Game | type[Game]) -> SearchHooks:
    """The search hooks of ``game``'s entry (none if it declares none); ``game`` or its class."""
    ref = entry(game.name).search
    return NO_HOOKS if ref is None else resolve_as(ref, SearchHooks)

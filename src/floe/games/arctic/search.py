"""Arctic's help for the generic search bots: the evaluation, the rollout policy and the totem belief."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, cast

from floe.bots.hooks import SearchHooks
from floe.core.game import Game, State
from floe.games.arctic.evaluation import rollout_action, values, win_values
from floe.games.arctic.game import ArcticGame


def sample_world(game: Game, observation: Any, rng: random.Random, params: Mapping[str, str]) -> State:
    """A world for ``observation``; ``totems=moves`` samples the opponents' totems by how well each animal
    explains the token moves they chose (``belief``), ``totems=uniform`` ignores the moves."""
    return cast(ArcticGame, game).determinize(observation, rng, totem_belief=params.get("totems", "moves"))


HOOKS = SearchHooks(
    evaluate=values,
    evaluate_win=win_values,
    rollout=rollout_action,
    sample_world=sample_world,
    world_parameters={"totems": ("moves", "uniform")},
)

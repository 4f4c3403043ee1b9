"""What the PettingZoo and Gymnasium adapters share: the error, the spaces and the final rewards.

Everything is sized from the game's ``GameSpec``: the observation is ``observation_size`` floats, the
actions are the player action ids ``0 .. player_actions - 1`` (chance ids, which follow them, never reach
an agent: the environments resolve chance themselves).
"""

from __future__ import annotations

import operator
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from floe.core import errors
from floe.core.game import GameSpec, State

REWARDS = ("rank", "score_diff")
# ``score_diff`` divides a score difference by this many points to make one unit of reward. No game says
# how far apart its final scores typically lie (the contract has no such field), so every game gets the
# same default: 20 points, which suits scores that differ by tens of points; pass ``score_scale=`` to an
# environment to change it.
SCORE_DIFF_SCALE = 20.0
# Observation vectors are one-hots, flags and counts divided by small constants; the bound is finite so
# both projects' checkers accept the space, and far above any value such an encoding reaches (a count of
# actions over a whole game).
OBS_BOUND = 4000.0


class IllegalActionError(errors.IllegalActionError, gymnasium.error.InvalidAction):
    """An action that is not legal now (or not an action id at all); the game is left unchanged.

    It is Floe's ``IllegalActionError`` (a ``ValueError``) and Gymnasium's ``error.InvalidAction`` at once,
    so code written against either interface catches it with the exception it expects.
    """


def vector_space(spec: GameSpec) -> spaces.Box:
    """The observation vector's space: ``spec.observation_size`` float32 entries."""
    return spaces.Box(low=-OBS_BOUND, high=OBS_BOUND, shape=(spec.observation_size,), dtype=np.float32)


def mask_space(spec: GameSpec) -> spaces.Box:
    """The action mask's space: one int8 0/1 per player action id (the PettingZoo classic convention)."""
    return spaces.Box(low=0, high=1, shape=(spec.player_actions,), dtype=np.int8)


def check_reward(reward: str) -> str:
    """``reward`` if it names a known reward scheme, else ``ValueError``."""
    if reward not in REWARDS:
        raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
    return reward


def check_scale(scale: float) -> float:
    """``scale`` as a positive float, else ``ValueError``."""
    value = float(scale)
    if not value > 0.0 or value == float("inf"):
        raise ValueError(f"score_scale must be a positive number, not {scale!r}")
    return value


def final_rewards(state: State, reward: str, scale: float = SCORE_DIFF_SCALE) -> list[float]:
    """Each seat's reward at the end of the game.

    ``rank``: ``state.returns()``, the game's rank utilities (+1 for the winner to -1 for the last, linear
    between, by default; they sum to zero). ``score_diff``: own final score minus the mean of the others'
    scores, divided by ``scale`` (also summing to zero).
    """
    if reward == "rank":
        return state.returns()
    scores = state.scores()
    n = len(scores)
    total = sum(scores)
    return [(s - (total - s) / (n - 1)) / scale for s in scores]


def as_action(action: Any, state: State, player_actions: int) -> int:
    """``action`` as a legal action id of ``state`` (int or NumPy integer), else ``IllegalActionError``."""
    try:
        a = operator.index(action)
    except TypeError:
        raise IllegalActionError(f"{action!r} is not an action id (an integer)") from None
    if not 0 <= a < player_actions:  # a chance id is never an agent's action, even when it is "legal"
        raise IllegalActionError(f"action {a} is outside the action space 0..{player_actions - 1}")
    if a not in state.legal_actions():
        raise IllegalActionError(
            f"{state.describe_action(a)} (action {a}) is not legal now; see the action mask"
        )
    return a

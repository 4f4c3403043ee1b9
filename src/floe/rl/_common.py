"""What the PettingZoo and Gymnasium adapters share: the error, the spaces and the final rewards."""

from __future__ import annotations

import operator
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from floe.core import errors
from floe.core.game import State
from floe.games.arctic.actions import N_PLAYER_ACTIONS
from floe.games.arctic.view import VECTOR_SIZE

REWARDS = ("rank", "score_diff")
# Final-score differences in Arctic are typically within ±30 points; 20 points make one unit of reward.
SCORE_DIFF_SCALE = 20.0
# Every entry of the vector is a one-hot, a flag or a count divided by a small constant; the largest
# conceivable value (a count of actions over a whole game) stays far below this bound. It is finite so
# the checkers of both projects accept the space; in practice the values lie within about [-4, 4].
OBS_BOUND = 4000.0


class IllegalActionError(errors.IllegalActionError, gymnasium.error.InvalidAction):
    """An action that is not legal now (or not an action id at all); the game is left unchanged.

    It is Floe's ``IllegalActionError`` (a ``ValueError``) and Gymnasium's ``error.InvalidAction`` at once,
    so code written against either interface catches it with the exception it expects.
    """


def vector_space() -> spaces.Box:
    """The observation vector's space: ``VECTOR_SIZE`` float32 entries (layout: ``docs/observation.md``)."""
    return spaces.Box(low=-OBS_BOUND, high=OBS_BOUND, shape=(VECTOR_SIZE,), dtype=np.float32)


def mask_space() -> spaces.Box:
    """The action mask's space: one int8 0/1 per player action id (the PettingZoo classic convention)."""
    return spaces.Box(low=0, high=1, shape=(N_PLAYER_ACTIONS,), dtype=np.int8)


def check_reward(reward: str) -> str:
    """``reward`` if it names a known reward scheme, else ``ValueError``."""
    if reward not in REWARDS:
        raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
    return reward


def final_rewards(state: State, reward: str) -> list[float]:
    """Each seat's reward at the end of the game.

    ``rank``: ``state.returns()``, from +1 for the winner to -1 for the last, linear between (ties are
    broken by the game's rule, so the places are distinct and the rewards sum to zero).
    ``score_diff``: own final score minus the mean of the others' scores, divided by ``SCORE_DIFF_SCALE``.
    """
    if reward == "rank":
        return state.returns()
    scores = state.scores()
    n = len(scores)
    total = sum(scores)
    return [(s - (total - s) / (n - 1)) / SCORE_DIFF_SCALE for s in scores]


def as_action(action: Any, state: State) -> int:
    """``action`` as a legal action id of ``state`` (int or NumPy integer), else ``IllegalActionError``."""
    try:
        a = operator.index(action)
    except TypeError:
        raise IllegalActionError(f"{action!r} is not an action id (an integer)") from None
    if a not in state.legal_actions():
        if not 0 <= a < N_PLAYER_ACTIONS:
            raise IllegalActionError(f"action {a} is outside the action space 0..{N_PLAYER_ACTIONS - 1}")
        raise IllegalActionError(
            f"{state.describe_action(a)} (action {a}) is not legal now; see the action mask"
        )
    return a

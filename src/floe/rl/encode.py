"""The learning adapters' encodings: a seat's observation vector and the action mask.

The vector always goes through ``floe.games.arctic.view.observe``, the one place that decides what a seat may
know; ``view.vector`` is written for speed (one fancy-index assignment per block). Layout:
``docs/observation.md``.
"""

from __future__ import annotations

import numpy as np

from floe.games.arctic.actions import N_PLAYER_ACTIONS
from floe.games.arctic.state import ArcticStateData
from floe.games.arctic.view import VECTOR_SIZE, observe, vector

__all__ = ["N_PLAYER_ACTIONS", "VECTOR_SIZE", "action_mask", "observation_vector"]


def observation_vector(st: ArcticStateData, seat: int) -> np.ndarray:
    """The float32 vector of ``seat``: ``vector(observe(st, seat))``, redacted by ``view.observe`` only."""
    return vector(observe(st, seat))


def action_mask(legal: list[int]) -> np.ndarray:
    """An int8 mask over the player actions (ids ``0 .. N_PLAYER_ACTIONS - 1``) with the legal ones set."""
    mask = np.zeros(N_PLAYER_ACTIONS, dtype=np.int8)
    mask[legal] = 1
    return mask

"""The learning adapters' encodings: a seat's observation vector and the action mask, for any game.

The vector is the game's own ``State.observation_vector(seat)``, built from that seat's observation (the
one place where a game decides what a seat may know); the adapters never encode anything themselves.
"""

from __future__ import annotations

import numpy as np

from floe.core.game import State

__all__ = ["action_mask", "observation_vector"]


def observation_vector(state: State, seat: int) -> np.ndarray:
    """``seat``'s float32 vector (``spec.observation_size`` entries), as the game builds it.

    ``asarray`` makes no copy of a float32 array, so this costs what the game's encoder costs.
    """
    return np.asarray(state.observation_vector(seat), dtype=np.float32)


def action_mask(legal: list[int], size: int) -> np.ndarray:
    """An int8 mask over the player actions ``0 .. size - 1`` with the ``legal`` ones set."""
    mask = np.zeros(size, dtype=np.int8)
    mask[legal] = 1
    return mask

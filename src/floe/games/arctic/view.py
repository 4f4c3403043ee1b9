"""What one seat may know, in one import: the names of ``observation``, ``codec``, ``vector`` and
``determinize``, kept here for code written against the single module this used to be.

New code imports from the module that defines a name: ``observation`` (``ArcticObservation``,
``observe``, ``observe_action``), ``codec`` (the JSON dict), ``vector`` (the float32 vector and its
slices) and ``determinize`` (full states consistent with an observation).
"""

from __future__ import annotations

from floe.games.arctic.codec import observation_from_dict, observation_to_dict
from floe.games.arctic.determinize import DeterminizationError, Slot, determinize
from floe.games.arctic.observation import (
    CHANCE,
    FACE_DOWN_UNKNOWN,
    HIDDEN,
    PUBLIC_SCALARS,
    ArcticObservation,
    observe,
    observe_action,
)
from floe.games.arctic.state import FACE_DOWN_FLAG, IN_HAND
from floe.games.arctic.vector import (
    CARD_BLOCK,
    GLOBAL_BLOCK,
    LOC_OPP_KNOWN_HAND,
    LOC_OPP_MAYBE,
    LOC_OPP_PILE,
    LOC_OUT_OF_PLAY,
    LOC_OWN_FACE_DOWN,
    LOC_OWN_HAND,
    LOC_OWN_PENALTY,
    LOC_OWN_PILE,
    LOC_RIVER,
    LOC_UNSEEN,
    N_LOC,
    POWER_BLOCK,
    SEAT_BLOCK,
    SEAT_FEATURES,
    SLICES,
    TOKEN_BLOCK,
    TOTEM_BLOCK,
    VECTOR_SIZE,
    _runs,
    vector,
)

__all__ = [
    "CARD_BLOCK",
    "CHANCE",
    "FACE_DOWN_FLAG",
    "FACE_DOWN_UNKNOWN",
    "GLOBAL_BLOCK",
    "HIDDEN",
    "IN_HAND",
    "LOC_OPP_KNOWN_HAND",
    "LOC_OPP_MAYBE",
    "LOC_OPP_PILE",
    "LOC_OUT_OF_PLAY",
    "LOC_OWN_FACE_DOWN",
    "LOC_OWN_HAND",
    "LOC_OWN_PENALTY",
    "LOC_OWN_PILE",
    "LOC_RIVER",
    "LOC_UNSEEN",
    "N_LOC",
    "POWER_BLOCK",
    "PUBLIC_SCALARS",
    "SEAT_BLOCK",
    "SEAT_FEATURES",
    "SLICES",
    "TOKEN_BLOCK",
    "TOTEM_BLOCK",
    "VECTOR_SIZE",
    "ArcticObservation",
    "DeterminizationError",
    "Slot",
    "_runs",
    "determinize",
    "observation_from_dict",
    "observation_to_dict",
    "observe",
    "observe_action",
    "vector",
]

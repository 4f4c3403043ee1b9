"""Arktia (Stefan Kögl, Murmel 2008): 2–4 players, a hexagonal ice continent, Muglus that stack into towers.

A perfect-information, deterministic abstract game; the rules are in ``/work/shared/rules/arktia.md`` and
their mapping to this engine in ``docs/arktia-rules.md``.
"""

from floe.core.registry import register
from floe.games.arktia.game import VERSION, ArktiaGame, ArktiaState

register("arktia", ArktiaGame)

__all__ = ["VERSION", "ArktiaGame", "ArktiaState"]

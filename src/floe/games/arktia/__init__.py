"""Arktia (Stefan Kögl, Murmel 2008): 2–4 players, a hexagonal ice continent, Muglus that stack into towers.

A perfect-information, deterministic abstract game; the rules are in ``docs/arktia-rules.md`` and
their mapping to this engine in ``docs/arktia-rules.md``. Registered with Floe through its entry
(``floe.games.arktia.entry:ENTRY``, a ``floe.games`` entry point).
"""

from floe.games.arktia.game import VERSION, ArktiaGame, ArktiaState

__all__ = ["VERSION", "ArktiaGame", "ArktiaState"]

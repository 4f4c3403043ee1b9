"""Arche Opti Mix (Doris & Frank, 2005): load animals into the ark's cabins without tipping the scale and win
the majorities on the five scoring cards. Rules: ``docs/arche-rules.md``; how the engine reads
them: ``docs/arche-rules.md``. The card list is the rules reference's placeholder (``cards.csv``), not the
printed one.
"""

from floe.games.arche import native

native.use(__path__)  # before any engine module is imported: the compiled ones, when built and in use

from floe.games.arche.cards import PLACEHOLDER_DECK, PLACEHOLDER_NOTICE  # noqa: E402
from floe.games.arche.game import VERSION, ArcheGame, ArcheState  # noqa: E402

__all__ = ["PLACEHOLDER_DECK", "PLACEHOLDER_NOTICE", "VERSION", "ArcheGame", "ArcheState"]

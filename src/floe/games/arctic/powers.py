"""Arctic's twelve powers: two sides for each of the six animals (docs/arctic-rules.md §4.4 and §6).

Power ids follow Board Game Arena: animal ``a`` (0..5) and side ``s`` (1 or 2) give ``10 * (a + 1) + s``.
``Power`` names each id, so rules and bots read ``Power.PUFFIN_TAKE_BACK`` instead of ``52``.

>>> Power.PUFFIN_TAKE_BACK.animal, Power.PUFFIN_TAKE_BACK.side, Power.PUFFIN_TAKE_BACK.slug
(4, 2, 'puffin-take-back')
"""

from __future__ import annotations

from enum import IntEnum

from floe.core.i18n import N_
from floe.games.arctic.i18n import _


class Power(IntEnum):
    """One side of one animal's power card (the value is BGA's id)."""

    FOX_FACEDOWN = 11
    FOX_UNDER = 12
    MOOSE_DRAW = 21
    MOOSE_PLACE = 22
    WALRUS_MAIN = 31
    WALRUS_COMPANION = 32
    ORCA_REFILL = 41
    ORCA_DECK = 42
    PUFFIN_SWAP = 51
    PUFFIN_TAKE_BACK = 52
    BEAR_DRAW_PENALTY = 61
    BEAR_GIVE = 62

    @property
    def animal(self) -> int:
        """The animal (0..5) whose card this is."""
        return self.value // 10 - 1

    @property
    def side(self) -> int:
        """1 or 2."""
        return self.value % 10

    @property
    def slug(self) -> str:
        """``puffin-take-back``: the name in notation, options and the UI."""
        return self.name.lower().replace("_", "-")


POWER_SLUGS: dict[int, str] = {p.value: p.slug for p in Power}
POWER_BY_SLUG: dict[str, int] = {slug: pid for pid, slug in POWER_SLUGS.items()}
# What each power does (message ids: ``power_words`` gives them in the language in force).
POWER_WORDS: dict[int, str] = {
    Power.FOX_FACEDOWN: N_(
        "the last card placed may go face-down under your visible card (a wildcard at scoring)"
    ),
    Power.FOX_UNDER: N_("the last card placed may go to the bottom of your pile"),
    Power.MOOSE_DRAW: N_("draw one card more or one fewer"),
    Power.MOOSE_PLACE: N_("place one card more or one fewer"),
    Power.WALRUS_MAIN: N_("move the main animal's token one extra step"),
    Power.WALRUS_COMPANION: N_("move the companion's token one extra step"),
    Power.ORCA_REFILL: N_("the river refills after each card you take from it"),
    Power.ORCA_DECK: N_("any draw may be the top card of the deck"),
    Power.PUFFIN_SWAP: N_("before placing, swap a hand card with a river card"),
    Power.PUFFIN_TAKE_BACK: N_("before placing, take your visible card back into your hand"),
    Power.BEAR_DRAW_PENALTY: N_("any draw may be a card from your own penalty zone"),
    Power.BEAR_GIVE: N_("give one of your penalty cards to another player"),
}


def power_words(power: int) -> str:
    """What ``power`` does, in the language in force."""
    return _(POWER_WORDS[power])


def power_id(animal: int, side: int) -> int:
    """The power id of ``animal``'s ``side`` (1 or 2)."""
    return 10 * (animal + 1) + side

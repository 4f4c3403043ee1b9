"""Small helpers for words shown to people, shared by every game's presenter and terminal view.

>>> counted(1, "card", "cards"), counted(0, "card", "cards"), counted(-1, "point", "points")
('1 card', '0 cards', '-1 point')
"""

from __future__ import annotations

from floe.core.i18n import FLOE, Catalog

__all__ = ["counted"]


def counted(n: int, singular: str, plural: str, catalog: Catalog = FLOE) -> str:
    """``n`` and the noun in the form ``n`` asks for in the language in force (``1 card``, ``2 cards``;
    Polish ``2 karty``, ``5 kart``): the noun's forms are a plural message of ``catalog`` (a game passes its
    own), so the catalog's ``Plural-Forms`` decide, and minus one reads like one."""
    return f"{n} {catalog.ngettext(singular, plural, abs(n))}"

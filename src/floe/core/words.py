"""Small helpers for words shown to people, shared by every game's presenter and terminal view.

>>> counted(1, "card"), counted(0, "card"), counted(3, "chip")
('1 card', '0 cards', '3 chips')
>>> counted(1, "penalty", "penalties"), counted(-1, "point")
('1 penalty', '-1 point')
"""

from __future__ import annotations

__all__ = ["counted"]


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and the noun, singular for one (or minus one) and plural otherwise: ``1 card``, ``2 cards``.

    ``plural`` is the plural when it is not the noun plus ``s``."""
    return f"{n} {noun if abs(n) == 1 else plural or noun + 's'}"

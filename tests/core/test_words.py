"""Words for people: a count and its noun agree (``1 card``, never ``1 cards``)."""

from __future__ import annotations

import doctest

from floe.core import words
from floe.core.words import counted


def test_docstring_examples() -> None:
    result = doctest.testmod(words)
    assert result.attempted > 0 and result.failed == 0


def test_one_is_singular_and_every_other_count_plural() -> None:
    assert [counted(n, "point", "points") for n in (0, 1, 2)] == ["0 points", "1 point", "2 points"]
    assert counted(1, "penalty", "penalties") == "1 penalty"
    assert counted(2, "penalty", "penalties") == "2 penalties"

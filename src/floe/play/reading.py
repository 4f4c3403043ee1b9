"""Reading what a person types at the terminal's prompt: a choice named by its notation, in English or in
the reader's language, where every word may be cut to a unique start.

A choice's notation is a few words (``place fox-walrus-4``, ``play hare new-r``, ``keep p2 c3``). What is
typed names a choice when each typed word starts the choice's word at the same place, either from the
verb on (``pl fox-w``) or from the word after it (the card alone: ``fox-walrus-4``, ``c3-e3``); the words
may be the English notation's or the reader's (``abl fox-w`` in German). So the help's examples and the
words in the choices' brackets are exactly what the parser takes, in every language.

>>> choices = {1: ("place fox-walrus-4", "ablegen fox-walrus-4"),
...            2: ("place bear-orca-4", "ablegen bear-orca-4")}
>>> matching("pl bear", choices), matching("abl", choices), matching("fox-w", choices)
([2], [1, 2], [1])
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

__all__ = ["fits", "matching"]


def fits(typed: list[str], words: list[str]) -> int:
    """How well the ``typed`` words start ``words`` (from the first, or from the second: the verb left
    out): -1 if they do not, else how many typed words are whole words (a closer fit ranks first)."""
    best = -1
    for skip in (0, 1) if len(words) > 1 else (0,):
        rest = words[skip:]
        if len(typed) > len(rest) or not all(w.startswith(t) for t, w in zip(typed, rest, strict=False)):
            continue
        best = max(best, sum(t == w for t, w in zip(typed, rest, strict=False)))
    return best


def matching(key: str, notations: Mapping[int, Iterable[str]]) -> list[int]:
    """The actions whose notation (any of the forms given per action: English, the reader's language)
    ``key`` fits best (``fits``), in the mapping's order; empty if it fits none.

    A whole notation typed out names its action alone; otherwise the closest fits win, so ``pl hare l1``
    names cabin ``l1``, not ``l10``, while ``pl bear`` names both ``bear-orca-4`` and ``bear-fox-3``.
    """
    typed = key.lower().split()
    if not typed:
        return []
    scores: dict[int, int] = {}
    for action, forms in notations.items():
        for form in forms:
            words = form.lower().split()
            if words == typed:
                return [action]
            score = fits(typed, words)
            if score >= 0:
                scores[action] = max(scores.get(action, -1), score)
    if not scores:
        return []
    top = max(scores.values())
    return [a for a, s in scores.items() if s == top]

"""Finding English a reader of another language would see: the words of the source's message ids that no
translation into that language uses, looked for in rendered text (terminal screens, a web page's text).

A text that is translated shows none of them; a text built from English the catalogs do not know (a
string someone forgot to mark) shows the English words it shares with the message ids. Notation is
language-neutral and is left out before looking: anything in brackets (``[place fox-walrus-4]``),
hyphenated identifiers (cards ``fox-walrus-4``, power sides ``puffin-take-back``), option values with an
underscore (``first_n``), and the words a caller allows (the terminal's commands, names).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from floe.core.i18n import Catalog

__all__ = ["english_words", "untranslated"]

_WORD = re.compile(r"[^\W\d_]{3,}")
_NOTATION = re.compile(r"\[[^\]\n]*\]|\b[a-z]+(?:-[a-z0-9]+)+\b|\b\w+_\w+\b")
_PLACEHOLDER = re.compile(r"%\(\w+\)[sdr]")


def _words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(_PLACEHOLDER.sub(" ", text))}


def english_words(catalogs: Iterable[Catalog], lang: str) -> set[str]:
    """The words of the catalogs' message ids that none of their ``lang`` translations contains."""
    source: set[str] = set()
    translated: set[str] = set()
    for catalog in catalogs:
        served: dict[str, Any] = catalog.browser(lang)["messages"]
        for msgid, text in served.items():
            source |= _words(msgid)
            for form in text if isinstance(text, list) else [text]:
                translated |= _words(form)
    return source - translated


def untranslated(text: str, english: set[str], allowed: Iterable[str] = ()) -> list[str]:
    """The English words in ``text`` (lines with one, each once), notation and ``allowed`` words left out."""
    allow = {w.lower() for w in allowed}
    found: list[str] = []
    for line in text.splitlines():
        words = _words(_NOTATION.sub(" ", line)) & english - allow
        if words:
            found.append(f"{sorted(words)}: {line.strip()[:160]}")
    return found

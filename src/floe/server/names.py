"""The names people give seats (at creation, when joining, for a bot seat) and tables: normalised and bounded,
and a seat's never able to pass for the words the pages write next to it.

The pages show a seat as ``P2 Ann`` with badges (``bot``, ``person``, ``connected``, ``offline``, ``seat
free``, ``away``), add `` (you)`` for the viewer's own seat, say ``spectator`` and ``Your turn``. A name such
as ``\\u202eevil\\u202c P2 (you)`` (a right-to-left override) rendered as "P1 live P2 (you)": one seat
passing for another, or for the viewer. So a name is cleaned (Unicode NFC; control, format, surrogate,
private-use and unassigned characters and invisible fillers removed; whitespace collapsed to single spaces;
bounded in characters, in bytes and in the columns it is drawn in) and refused if it holds one of those
labels as a whole word, compared without case, after compatibility folding (so fullwidth ``Ｐ２`` is ``P2``
too), with letters of other scripts drawn like Latin ones read as those (a Cyrillic ``Р1``) and a seat number
spaced out (``P 2``).
"""

from __future__ import annotations

import re
import unicodedata

from floe.core.i18n import L_

MAX_CHARS = 40  # characters of a cleaned name
MAX_BYTES = 120  # its UTF-8 bytes (40 characters of most scripts)
MAX_TABLE_CHARS = 60  # characters of a cleaned table name
MAX_TABLE_BYTES = 180  # its UTF-8 bytes

# Control, format (bidi embeddings, overrides and isolates, zero-width spaces, the BOM, tags), surrogate,
# private-use and unassigned characters.
_DROPPED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})
# Letters and marks that draw nothing: a name made of them looks empty, or hides a space.
_INVISIBLE = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u2800\u3164\uffa0")
# Joiners are format characters, but some scripts (and emoji sequences) need them between two characters.
_JOINERS = frozenset("\u200c\u200d")
# The table's own words, as whole words: seat numbers (also spaced or dotted: "P 2", "P.2"), "(you)", the
# badges and the spectator's label.
_RESERVED = re.compile(
    r"\b(p[\W_]*\d+|you|your|yours|bots?|away|spectators?|person|offline|connected|free seat|seat free)\b"
)
# Letters of other scripts drawn like Latin ones (after case folding), compared as those: a Cyrillic "Р1"
# or a Greek "ΥΟU" would otherwise pass for a label.
_CONFUSABLE = str.maketrans(
    {
        **dict(zip("авсԁеһнікӏмоԛрѕтуүхѵԝѡ", "abcdehhiklmoqpstyyxvww", strict=True)),  # Cyrillic
        **dict(zip("αβεηικμνορτυχζω", "abehikmnoptyxzw", strict=True)),  # Greek
    }
)
# How wide a character is drawn, in columns, where it is not one: East Asian wide and fullwidth ones take
# two; a few ligatures and signs draw as a whole word (one "﷽" is as wide as a dozen letters).
_EXTRA_WIDE = {"\ufdfd": 12, "\ufdfa": 8, "\ufdfb": 6, "\u2e3b": 3, "\ua9c1": 2, "\ua9c2": 2}
MAX_WIDTH = 2 * MAX_CHARS  # columns of a seat's name as drawn: its characters, each as wide as a CJK one
MAX_TABLE_WIDTH = 2 * MAX_TABLE_CHARS  # columns of a table's name


class BadName(ValueError):
    """A name that cannot be used; the message says why (it does not repeat the name)."""


def clean_name(raw: str) -> str:
    """The name to store and show for ``raw``; ``BadName`` if nothing usable is left or it is a label."""
    text = _cleaned(raw)
    if not text:
        raise BadName(L_("a name needs at least one visible character"))
    if len(text) > MAX_CHARS or len(text.encode()) > MAX_BYTES:
        raise BadName(
            L_("a name is at most %(chars)s characters (%(bytes)s bytes)", chars=MAX_CHARS, bytes=MAX_BYTES)
        )
    if width(text) > MAX_WIDTH:
        raise BadName(L_("a name is too wide to show; use fewer or narrower characters"))
    folded = unicodedata.normalize("NFKC", text.casefold()).translate(_CONFUSABLE)
    folded = "".join(ch for ch in folded if ch not in _JOINERS)
    label = _RESERVED.search(folded)
    if label is not None:
        word = label.group(1)
        number = word[1:].lstrip(" .-_·")
        shown = f"P{number}" if word[0] == "p" and number.isdigit() else word
        raise BadName(
            L_("a name may not contain “%(word)s”: the table uses it for its own labels", word=shown)
        )
    return text


def clean_table_name(raw: str) -> str:
    """The table name to store and show for ``raw``, cleaned as a seat's name is; ``BadName`` if nothing
    visible is left or it is longer than ``MAX_TABLE_CHARS`` (``MAX_TABLE_BYTES``). The table's own labels
    are allowed ("Bots and me"): a table's name is shown on its own (the lobby's list, the table's title),
    never next to a seat where it could pass for that seat's badges."""
    text = _cleaned(raw)
    if not text:
        raise BadName(L_("a table name needs at least one visible character"))
    if len(text) > MAX_TABLE_CHARS or len(text.encode()) > MAX_TABLE_BYTES:
        said = L_(
            "a table name is at most %(chars)s characters (%(bytes)s bytes)",
            chars=MAX_TABLE_CHARS,
            bytes=MAX_TABLE_BYTES,
        )
        raise BadName(said)
    if width(text) > MAX_TABLE_WIDTH:
        raise BadName(L_("a table name is too wide to show; use fewer or narrower characters"))
    return text


def width(text: str) -> int:
    """The columns ``text`` takes when drawn, as near as a server can tell: a mark none, an East Asian
    wide or fullwidth character two, the ligatures of ``_EXTRA_WIDE`` their width, any other one."""
    total = 0
    for ch in text:
        if ch in _EXTRA_WIDE:
            total += _EXTRA_WIDE[ch]
        elif unicodedata.category(ch).startswith("M") or ch in _JOINERS:
            continue
        else:
            total += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return total


def _cleaned(raw: str) -> str:
    """``raw`` normalised: NFC, dropped characters removed, white space collapsed, no mark first."""
    text = " ".join(unicodedata.normalize("NFC", raw).split())  # every kind of white space: one space
    kept: list[str] = []
    for k, ch in enumerate(text):
        if ch in _JOINERS:
            after = text[k + 1] if k + 1 < len(text) else " "
            if kept and kept[-1] not in " \u200c\u200d" and after != " ":
                kept.append(ch)
        elif unicodedata.category(ch) not in _DROPPED_CATEGORIES and ch not in _INVISIBLE:
            kept.append(ch)
    text = " ".join("".join(kept).split())
    # A combining mark first would be drawn on the label the page puts before the name.
    start = next((k for k, ch in enumerate(text) if not unicodedata.category(ch).startswith("M")), len(text))
    return text[start:].strip()

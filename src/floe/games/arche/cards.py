"""Arche's cards: the placeholder deck shipped in ``cards.csv`` and the reader of a player's own deck file.

**The printed card list is unknown** (docs/arche-rules.md §13): ``cards.csv`` is the rules reference's
placeholder deck (§13.1), 47 invented animals, 8 provisions and 5 rain cards with the original counts,
marked as a placeholder wherever a player sees the game. A player who owns the game loads the real cards with
``--option deck=FILE``: a CSV with the same columns, read and checked here line by line (``parse_deck``),
each problem a one-line ``OptionError`` naming the line. A record stores the parsed rows, never a path.

A ``Deck`` is the cards of one game with everything the engine reads per card as a tuple indexed by card
id (animals and provisions are ids ``0..n-1`` in file order; the five rain cards have no id, the engine
counts them) and as bit masks over the ids (the engine's hands, display, stock and cabins are masks).

>>> deck = placeholder_deck()
>>> deck.n, deck.slugs[0], deck.weight[0], CATEGORIES[deck.category[0]]
(55, 'brontosaurus', 4, 'heavy')
>>> parse_deck("name_de,name_en,weight,climate,diet,category,special\\nX,Yak,5,hot,H,heavy,-", 3)
Traceback (most recent call last):
...
floe.core.errors.OptionError: deck line 2: weight must be 0 to 4, not '5'
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field
from functools import cache, lru_cache
from importlib import resources
from typing import Any

from floe.core.errors import OptionError
from floe.core.i18n import N_, Msg, current
from floe.games.arche.i18n import CATALOG, L_

# Set to False only when the real card list replaces cards.csv (docs/arche-rules.md §13.1 asks for the label).
PLACEHOLDER_DECK = True
PLACEHOLDER_NOTICE = N_("placeholder cards, not the printed ones")

COLUMNS = ("name_de", "name_en", "weight", "climate", "diet", "category", "special")
RAIN_CARDS = 5
MIN_CARDS, MAX_CARDS = 20, 64  # animals and provisions in a deck (the printed game has 55)
MAX_NAME = 24

# Climates, diets, categories and specials are small ints; these tuples give their names (CSV and notation).
HOT, COLD, ANY = 0, 1, 2
CLIMATES = ("hot", "cold", "any")
NO_DIET, HERBIVORE, CARNIVORE, OMNIVORE = 0, 1, 2, 3
DIETS = ("-", "H", "C", "O")
DIET_WORDS = (N_("no diet"), N_("herbivore"), N_("carnivore"), N_("omnivore"))  # translated where shown
# The five scoring cards, in this order everywhere (figures, vectors, notation); NONE: no category.
HEAVY, USEFUL, SHY, SLOW, PROVISIONS = range(5)
NONE = 5
CATEGORIES = ("heavy", "useful", "shy", "slow", "provisions", "-")
N_SCORING = 5
# Special abilities (docs/arche-rules.md §9).
(NO_SPECIAL, BRONTO, FOX, IMMUNE, MOSQUITO, SKUNK, SPIDER, CHIMP) = range(8)
SPECIALS = ("-", "bronto", "fox", "immune", "mosquito", "skunk", "spider", "chimp")
EVICTERS = frozenset((MOSQUITO, SKUNK, SPIDER))
# Cards that can never be evicted (docs/arche-rules.md §9.1).
UNEVICTABLE = frozenset((FOX, SPIDER, MOSQUITO))

_ALIASES = {
    "climate": {"hot": HOT, "cold": COLD, "any": ANY, "both": ANY, "mixed": ANY, "indifferent": ANY},
    "diet": {
        "-": NO_DIET,
        "": NO_DIET,
        "none": NO_DIET,
        "h": HERBIVORE,
        "herbivore": HERBIVORE,
        "c": CARNIVORE,
        "carnivore": CARNIVORE,
        "o": OMNIVORE,
        "omnivore": OMNIVORE,
    },
}
_SLUG = re.compile(r"[^a-z0-9]+")
_NAME = re.compile(r"[\w .'()-]+")


@dataclass(frozen=True)
class Deck:
    """The cards of one game, per card id (see the module docstring). ``rows`` is what records store."""

    rows: tuple[tuple[Any, ...], ...]  # every non-rain row as (name_de, name_en, weight, climate, ...)
    placeholder: bool
    n: int
    names: tuple[str, ...]  # English names
    names_de: tuple[str, ...]
    slugs: tuple[str, ...]  # notation: lower-case, unique
    weight: tuple[int, ...]
    climate: tuple[int, ...]
    diet: tuple[int, ...]
    category: tuple[int, ...]
    special: tuple[int, ...]
    evicters: tuple[int, ...]  # card ids with an eviction ability, ascending
    index: dict[str, int] = field(compare=False, hash=False, repr=False)  # slug -> id

    @property
    def all_mask(self) -> int:
        """Every card id as a bit mask."""
        return (1 << self.n) - 1

    def is_animal(self, c: int) -> bool:
        """Animals are every card but provisions."""
        return self.category[c] != PROVISIONS

    def slug_of(self, c: int) -> str:
        return self.slugs[c]

    def card_id(self, slug: str) -> int:
        """The id of the card whose notation is ``slug``; ``KeyError`` if none."""
        return self.index[slug]

    def name(self, c: int) -> str:
        """Card ``c``'s name in the reader's language: in German the deck's own ``name_de`` column; else
        the catalog's name for its English name (context ``card``: the placeholder deck's names,
        ``cardnames.py``); else the English name (a loaded deck's card the catalog does not know)."""
        if current() == "de" and self.names_de[c]:
            return self.names_de[c]
        return CATALOG.pgettext("card", self.names[c])

    def describe(self, c: int) -> str:
        """``Hare (1, cold, herbivore, shy)`` with its special, for people."""
        parts = [str(self.weight[c]), CLIMATES[self.climate[c]]]
        if self.diet[c] != NO_DIET:
            parts.append(DIET_WORDS[self.diet[c]])
        if self.category[c] != NONE:
            parts.append(CATEGORIES[self.category[c]])
        if self.special[c] != NO_SPECIAL:
            parts.append("!" + SPECIALS[self.special[c]])
        return f"{self.names[c]} ({', '.join(parts)})"


def slugify(name: str) -> str:
    """The notation of a card name: ``Polar bear`` -> ``polar-bear``."""
    return _SLUG.sub("-", name.lower().replace("ä", "ae").replace("ö", "oe").replace("ü", "ue")).strip("-")


def _too_many() -> Msg:
    return L_("more than %(most)s animal and provisions cards", most=MAX_CARDS)


def _fail(line: int, problem: Msg) -> OptionError:
    return OptionError(L_("deck line %(line)s: %(problem)s", line=line, problem=problem))


def _choice(line: int, column: str, text: str, words: tuple[str, ...]) -> int:
    key = text.strip().lower()
    table = _ALIASES.get(column)
    if table is not None and key in table:
        return table[key]
    lowered = [w.lower() for w in words]
    if key in lowered:
        return lowered.index(key)
    if column == "category" and key in ("", "none"):
        return NONE
    if column == "special" and key in ("", "none"):
        return NO_SPECIAL
    shown = text.strip()[:20]
    allowed = ", ".join(w for w in words if w != "-") + (", -" if "-" in words else "")
    raise _fail(
        line,
        L_(
            "unknown %(column)s %(value)s (one of %(allowed)s)",
            column=column,
            value=repr(shown),
            allowed=allowed,
        ),
    )


def _row(line: int, cells: list[str]) -> tuple[Any, ...] | None:
    """One CSV row checked: a card row ``(de, en, weight, climate, diet, category, special)`` as stored,
    or None for a rain card."""
    if len(cells) != len(COLUMNS):
        said = L_(
            "%(n)s columns, expected %(wanted)s (%(columns)s)",
            n=len(cells),
            wanted=len(COLUMNS),
            columns=",".join(COLUMNS),
        )
        raise _fail(line, said)
    de, en, weight_text, climate, diet, category, special = (c.strip() for c in cells)
    if category.lower() == "rain":
        return None
    for label, name in (("name_en", en), ("name_de", de)):
        if not name and label == "name_en":
            raise _fail(line, L_("the card has no English name (name_en)"))
        if len(name) > MAX_NAME:
            raise _fail(line, L_("%(column)s must be at most %(n)s characters", column=label, n=MAX_NAME))
        if name and not _NAME.fullmatch(name):
            bad = next(ch for ch in name if not _NAME.fullmatch(ch))
            said = L_(
                "%(column)s may not contain %(char)s (letters, digits, spaces and . ' ( ) - only)",
                column=label,
                char=repr(bad),
            )
            raise _fail(line, said)
    if not slugify(en):
        raise _fail(line, L_("name_en %(name)s needs a letter or a digit", name=repr(en[:20])))
    if not re.fullmatch(r"[0-4]", weight_text):
        raise _fail(line, L_("weight must be 0 to 4, not %(value)s", value=repr(weight_text[:20])))
    cat = _choice(line, "category", category, CATEGORIES)
    out = (
        de,
        en,
        int(weight_text),
        CLIMATES[_choice(line, "climate", climate, CLIMATES)],
        DIETS[_choice(line, "diet", diet, DIETS)],
        CATEGORIES[cat],
        SPECIALS[_choice(line, "special", special, SPECIALS)],
    )
    if cat == PROVISIONS and out[6] != "-":
        raise _fail(line, L_("provisions have no special ability"))
    return out


def _rows_from_text(text: str) -> tuple[list[tuple[Any, ...]], int, list[int]]:
    """(card rows, rain count, each card row's line in the file) of CSV text; comment lines (#) and blank
    lines are skipped."""
    rows: list[tuple[Any, ...]] = []
    lines: list[int] = []
    rain = 0
    header_seen = False
    # A spreadsheet's "CSV UTF-8" starts with a byte-order mark: not part of the header.
    for number, raw in enumerate(text.removeprefix("\ufeff").splitlines(), start=1):
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            continue
        cells = next(csv.reader([raw]))
        if not header_seen:
            names = tuple(c.strip().lower() for c in cells)
            if names != COLUMNS:
                raise _fail(number, L_("the header must be %(columns)s", columns=",".join(COLUMNS)))
            header_seen = True
            continue
        row = _row(number, cells)
        if row is None:
            rain += 1
        else:
            rows.append(row)
            lines.append(number)
            if len(rows) > MAX_CARDS:
                raise _fail(number, _too_many())
    if not header_seen:
        raise OptionError(L_("deck: no header line (%(columns)s)", columns=",".join(COLUMNS)))
    return rows, rain, lines


def _rows_from_stored(value: list[Any]) -> tuple[list[tuple[Any, ...]], int]:
    """(card rows, rain count) of the rows a record stores (every row a list of seven cells)."""
    rows: list[tuple[Any, ...]] = []
    for i, item in enumerate(value, start=1):
        if not isinstance(item, list | tuple) or not all(isinstance(x, str | int) for x in item):
            raise OptionError(L_("deck row %(row)s must be a list of %(n)s values", row=i, n=len(COLUMNS)))
        row = _row(i, [str(x) for x in item])
        if row is None:
            raise OptionError(L_("deck row %(row)s: stored decks list no rain cards", row=i))
        rows.append(row)
        if len(rows) > MAX_CARDS:
            raise OptionError(L_("deck row %(row)s: %(problem)s", row=i, problem=_too_many()))
    return rows, RAIN_CARDS


def parse_deck(value: Any, players: int = 3) -> list[list[Any]]:
    """The ``deck`` option's parser: CSV text (a player's file) or stored rows (a record) -> the rows a
    record stores (rain cards are not stored: there are always five). ``[]`` or empty text: the placeholder
    deck. One-line ``OptionError`` naming the line for every problem."""
    if value is None or value == [] or (isinstance(value, str) and not value.strip()):
        return []
    lines: list[int] | None = None  # a file's rows are named by their line in it
    if isinstance(value, str):
        rows, rain, lines = _rows_from_text(value)
    elif isinstance(value, list | tuple):
        rows, rain = _rows_from_stored(list(value))
    else:
        raise OptionError(L_("deck must be the text of a CSV file"))
    if rain != RAIN_CARDS:
        raise OptionError(
            L_("deck: %(n)s rain cards, the game needs exactly %(wanted)s", n=rain, wanted=RAIN_CARDS)
        )
    if len(rows) < MIN_CARDS:
        said = L_(
            "deck: %(n)s animal and provisions cards, at least %(least)s are needed",
            n=len(rows),
            least=MIN_CARDS,
        )
        raise OptionError(said)
    seen: dict[str, int] = {}
    for i, row in enumerate(rows):
        slug = slugify(row[1])
        if slug in seen:
            if lines is not None:
                said = L_(
                    "deck: two cards are called %(name)s (lines %(first)s and %(second)s)",
                    name=repr(slug),
                    first=lines[seen[slug]],
                    second=lines[i],
                )
            else:
                said = L_(
                    "deck: two cards are called %(name)s (rows %(first)s and %(second)s)",
                    name=repr(slug),
                    first=seen[slug] + 1,
                    second=i + 1,
                )
            raise OptionError(said)
        seen[slug] = i
    if not _opening_possible(rows):
        raise OptionError(
            L_("deck: the ark's opening needs 4 cards of weight 1 or 2, at most 2 of a category")
        )
    return [list(row) for row in rows]


def _opening_possible(rows: list[tuple[Any, ...]]) -> bool:
    """Whether 4 cards of weight 1 or 2 with at most 2 of a category exist (uncategorised cards never
    count against that limit)."""
    per_category: dict[str, int] = {}
    for row in rows:
        if row[2] in (1, 2):
            per_category[row[5]] = per_category.get(row[5], 0) + 1
    return sum(n if key == "-" else min(n, 2) for key, n in per_category.items()) >= 4


@cache
def placeholder_rows() -> tuple[tuple[Any, ...], ...]:
    """The rows of the shipped placeholder deck (``cards.csv``)."""
    text = resources.files("floe.games.arche").joinpath("cards.csv").read_text(encoding="utf-8")
    rows, rain, _lines = _rows_from_text(text)
    assert rain == RAIN_CARDS
    return tuple(rows)


def placeholder_deck() -> Deck:
    """The shipped placeholder deck."""
    return deck_of(())


def deck_of(rows: Any) -> Deck:
    """The deck of the stored rows (``[]``: the placeholder deck)."""
    key = tuple(tuple(r) for r in rows) if rows else ()
    return _deck(key)


@lru_cache(maxsize=32)
def _deck(key: tuple[tuple[Any, ...], ...]) -> Deck:
    placeholder = not key
    rows = placeholder_rows() if placeholder else key
    n = len(rows)
    slugs = tuple(slugify(r[1]) for r in rows)
    special = tuple(SPECIALS.index(r[6]) for r in rows)
    return Deck(
        rows=tuple(rows),
        placeholder=placeholder,
        n=n,
        names=tuple(r[1] for r in rows),
        names_de=tuple(r[0] for r in rows),
        slugs=slugs,
        weight=tuple(int(r[2]) for r in rows),
        climate=tuple(CLIMATES.index(r[3]) for r in rows),
        diet=tuple(DIETS.index(r[4]) for r in rows),
        category=tuple(CATEGORIES.index(r[5]) for r in rows),
        special=special,
        evicters=tuple(c for c in range(n) if special[c] in EVICTERS),
        index={s: c for c, s in enumerate(slugs)},
    )


def deck_text(deck: Deck) -> str:
    """The deck as CSV text with the five rain cards (what a player's file looks like)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for row in deck.rows:
        writer.writerow(["-" if x == "" else x for x in row])
    for _ in range(RAIN_CARDS):
        writer.writerow(("Regen", "Rain", "-", "-", "-", "rain", "-"))
    return out.getvalue()

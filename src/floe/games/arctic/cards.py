"""Arctic's animals and its 120 animal cards, loaded from ``cards.csv`` and validated at import.

Cards are small integers (``card_no - 1``, 0..119). The per-card facts live in flat tuples indexed by
card id (``MAIN``, ``COMPANION``, ``PLACEMENT``, ``DRAW``, ``DECK``) because the engine reads them on
its hot path; a tuple index is the cheapest lookup Python has.

>>> card_name(0)
'fox-moose-5'
>>> parse_card("Fox-Moose-5")
0
>>> MAIN[0] == FOX and PLACEMENT[0] + DRAW[0] == 6
True
"""

from __future__ import annotations

import csv
from importlib import resources
from typing import Final

from floe.core.i18n import N_, NC_
from floe.games.arctic.i18n import CATALOG, _

ANIMALS: tuple[str, ...] = ("fox", "moose", "walrus", "orca", "puffin", "bear")  # the notation's names
# The animals' names for people (message ids; the rulebooks' names in each language: ``animal_word``).
ANIMAL_WORDS: tuple[str, ...] = (N_("fox"), N_("moose"), N_("walrus"), N_("orca"), N_("puffin"), N_("bear"))
# Final: the compiled engine (docs/performance.md) reads these as C constants.
FOX: Final = 0
MOOSE: Final = 1
WALRUS: Final = 2
ORCA: Final = 3
PUFFIN: Final = 4
BEAR: Final = 5
N_ANIMALS: Final = 6
N_CARDS: Final = 120
N_DECKS: Final = 4
CARDS_PER_DECK: Final = 30

# Landscape values left (0) to right (15); tokens stand on positions 0..5 and start on the card worth 3.
LANDSCAPE: Final[tuple[int, ...]] = (0, 1, 3, 6, 10, 15)
START_POSITION: Final = 2
LAST_POSITION: Final = 5


class CardDataError(ValueError):
    """The shipped card table breaks one of the invariants of docs/arctic-rules.md §2.4."""


def _animal_index(name: str) -> int:
    try:
        return ANIMALS.index(name.strip().lower())
    except ValueError:
        raise CardDataError(f"unknown animal {name!r} in cards.csv") from None


def _load() -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    text = resources.files(__package__).joinpath("cards.csv").read_text(encoding="utf-8")
    main: list[int] = []
    companion: list[int] = []
    placement: list[int] = []
    draw: list[int] = []
    deck: list[int] = []
    for expected_no, row in enumerate(csv.DictReader(text.splitlines()), start=1):
        if int(row["card_no"]) != expected_no:
            raise CardDataError(f"cards.csv: card_no {row['card_no']} out of order (expected {expected_no})")
        deck.append(int(row["deck_marks"]) - 1)
        main.append(_animal_index(row["main"]))
        companion.append(_animal_index(row["companion"]))
        placement.append(int(row["placement"]))
        draw.append(int(row["draw"]))
    return tuple(main), tuple(companion), tuple(placement), tuple(draw), tuple(deck)


def validate(
    main: tuple[int, ...],
    companion: tuple[int, ...],
    placement: tuple[int, ...],
    draw: tuple[int, ...],
    deck: tuple[int, ...],
) -> None:
    """Check the card table against every invariant of docs/arctic-rules.md §2.4; raise ``CardDataError`` if
    not.

    The companion must also match the closed formula of docs/arctic-rules.md §2.3, so a corrupted row is
    caught even if it happens to keep the counting invariants.
    """
    if len(main) != N_CARDS:
        raise CardDataError(f"expected {N_CARDS} cards, found {len(main)}")
    pairs_per_deck: dict[int, set[tuple[int, int]]] = {k: set() for k in range(N_DECKS)}
    for c in range(N_CARDS):
        k, p, d = deck[c], main[c], draw[c]
        if not 0 <= k < N_DECKS:
            raise CardDataError(f"card {c + 1}: deck {k + 1} is not 1..4")
        if placement[c] + d != 6 or not 1 <= d <= 5:
            raise CardDataError(f"card {c + 1}: placement {placement[c]} + draw {d} must be 6 with draw 1..5")
        if companion[c] == p:
            raise CardDataError(f"card {c + 1}: main animal and companion are both {ANIMALS[p]}")
        offset = ((d + (k + 1) - 2) % 5) + 1
        if companion[c] != (p + offset) % N_ANIMALS:
            raise CardDataError(f"card {c + 1}: companion {ANIMALS[companion[c]]} breaks the deck formula")
        pairs_per_deck[k].add((p, companion[c]))
    for k, pairs in pairs_per_deck.items():
        if len(pairs) != CARDS_PER_DECK:
            raise CardDataError(f"deck {k + 1}: (main, companion) pairs are not all distinct")
    if len({(main[c], draw[c], deck[c]) for c in range(N_CARDS)}) != N_CARDS:
        raise CardDataError("two cards share deck, main animal and draw value")
    if len({(main[c], companion[c], draw[c]) for c in range(N_CARDS)}) != N_CARDS:
        raise CardDataError("two cards share main animal, companion and draw value")


_TABLE = _load()
MAIN: Final = _TABLE[0]
COMPANION: Final = _TABLE[1]
PLACEMENT: Final = _TABLE[2]
DRAW: Final = _TABLE[3]
DECK: Final = _TABLE[4]
validate(MAIN, COMPANION, PLACEMENT, DRAW, DECK)

# (main, companion, placement) names a card uniquely (invariant 7), so it is the card's notation.
CARD_NAMES: tuple[str, ...] = tuple(
    f"{ANIMALS[MAIN[c]]}-{ANIMALS[COMPANION[c]]}-{PLACEMENT[c]}" for c in range(N_CARDS)
)
_CARD_BY_NAME = {name: c for c, name in enumerate(CARD_NAMES)}
DECK_CARDS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(c for c in range(N_CARDS) if DECK[c] == k) for k in range(N_DECKS)
)


def card_name(card: int) -> str:
    """The card's notation: main animal, companion animal and placement value, e.g. ``fox-walrus-4``."""
    return CARD_NAMES[card]


def parse_card(text: str) -> int:
    """The card id for a notation such as ``fox-walrus-4`` (case and spaces ignored); else ``ValueError``."""
    key = "-".join(part for part in text.strip().lower().replace(" ", "-").split("-") if part)
    try:
        return _CARD_BY_NAME[key]
    except KeyError:
        raise ValueError(f"no card {text!r}: write main-companion-placement, e.g. fox-walrus-4") from None


def animal_word(animal: int) -> str:
    """The animal's name in the language in force (``fox``; German ``Fuchs``, Italian ``volpe artica``)."""
    return _(ANIMAL_WORDS[animal])


# An animal's name as its token is named after it ("the fox token"): Polish needs the genitive there
# ("żeton lisa polarnego"); the other languages name it as ``animal_word`` does.
TOKEN_WORDS: tuple[str, ...] = (
    NC_("token", "fox"),
    NC_("token", "moose"),
    NC_("token", "walrus"),
    NC_("token", "orca"),
    NC_("token", "puffin"),
    NC_("token", "bear"),
)


def token_word(animal: int) -> str:
    """The animal's name in "the %(animal)s token", in the language in force (Polish: the genitive)."""
    return CATALOG.pgettext("token", TOKEN_WORDS[animal])


def animal_title(animal: int) -> str:
    """The animal's name with a capital (``Fox``, ``Fuchs``, ``Lis``)."""
    word = animal_word(animal)
    return word[:1].upper() + word[1:]


def card_words(card: int) -> str:
    """A card in a sentence of the log: ``Fox/Walrus (place 4, draw 2)`` (its main animal, its companion,
    its placement and draw values; the choices' buttons say the same, ``describe_card``)."""
    return _("%(main)s/%(companion)s (place %(place)s, draw %(draw)s)") % {
        "main": animal_title(MAIN[card]),
        "companion": animal_title(COMPANION[card]),
        "place": PLACEMENT[card],
        "draw": DRAW[card],
    }


def describe_card(card: int) -> str:
    """Words for a person: ``Fox (companion Walrus), place 4 / draw 2``."""
    return _("%(main)s (companion %(companion)s), place %(place)s / draw %(draw)s") % {
        "main": animal_title(MAIN[card]),
        "companion": animal_title(COMPANION[card]),
        "place": PLACEMENT[card],
        "draw": DRAW[card],
    }

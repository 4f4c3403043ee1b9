"""Arche's card names in every language: the placeholder deck's names are marked for the catalogs
(``cardnames.py``, context ``card``), every language names every card, and ``Deck.name`` reads them (German
from the deck's own ``name_de`` column, which a loaded deck brings too)."""

from __future__ import annotations

import pytest

from floe.core.i18n import LANGUAGES, using
from floe.games.arche.cardnames import CARD_NAMES
from floe.games.arche.cards import deck_of, deck_text, parse_deck, placeholder_deck, placeholder_rows
from floe.games.arche.i18n import CATALOG


def test_the_marked_names_are_the_placeholder_decks() -> None:
    assert list(CARD_NAMES) == [row[1] for row in placeholder_rows()]


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_every_language_names_every_card(lang: str) -> None:
    raw = getattr(CATALOG.translations(lang), "_catalog", {})
    missing = [name for name in CARD_NAMES if not raw.get(f"card\x04{name}")]
    assert not missing, f"{lang} has no name for {missing}"


def test_a_card_reads_in_the_readers_language() -> None:
    deck = placeholder_deck()
    hare = deck.card_id("hare")
    said = {}
    for lang in LANGUAGES:
        with using(lang):
            said[lang] = deck.name(hare)
    assert said == {"en": "Hare", "de": "Hase", "it": "Lepre", "pl": "Zając"}


def test_a_loaded_decks_own_german_names_and_unknown_cards() -> None:
    text = (
        deck_text(placeholder_deck())
        .replace("Hase,Hare,", "Feldhase,Hare,")
        .replace("Ziege,Goat,", "Zicke,Billy goat,")
    )
    deck = deck_of(parse_deck(text))
    with using("de"):
        assert deck.name(deck.card_id("hare")) == "Feldhase", "the deck's own German column"
    with using("it"):
        assert deck.name(deck.card_id("billy-goat")) == "Billy goat", "a name the catalog does not know"
        assert deck.name(deck.card_id("hare")) == "Lepre"

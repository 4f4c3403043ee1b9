"""Languages: choosing one (environment, Accept-Language, tags), the language in force, and plural forms
counted right in each language (Polish: 1 / 2–4 / 5+, and 12–14 like 5)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from floe.bots.specs import parse_bot_list
from floe.core import i18n
from floe.core.errors import OptionError
from floe.core.i18n import FLOE, Catalog, from_environment, language, negotiate, plural_categories, using
from floe.core.mofiles import compile_all, compile_po, mo_path
from floe.core.options import parse_int
from floe.core.registry import entry
from floe.core.words import counted
from floe.games.arctic.i18n import CATALOG as ARCTIC


@pytest.mark.parametrize(
    ("tag", "found"),
    [
        ("de", "de"),
        ("pl-PL", "pl"),
        ("it_IT.UTF-8", "it"),
        ("de_DE@euro", "de"),
        ("EN", "en"),
        ("fr", None),
        ("C", None),
        ("", None),
        (None, None),
        ("de" * 40, None),
        ("de;rm -rf", None),
    ],
)
def test_a_language_tag_names_a_known_language_or_none(tag: str | None, found: str | None) -> None:
    assert language(tag) == found


@pytest.mark.parametrize(
    ("environ", "lang"),
    [
        ({"LANG": "de_DE.UTF-8"}, "de"),
        ({"LANG": "pl_PL.UTF-8", "LC_ALL": "it_IT.UTF-8"}, "it"),
        ({"LANG": "de_DE.UTF-8", "LC_ALL": "C"}, "en"),  # LC_ALL decides, and C is English
        ({"LANGUAGE": "fr:pl", "LANG": "de_DE.UTF-8"}, "pl"),  # gettext's list, first known wins
        ({"LANGUAGE": "fr", "LANG": "de_DE.UTF-8"}, "de"),  # nothing known in the list: on to LANG
        ({"LC_MESSAGES": "it_IT", "LANG": "de_DE"}, "it"),
        ({"LANG": "fr_FR.UTF-8"}, "en"),
        ({}, "en"),
    ],
)
def test_the_terminal_follows_the_environment_as_gettext_does(environ: dict[str, str], lang: str) -> None:
    assert from_environment(environ) == lang


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        ("de-DE,de;q=0.9,en;q=0.8", "de"),
        ("fr-FR,fr;q=0.9,it;q=0.5,pl;q=0.7", "pl"),  # by quality, not by order
        ("en;q=0.2, it", "it"),
        ("pl;q=0, de;q=0.1", "de"),  # q=0 means "not this one"
        ("fr, es", "en"),
        ("", "en"),
        (None, "en"),
        ("de;q=banana, it", "it"),  # a malformed quality drops its tag only
        ("x" * 10_000 + ",de", "en"),  # the header is read up to a bound
    ],
)
def test_the_browser_follows_accept_language(header: str | None, lang: str) -> None:
    assert negotiate(header) == lang


def test_using_sets_the_language_for_its_block_only() -> None:
    assert i18n.current() == "en"
    with using("pl"):
        assert i18n.current() == "pl"
        with using("klingon"):  # unknown: the message ids
            assert i18n.current() == "en"
        assert FLOE.gettext("Your turn.") == "Twój ruch."
    assert i18n.current() == "en"
    assert FLOE.gettext("Your turn.") == "Your turn."


# n -> the form of "card" in each language (Polish: one, few for 2-4 but not 12-14, many otherwise).
CARDS = {
    "en": {1: "1 card", 2: "2 cards", 5: "5 cards", 0: "0 cards", 12: "12 cards", 22: "22 cards"},
    "de": {1: "1 Karte", 2: "2 Karten", 5: "5 Karten", 0: "0 Karten", 12: "12 Karten", 22: "22 Karten"},
    "it": {1: "1 carta", 2: "2 carte", 5: "5 carte", 0: "0 carte", 12: "12 carte", 22: "22 carte"},
    "pl": {
        1: "1 karta",
        2: "2 karty",
        3: "3 karty",
        4: "4 karty",
        5: "5 kart",
        0: "0 kart",
        11: "11 kart",
        12: "12 kart",
        13: "13 kart",
        14: "14 kart",
        21: "21 kart",
        22: "22 karty",
        24: "24 karty",
        25: "25 kart",
        112: "112 kart",
        122: "122 karty",
    },
}


@pytest.mark.parametrize("lang", sorted(CARDS))
def test_counted_uses_each_languages_plural_forms(lang: str) -> None:
    with using(lang):
        got = {n: ARCTIC.counted(n, "card", "cards") for n in CARDS[lang]}
        points = [counted(n, "point", "points") for n in (1, 3, 5, -1)]
    assert got == CARDS[lang]
    expected_points = {
        "en": ["1 point", "3 points", "5 points", "-1 point"],
        "de": ["1 Punkt", "3 Punkte", "5 Punkte", "-1 Punkt"],
        "it": ["1 punto", "3 punti", "5 punti", "-1 punto"],
        "pl": ["1 punkt", "3 punkty", "5 punktów", "-1 punkt"],
    }
    assert points == expected_points[lang]


def test_the_browser_gets_the_plural_categories_in_the_catalogs_order() -> None:
    assert plural_categories("pl") == ["one", "few", "many"]
    assert plural_categories("de") == ["one", "other"]
    assert plural_categories("it") == ["one", "other"]
    served = ARCTIC.browser("pl")
    assert served["plural"] == ["one", "few", "many"]
    assert served["messages"]["card"] == ["karta", "karty", "kart"]
    assert served["messages"]["River"] == "Rzeka"
    assert "" not in served["messages"]  # the header is not a message


def test_a_language_without_a_catalog_reads_the_message_ids(tmp_path_factory: pytest.TempPathFactory) -> None:
    empty = Catalog("floe", "no-such-domain")
    with using("de"):
        assert empty.gettext("Your turn.") == "Your turn."
        assert empty.counted(2, "card", "cards") == "2 cards"
    assert empty.browser("de")["messages"] == {}


def test_notation_reads_in_the_readers_language_and_is_typed_in_either() -> None:
    with using("de"):
        assert ARCTIC.show_notation("place fox-walrus-4") == "ablegen fox-walrus-4"
        assert ARCTIC.show_notation("give fox-walrus-4 to P2") == "geben fox-walrus-4 an P2"
        assert ARCTIC.read_notation("ablegen fox-walrus-4") == "place fox-walrus-4"
        assert ARCTIC.read_notation("place fox-walrus-4") == "place fox-walrus-4"  # English still reads
        assert ARCTIC.read_notation("haupt rechts") == "main right"
    with using("pl"):
        assert ARCTIC.read_notation("połóż fox-walrus-4") == "place fox-walrus-4"
    assert ARCTIC.show_notation("place fox-walrus-4") == "place fox-walrus-4"  # English: as it is
    # Every language's notation words are one word each and tell the actions apart.
    for lang in ("de", "it", "pl"):
        words = ARCTIC.notation(lang)
        assert len(words) == 19 and all(" " not in w for w in words.values())
        assert len(set(words.values())) == len(words), lang


def _said(call: Callable[[], object]) -> i18n.Msg:
    with pytest.raises(OptionError) as caught:
        call()
    said = i18n.text_of(caught.value)
    assert isinstance(said, i18n.Msg)
    return said


def test_an_error_is_written_in_the_language_of_whoever_reads_it() -> None:
    """Errors carry lazy messages: English (the old text) until a reader's language is in force; values
    are filled in, a nested message reads in the same language, a count picks its plural form."""
    bounds = _said(lambda: parse_int("seats", 9, 2, 4))
    unknown = _said(lambda: entry("arctic").options.parse({"penaltys": "seen"}, 3))
    bots = _said(lambda: parse_bot_list(" , "))
    assert str(bounds) == "seats must be between 2 and 4, not 9"
    assert str(unknown) == "unknown option 'penaltys'; did you mean penalties?"
    assert str(bots) == "bot list ' , ' has an empty bot name; write e.g. random,baseline"
    with using("de"):
        assert str(bounds) == "seats muss zwischen 2 und 4 liegen, nicht 9"
        assert str(unknown) == "unbekannte Option 'penaltys'; meintest du penalties?"
    with using("pl"):
        too_long = [str(i18n.NL_("a chat message is at most %(n)s character", "…", n)) for n in (1, 3, 5)]
    assert too_long == [
        f"wiadomość czatu ma najwyżej {n} {word}" for n, word in ((1, "znak"), (3, "znaki"), (5, "znaków"))
    ]
    game = ARCTIC.lazy("unknown power %(power)s; powers: %(powers)s", power="'x'", powers="a, b")
    with using("de"):  # a game's message reads from the game's catalog
        assert str(game) == "unbekannte Fähigkeit 'x'; Fähigkeiten: a, b"


def test_a_broken_translation_reads_english_rather_than_failing() -> None:
    class Broken(Catalog):
        def gettext(self, message: str) -> str:
            return "kaputt %(nope)s"

    assert str(i18n.Msg(Broken("floe", "floe"), "%(name)s is bad", {"name": "x"})) == "x is bad"


class _Folder(Catalog):
    """The domain ``demo`` in a folder of the test's own."""

    def __init__(self, folder: Path) -> None:
        super().__init__("floe", "demo")
        self.folder_path = folder

    def directory(self) -> Path:
        return self.folder_path


def _write_po(path: Path, hello: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    header = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
    header += '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n'
    path.write_text(f'{header}msgid "Hello"\nmsgstr "{hello}"\n', encoding="utf-8")
    return path


def test_a_compiled_catalog_is_used_only_while_it_is_as_new_as_its_source(tmp_path: Path) -> None:
    """The build hook's compiling (``mofiles.compile_all``: beside each .po, or where a wheel takes it),
    and at run time a .mo read only if it is not older than its .po."""
    source = tmp_path / "src"
    po = _write_po(source / "locale" / "de" / "LC_MESSAGES" / "demo.po", "Hallo")
    wheel = tmp_path / "wheel"
    assert compile_all(source, lambda p: wheel / mo_path(p).relative_to(source)) == [
        wheel / "locale" / "de" / "LC_MESSAGES" / "demo.mo"
    ]
    assert not mo_path(po).exists()  # a wheel's build leaves the source as it is
    assert compile_all(source) == [mo_path(po)]
    with using("de"):
        assert _Folder(source / "locale").gettext("Hello") == "Hallo"
        # A .mo that says something else than its .po, and is newer: it is what is read (it is used).
        mo_path(po).write_bytes(
            compile_po(_write_po(tmp_path / "other" / "de" / "LC_MESSAGES" / "demo.po", "Moin"))
        )
        os.utime(po, ns=(1_000_000_000, 1_000_000_000))
        assert _Folder(source / "locale").gettext("Hello") == "Moin"
        # The .po edited after the .mo was built: the stale .mo is ignored, the .po compiled.
        _write_po(po, "Servus")
        os.utime(mo_path(po), ns=(1_000_000_000, 1_000_000_000))
        assert _Folder(source / "locale").gettext("Hello") == "Servus"
        # A damaged .mo, however new, does not stop the .po from being read.
        mo_path(po).write_bytes(b"not a catalog")
        assert _Folder(source / "locale").gettext("Hello") == "Servus"

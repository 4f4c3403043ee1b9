"""The catalogs are complete: every message id of the source (Python, JavaScript, the static pages) is in
every language's catalog of its domain, translated, reviewed (not fuzzy), with every plural form and the
same placeholders. A missing or mismatched translation fails here, naming the message.

The second half shows the check itself failing on a small made-up domain: a missing message, an empty or
fuzzy translation, a renamed placeholder, a Polish plural with two forms instead of three.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from floe.core.catalogs import Domain, check, domains, extract, placeholders
from floe.core.i18n import LANGUAGES, Catalog


@pytest.mark.parametrize("domain", domains(), ids=lambda d: d.name)
def test_every_message_is_translated_in_every_language(domain: Domain) -> None:
    problems = check(domain)
    assert not problems, "\n".join(problems[:40]) + (
        f"\n… {len(problems)} in all" if len(problems) > 40 else ""
    )


def test_the_domains_are_floe_and_each_game_in_its_own_package() -> None:
    found = {d.name: d for d in domains()}
    assert {"floe", "arctic", "arktia", "arche"} <= set(found)
    for name in ("arctic", "arktia", "arche"):
        assert found[name].source == Path(found["floe"].source, "games", name)
        assert found[name].source in found["floe"].skip  # a game's messages are not the generic layers'


def test_the_generic_domain_reads_python_javascript_and_html() -> None:
    ids = {m.id if isinstance(m.id, str) else m.id[0] for m in extract(domains()[0])}
    assert "Your choice (1-%(n)s, help): " in ids  # play/terminal.py
    assert "Back to all choices" in ids  # web/js/choices.js
    assert "Create table" in ids  # web/index.html, a static text
    assert "Show the newest move now (a click on the table or Esc/Space also does)" in ids  # a title
    assert "Fox" not in ids and "Place %(card)s on your pile" not in ids  # Arctic's own


def test_placeholders_are_read_as_python_format() -> None:
    assert placeholders("%(who)s gives %(card)s to %(whom)s") == ["card:s", "who:s", "whom:s"]
    assert placeholders("P%(seat)s: %(n)d%% done") == ["n:d", "seat:s"]
    assert placeholders("no placeholder") == []


# --- the check fails where it should -----------------------------------------------------------------
SOURCE = """
from floe.core.i18n import Catalog
_ = Catalog("x", "demo").gettext
ngettext = Catalog("x", "demo").ngettext
print(_("Hello %(name)s"))
print(ngettext("%(n)s card", "%(n)s cards", 3))
"""
GOOD = {
    "de": ("Hallo %(name)s", ["%(n)s Karte", "%(n)s Karten"]),
    "it": ("Ciao %(name)s", ["%(n)s carta", "%(n)s carte"]),
    "pl": ("Cześć %(name)s", ["%(n)s karta", "%(n)s karty", "%(n)s kart"]),
}


def _po(lang: str, hello: str | None, forms: list[str] | None, fuzzy: bool) -> str:
    """A catalog as a translator writes it (by hand, so it may be wrong in any way)."""
    plural = {"de": "nplurals=2; plural=(n != 1);", "it": "nplurals=2; plural=(n != 1);"}.get(
        lang, "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);"
    )
    out = ['msgid ""', 'msgstr ""', f'"Language: {lang}\\n"', f'"Plural-Forms: {plural}\\n"', ""]
    if hello is not None:
        out += ["#, fuzzy"] if fuzzy else []
        out += ['msgid "Hello %(name)s"', f'msgstr "{hello}"', ""]
    if forms is not None:
        out += ['msgid "%(n)s card"', 'msgid_plural "%(n)s cards"']
        out += [f'msgstr[{k}] "{form}"' for k, form in enumerate(forms)]
    return "\n".join(out) + "\n"


def _demo(tmp_path: Path, tweak: dict[str, tuple[object, object, bool]] | None = None) -> Domain:
    """A domain ``demo`` in ``tmp_path``: one source file, one catalog per language (``tweak`` replaces a
    language's (greeting, plural forms, fuzzy))."""
    (tmp_path / "mod.py").write_text(SOURCE)
    for lang in LANGUAGES[1:]:
        hello, forms = GOOD[lang]
        fuzzy = False
        if tweak and lang in tweak:
            hello, forms, fuzzy = tweak[lang]  # type: ignore[assignment]
        path = tmp_path / "locale" / lang / "LC_MESSAGES" / "demo.po"
        path.parent.mkdir(parents=True)
        path.write_text(_po(lang, hello, forms, fuzzy), encoding="utf-8")  # type: ignore[arg-type]
    catalog = Catalog("floe", "demo")
    catalog.directory = lambda: tmp_path / "locale"  # type: ignore[method-assign]
    return Domain(catalog, tmp_path)


def test_the_demo_domain_is_complete(tmp_path: Path) -> None:
    assert check(_demo(tmp_path)) == []


@pytest.mark.parametrize(
    ("tweak", "problem"),
    [
        ({"de": (None, GOOD["de"][1], False)}, "demo/de: 'Hello %(name)s' is missing"),
        ({"it": ("", GOOD["it"][1], False)}, "demo/it: 'Hello %(name)s': untranslated"),
        ({"it": ("Ciao %(name)s", GOOD["it"][1], True)}, "demo/it: 'Hello %(name)s': fuzzy (not reviewed)"),
        ({"de": ("Hallo %(nome)s", GOOD["de"][1], False)}, "demo/de: 'Hello %(name)s': placeholders"),
        ({"de": ("Hallo", GOOD["de"][1], False)}, "demo/de: 'Hello %(name)s': placeholders"),
        # Two forms where Polish has three: the third reads as missing (Babel pads it empty).
        (
            {"pl": (GOOD["pl"][0], ["%(n)s karta", "%(n)s kart"], False)},
            "demo/pl: '%(n)s card': untranslated",
        ),
        (
            {"pl": (GOOD["pl"][0], ["%(n)s karta", "", "%(n)s kart"], False)},
            "demo/pl: '%(n)s card': untranslated",
        ),
        (
            {"it": (GOOD["it"][0], ["%(n)s carta", "%(x)s carte"], False)},
            "demo/it: '%(n)s card': placeholders",
        ),
        ({"pl": (GOOD["pl"][0], None, False)}, "demo/pl: '%(n)s card' is missing"),
    ],
)
def test_the_check_names_a_missing_or_mismatched_translation(
    tmp_path: Path, tweak: dict[str, tuple[object, object, bool]], problem: str
) -> None:
    problems = check(_demo(tmp_path, tweak))
    assert len(problems) == 1 and problems[0].startswith(problem), problems

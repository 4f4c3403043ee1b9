"""The catalogs' upkeep with Babel: extracting message ids from the source, updating each language's ``.po``,
and checking that every language has every message, with the same placeholders and all its plural forms.

A domain is ``floe`` (the generic layers: ``src/floe`` less the games' packages) or a registered game (its
package, where its entry's ``locale`` points). Python, JavaScript and the static HTML pages are all read:
in Python and JavaScript the marked calls (``_``/``t``, ``ngettext``/``nt``, ``counted``), in HTML every
text and ``title``/``placeholder``/``aria-label`` (the browser translates the static page on load).
``scripts/catalogs.py`` runs ``update`` and ``check``; ``tests/core/test_catalogs.py`` runs ``check``.
"""

from __future__ import annotations

import html.parser
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from babel.messages.catalog import PYTHON_FORMAT, Message
from babel.messages.catalog import Catalog as PoCatalog
from babel.messages.extract import extract_from_dir
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po, write_po

from floe.core.i18n import FLOE, LANGUAGES, SOURCE, Catalog
from floe.core.registry import entries

__all__ = ["Domain", "check", "domains", "extract", "update"]

# The marked calls: name -> the arguments that are message ids (None: the first; (s, p): singular, plural).
KEYWORDS: dict[str, Any] = {
    "_": None,
    "N_": None,
    "NC_": ((1, "c"), 2),
    "L_": None,  # lazy: an error's message, translated when it is written for a reader
    "NL_": (1, 2),
    "pgettext": ((1, "c"), 2),
    "gettext": None,
    "ngettext": (1, 2),
    "t": None,  # JavaScript
    "N": None,
    "nt": (1, 2),
    "counted": (2, 3),
}
# Attributes of the static pages whose text people read.
HTML_ATTRIBUTES = ("title", "placeholder", "aria-label")


@dataclass(frozen=True)
class Domain:
    """One catalog domain and the source folder its message ids are extracted from."""

    catalog: Catalog
    source: Path
    skip: tuple[Path, ...] = ()  # folders of the source that belong to other domains

    @property
    def name(self) -> str:
        return self.catalog.domain


def domains() -> list[Domain]:
    """``floe`` and every registered game that has catalogs."""
    games = []
    for entry in entries():
        catalog = entry.catalog()
        if catalog is not None:
            games.append(Domain(catalog, catalog.directory().parent))
    generic = Domain(FLOE, FLOE.directory().parent, tuple(g.source for g in games))
    return [generic, *games]


def extract_html(
    fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, str, str, list[str]]]:
    """Babel extractor for the static pages: each text (trimmed) and each readable attribute."""
    found: list[tuple[int, str, str, list[str]]] = []

    class Parser(html.parser.HTMLParser):
        skipping = 0

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            if tag in ("script", "style"):
                self.skipping += 1
            for name, value in attrs:
                if name in HTML_ATTRIBUTES and value and value.strip():
                    found.append((self.getpos()[0], "", value.strip(), []))

        def handle_endtag(self, tag: str) -> None:
            if tag in ("script", "style"):
                self.skipping -= 1

        def handle_data(self, data: str) -> None:
            text = " ".join(data.split())
            if text and not self.skipping and any(ch.isalpha() for ch in text):
                found.append((self.getpos()[0], "", text, []))

    parser = Parser()
    parser.feed(fileobj.read().decode("utf-8"))
    yield from found


def extract(domain: Domain) -> PoCatalog:
    """The message ids the domain's source marks, as a template catalog."""
    template = PoCatalog(domain=domain.name, project="Floe", charset="utf-8")
    method_map = [
        *((f"{skip.relative_to(domain.source).as_posix()}/**", "ignore") for skip in domain.skip),
        ("**/locale/**", "ignore"),
        ("**.py", "python"),
        ("**.js", "javascript"),
        ("**.html", "floe.core.catalogs:extract_html"),
    ]
    for path, line, message, comments, context in extract_from_dir(
        str(domain.source),
        method_map,
        # Template literals too: `${t("…")}` is a marked call like any other.
        options_map={"**.js": {"parse_template_string": "true"}},
        keywords=KEYWORDS,
        comment_tags=("i18n:",),
        strip_comment_tags=True,
    ):
        if message == "Floe":  # the product's name is the same in every language
            continue
        template.add(message, None, [(path, line)], auto_comments=comments, context=context)
    return template


def _read(path: Path, lang: str, domain: str) -> PoCatalog:
    with path.open("rb") as po:
        return read_po(po, locale=lang, domain=domain)


def update(domain: Domain) -> list[Path]:
    """Write the domain's template and bring each language's ``.po`` up to it (new ids untranslated,
    translations of removed ids kept as obsolete); returns the files written."""
    template = extract(domain)
    written = []
    pot = domain.catalog.template_path()
    pot.parent.mkdir(parents=True, exist_ok=True)
    with pot.open("wb") as out:
        write_po(out, template, width=110, sort_output=True, include_lineno=False)
    written.append(pot)
    for lang in LANGUAGES:
        if lang == SOURCE:
            continue
        path = domain.catalog.po_path(lang)
        if path.is_file():
            catalog = _read(path, lang, domain.name)
        else:
            catalog = PoCatalog(locale=lang, domain=domain.name, project="Floe", charset="utf-8")
        catalog.update(template, no_fuzzy_matching=True, update_header_comment=False)
        catalog.fuzzy = False  # the header: a fuzzy one would hide the Plural-Forms from the compiled catalog
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as out:
            write_po(out, catalog, width=110, sort_output=True, include_lineno=False)
        written.append(path)
    return written


def placeholders(text: str) -> list[str]:
    """The python-format placeholders of ``text`` (``%(card)s``, ``%d``), sorted (order may change)."""
    found = []
    for match in PYTHON_FORMAT.finditer(text):
        name, kind = match.group(1), match.group(3)
        if kind != "%":  # "%%" is a literal percent sign
            found.append(f"{name or ''}:{kind}")
    return sorted(found)


def check(domain: Domain, source: PoCatalog | None = None) -> list[str]:
    """Every problem of the domain's languages: a message id of the source missing from a language, left
    untranslated or fuzzy, a plural message without all the language's forms, placeholders that differ from
    the id's. Empty: the catalogs are complete."""
    template = source if source is not None else extract(domain)
    problems: list[str] = []
    for lang in LANGUAGES:
        if lang == SOURCE:
            continue
        path = domain.catalog.po_path(lang)
        if not path.is_file():
            problems.append(f"{domain.name}/{lang}: no catalog at {path}")
            continue
        catalog = _read(path, lang, domain.name)
        forms = get_plural(lang).num_plurals
        if catalog.num_plurals != forms:
            problems.append(
                f"{domain.name}/{lang}: Plural-Forms has {catalog.num_plurals} forms, not {forms}"
            )
        for message in template:
            if not message.id:
                continue
            where = f"{domain.name}/{lang}: {_key(message)!r}"
            found = catalog.get(message.id, context=message.context)
            if found is None:
                problems.append(f"{where} is missing")
                continue
            problems += [f"{where}: {problem}" for problem in _problems(found, message, forms)]
    return problems


def _key(message: Message) -> str:
    return message.id[0] if isinstance(message.id, tuple) else str(message.id)


def _problems(found: Message, source: Message, forms: int) -> list[str]:
    if found.fuzzy:
        return ["fuzzy (not reviewed)"]
    plural = isinstance(source.id, tuple)
    raw = found.string
    texts = [str(t or "") for t in raw] if isinstance(raw, tuple | list) else [str(raw or "")]
    if plural and len(texts) != forms:
        return [f"{len(texts)} plural forms, not {forms}"]
    if plural != isinstance(found.id, tuple):
        return ["singular and plural differ from the source"]
    if any(not text for text in texts):
        return ["untranslated"]
    ids = [str(i) for i in source.id] if isinstance(source.id, tuple) else [str(source.id)]
    wanted = placeholders(ids[-1])
    out = []
    for text in texts:
        try:
            got = placeholders(text)
        except (TypeError, ValueError) as exc:
            out.append(f"bad placeholder in {text!r}: {exc}")
            continue
        # A plural form may leave out the count (Polish "jedna karta" for %(n)s), never add or rename one.
        if got != wanted and not (plural and set(got) < set(wanted)):
            out.append(f"placeholders {got} in {text!r}, not {wanted}")
    return out

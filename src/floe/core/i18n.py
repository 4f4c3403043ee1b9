"""Languages: gettext catalogs (managed with Babel), the language in force, and choosing one.

Every text a person reads is an English message id looked up in a gettext catalog. There is one catalog
*domain* per package that speaks: ``floe`` for the generic layers (``src/floe/locale``) and one per game,
named after the game and living in the game's own package (``<package>/locale``), so a game plug-in brings
its own. A domain holds one ``<lang>/LC_MESSAGES/<domain>.po`` per language; ``scripts/catalogs.py``
extracts, updates and checks them (docs/languages.md).

The ``.po`` files are the only thing kept in git. Building a wheel or an editable install compiles each
to its ``.mo`` (``hatch_catalogs.py``, ``floe.core.mofiles``); a process reads a ``.mo`` only if it is at
least as new as its ``.po``, else compiles the ``.po`` with Babel the first time it needs it, in memory.
Either way the standard library's ``gettext.GNUTranslations`` reads it. So a fresh clone, ``./floe-test``
and an edited ``.po`` all see the catalogs as they are, and no stale compiled file can hide an edit.

The language in force is a context variable: the terminal sets it once (``--lang``, else ``LC_ALL`` /
``LC_MESSAGES`` / ``LANG``), the server sets it around everything it renders for one connection
(``using``), so each seat reads its own language while records and notation stay language-neutral.
"""

from __future__ import annotations

import functools
import gettext
import io
import re
import struct
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from importlib import resources
from pathlib import Path
from typing import Any

from floe.core.mofiles import compile_po, current_mo

__all__ = [
    "LANGUAGES",
    "L_",
    "NC_",
    "NL_",
    "N_",
    "SOURCE",
    "Catalog",
    "Msg",
    "current",
    "from_environment",
    "language",
    "negotiate",
    "text_of",
    "using",
]

# The languages Floe speaks (the rulebooks' languages); the first is the language of the message ids.
LANGUAGES: tuple[str, ...] = ("en", "de", "it", "pl")
SOURCE = "en"
# Each language's name in itself, for the pickers.
NAMES: Mapping[str, str] = {"en": "English", "de": "Deutsch", "it": "Italiano", "pl": "Polski"}

_current: ContextVar[str] = ContextVar("floe_language", default=SOURCE)
# A language tag as people and browsers write it: "de", "pl-PL", "it_IT.UTF-8", "de_DE@euro".
_TAG = re.compile(r"^\s*([A-Za-z]{2,3})(?:[-_][A-Za-z0-9]{1,8})*(?:\.[\w-]{1,20})?(?:@\w{1,20})?\s*$")
# Accept-Language is bounded before it is read: a header longer than this is cut (the first tags count most).
MAX_ACCEPT = 512


def N_(message: str) -> str:
    """Mark ``message`` for extraction without translating it (a constant translated where it is shown)."""
    return message


def NC_(context: str, message: str) -> str:
    """Mark ``message`` in ``context`` for extraction (``NC_("notation", "place")``: a word of a game's
    notation, which ``Catalog.notation`` maps to and from the reader's language)."""
    return message


def current() -> str:
    """The language in force (``en`` unless ``using`` or the terminal said otherwise)."""
    return _current.get()


@contextmanager
def using(lang: str) -> Iterator[str]:
    """Render in ``lang`` (a known language; anything else means the source language) inside the block."""
    token = _current.set(lang if lang in LANGUAGES else SOURCE)
    try:
        yield _current.get()
    finally:
        _current.reset(token)


def language(tag: str | None) -> str | None:
    """The known language a tag names (``de_DE.UTF-8`` -> ``de``, ``pl-PL`` -> ``pl``), or None."""
    if not tag or len(tag) > 64:
        return None
    match = _TAG.match(tag)
    if match is None:
        return None
    code = match.group(1).lower()
    return code if code in LANGUAGES else None


def from_environment(environ: Mapping[str, str]) -> str:
    """The language the environment asks for, read as gettext does: ``LANGUAGE`` (a colon-separated list),
    then ``LC_ALL``, ``LC_MESSAGES``, ``LANG``; the first variable that is set decides (``C`` and ``POSIX``
    mean English), a language Floe does not speak falls through to English."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "")
        if not value:
            continue
        for tag in value.split(":")[:8]:
            found = language(tag)
            if found is not None:
                return found
        if name != "LANGUAGE":  # LC_ALL=C says English even if LANG says German
            return SOURCE
    return SOURCE


def negotiate(accept_language: str | None) -> str:
    """The best known language for an ``Accept-Language`` header (``de-DE,de;q=0.9,en;q=0.8``), by quality
    then order; English if none is known."""
    best: tuple[float, int, str] | None = None
    for order, part in enumerate((accept_language or "")[:MAX_ACCEPT].split(",")[:32]):
        tag, _, params = part.partition(";")
        found = language(tag)
        if found is None:
            continue
        quality = 1.0
        match = re.match(r"\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$", params) if params else None
        if params and match is None:
            continue
        if match is not None:
            quality = float(match.group(1))
        if quality <= 0:
            continue
        key = (-quality, order, found)
        if best is None or key < best:
            best = key
    return SOURCE if best is None else best[2]


class Catalog:
    """One domain's messages in every language: ``gettext``/``ngettext`` in the language in force.

    ``package`` is the package whose ``folder`` holds ``<lang>/LC_MESSAGES/<domain>.po``. A language whose
    catalog is missing reads the message ids (English).
    """

    def __init__(self, package: str, domain: str, folder: str = "locale") -> None:
        self.package, self.domain, self.folder = package, domain, folder
        self._loaded: dict[str, gettext.NullTranslations] = {}
        self._lock = threading.Lock()

    def directory(self) -> Path:
        """The folder holding the domain's languages."""
        return Path(str(resources.files(self.package).joinpath(self.folder)))

    def po_path(self, lang: str) -> Path:
        """Where ``lang``'s catalog of this domain lives."""
        return self.directory() / lang / "LC_MESSAGES" / f"{self.domain}.po"

    def template_path(self) -> Path:
        """The extracted message ids (``<domain>.pot``), from which the languages' catalogs are updated."""
        return self.directory() / f"{self.domain}.pot"

    def translations(self, lang: str) -> gettext.NullTranslations:
        """``lang``'s compiled catalog (compiled from its ``.po`` on first use, then kept)."""
        found = self._loaded.get(lang)
        if found is not None:
            return found
        with self._lock:
            found = self._loaded.get(lang)
            if found is None:
                found = self._compile(lang)
                self._loaded[lang] = found
        return found

    def _compile(self, lang: str) -> gettext.NullTranslations:
        path = self.po_path(lang)
        if lang == SOURCE or lang not in LANGUAGES or not path.is_file():
            return gettext.NullTranslations()
        # The .mo an install compiled (hatch_catalogs.py), if it is not older than the .po.
        mo = current_mo(path)
        if mo is not None:
            try:
                with mo.open("rb") as compiled:
                    return gettext.GNUTranslations(compiled)
            except (OSError, ValueError, struct.error):  # a damaged .mo: the .po decides
                pass
        # Babel is imported only here, so listing games or running a bot never imports it.
        return gettext.GNUTranslations(io.BytesIO(compile_po(path)))

    def gettext(self, message: str) -> str:
        """``message`` in the language in force."""
        return self.translations(_current.get()).gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """The form of ``singular``/``plural`` for the count ``n`` in the language in force (its catalog's
        ``Plural-Forms``: Polish has three)."""
        return self.translations(_current.get()).ngettext(singular, plural, n)

    def pgettext(self, context: str, message: str) -> str:
        """``message`` in ``context`` in the language in force."""
        return self.translations(_current.get()).pgettext(context, message)

    def notation(self, lang: str | None = None) -> dict[str, str]:
        """The words of the domain's notation (context ``notation``) in ``lang`` (the language in force if
        None): English word -> the reader's word, lower case. Records and notation stay English; a reader
        sees and may type these words (``show_notation``, ``read_notation``)."""
        raw: dict[Any, str] = getattr(self.translations(lang or _current.get()), "_catalog", {})
        prefix = "notation\x04"
        return {
            key[len(prefix) :].lower(): text.lower()
            for key, text in raw.items()
            if isinstance(key, str) and key.startswith(prefix) and text
        }

    def show_notation(self, notation: str) -> str:
        """``notation`` with its words in the language in force (``place fox-walrus-4`` -> ``ablegen
        fox-walrus-4``); card names and numbers stay as they are."""
        words = self.notation()
        return " ".join(words.get(word, word) for word in notation.split(" "))

    def read_notation(self, typed: str) -> str:
        """Typed notation in English or in the language in force, as English notation."""
        back = {local: english for english, local in self.notation().items()}
        return " ".join(back.get(word, word) for word in typed.split(" "))

    def lazy(self, message: str, /, **values: Any) -> Msg:
        """``message`` with its named ``values``, translated only when it is read (``str()``, in the
        language in force): an error raised here and written, later, for a reader of another language."""
        return Msg(self, message, values)

    def nlazy(self, singular: str, plural: str, n: int, /, **values: Any) -> Msg:
        """``lazy`` for a message that counts ``n`` (its form picked by ``ngettext``; ``n`` is a value)."""
        return Msg(self, singular, {"n": n, **values}, plural, n)

    def counted(self, n: int, singular: str, plural: str) -> str:
        """``n`` and the noun in the form ``n`` asks for: ``1 card``, ``2 cards``; ``2 karty``, ``5 kart``."""
        return f"{n} {self.ngettext(singular, plural, n)}"

    def browser(self, lang: str) -> dict[str, Any]:
        """``lang``'s messages of this domain for the browser (``GET /api/i18n/{lang}``): each translated
        message id to its text (a list of forms for a plural), and the plural categories (Unicode CLDR, as
        the browser's ``Intl.PluralRules`` names them) in the order of the catalog's forms."""
        translations = self.translations(lang)
        raw: dict[Any, str] = getattr(translations, "_catalog", {})
        messages: dict[str, Any] = {}
        for key, text in raw.items():
            if isinstance(key, tuple):  # (msgid, form): a plural message
                forms = messages.setdefault(key[0], [])
                if isinstance(forms, list):
                    forms.extend([""] * (key[1] + 1 - len(forms)))
                    forms[key[1]] = text
            elif key:  # the empty id is the header
                messages[key] = text
        return {"lang": lang, "domain": self.domain, "plural": plural_categories(lang), "messages": messages}


class Msg:
    """A message kept untranslated until it is read: ``str(msg)`` is its text in the language in force
    (``using``), its python-format placeholders filled from its values (a value that is itself a ``Msg`` is
    rendered in the same language). Errors carry one, so ``str(error)`` is English for the tests and the
    logs, and the server writes it in each reader's language (``Catalog.lazy``, ``L_`` / ``NL_``)."""

    __slots__ = ("catalog", "message", "n", "plural", "values")

    def __init__(
        self,
        catalog: Catalog,
        message: str,
        values: Mapping[str, Any],
        plural: str | None = None,
        n: int | None = None,
    ) -> None:
        self.catalog, self.message, self.values = catalog, message, dict(values)
        self.plural, self.n = plural, n

    def _text(self, translated: bool) -> str:
        if self.plural is None or self.n is None:
            text = self.catalog.gettext(self.message) if translated else self.message
        elif translated:
            text = self.catalog.ngettext(self.message, self.plural, self.n)
        else:
            text = self.message if self.n == 1 else self.plural
        if not self.values:
            return text
        return text % {key: str(v) if isinstance(v, Msg) else v for key, v in self.values.items()}

    def __str__(self) -> str:
        try:
            return self._text(translated=True)
        except (KeyError, ValueError, TypeError):  # a broken translation: the English text, not a crash
            return self._text(translated=False)

    def __repr__(self) -> str:
        return f"Msg({self.message!r}, {self.values!r})"


def text_of(error: BaseException) -> str | Msg:
    """What an error says, kept lazy if it is (``raise OptionError(L_(…))``), else its plain text: for an
    error that passes another's reason on (``Refusal("bad_option", text_of(exc))``)."""
    said = error.args[0] if len(error.args) == 1 else None
    return said if isinstance(said, Msg) else str(error)


def plural_categories(lang: str) -> list[str]:
    """The CLDR plural category of each of ``lang``'s gettext forms, in order (``["one", "few", "many"]``
    for Polish): the browser picks a form with ``Intl.PluralRules``, the catalogs' rule decides the order."""
    from babel import Locale
    from babel.messages.plurals import get_plural

    lang = lang if lang in LANGUAGES else SOURCE
    rule = Locale.parse(lang).plural_form
    plural = gettext.c2py(get_plural(lang).plural_expr)  # the rule the catalogs' Plural-Forms header states
    forms: dict[int, str] = {}
    for n in range(200):
        forms.setdefault(plural(n), rule(n))
    return [forms[k] for k in sorted(forms)]


# The generic layers' own domain.
def catalog_of(package: str, domain: str, folder: str = "locale") -> Catalog:
    """The one ``Catalog`` of ``domain`` in ``package``'s ``folder``: a game's modules and its entry share it,
    so each language is compiled once per process, not once per caller."""
    return _catalog(package, domain, folder)


@functools.cache
def _catalog(package: str, domain: str, folder: str) -> Catalog:  # keyed on all three, however passed
    return Catalog(package, domain, folder)


FLOE = catalog_of("floe", "floe")
# The generic layers' lazy messages (errors): ``raise OptionError(L_("%(name)s must be …", name=…))``.
L_ = FLOE.lazy
NL_ = FLOE.nlazy

"""The languages the browser reads: ``GET /api/i18n/{lang}?domain=…`` serves one gettext domain's messages
as JSON (``Catalog.browser``), the same catalogs the server renders its own texts from.

Only known languages and domains are served (``floe`` and each registered game with catalogs): anything else
is a short ``not_found`` error, so the URL cannot name a file. Each answer is built once per process.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from floe.core import i18n
from floe.core.i18n import FLOE, LANGUAGES, NAMES, Catalog
from floe.core.registry import entries
from floe.server.refusal import Refusal

__all__ = ["catalog_json", "languages_json", "reader_language"]


def _catalog(domain: str) -> Catalog | None:
    if domain == FLOE.domain:
        return FLOE
    for entry in entries():
        if entry.name == domain:
            return entry.catalog()
    return None


@lru_cache(maxsize=64)  # at most 4 languages x (1 + the games) answers, each a few tens of kilobytes
def _cached(lang: str, domain: str) -> dict[str, Any]:
    catalog = _catalog(domain)
    if catalog is None:
        raise Refusal("not_found", f"no messages for the domain {domain[:40]!r}", 404)
    return catalog.browser(lang)


def catalog_json(lang: str, domain: str) -> dict[str, Any]:
    """``domain``'s messages in ``lang`` (``Refusal`` 404 for an unknown language or domain)."""
    if lang not in LANGUAGES:
        raise Refusal("not_found", f"no language {lang[:16]!r}; known: {', '.join(LANGUAGES)}", 404)
    return _cached(lang, domain[:64])


def reader_language(asked: str | None, request: Any) -> str:
    """The language of one reader: the one it asks for (``?lang=``, the WebSocket ``hello``), else its
    ``Accept-Language`` header's best, else English."""
    found = i18n.language(asked)
    if found is not None:
        return found
    return i18n.negotiate(request.headers.get("accept-language"))


def languages_json() -> list[dict[str, str]]:
    """The languages the picker offers, each by its code and its own name."""
    return [{"code": code, "name": NAMES[code]} for code in LANGUAGES]

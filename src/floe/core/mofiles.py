"""Compiled catalogs (``.mo`` files) beside the ``.po`` files: written when a wheel or an editable install
is built (``hatch_catalogs.py`` at the repository's root), used at run time only while they are current.

A ``.mo`` is used only if it is at least as new as its ``.po`` (modification times): an edited ``.po`` is
never shadowed by a stale ``.mo``, it is compiled in memory instead (``floe.core.i18n.Catalog``), as a
fresh clone's are. This module needs only the standard library and Babel, so the build hook loads it by
its path without importing Floe (whose dependencies a build environment does not have).
"""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

__all__ = ["compile_all", "compile_po", "current_mo", "mo_path"]


def mo_path(po: Path) -> Path:
    """Where the compiled form of ``po`` lives: beside it (``floe.po`` -> ``floe.mo``)."""
    return po.with_suffix(".mo")


def compile_po(po: Path) -> bytes:
    """``po`` compiled to the ``.mo`` form with Babel (fuzzy entries left out, as msgfmt does). The
    language is the folder ``<lang>/LC_MESSAGES/`` the file sits in, the domain its name."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    lang = po.parent.parent.name
    with po.open("rb") as source:
        catalog = read_po(source, locale=lang, domain=po.stem)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    return compiled.getvalue()


def compile_all(root: Path, target: Callable[[Path], Path] = mo_path) -> list[Path]:
    """Compile every ``locale/<lang>/LC_MESSAGES/<domain>.po`` under ``root``, each written to
    ``target(po)`` (beside it unless said); returns the files written."""
    written = []
    for po in sorted(root.glob("**/locale/*/LC_MESSAGES/*.po")):
        out = target(po)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(compile_po(po))
        written.append(out)
    return written


def current_mo(po: Path) -> Path | None:
    """``po``'s compiled form if there is one at least as new as ``po`` (else None: compile ``po``)."""
    mo = mo_path(po)
    try:
        return mo if mo.stat().st_mtime_ns >= po.stat().st_mtime_ns else None
    except OSError:
        return None

"""Arktia's own gettext catalogs (domain ``arktia``, in ``locale/``): ``_``, ``ngettext`` and
``counted`` in the language in force (``floe.core.i18n``)."""

from __future__ import annotations

from floe.core.i18n import Catalog

CATALOG = Catalog("floe.games.arktia", "arktia")
_ = CATALOG.gettext
ngettext = CATALOG.ngettext
counted = CATALOG.counted

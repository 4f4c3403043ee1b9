"""Arche Opti Mix's own gettext catalogs (domain ``arche``, in ``locale/``): ``_``, ``ngettext`` and
``counted`` in the language in force (``floe.core.i18n``)."""

from __future__ import annotations

from floe.core.i18n import Catalog

CATALOG = Catalog("floe.games.arche", "arche")
_ = CATALOG.gettext
ngettext = CATALOG.ngettext
counted = CATALOG.counted

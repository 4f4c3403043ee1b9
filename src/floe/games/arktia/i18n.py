"""Arktia's own gettext catalogs (domain ``arktia``, in ``locale/``): ``_``, ``ngettext`` and
``counted`` in the language in force (``floe.core.i18n``)."""

from __future__ import annotations

from floe.core.i18n import N_, NC_, catalog_of

CATALOG = catalog_of("floe.games.arktia", "arktia")
_ = CATALOG.gettext
L_ = CATALOG.lazy  # an error's message, translated when it is written for a reader
ngettext = CATALOG.ngettext
counted = CATALOG.counted

# The pieces' names by size (the German rulebook's Globus, Diskus, Torus; translated where shown).
SIZE_WORDS = (N_("Globus"), N_("Diskus"), N_("Torus"))

# The words of Arktia's notation a reader sees and may type in their language (the record keeps English):
# ``melt a2`` reads ``abschmelzen a2`` in German; fields, colours (``p2``) and size letters stay as they are.
NOTATION = (
    NC_("notation", "melt"),
    NC_("notation", "keep"),
    NC_("notation", "stop"),
    NC_("notation", "neutral"),
)

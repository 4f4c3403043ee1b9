"""Arctic's own gettext catalogs (domain ``arctic``, in ``locale/``): ``_``, ``ngettext`` and
``counted`` in the language in force (``floe.core.i18n``)."""

from __future__ import annotations

from floe.core.i18n import NC_, catalog_of

CATALOG = catalog_of("floe.games.arctic", "arctic")
_ = CATALOG.gettext
L_ = CATALOG.lazy  # an error's message, translated when it is written for a reader
ngettext = CATALOG.ngettext
counted = CATALOG.counted

# The words of Arctic's notation a reader sees and may type in their language (the record keeps English):
# ``place fox-walrus-4`` reads ``ablegen fox-walrus-4`` in German; card names stay as they are.
NOTATION = (
    NC_("notation", "stop"),
    NC_("notation", "pass"),
    NC_("notation", "take-back"),
    NC_("notation", "deck"),
    NC_("notation", "main"),
    NC_("notation", "extra"),
    NC_("notation", "right"),
    NC_("notation", "left"),
    NC_("notation", "penalty-blind"),
    NC_("notation", "look"),
    NC_("notation", "place"),
    NC_("notation", "under"),
    NC_("notation", "facedown"),
    NC_("notation", "swap"),
    NC_("notation", "river"),
    NC_("notation", "penalty"),
    NC_("notation", "discard"),
    NC_("notation", "give"),
    NC_("notation", "to"),
)

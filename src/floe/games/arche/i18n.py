"""Arche Opti Mix's own gettext catalogs (domain ``arche``, in ``locale/``): ``_``, ``ngettext`` and
``counted`` in the language in force (``floe.core.i18n``)."""

from __future__ import annotations

from floe.core.i18n import NC_, catalog_of

CATALOG = catalog_of("floe.games.arche", "arche")
_ = CATALOG.gettext
L_ = CATALOG.lazy  # an error's message, translated when it is written for a reader
ngettext = CATALOG.ngettext
counted = CATALOG.counted

# The words of Arche's notation a reader sees and may type in their language (the record keeps English):
# ``play hare l2`` reads ``spielen hare l2`` in German; card names and cabins stay as they are.
NOTATION = (
    NC_("notation", "draw"),
    NC_("notation", "draw-top"),
    NC_("notation", "take"),
    NC_("notation", "play"),
    NC_("notation", "evict"),
    NC_("notation", "no-evict"),
    NC_("notation", "pet"),
    NC_("notation", "no-pet"),
    NC_("notation", "chip"),
    NC_("notation", "no-chip"),
    NC_("notation", "figure"),
    NC_("notation", "discard"),
    NC_("notation", "done"),
    NC_("notation", "pass"),
    NC_("notation", "heavy"),
    NC_("notation", "useful"),
    NC_("notation", "shy"),
    NC_("notation", "slow"),
    NC_("notation", "provisions"),
)

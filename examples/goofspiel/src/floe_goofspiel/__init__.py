"""Goofspiel for Floe: everything Floe needs to know about the game is this entry."""

from floe.core.entry import GameEntry
from floe_goofspiel.game import Goofspiel

ENTRY = GameEntry(
    game=Goofspiel,
    summary="bid cards in secret for prizes; the single highest bid wins each prize",
    default_bot="ismcts:it=200",
    hint_bots=("ismcts:it=2000",),
    lobby_bots=("random", "ismcts:it=200", "ismcts:it=1000"),
    reveals="floe_goofspiel.game:last_bid",  # for the conformance kit (floe.testing)
)

"""Arctic (Ludonaute, 2019): 2–4 players, hidden hands and totems, a shuffled deck, 12 animal powers."""

from floe.core.registry import register
from floe.games.arctic.game import VERSION, ArcticGame, ArcticState

register("arctic", ArcticGame)

__all__ = ["VERSION", "ArcticGame", "ArcticState"]

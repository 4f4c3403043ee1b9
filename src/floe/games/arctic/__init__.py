"""Arctic (Ludonaute, 2019): 2–4 players, hidden hands and totems, a shuffled deck, 12 animal powers.

Registered with Floe through its entry (``floe.games.arctic.entry:ENTRY``, a ``floe.games`` entry point).
"""

from floe.games.arctic.game import VERSION, ArcticGame, ArcticState

__all__ = ["VERSION", "ArcticGame", "ArcticState"]

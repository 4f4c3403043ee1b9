"""Arctic (Ludonaute, 2019): 2–4 players, hidden hands and totems, a shuffled deck, 12 animal powers.

Registered with Floe through its entry (``floe.games.arctic.entry:ENTRY``, a ``floe.games`` entry point).
"""

from floe.games.arctic import native

native.use(__path__)  # before any engine module is imported: the compiled ones, when built and in use

from floe.games.arctic.game import VERSION, ArcticGame, ArcticState  # noqa: E402

__all__ = ["VERSION", "ArcticGame", "ArcticState"]

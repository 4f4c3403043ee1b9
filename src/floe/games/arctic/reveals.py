"""Where an action may show a seat a card hidden from it until then (``GameEntry.reveals``, ``floe.testing``).

Two worlds a seat cannot tell apart may rightly part there: taking the visible card of a pile back shows
the card under it, which private piles hide from the others (``piles_public=false``), and a Polar bear
power's look shows the seat its own face-down penalty cards (``penalties=hidden_look``).
"""

from __future__ import annotations

from floe.core.game import State
from floe.games.arctic import actions as act
from floe.games.arctic.game import ArcticState


def reveals(state: State, action: int, seat: int) -> bool:
    """Whether applying ``action`` at ``state`` may show ``seat`` a card that was hidden from it."""
    assert isinstance(state, ArcticState)
    if action == act.LOOK:
        return seat == state.current_player()
    return action == act.TAKE_BACK and not state.config.piles_public

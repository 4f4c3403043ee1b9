"""Which of Arktia's choices end the chooser's game, so the table can warn and ask before one is played.

A choice *ends your game* when, however the chooser finishes the turn it starts (the ``keep`` and ``melt``
decisions that may follow are the same seat's), the seat is out afterwards: it stopped (docs/arktia-rules.md
§10(d)), it is left with one Muglu (c), it must melt and cannot (b), or the turn limit ends everyone's game.
The table shows a warning when every choice does, and asks before a ``stop`` or before a choice that ends the
game when another would not. Arktia has perfect information, so this look-ahead tells nobody anything they
could not see on the board.

>>> from floe.games.arktia.game import ArktiaGame
>>> st = ArktiaGame(2, {"neutrals": False, "max_turns": 1}).new_initial_state()
>>> costs(st)[st.legal_actions()[0]]
'limit'
"""

from __future__ import annotations

from floe.games.arktia.game import ArktiaState
from floe.games.arktia.state import ACTIVE, OUT_LIMIT

# Follow-up decisions of the same turn looked at, at most (keep choices, then a melt): a turn has at most
# one keep per colour and one melt, so real positions stay far below this; it only bounds a freak layout.
MAX_LOOKS = 5000


def _ends(st: ArktiaState, seat: int, turn: int, budget: list[int]) -> bool:
    """Whether ``seat``'s game is over after every way it can finish its turn ``turn`` from ``st``."""
    if st.out[seat] != ACTIVE:
        return True
    if st.is_terminal() or st.current_player() != seat or st.turn != turn:
        return False  # the turn is over and the seat plays on
    for action in st.legal_actions():
        budget[0] -= 1
        if budget[0] < 0:
            return False  # too much to look at: no warning rather than a wrong one
        after = st.clone()
        after.apply_unchecked(action)
        if not _ends(after, seat, turn, budget):
            return False
    return True


def costs(st: ArktiaState) -> dict[int, str]:
    """The legal actions of the seat to act that end its game: action -> ``"limit"`` (the turn limit ends
    every game) or ``"out"`` (this seat's game ends). Empty at a terminal state."""
    if st.is_terminal():
        return {}
    seat = st.current_player()
    budget = [MAX_LOOKS]
    out: dict[int, str] = {}
    for action in st.legal_actions():
        after = st.clone()
        after.apply_unchecked(action)
        if _ends(after, seat, st.turn, budget):
            limit = after.is_terminal() and OUT_LIMIT in after.out
            out[action] = "limit" if limit else "out"
    return out

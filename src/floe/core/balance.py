"""The game side of ``floe balance``: what a finished game says about balance, in plain JSON facts.

A game that wants more than the generic figures (win rate and score by seat and by bot, game length)
names a ``BalanceSpec`` in its entry (``GameEntry.balance``). Its ``facts`` function reads a finished game
(the final state and its action history, which replays every decision and chance outcome) and returns a
``GameFacts``:

- ``seats``: one mapping per seat of *categorical* facts — a string, an integer or a boolean (the seat's
  totem animal, the value it ended on, its colour), or a list of strings when the seat belongs to several
  groups at once (every power card it held at the end). The lab reports win rate and mean score per value.
- ``game``: facts about the whole game — a string or boolean is categorical (how the game ended, whether
  the turn limit was reached: the lab reports the share of games per value), an integer or float is a
  count or measure (rounds, uses of one power: the lab reports its mean); None means "does not apply to
  this game" (a power that was not in play) and leaves the game out of that figure.

``labels`` gives each fact key its name for people ("totem animal"); a key without a label is shown as it
is. Facts must be cheap to compute: the bots playing the games are the cost of a balance run, not this.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from floe.core.game import Game, State

SeatFact = str | int | bool | list[str]
GameFact = str | int | float | bool | None


@dataclass(frozen=True)
class GameFacts:
    """The balance facts of one finished game: per seat (categorical) and for the game as a whole."""

    seats: list[dict[str, SeatFact]]
    game: dict[str, GameFact] = field(default_factory=dict)

    def to_json(self) -> dict[str, object]:
        """JSON-ready data (what a results line stores)."""
        return {"seats": [dict(s) for s in self.seats], "game": dict(self.game)}


@dataclass(frozen=True)
class BalanceSpec:
    """A game's balance hook: ``facts(game, final_state)`` and the names of the facts for people."""

    facts: Callable[[Game, State], GameFacts]
    labels: Mapping[str, str] = field(default_factory=dict)

    def label(self, key: str) -> str:
        """The name people see for fact ``key``."""
        return self.labels.get(key, key)

"""The bot protocol: a bot sees one seat's observation and the legal actions, never the full state.

``Bot`` is what every bot is; ``RandomBot`` the simplest one. How a bot is named (``specs``), found
(``registry``), given its parameters (``params``) and how a search keeps its budget (``searching``) live
beside this module. Every bot gets its own seeded generator so a seeded game with bots is reproducible.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any, ClassVar

from floe.core.errors import OptionError
from floe.core.game import Game
from floe.core.i18n import L_
from floe.core.options import OptionSchema


class Bot(ABC):
    """A player program for one seat.

    ``remembers``: the bot keeps memory between its decisions (a search tree, the positions it has met),
    so a table keeps one bot per seat for the whole game instead of building one per decision; a bot
    rebuilt mid-game (a restarted server) is told its seat's earlier decisions through ``recall``.
    """

    name = "bot"
    remembers: ClassVar[bool] = False
    # The longest one decision may take, in seconds (None: no cap). Whoever runs the bot sets it (the server
    # does, for every decision); bots whose decision time depends on a budget (the searches) stop when it is
    # up, whatever their parameters. Bots whose parameters bound their work by themselves may ignore it.
    time_cap: float | None = None
    # The visits of the root's actions (action id -> visits) in the search behind the last ``choose``, for a
    # learner that imitates the bot (``floe train --imitate``: the visits say more than the one action
    # chosen); None when that decision was not searched. Search bots set it in ``choose``.
    last_visits: Mapping[int, int] | None = None

    def __init__(self, game: Game, seat: int, seed: int, **params: str) -> None:
        if params:
            said = L_(
                "bot %(bot)s takes no parameter %(name)s", bot=repr(self.name), name=repr(next(iter(params)))
            )
            raise OptionError(said)
        self.game = game
        self.seat = seat
        self.rng = random.Random(seed)

    @classmethod
    def plays(cls, game: type[Game]) -> bool:
        """Whether this bot can play ``game`` at all (a generic bot may need, say, perfect information)."""
        return True

    @classmethod
    def parameters(cls, game: type[Game]) -> OptionSchema:
        """The parameters this bot takes in ``game`` (``floe.bots.params.read_params`` reads a spec's by
        them; ``floe options GAME --bot NAME`` lists them). None by default."""
        return OptionSchema()

    @classmethod
    def cost(cls, params: Mapping[str, str]) -> float | None:
        """An upper estimate, in seconds, of one decision of this bot with ``params`` (already checked by the
        constructor), for a scheduler that keeps quick decisions apart from long searches; None if unknown
        (it is then treated as a long one)."""
        return None

    @abstractmethod
    def choose(self, observation: Any, legal_actions: list[int]) -> int:
        """Pick one of ``legal_actions`` knowing only ``observation`` (this seat's view)."""

    def recall(self, observation: Any, action: int) -> None:  # noqa: B027 (optional hook, no-op default)
        """Learn of a decision this seat made earlier, before this bot existed (``observation`` is the seat's
        view then). Bots that remember nothing ignore it."""


class RandomBot(Bot):
    """Uniformly random among the legal actions."""

    name = "random"

    @classmethod
    def cost(cls, params: Mapping[str, str]) -> float | None:
        return 1e-5  # measured ~20 µs with the bot built (docs/server.md, "Bot lanes")

    def choose(self, observation: Any, legal_actions: list[int]) -> int:
        return self.rng.choice(legal_actions)

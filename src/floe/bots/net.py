"""``net``: the learned policy alone, one network evaluation per decision (docs/learning.md).

The bot rebuilds its seat's observation vector from the observation it is given (``game.determinize`` of
that observation, whose vector for the seat is the seat's own: nothing hidden from it reaches the network),
evaluates the model and plays the most likely legal action, or samples one with ``temp`` > 0
(probabilities raised to ``1/temp``).

Parameters: ``net`` = a model name (default ``default``: the game's own model for the player count, see
``floe.learn.model.find_model``), ``temp`` = sampling temperature (0, the default, plays the most likely
action; up to 100).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from floe.bots.base import Bot
from floe.bots.params import number_option, read_params
from floe.bots.puct import NET, load_net
from floe.core.game import Game
from floe.core.options import OptionSchema
from floe.learn.model import has_models

MAX_TEMP = 100
PARAMETERS = OptionSchema(
    (NET, number_option("temp", 0.0, "sampling temperature: 0 plays the most likely action", MAX_TEMP))
)


class NetBot(Bot):
    """The policy network's choice: the most likely legal action, or a sample with a temperature."""

    name = "net"

    def __init__(self, game: Game, seat: int, seed: int, **params: str) -> None:
        super().__init__(game, seat, seed)
        values = read_params("net", PARAMETERS, params, game.players)
        self.model = load_net("net", game, values["net"])
        self.temp: float = values["temp"]

    @classmethod
    def plays(cls, game: type[Game]) -> bool:
        return has_models(game.name)

    @classmethod
    def parameters(cls, game: type[Game]) -> OptionSchema:
        return PARAMETERS

    @classmethod
    def cost(cls, params: Mapping[str, str]) -> float | None:
        return 0.002  # one evaluation of a small network (docs/learning.md)

    def policy(self, observation: Any, legal_actions: list[int]) -> np.ndarray:
        """The network's probabilities over ``legal_actions`` (in that order) for this observation."""
        vector = self.game.determinize(observation, self.rng).observation_vector(self.seat)
        probs, _ = self.model.evaluate(vector, self.seat, legal_actions)
        return probs

    def choose(self, observation: Any, legal_actions: list[int]) -> int:
        if len(legal_actions) == 1:
            return legal_actions[0]
        probs = self.policy(observation, legal_actions)
        if self.temp == 0:
            return legal_actions[int(np.argmax(probs))]
        weights = np.power(probs.astype(np.float64), 1.0 / self.temp)
        return self.rng.choices(legal_actions, weights=weights.tolist())[0]

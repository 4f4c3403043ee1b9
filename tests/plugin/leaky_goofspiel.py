"""The example game with a planted leak: a spectator is shown the round's secret bids (every seat's own view
stays right). Imported only by tests that installed the example game (``goofspiel`` fixture)."""

from __future__ import annotations

import copy
import random
from typing import Any

from floe_goofspiel import ENTRY  # type: ignore[import-not-found]
from floe_goofspiel.game import Goofspiel, GoofspielState  # type: ignore[import-not-found]

__all__ = ["ENTRY", "LeakyGame"]


class LeakyState(GoofspielState):  # type: ignore[misc]
    def observation(self, seat: int | None) -> dict[str, Any]:
        obs: dict[str, Any] = super().observation(seat)
        if seat is None:
            obs["bids"] = list(self.bids)
        return obs


class LeakyGame(Goofspiel):  # type: ignore[misc]
    name = "goofspiel-leaky"

    def new_initial_state(self) -> LeakyState:
        return LeakyState(self.players, self.options["cards"], self.options["ties"])

    def state_from_json(self, data: dict[str, Any]) -> LeakyState:
        st = self.new_initial_state()
        vars(st).update(copy.deepcopy(data))
        return st

    def determinize(self, observation: Any, rng: random.Random) -> LeakyState:
        st = self.new_initial_state()
        vars(st).update(vars(super().determinize(observation, rng)))
        return st

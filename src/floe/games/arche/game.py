"""Arche Opti Mix through the core API: ``ArcheGame`` (rules config, spec) and ``ArcheState`` (a position)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import numpy as np

from floe.core.errors import IllegalActionError
from floe.core.game import FieldsState, Game, GameSpec, State
from floe.games.arche import actions as act
from floe.games.arche import legal as legality
from floe.games.arche import native, rules
from floe.games.arche.codec import observation_from_dict, observation_to_dict
from floe.games.arche.config import RulesConfig
from floe.games.arche.determinize import determinize
from floe.games.arche.observation import ArcheObservation, observe, observe_action
from floe.games.arche.options import OPTIONS
from floe.games.arche.scoring import ScoreBreakdown, as_number, rank, rank_returns, score
from floe.games.arche.state import OVER, ArcheStateData
from floe.games.arche.vector import vector, vector_size

# Bump whenever rules behaviour or an encoding changes (it goes into every record).
VERSION = "arche-2"  # 2: the Chimpanzee's chip may be declined (chimp_chip), shy_with_provisions


class ArcheState(FieldsState, ArcheStateData, State):
    """A position of Arche. Mutable; ``clone`` is cheap and independent."""

    __slots__ = ()

    # --- who acts and what is legal -------------------------------------------------------------------
    def current_player(self) -> int:
        return self.to_act

    def legal_actions(self) -> list[int]:
        """Legal ids, ascending. The list is cached and shared: do not modify it."""
        legal = self._legal
        if legal is None:
            legal = self._legal = legality.legal_actions(self)
        return legal

    def is_terminal(self) -> bool:
        return self.to_act == legality.TERMINAL

    def is_legal(self, action: int) -> bool:
        return action in self.legal_actions()

    def apply(self, action: int) -> None:
        """``State.apply`` with its checks on the cached legal list (the same errors, one call less)."""
        legal = self._legal
        if legal is None:
            legal = self.legal_actions()
        if action not in legal:
            if self.to_act == legality.TERMINAL:
                raise IllegalActionError("the game is over: no more actions")
            raise IllegalActionError(f"{self.describe_action(action)} is not legal now")
        rules.apply_action(self, action)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.to_act != legality.CHANCE:
            return []
        outcomes = self.legal_actions()
        return list(zip(outcomes, legality.chance_probabilities(self, outcomes), strict=True))

    def sample_chance(self, rng: random.Random) -> int:
        outcomes = self.legal_actions()
        if len(outcomes) > 1 and outcomes[-1] == self.config.space.rain:
            r = rng.randrange(len(outcomes) - 1 + self.lower_rain)
            return outcomes[r] if r < len(outcomes) - 1 else outcomes[-1]
        return outcomes[rng.randrange(len(outcomes))] if len(outcomes) > 1 else outcomes[0]

    def apply_unchecked(self, action: int) -> None:
        rules.apply_action(self, action)

    def undoable(self, action: int) -> bool:
        """A decision of the player in turn (not a pet chosen between turns) that leaves them in the same
        turn with no card drawn: a first card played, its figure or chip, a second card..."""
        p = self.to_act
        if p < 0 or p != self.turn_player:
            return False
        after = self.clone()
        rules.apply_action(after, action)  # a draw from the deck leaves a chance node
        return after.to_act == p and after.turn == self.turn

    def action_to_string(self, action: int) -> str:
        return act.action_to_string(self.config, action)

    def string_to_action(self, text: str) -> int:
        return act.string_to_action(self.config, text)

    def describe_action(self, action: int) -> str:
        """Words for a person, in the context of the current step."""
        from floe.games.arche.text import describe

        try:
            return describe(self.observation(None), action)
        except Exception:  # words only; the notation always works
            return super().describe_action(action)

    def observe_action(self, action: int, seat: int | None) -> str | None:
        return observe_action(self, action, seat)

    # --- information ----------------------------------------------------------------------------------
    def observation(self, seat: int | None) -> ArcheObservation:
        scores = self.score_breakdowns() if self.phase == OVER else None
        return observe(self, seat, scores)

    def observation_dict(self, seat: int | None) -> dict[str, Any]:
        return observation_to_dict(self.observation(seat))

    def observation_vector(self, seat: int) -> np.ndarray:
        return vector(self.observation(seat))

    # --- results --------------------------------------------------------------------------------------
    def breakdowns(self) -> list[ScoreBreakdown]:
        """Each seat's final scoring breakdown."""
        if self.phase != OVER:
            raise ValueError("the game is not over")
        if self._scores is None:
            cfg = self.config
            animals = [(h & cfg.animal_mask).bit_count() for h in self.hands]
            self._scores = score(
                self.players,
                self.figures,
                self.halves,
                self.chips,
                animals,
                self.pets,
                cfg.options["tie_points"],
            )
        return list(self._scores)

    def scores(self) -> list[Any]:
        """Final scores: ints, or floats where shared places leave a fraction (three tied for second share
        10/3 each; ``docs/arche-rules.md`` on the contract's whole-number scores)."""
        return [as_number(b.total) for b in self.breakdowns()]

    def score_breakdowns(self) -> list[dict[str, Any]]:
        return [b.to_dict(self.config.deck.slugs) for b in self.breakdowns()]

    def ranking(self) -> list[int]:
        return rank(self.breakdowns(), self.first_player)

    def returns(self) -> list[float]:
        """Rank utilities in [-1, 1]; seats equal in total and in animals left in hand share a place."""
        return rank_returns(self.breakdowns(), self.first_player)

    # --- text (copies, records, equality: FieldsState) ------------------------------------------------
    def render(self, seat: int | None) -> str:
        from floe.games.arche.text import render_plain

        return render_plain(self.observation(seat))


class ArcheGame(Game):
    """Arche Opti Mix for 3–5 players with a ``RulesConfig`` built from the options."""

    name = "arche"
    title = "Arche Opti Mix"
    min_players = 3
    max_players = 5
    information = "imperfect"
    schema = OPTIONS

    def __init__(self, players: int, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(players, options)
        self.config = RulesConfig.from_parsed(self.options, players)
        self.options = self.config.to_options()

    def notice(self) -> str | None:
        # A loaded deck is the table's own: never called placeholder.
        return None if self.config.deck.placeholder else ""

    @property
    def spec(self) -> GameSpec:
        sp = self.config.space
        n = self.config.deck.n
        return GameSpec(
            name=self.name,
            players=self.players,
            min_players=self.min_players,
            max_players=self.max_players,
            num_distinct_actions=sp.size,
            max_chance_outcomes=n + 1,
            min_utility=-1.0,
            max_utility=1.0,
            max_game_length=40 * n + 200,
            information=self.information,
            observation_size=vector_size(n),
            version=VERSION,
            player_actions=sp.player_actions,
        )

    def engine(self) -> str:
        """``mypyc`` when the compiled engine is in use, else why not (``native.status``)."""
        return native.status()

    def new_initial_state(self) -> ArcheState:
        st = ArcheState.__new__(ArcheState)
        rules.setup(st, self.config, self.players)
        rules.settle(st)
        return st

    def determinize(self, observation: Any, rng: random.Random) -> ArcheState:
        """A full state consistent with ``observation`` (``determinize.determinize``)."""
        if isinstance(observation, dict):
            observation = observation_from_dict(observation)
        st = ArcheState.__new__(ArcheState)
        determinize(observation, rng, st)
        return st

    def state_from_json(self, data: Mapping[str, Any]) -> ArcheState:
        st = ArcheState.__new__(ArcheState)
        st.config = RulesConfig.from_options(data["config"], self.players)
        st.load_fields(dict(data))
        return st


__all__ = ["VERSION", "ArcheGame", "ArcheState"]

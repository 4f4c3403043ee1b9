"""Arctic through the core API: ``ArcticGame`` (rules config + spec) and ``ArcticState`` (a position)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import numpy as np

from floe.core.errors import OptionError
from floe.core.game import FieldsState, Game, GameSpec, State
from floe.games.arctic import actions as act
from floe.games.arctic import native, rules
from floe.games.arctic.belief import TotemBelief
from floe.games.arctic.cards import LANDSCAPE, MAIN, N_CARDS
from floe.games.arctic.codec import observation_from_dict, observation_to_dict
from floe.games.arctic.config import RulesConfig
from floe.games.arctic.determinize import determinize
from floe.games.arctic.observation import ArcticObservation, observe, observe_action
from floe.games.arctic.options import OPTIONS
from floe.games.arctic.powers import POWER_SLUGS
from floe.games.arctic.scoring import FACE_DOWN, ScoreBreakdown, rank, score
from floe.games.arctic.state import FACE_DOWN_FLAG, OVER, Job
from floe.games.arctic.vector import VECTOR_SIZE, vector

# Bump whenever rules behaviour or an encoding changes (it goes into every record).
VERSION = "arctic-3"


class ArcticState(FieldsState, rules.ArcticStateCore, State):
    """A position of Arctic. Mutable; ``clone`` is cheap and independent. The methods called at every step
    (``current_player``, ``legal_actions``, ``apply_unchecked``...) are ``rules.ArcticStateCore``'s."""

    __slots__ = ()

    # --- who acts and what is legal (``apply`` too: ``rules.ArcticStateCore``'s) --------------------------
    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.to_act != rules.CHANCE:
            return []
        outcomes = rules.chance_actions(self)
        p = 1.0 / len(outcomes)
        return [(a, p) for a in outcomes]

    def undoable(self, action: int) -> bool:
        """A decision that keeps this seat in the same turn with no card drawn (placing, moving tokens,
        the puffin's swap with the river...), except a Bear gift (the receiver sees the card arrive), a
        Bear power's look (its user has seen the face-down zone: an undo cannot make them forget it) and a
        take-back from a private pile (the others see the card it uncovers): the reveals of ``reveals.py``."""
        p = self.to_act
        gift = act.GIVE_BLIND <= action < act.GIVE_BLIND + 4 or act.GIVE <= action < act.N_PLAYER_ACTIONS
        uncovers = action == act.TAKE_BACK and not self.config.piles_public
        if p < 0 or gift or uncovers or action == act.LOOK:
            return False
        after = self.clone()
        rules.apply_action(after, action)  # a draw from the deck or a penalty zone leaves a chance node
        return after.to_act == p and after.turn_player == p and after.turns[p] == self.turns[p]

    def action_to_string(self, action: int) -> str:
        return act.action_to_string(action)

    def string_to_action(self, text: str) -> int:
        return act.string_to_action(text)

    def describe_action(self, action: int) -> str:
        """Words for a person, in the context of the current step."""
        from floe.games.arctic.text import describe

        return describe(self.observation(None), action)

    def observe_action(self, action: int, seat: int | None) -> str | None:
        return observe_action(self, action, seat)

    # --- information ----------------------------------------------------------------------------------
    def observation(self, seat: int | None) -> ArcticObservation:
        scores = [b.to_dict() for b in self.breakdowns()] if self.step == OVER else None
        return observe(self, seat, scores)

    def observation_dict(self, seat: int | None) -> dict[str, Any]:
        return observation_to_dict(self.observation(seat))

    def observation_vector(self, seat: int) -> np.ndarray:
        return vector(self.observation(seat))

    # --- results --------------------------------------------------------------------------------------
    def breakdowns(self) -> list[ScoreBreakdown]:
        """Each seat's final scoring breakdown (runs, bonus, totem, penalties)."""
        if self.step != OVER:
            raise ValueError("the game is not over")
        if self._scores is None:
            mode = self.config.wildcard_scoring
            self._scores = [
                score(
                    [FACE_DOWN if e >= FACE_DOWN_FLAG else MAIN[e] for e in self.piles[q]],
                    LANDSCAPE[self.tokens[self.totems[q]]],
                    len(self.penalties[q]),
                    mode,
                )
                for q in range(self.players)
            ]
        return list(self._scores)

    def scores(self) -> list[int]:
        return [b.total for b in self.breakdowns()]

    def score_breakdowns(self) -> list[dict[str, Any]]:
        return [b.to_dict() for b in self.breakdowns()]

    def ranking(self) -> list[int]:
        return rank(self.scores(), self.first_player)

    # --- text (copies, records, equality: FieldsState) ------------------------------------------------
    def render(self, seat: int | None) -> str:
        from floe.games.arctic.text import render_plain

        return render_plain(self.observation(seat))


class ArcticGame(Game):
    """Arctic for 2–4 players with a ``RulesConfig`` built from the options."""

    name = "arctic"
    title = "Arctic"
    min_players = 2
    max_players = 4
    information = "imperfect"
    schema = OPTIONS

    def __init__(self, players: int, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(players, options)
        self.config = RulesConfig.from_parsed(self.options)
        self.options = self.config.to_options()
        self._belief_cache: tuple[tuple[object, ...], TotemBelief] | None = None

    @property
    def spec(self) -> GameSpec:
        n = self.players
        return GameSpec(
            name=self.name,
            players=n,
            min_players=self.min_players,
            max_players=self.max_players,
            num_distinct_actions=act.N_ACTIONS,
            max_chance_outcomes=N_CARDS,
            min_utility=-1.0,
            max_utility=1.0,
            max_game_length=4000,
            information=self.information,
            observation_size=VECTOR_SIZE,
            version=VERSION,
            player_actions=act.N_PLAYER_ACTIONS,
        )

    def engine(self) -> str:
        """``mypyc`` when the compiled engine is in use, else why not (``native.status``)."""
        return native.status()

    def new_initial_state(self) -> ArcticState:
        st = ArcticState.__new__(ArcticState)
        rules.setup(st, self.config, self.players)
        rules.settle(st)
        return st

    def determinize(
        self, observation: Any, rng: random.Random, *, totem_belief: str = "uniform"
    ) -> ArcticState:
        """A full state consistent with ``observation``; see ``determinize.determinize``.

        ``totem_belief="moves"`` samples opponents' totems in proportion to how well each animal explains
        the token moves that player chose (``totem_weights``); ``"uniform"`` ignores the moves.
        """
        if isinstance(observation, dict):
            observation = observation_from_dict(observation)
        st = ArcticState.__new__(ArcticState)
        determinize(observation, rng, st)
        if totem_belief == "moves":
            for q, totem in self._belief(observation).sample(rng).items():
                st.totems[q] = totem
        elif totem_belief != "uniform":
            raise OptionError(f"totem_belief must be moves or uniform, not {totem_belief!r}")
        return st

    def _belief(self, obs: ArcticObservation) -> TotemBelief:
        # Search calls this thousands of times per decision with the same evidence: keep the last one.
        key = (obs.seat, tuple(obs.totems), tuple(obs.pushes))
        if self._belief_cache is None or self._belief_cache[0] != key:
            # A totem still to be dealt (setup) is not sampled here: mark it -2.
            dealt = [
                -2 if any(j[0] == Job.TOTEM and j[1] == q for j in obs.pending) else t
                for q, t in enumerate(obs.totems)
            ]
            self._belief_cache = (key, TotemBelief(obs.pushes, obs.seat, dealt, self.players))
        return self._belief_cache[1]

    def state_from_json(self, data: Mapping[str, Any]) -> ArcticState:
        st = ArcticState.__new__(ArcticState)
        st.config = RulesConfig.from_options(data["config"], self.players)
        st.load_fields(dict(data))
        return st


__all__ = ["POWER_SLUGS", "VERSION", "ArcticGame", "ArcticState"]

"""Arctic as an OpenSpiel Python game, ``python_floe_arctic``, registered with ``pyspiel`` on import.

>>> import pyspiel, floe.rl.openspiel
>>> game = pyspiel.load_game("python_floe_arctic", {"players": 3})
>>> state = game.new_initial_state()
>>> state.is_chance_node()
True

- Sequential, imperfect information, explicit chance: every Floe chance event (which decks, which power
  sides, the totems, the first player, each card drawn) is an OpenSpiel chance node whose
  ``chance_outcomes()`` are Floe's, all uniform. Player actions are Floe's player action ids
  ``0 .. N_PLAYER_ACTIONS - 1``; a chance outcome is Floe's id minus ``N_PLAYER_ACTIONS`` (Floe's chance ids
  follow its player ids), so both spaces start at 0 as OpenSpiel expects.
- Zero-sum terminal utilities: ``state.returns()`` of Floe, +1 for the winner … -1 for the last.
- Observation and information-state tensors: the seat's vector (``docs/observation.md``); strings: the
  seat's plain-text table plus a line with the rest of what it knows (public knowledge of card whereabouts,
  token pushes, the turn's counters), so two states have equal strings exactly when the seat's Floe
  observations are equal. Floe's observation is a summary of everything the seat has learnt, not its full
  action-observation history, so the "information state" here is not perfect recall: positions reached by
  different histories that leave the seat knowing the same things share one. With ``private_info=NONE`` the
  observer gives the spectator's view. Only what the seat may know ever enters either.
- ``resample_from_infostate(player, sampler)`` is ``game.determinize(state.observation(player), rng)`` with
  the game's own generator (``game.resample_rng``; OpenSpiel's sampler object is not callable from Python):
  a full state that the player cannot tell from the real one. That is what OpenSpiel's IS-MCTS needs.
  The sampled state has an empty history (its hidden past is not sampled, only its present).
- Serialization: the state pickles through ``State.to_json`` (``serialize_game_and_state`` round-trips);
  ``str(state)`` is the spectator's table plus every hidden card, for debugging and the tests' comparisons.
- An illegal action raises ``pyspiel.SpielError`` and leaves the state and its history unchanged.

Parameters: ``players`` (2–4, default 2) and ``preset`` (``rules`` or ``bga``).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel

from floe.core.game import TERMINAL
from floe.core.registry import make_game
from floe.games.arctic import actions as act
from floe.games.arctic.cards import ANIMALS, CARD_NAMES
from floe.games.arctic.game import ArcticGame, ArcticState
from floe.games.arctic.state import FACE_DOWN_FLAG
from floe.games.arctic.text import render_plain
from floe.games.arctic.view import VECTOR_SIZE, ArcticObservation, vector
from floe.rl.encode import observation_vector

__all__ = ["GAME_NAME", "N_CHANCE_OUTCOMES", "ArcticSpielGame", "ArcticSpielState", "floe_state"]

GAME_NAME = "python_floe_arctic"
N_CHANCE_OUTCOMES = act.N_ACTIONS - act.N_PLAYER_ACTIONS
_CHANCE_BASE = act.N_PLAYER_ACTIONS  # Floe chance id = OpenSpiel chance outcome + this

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Floe Arctic (Python)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"players": 2, "preset": "rules"},
)


class _Held:
    """The Floe state inside an OpenSpiel state.

    OpenSpiel clones a Python state by ``copy.deepcopy`` of each attribute and serializes it by pickling
    them; this holder makes the first Floe's cheap ``clone`` and the second its ``to_json``.
    """

    __slots__ = ("state",)

    def __init__(self, state: ArcticState) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        return _Held(self.state.clone())

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return _unpickle_held, (self.state.to_json(),)


def _unpickle_held(data: dict[str, Any]) -> _Held:
    game = make_game("arctic", int(data["n"]), data["config"])
    assert isinstance(game, ArcticGame)
    return _Held(game.state_from_json(data))


class ArcticSpielGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game; ``floe_game`` is the Floe ``ArcticGame`` behind it."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        players = int(params.get("players", 2))
        preset = str(params.get("preset", "rules"))
        floe_game = make_game("arctic", players, {"preset": preset})
        assert isinstance(floe_game, ArcticGame)
        self.floe_game = floe_game
        info = pyspiel.GameInfo(
            num_distinct_actions=act.N_PLAYER_ACTIONS,
            max_chance_outcomes=N_CHANCE_OUTCOMES,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=floe_game.spec.max_game_length,
        )
        super().__init__(_GAME_TYPE, info, {"players": players, "preset": preset})
        self._empty_table = floe_game.new_initial_state()
        # Worlds for resample_from_infostate; reseed it for a reproducible search.
        self.resample_rng = random.Random(0)

    def new_initial_state(self) -> ArcticSpielState:
        """The empty table; setup's chance events come first."""
        return ArcticSpielState(self, self._empty_table.clone())

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> ArcticObserver:
        """The observer for ``iig_obs_type`` (default: one seat's observation)."""
        return ArcticObserver(iig_obs_type, params)


class ArcticSpielState(pyspiel.State):  # type: ignore[misc]
    """One Arctic position for OpenSpiel; ``floe_state(state)`` gives the Floe ``ArcticState``."""

    def __init__(self, game: ArcticSpielGame, state: ArcticState) -> None:
        super().__init__(game)
        # The only Python attribute: OpenSpiel deep-copies and pickles every one of them.
        self._held = _Held(state)

    def current_player(self) -> int:
        """The seat to act, ``PlayerId.CHANCE`` or ``PlayerId.TERMINAL``."""
        player: int = self._held.state.to_act
        if player == TERMINAL:
            return int(pyspiel.PlayerId.TERMINAL)
        return player  # a seat, or -1, which is PlayerId.CHANCE in both libraries

    def _legal_actions(self, player: int) -> list[int]:
        return list(self._held.state.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Floe's chance outcomes (all equally likely), shifted into OpenSpiel's chance id range."""
        return [(a - _CHANCE_BASE, p) for a, p in self._held.state.chance_outcomes()]

    def _apply_action(self, action: int) -> None:
        st = self._held.state
        a = action + _CHANCE_BASE if st.to_act == -1 else action
        if a not in st.legal_actions():
            raise pyspiel.SpielError(f"{st.describe_action(a)} (action {action}) is not legal now")
        st.apply_unchecked(a)

    def _action_to_string(self, player: int, action: int) -> str:
        return act.action_to_string(action + _CHANCE_BASE if player == -1 else action)

    def is_terminal(self) -> bool:
        """True once the game is over."""
        return bool(self._held.state.to_act == TERMINAL)

    def returns(self) -> list[float]:
        """Floe's rank utilities at the end (+1 … -1), zeros before."""
        st = self._held.state
        if st.to_act != TERMINAL:
            return [0.0] * st.n
        return st.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None) -> ArcticSpielState:
        """A full state consistent with what ``player_id`` knows, hidden parts sampled (for IS-MCTS)."""
        game = self.get_game()
        st = self._held.state
        world = game.floe_game.determinize(st.observation(player_id), game.resample_rng)
        return ArcticSpielState(game, world)

    def __str__(self) -> str:
        return full_text(self._held.state)


def floe_state(state: ArcticSpielState) -> ArcticState:
    """The Floe state inside an OpenSpiel state (shared, not a copy)."""
    return state._held.state


def full_text(st: ArcticState) -> str:
    """Every fact of the state: the spectator's table, then each seat's hidden cards and the stock."""
    lines = [st.render(None)]
    for q in range(st.n):
        face_down = [CARD_NAMES[e - FACE_DOWN_FLAG] for e in st.piles[q] if e >= FACE_DOWN_FLAG]
        totem = ANIMALS[st.totems[q]] if st.totems[q] >= 0 else "-"
        lines.append(
            f"P{q + 1} hidden: hand [{', '.join(CARD_NAMES[c] for c in st.hands[q])}]; totem {totem}; "
            f"penalties [{', '.join(CARD_NAMES[c] for c in st.penalties[q])}]; "
            f"face-down [{', '.join(face_down)}]"
        )
    lines.append(f"stock: {', '.join(CARD_NAMES[c] for c in st.deck)}")
    lines.append(f"pending: {st.pending}")
    return "\n".join(lines)


def observation_text(obs: ArcticObservation) -> str:
    """The seat's table, then what else it knows, so equal texts mean equal observations."""
    s = obs.scalars
    knowledge = (
        tuple(s.values()),
        obs.known,
        obs.pushes,
        obs.pending,
        obs.turns,
        obs.hand_counts,
        obs.penalty_counts,
        obs.piles,
        obs.penalties,
    )
    return f"{render_plain(obs)}\nknows: {knowledge}"


class ArcticObserver:
    """OpenSpiel's Python observer protocol: ``tensor``, ``dict``, ``set_from`` and ``string_from``.

    One seat's view for ``private_info=SINGLE_PLAYER`` (the default, and the information state), the
    spectator's for ``private_info=NONE``; ``ALL_PLAYERS`` is not offered: no Floe view shows everything.
    """

    def __init__(self, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        private = pyspiel.PrivateInfoType.SINGLE_PLAYER if iig_obs_type is None else iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("python_floe_arctic has no observer for every player's private information")
        self.public_only = private == pyspiel.PrivateInfoType.NONE
        self.tensor = np.zeros(VECTOR_SIZE, dtype=np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: ArcticSpielState, player: int) -> None:
        """Write ``player``'s vector (the spectator's with ``private_info=NONE``) into ``tensor``."""
        st = state._held.state
        if self.public_only:
            self.tensor[:] = vector(st.observation(None))
        else:
            self.tensor[:] = observation_vector(st, player)

    def string_from(self, state: ArcticSpielState, player: int) -> str:
        """``player``'s view as text (see ``observation_text``)."""
        st = state._held.state
        return observation_text(st.observation(None if self.public_only else player))


pyspiel.register_game(_GAME_TYPE, ArcticSpielGame)

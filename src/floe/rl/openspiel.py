"""Every registered game as an OpenSpiel Python game, ``python_floe_<name>``, registered with ``pyspiel``
on import.

>>> import pyspiel, floe.rl.openspiel
>>> from floe.core.registry import default_game
>>> game = pyspiel.load_game(floe.rl.openspiel.spiel_name(default_game()), {"players": 3})
>>> game.num_players()
3

- Sequential, zero-sum, terminal rewards (Floe's ``returns()``); perfect or imperfect information as the
  game's entry says; explicit chance if the game has chance ids (``spec.num_distinct_actions >
  spec.player_actions`` for some player count), else deterministic.
- Player actions are Floe's player action ids ``0 .. spec.player_actions - 1``; a chance outcome is Floe's
  chance id minus ``spec.player_actions`` (Floe's chance ids follow its player ids), so both spaces start at
  0 as OpenSpiel expects; ``max_chance_outcomes`` is ``num_distinct_actions - player_actions``.
- Parameters (``parameters``): ``players`` (the game's fewest by default) and each game option whose default
  is text, a whole number or a boolean, with that default; options whose default is None (decided by the
  player count, or random) or a list have no OpenSpiel type and are left out (the game's default holds).
  OpenSpiel fills in every default before the game sees the parameters, so an option equal to its default
  counts as not given (where a game's options depend on each other, as with a preset, give only the values
  that differ from the defaults); ``str(game)`` shows ``players`` and the options that differ.
- Observation and information-state tensors: the seat's ``observation_vector``. Strings: the seat's table
  (``render(seat)``) and a canonical JSON dump of ``observation_dict(seat)`` (sorted keys), so two states
  give a seat equal strings exactly when its Floe observations are equal. Floe's observation is a summary
  of everything the seat has learnt, not its full action-observation history, so the "information state"
  here is not perfect recall. With ``private_info=NONE`` the observer gives the spectator's view (its tensor
  only if the game's ``observation_vector`` accepts ``None``; else the tensor is empty). Only what the seat
  may know ever enters either.
- ``resample_from_infostate(player, sampler)`` is ``game.determinize(state.observation(player), rng)`` with
  the game's own generator (``game.resample_rng``; OpenSpiel's sampler object is not callable from Python):
  a full state that the player cannot tell from the real one, as OpenSpiel's IS-MCTS needs. The sampled
  state has an empty history (its hidden past is not sampled, only its present).
- Serialization: the state pickles through ``State.to_json`` (``serialize_game_and_state`` round-trips);
  ``str(state)`` is the spectator's table plus the full state as canonical JSON, for debugging and tests.
- An illegal action raises ``pyspiel.SpielError`` and leaves the state and its history unchanged.
"""

from __future__ import annotations

import json
import random
from functools import cache, lru_cache
from typing import Any

import numpy as np
import pyspiel

from floe.core.entry import GameEntry
from floe.core.game import CHANCE, TERMINAL, Game, State
from floe.core.registry import entries, entry, make_game
from floe.rl.names import spiel_name, title_word

__all__ = [
    "FloeObserver",
    "FloeSpielGame",
    "FloeSpielState",
    "floe_state",
    "full_text",
    "game_type",
    "observation_text",
    "parameters",
    "register_games",
    "spiel_name",
]

ParameterValue = bool | int | float | str


def parameters(game: GameEntry) -> dict[str, ParameterValue]:
    """The OpenSpiel parameter specification of ``game``: ``players`` and every option with a default of an
    OpenSpiel type (text, whole number, boolean), with its default (see the module docstring)."""
    spec: dict[str, ParameterValue] = {"players": game.min_players}
    for option in game.options.options:
        if isinstance(option.default, bool | int | float | str) and option.name != "players":
            spec[option.name] = option.default
    return spec


def _has_chance(game: GameEntry) -> bool:
    """Whether the game has chance ids at any player count (with its default options)."""
    for players in range(game.min_players, game.max_players + 1):
        spec = game.new_game(players).spec
        if spec.num_distinct_actions > spec.player_actions:
            return True
    return False


def game_type(game: GameEntry) -> pyspiel.GameType:
    """The OpenSpiel ``GameType`` of ``game``, from its entry (built once per game)."""
    return _game_type(game.name)


@cache
def _game_type(name: str) -> pyspiel.GameType:
    # Cached: deciding the chance mode builds the game at every player count.
    game = entry(name)
    kind = pyspiel.GameType
    return pyspiel.GameType(
        short_name=spiel_name(game.name),
        long_name=f"Floe {game.title} (Python)",
        dynamics=kind.Dynamics.SEQUENTIAL,
        chance_mode=(
            kind.ChanceMode.EXPLICIT_STOCHASTIC if _has_chance(game) else kind.ChanceMode.DETERMINISTIC
        ),
        information=(
            kind.Information.PERFECT_INFORMATION
            if game.information == "perfect"
            else kind.Information.IMPERFECT_INFORMATION
        ),
        # Floe's returns are rank utilities summing to zero (shared places share their utility).
        utility=kind.Utility.ZERO_SUM,
        reward_model=kind.RewardModel.TERMINAL,
        max_num_players=game.max_players,
        min_num_players=game.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters(game),
    )


@lru_cache(maxsize=64)
def _floe_game(name: str, players: int, options_json: str) -> Game:
    # Unpickling builds the game of every state it reads; states of one game share one Game object.
    return make_game(name, players, json.loads(options_json))


class _Held:
    """The Floe game and state inside an OpenSpiel state.

    OpenSpiel clones a Python state by ``copy.deepcopy`` of each attribute and serializes it by pickling
    them; this holder makes the first Floe's cheap ``clone`` and the second its ``to_json``.
    """

    __slots__ = ("base", "game", "state")

    def __init__(self, game: Game, state: State, base: int | None = None) -> None:
        self.game = game
        self.state = state
        # Floe chance id = OpenSpiel chance outcome + base (kept here: asked on every chance node).
        self.base = game.spec.player_actions if base is None else base

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        return _Held(self.game, self.state.clone(), self.base)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        game = self.game
        options = json.dumps(game.options_dict(), sort_keys=True)
        return _unpickle_held, (game.name, game.players, options, self.state.to_json())


def _unpickle_held(name: str, players: int, options_json: str, data: dict[str, Any]) -> _Held:
    game = _floe_game(name, players, options_json)
    return _Held(game, game.state_from_json(data))


class FloeSpielGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game of one Floe game; ``floe_game`` is the Floe ``Game`` behind it."""

    def __init__(self, name: str, params: dict[str, Any] | None = None) -> None:
        game = entry(name)
        spec_params = parameters(game)
        params = {**spec_params, **(params or {})}
        players = int(params["players"])
        # OpenSpiel hands over every parameter, defaults filled in: only the ones that differ are options.
        given = {k: v for k, v in params.items() if k != "players" and v != spec_params.get(k)}
        floe_game = make_game(game.name, players, given)
        self.floe_game = floe_game
        spec = floe_game.spec
        info = pyspiel.GameInfo(
            num_distinct_actions=spec.player_actions,
            max_chance_outcomes=spec.num_distinct_actions - spec.player_actions,
            num_players=players,
            min_utility=spec.min_utility,
            max_utility=spec.max_utility,
            utility_sum=0.0,
            max_game_length=spec.max_game_length,
        )
        super().__init__(game_type(game), info, {"players": players, **given})
        self._empty_table = floe_game.new_initial_state()
        self.public_vector = _accepts_spectator(self._empty_table)
        # Worlds for resample_from_infostate; reseed it for a reproducible search.
        self.resample_rng = random.Random(0)

    def new_initial_state(self) -> FloeSpielState:
        """The empty table; setup's chance events (if any) come first."""
        return FloeSpielState(self, self._empty_table.clone())

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> FloeObserver:
        """The observer for ``iig_obs_type`` (default: one seat's observation)."""
        return FloeObserver(self, iig_obs_type, params)


class FloeSpielState(pyspiel.State):  # type: ignore[misc]
    """One position for OpenSpiel; ``floe_state(state)`` gives the Floe ``State``."""

    def __init__(self, game: FloeSpielGame, state: State) -> None:
        super().__init__(game)
        # The only Python attribute: OpenSpiel deep-copies and pickles every one of them.
        self._held = _Held(game.floe_game, state)

    def current_player(self) -> int:
        """The seat to act, ``PlayerId.CHANCE`` or ``PlayerId.TERMINAL``."""
        player = self._held.state.current_player()
        if player == TERMINAL:
            return int(pyspiel.PlayerId.TERMINAL)
        return player  # a seat, or -1, which is PlayerId.CHANCE in both libraries

    def _legal_actions(self, player: int) -> list[int]:
        st = self._held.state
        if st.current_player() == CHANCE:
            base = self._held.base
            return [a - base for a in st.legal_actions()]
        return list(st.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Floe's chance outcomes and their probabilities, shifted into OpenSpiel's chance id range."""
        base = self._held.base
        return [(a - base, p) for a, p in self._held.state.chance_outcomes()]

    def _apply_action(self, action: int) -> None:
        st = self._held.state
        a = action + self._held.base if st.current_player() == CHANCE else action
        if a not in st.legal_actions():
            raise pyspiel.SpielError(f"{st.describe_action(a)} (action {action}) is not legal now")
        st.apply_unchecked(a)

    def _action_to_string(self, player: int, action: int) -> str:
        a = action + self._held.base if player == CHANCE else action
        return self._held.state.action_to_string(a)

    def is_terminal(self) -> bool:
        """True once the game is over."""
        return self._held.state.is_terminal()

    def returns(self) -> list[float]:
        """Floe's rank utilities at the end (+1 … -1), zeros before."""
        st = self._held.state
        if not st.is_terminal():
            return [0.0] * self.num_players()
        return st.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None) -> FloeSpielState:
        """A full state consistent with what ``player_id`` knows, hidden parts sampled (for IS-MCTS)."""
        game = self.get_game()
        st = self._held.state
        world = game.floe_game.determinize(st.observation(player_id), game.resample_rng)
        return FloeSpielState(game, world)

    def __str__(self) -> str:
        return full_text(self._held.state)


def floe_state(state: FloeSpielState) -> State:
    """The Floe state inside an OpenSpiel state (shared, not a copy)."""
    return state._held.state


def _canonical(data: Any) -> str:
    """JSON with sorted keys and no spaces: equal text exactly when the data are equal."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def full_text(st: State) -> str:
    """Every fact of the state: the spectator's table, then the full state (hidden parts too) as JSON."""
    return f"{st.render(None)}\nstate: {_canonical(st.to_json())}"


def observation_text(st: State, seat: int | None) -> str:
    """``seat``'s table, then its whole observation as JSON, so equal texts mean equal observations."""
    return f"{st.render(seat)}\nknows: {_canonical(st.observation_dict(seat))}"


def _accepts_spectator(st: State) -> bool:
    """Whether the game's ``observation_vector`` gives a spectator's vector (``seat=None``).

    The contract types the seat as an int; a game whose encoder also takes None gets a public tensor.
    """
    try:
        st.observation_vector(None)  # type: ignore[arg-type]
    except (TypeError, ValueError, IndexError, KeyError):
        return False
    return True


class FloeObserver:
    """OpenSpiel's Python observer protocol: ``tensor``, ``dict``, ``set_from`` and ``string_from``.

    One seat's view for ``private_info=SINGLE_PLAYER`` (the default, and the information state), the
    spectator's for ``private_info=NONE``. ``ALL_PLAYERS`` is offered for perfect-information games only,
    where a seat's view is everything already.
    """

    def __init__(self, game: FloeSpielGame, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        private = pyspiel.PrivateInfoType.SINGLE_PLAYER if iig_obs_type is None else iig_obs_type.private_info
        perfect = game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS and not perfect:
            short = game.get_type().short_name
            raise ValueError(f"{short} has no observer for every player's private information")
        self.public_only = private == pyspiel.PrivateInfoType.NONE
        size = game.floe_game.spec.observation_size
        if self.public_only and not game.public_vector:
            size = 0  # no spectator vector from this game: strings only
        self.tensor = np.zeros(size, dtype=np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: FloeSpielState, player: int) -> None:
        """Write ``player``'s vector (the spectator's with ``private_info=NONE``) into ``tensor``."""
        st = state._held.state
        if self.public_only:
            if self.tensor.size:
                self.tensor[:] = st.observation_vector(None)  # type: ignore[arg-type]
        else:
            self.tensor[:] = st.observation_vector(player)

    def string_from(self, state: FloeSpielState, player: int) -> str:
        """``player``'s view as text (see ``observation_text``)."""
        return observation_text(state._held.state, None if self.public_only else player)


def register_games() -> list[str]:
    """Register ``python_floe_<name>`` with OpenSpiel for every registered game not yet done; the names."""
    known = set(pyspiel.registered_names())
    names = []
    for game in entries():
        short = spiel_name(game.name)
        if short not in known:
            pyspiel.register_game(game_type(game), _factory(game.name))
        names.append(short)
    return names


def _factory(name: str) -> type[FloeSpielGame]:
    """What OpenSpiel calls with the parameters to build game ``name``: a subclass with the game chosen.

    A class, not a closure: OpenSpiel's registry keeps the only other reference until after Python has
    shut down, and a closure freed then crashes the interpreter on exit; a class lives in a reference
    cycle (its own ``__mro__``), which only Python's collector frees.
    """

    class GameSpielGame(FloeSpielGame):
        def __init__(self, params: dict[str, Any] | None = None) -> None:
            super().__init__(name, params)

    GameSpielGame.__name__ = GameSpielGame.__qualname__ = f"{title_word(entry(name))}SpielGame"
    GameSpielGame.__doc__ = f"``FloeSpielGame`` of {entry(name).title}."
    return GameSpielGame


register_games()

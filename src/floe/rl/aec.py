"""Any registered game as a PettingZoo AEC environment: ``floe.rl.env(game, ...)``, ``floe.rl.raw_env``.

>>> import floe.rl
>>> from floe.core.registry import default_game
>>> env = floe.rl.env(default_game(), players=3)
>>> env.reset(seed=7)
>>> obs, reward, terminated, truncated, info = env.last()
>>> obs["action_mask"].shape == (env.unwrapped.game.spec.player_actions,)
True

Each game also gets PettingZoo's module convention, ``floe.rl.<name>_v0`` with ``env()`` and ``raw_env``
(see ``game_module``), built from the registry.

Agents are ``player_0`` .. ``player_{n-1}`` (seat order). Observation of an agent: a dict with
``observation``, the seat's float32 vector (``State.observation_vector``; it holds only what that seat may
know), and ``action_mask``, an int8 0/1 vector over the player action ids ``0 .. spec.player_actions - 1``
(ones only for the agent to act). Chance events never reach the agents: the environment resolves them with
a generator seeded by ``reset(seed=...)``; the same seed gives the same episode for the same actions, and
equals ``Match.new(game, players=n, seed=seed)`` (the deal of ``floe play --seed``).

Rewards come at the end only: ``reward="rank"`` (the game's ``returns()``: +1 winner … -1 last) or
``"score_diff"`` (own score minus the mean of the others', / ``score_scale``, 20 by default). An illegal
action raises ``floe.rl.IllegalActionError`` (a ``ValueError`` and a ``gymnasium.error.InvalidAction``) and
leaves the game unchanged; with ``illegal_reward=x``, ``env()`` instead ends the game with reward ``x`` for
the offender, as PettingZoo's classic games do (``TerminateIllegalWrapper``).

There is no ``parallel_env``: Floe's games are turn-based, and a seat may take several decisions in a row,
so the agents never act together; for the same reason PettingZoo's ``max_cycles_test`` (which needs
``parallel_env`` and samples actions without the mask) does not apply. Games end by their rules (a game
with a turn limit has it among its options), so there is no ``max_cycles`` truncation either.
"""

from __future__ import annotations

import random
import sys
import types
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from floe.core.game import Game, State
from floe.core.match import Match
from floe.core.registry import entry, make_game
from floe.rl._common import (
    SCORE_DIFF_SCALE,
    as_action,
    check_reward,
    check_scale,
    final_rewards,
    mask_space,
    vector_space,
)
from floe.rl.encode import action_mask, observation_vector
from floe.rl.names import module_name

__all__ = ["FloeAECEnv", "env", "game_module", "raw_env"]

Observation = dict[str, np.ndarray]
RENDER_MODES = ("ansi", "human")


def env(
    game: str,
    players: int | None = None,
    reward: str = "rank",
    options: dict[str, Any] | None = None,
    render_mode: str | None = None,
    illegal_reward: float | None = None,
    score_scale: float = SCORE_DIFF_SCALE,
) -> AECEnv:
    """Game ``game`` wrapped as PettingZoo wraps its own: order checks, and the illegal-action policy.

    ``players``: the seats (default: the game's fewest). ``illegal_reward=None`` (default): an illegal
    action raises and changes nothing. A number: PettingZoo's classic behaviour, the game ends and the
    offender gets that reward (the others 0).
    """
    return wrap(raw_env(game, players, reward, options, render_mode, score_scale), illegal_reward)


def wrap(inner: AECEnv, illegal_reward: float | None) -> AECEnv:
    """``inner`` inside PettingZoo's order checks (and ``TerminateIllegalWrapper`` with a reward)."""
    if illegal_reward is not None:
        inner = wrappers.TerminateIllegalWrapper(inner, illegal_reward=illegal_reward)
    return wrappers.OrderEnforcingWrapper(inner)


class FloeAECEnv(AECEnv, EzPickle):  # type: ignore[misc]  # PettingZoo ships no type information
    """A Floe game for its agents, AEC style: one agent acts at a time, the one whose decision it is."""

    metadata = {  # noqa: RUF012 (PettingZoo reads it from the class; each instance gets its own name)
        "render_modes": list(RENDER_MODES),
        "name": "floe_v0",
        "is_parallelizable": False,
        "render_fps": 4,
    }

    def __init__(
        self,
        game: str,
        players: int | None = None,
        reward: str = "rank",
        options: dict[str, Any] | None = None,
        render_mode: str | None = None,
        score_scale: float = SCORE_DIFF_SCALE,
    ) -> None:
        EzPickle.__init__(self, game, players, reward, options, render_mode, score_scale)
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be one of {', '.join(RENDER_MODES)}, not {render_mode!r}")
        found = entry(game)
        seats = found.min_players if players is None else players
        self.game: Game = make_game(found.name, seats, options)
        self.reward = check_reward(reward)
        self.score_scale = check_scale(score_scale)
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": module_name(found.name)}
        spec = self.game.spec
        self._n_actions = spec.player_actions
        self.possible_agents = [f"player_{i}" for i in range(seats)]
        self._seat = {agent: i for i, agent in enumerate(self.possible_agents)}
        self.observation_spaces = {
            agent: spaces.Dict({"observation": vector_space(spec), "action_mask": mask_space(spec)})
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(self._n_actions) for agent in self.possible_agents}
        self._seeds = random.Random()  # seeds of the episodes reset() starts without one
        self.match: Match | None = None
        self.agents: list[str] = []

    # --- spaces -----------------------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The same ``Dict`` object every call (PettingZoo seeds spaces through it)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(spec.player_actions)``; only the ids set in the action mask are legal."""
        return self.action_spaces[agent]

    # --- episode ----------------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game. ``seed`` fixes its chance events; later resets without one follow from it."""
        if seed is not None:
            self._seeds = random.Random(seed)
            episode_seed = seed
        else:
            episode_seed = self._seeds.randrange(2**31)
        self.match = Match(self.game, episode_seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.match.state.current_player()]

    def observe(self, agent: str) -> Observation:
        """``agent``'s view now: its vector and its action mask (all zeros unless it is to act)."""
        state = self._state()
        seat = self._seat[agent]
        if state.current_player() == seat:
            mask = action_mask(state.legal_actions(), self._n_actions)
        else:
            mask = np.zeros(self._n_actions, dtype=np.int8)
        return {"observation": observation_vector(state, seat), "action_mask": mask}

    def step(self, action: Any) -> None:
        """Apply the selected agent's action (``None`` once it is done), then every chance event after it."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        match = self.match
        assert match is not None
        state = match.state
        a = as_action(action, state, self._n_actions)  # raises before anything changes
        self._cumulative_rewards[agent] = 0.0
        state.apply_unchecked(a)
        match.resolve_chance()
        if state.is_terminal():
            rewards = final_rewards(state, self.reward, self.score_scale)
            scores, ranking = state.scores(), state.ranking()
            for seat, name in enumerate(self.possible_agents):
                self.rewards[name] = rewards[seat]
                self.terminations[name] = True
                self.infos[name] = {"score": scores[seat], "rank": ranking.index(seat) + 1}
        else:
            self.agent_selection = self.possible_agents[state.current_player()]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    # --- output -----------------------------------------------------------------------------------------
    def render(self) -> str | None:
        """The table as the selected agent sees it (everything, scores included, once the game is over)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode; pass render_mode='ansi'")
            return None
        state = self._state()
        text = state.render(None if state.is_terminal() else self._seat[self.agent_selection])
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""

    def _state(self) -> State:
        if self.match is None:
            raise RuntimeError("call reset() first")
        return self.match.state


raw_env = FloeAECEnv  # PettingZoo's convention names the unwrapped class raw_env


def game_module(name: str) -> types.ModuleType:
    """PettingZoo's module convention for game ``name``: a module ``floe.rl.<name>_v0`` with ``env()`` and
    ``raw_env`` (the game already chosen, so ``env(players=3)``), built on the spot from the registry."""
    game = entry(name).name
    qualified = f"floe.rl.{module_name(game)}"
    known = sys.modules.get(qualified)
    if known is not None:  # one module per game, so its raw_env is one class (pickle finds it by name)
        return known
    module = types.ModuleType(qualified, f"{entry(game).title} for PettingZoo (see ``floe.rl.aec``).")

    class GameAECEnv(FloeAECEnv):
        """One game's raw environment: ``FloeAECEnv`` with the game chosen."""

        def __init__(
            self,
            players: int | None = None,
            reward: str = "rank",
            options: dict[str, Any] | None = None,
            render_mode: str | None = None,
            score_scale: float = SCORE_DIFF_SCALE,
        ) -> None:
            super().__init__(game, players, reward, options, render_mode, score_scale)
            # Pickled (EzPickle) as this class with these arguments, not the base class's.
            EzPickle.__init__(self, players, reward, options, render_mode, score_scale)

    GameAECEnv.__name__ = GameAECEnv.__qualname__ = "raw_env"
    GameAECEnv.__module__ = qualified
    GameAECEnv.metadata = {**FloeAECEnv.metadata, "name": module_name(game)}

    def game_env(
        players: int | None = None,
        reward: str = "rank",
        options: dict[str, Any] | None = None,
        render_mode: str | None = None,
        illegal_reward: float | None = None,
        score_scale: float = SCORE_DIFF_SCALE,
    ) -> AECEnv:
        """The wrapped environment (see ``floe.rl.aec.env``) of this module's game."""
        return wrap(GameAECEnv(players, reward, options, render_mode, score_scale), illegal_reward)

    game_env.__name__ = game_env.__qualname__ = "env"
    game_env.__module__ = qualified
    module.env = game_env  # type: ignore[attr-defined]
    module.raw_env = GameAECEnv  # type: ignore[attr-defined]
    module.__all__ = ["env", "raw_env"]  # type: ignore[attr-defined]
    # In sys.modules, ``import floe.rl.<name>_v0`` and pickle's lookup of ``raw_env`` find it.
    sys.modules[qualified] = module
    return module

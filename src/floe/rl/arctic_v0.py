"""Arctic as a PettingZoo AEC environment (module convention: ``arctic_v0.env()``, ``arctic_v0.raw_env``).

>>> from floe.rl import arctic_v0
>>> env = arctic_v0.env(players=3)
>>> env.reset(seed=7)
>>> obs, reward, terminated, truncated, info = env.last()
>>> obs["observation"].shape, obs["action_mask"].shape
((2197,), (1336,))

Agents are ``player_0`` .. ``player_{n-1}`` (seat order). Observation of an agent: a dict with
``observation``, the seat's float32 vector (``docs/observation.md``; it holds only what that seat may know),
and ``action_mask``, an int8 0/1 vector over the player action ids ``0 .. N_PLAYER_ACTIONS - 1`` (ones only
for the agent to act). Chance events (shuffles, draws) never reach the agents: the environment resolves them
with a generator seeded by ``reset(seed=...)``; the same seed gives the same episode for the same actions,
and equals ``Match.new("arctic", players=n, seed=seed)`` (the deal of ``floe play --seed``).

Rewards come at the end only: ``reward="rank"`` (+1 winner … -1 last, linear) or ``"score_diff"`` (own score
minus the mean of the others', / 20). An illegal action raises ``floe.rl.IllegalActionError`` (a
``ValueError`` and a ``gymnasium.error.InvalidAction``) and leaves the game unchanged; with
``illegal_reward=x``, ``env()`` instead ends the game with reward ``x`` for the offender, as PettingZoo's
classic games do (``TerminateIllegalWrapper``).

There is no ``parallel_env``: Arctic is turn-based with turns of several decisions by one seat (and Bear gifts
that pass the turn around), so the agents never act together; for the same reason PettingZoo's
``max_cycles_test`` (which needs ``parallel_env`` and samples actions without the mask) does not apply, and
games always end by the rules, so there is no ``max_cycles`` truncation either.
"""

from __future__ import annotations

import random
from typing import Any, cast

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from floe.core.match import Match
from floe.core.registry import make_game
from floe.games.arctic.actions import N_PLAYER_ACTIONS
from floe.games.arctic.game import ArcticState
from floe.rl._common import as_action, check_reward, final_rewards, mask_space, vector_space
from floe.rl.encode import action_mask, observation_vector

__all__ = ["env", "raw_env"]

Observation = dict[str, np.ndarray]
RENDER_MODES = ("ansi", "human")


def env(
    players: int = 2,
    reward: str = "rank",
    options: dict[str, Any] | None = None,
    render_mode: str | None = None,
    illegal_reward: float | None = None,
) -> AECEnv:
    """The wrapped environment: PettingZoo's order checks, and the illegal-action policy.

    ``illegal_reward=None`` (default): an illegal action raises and changes nothing. A number: PettingZoo's
    classic behaviour, the game ends and the offender gets that reward (the others 0).
    """
    wrapped: AECEnv = raw_env(players=players, reward=reward, options=options, render_mode=render_mode)
    if illegal_reward is not None:
        wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=illegal_reward)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(AECEnv, EzPickle):  # type: ignore[misc]  # PettingZoo's module convention names it so
    """Arctic for 2–4 agents, AEC style: one agent acts at a time, the one whose decision it is."""

    metadata = {  # noqa: RUF012 (PettingZoo reads it from the class)
        "render_modes": list(RENDER_MODES),
        "name": "arctic_v0",
        "is_parallelizable": False,
        "render_fps": 4,
    }

    def __init__(
        self,
        players: int = 2,
        reward: str = "rank",
        options: dict[str, Any] | None = None,
        render_mode: str | None = None,
    ) -> None:
        EzPickle.__init__(self, players, reward, options, render_mode)
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be one of {', '.join(RENDER_MODES)}, not {render_mode!r}")
        self.game = make_game("arctic", players, options)
        self.reward = check_reward(reward)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self._seat = {agent: i for i, agent in enumerate(self.possible_agents)}
        self.observation_spaces = {
            agent: spaces.Dict({"observation": vector_space(), "action_mask": mask_space()})
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(N_PLAYER_ACTIONS) for agent in self.possible_agents}
        self._seeds = random.Random()  # seeds of the episodes reset() starts without one
        self.match: Match | None = None
        self.agents: list[str] = []

    # --- spaces -----------------------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The same ``Dict`` object every call (PettingZoo seeds spaces through it)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(N_PLAYER_ACTIONS)``; only the ids set in the action mask are legal."""
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
            mask = action_mask(state.legal_actions())
        else:
            mask = np.zeros(N_PLAYER_ACTIONS, dtype=np.int8)
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
        a = as_action(action, state)  # raises before anything changes
        self._cumulative_rewards[agent] = 0.0
        state.apply_unchecked(a)
        match.resolve_chance()
        if state.is_terminal():
            rewards = final_rewards(state, self.reward)
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

    def _state(self) -> ArcticState:
        if self.match is None:
            raise RuntimeError("call reset() first")
        return cast(ArcticState, self.match.state)

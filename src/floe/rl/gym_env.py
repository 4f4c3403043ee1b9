"""Any registered game as a single-agent Gymnasium environment: the learner holds one seat, Floe bots hold
the others.

>>> import gymnasium, floe.rl
>>> env = gymnasium.make(floe.rl.ENV_ID, players=3, opponents=["random", "random"])
>>> obs, info = env.reset(seed=1)
>>> obs.shape == env.observation_space.shape
True

``import floe.rl`` registers ``floe/<Title>-v0`` for every registered game; its environment class is
``<Title>Env`` (``env_class``), a ``FloeEnv`` with the game chosen. ``FloeEnv(game, ...)`` takes any game.

Actions are ``Discrete(spec.player_actions)``, the game's player action ids; the legal ones are set in
``info["action_mask"]`` (int8), also given by ``env.action_masks()`` (bool, the convention of masking
libraries such as sb3-contrib). Between two learner decisions the opponents play (each bot sees only its own
seat's observation) and chance is drawn with the episode's seeded generator.

Illegal actions (``illegal_action=``): ``"penalty"`` (default) leaves the game unchanged and returns
``illegal_penalty`` (-1.0) as the reward with ``info["illegal_action"] = True``, the way Gymnasium's own
Taxi treats a move outside its ``info["action_mask"]`` — and what ``check_env`` needs, since it steps with
actions sampled without the mask; ``"raise"`` raises ``floe.rl.IllegalActionError`` (a
``gymnasium.error.InvalidAction`` and a ``ValueError``), also leaving the game unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from floe.bots.base import Bot
from floe.bots.registry import make_bot
from floe.core.match import Match
from floe.core.registry import entry, make_game
from floe.rl._common import (
    SCORE_DIFF_SCALE,
    IllegalActionError,
    as_action,
    check_reward,
    check_scale,
    final_rewards,
    vector_space,
)
from floe.rl.encode import action_mask, observation_vector
from floe.rl.names import class_name, entry_for_class

__all__ = ["FloeEnv", "env_class"]


class FloeEnv(gymnasium.Env[np.ndarray, np.int64]):
    """One seat of a Floe game against Floe bots; reward at the end (``"rank"`` or ``"score_diff"``)."""

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 4}  # noqa: RUF012 (Gymnasium reads the class)

    def __init__(
        self,
        game: str,
        players: int | None = None,
        seat: int | None = 0,
        opponents: str | Sequence[str] = "random",
        reward: str = "rank",
        options: dict[str, Any] | None = None,
        illegal_action: str = "penalty",
        illegal_penalty: float = -1.0,
        render_mode: str | None = None,
        score_scale: float = SCORE_DIFF_SCALE,
    ) -> None:
        """``players``: the seats (default: the game's fewest). ``seat``: the learner's seat, or ``None`` for
        a random seat each episode. ``opponents``: bot specs (``random``, ``ismcts:it=200``, the game's own
        bots…), one for every other seat in seat order, or a single spec for all of them."""
        if render_mode is not None and render_mode not in ("ansi", "human"):
            raise ValueError(f"render_mode must be ansi or human, not {render_mode!r}")
        if illegal_action not in ("penalty", "raise"):
            raise ValueError(f"illegal_action must be 'penalty' or 'raise', not {illegal_action!r}")
        found = entry(game)
        players = found.min_players if players is None else players
        self.game = make_game(found.name, players, options)
        if seat is not None and not 0 <= seat < players:
            raise ValueError(f"seat must be in 0..{players - 1} or None, not {seat}")
        specs = [opponents] if isinstance(opponents, str) else list(opponents)
        if len(specs) == 1:
            specs *= players - 1
        if len(specs) != players - 1:
            raise ValueError(f"{len(specs)} opponents for {players - 1} other seats")
        for q, spec in enumerate(specs, start=1):
            make_bot(spec, self.game, q, 0)  # an unknown bot or parameter fails here, not at reset()
        self.opponents = specs
        self.fixed_seat = seat
        self.reward_kind = check_reward(reward)
        self.score_scale = check_scale(score_scale)
        self.illegal_action = illegal_action
        self.illegal_penalty = float(illegal_penalty)
        self.render_mode = render_mode
        self._n_actions = self.game.spec.player_actions
        self.observation_space = vector_space(self.game.spec)
        self.action_space = spaces.Discrete(self._n_actions)
        self.seat = 0 if seat is None else seat
        self.match: Match | None = None
        self._bots: dict[int, Bot] = {}
        self._obs: np.ndarray | None = None
        self._mask: np.ndarray | None = None

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Deal a new game and play the opponents up to the learner's first decision.

        With ``seed`` the deal is ``Match.new(game, ..., seed=seed)``; without, the episode's seed is drawn
        from ``np_random`` (so ``reset(seed=s)`` followed by ``reset()`` repeats too).
        """
        super().reset(seed=seed)
        episode_seed = seed if seed is not None else int(self.np_random.integers(2**31))
        if self.fixed_seat is None:
            self.seat = int(self.np_random.integers(self.game.players))
        self.match = Match(self.game, episode_seed)
        others = [q for q in range(self.game.players) if q != self.seat]
        # Bot seeds follow the lab runner's rule, so a bot plays alike here and in `floe simulate`.
        self._bots = {
            q: make_bot(spec, self.game, q, episode_seed * 7919 + q)
            for q, spec in zip(others, self.opponents, strict=True)
        }
        self._play_opponents()
        return self._observe(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """The learner's action, then the opponents' until the learner's next decision or the end."""
        match = self.match
        if match is None or match.state.is_terminal():
            raise gymnasium.error.ResetNeeded("the episode is over (or never started): call reset()")
        state = match.state
        try:
            a = as_action(action, state, self._n_actions)
        except IllegalActionError:
            if self.illegal_action == "raise":
                raise
            assert self._obs is not None
            return self._obs.copy(), self.illegal_penalty, False, False, self._info(illegal=True)
        state.apply_unchecked(a)
        match.resolve_chance()
        self._play_opponents()
        reward = 0.0
        terminated = state.is_terminal()
        if terminated:
            reward = final_rewards(state, self.reward_kind, self.score_scale)[self.seat]
        obs, info = self._observe(), self._info()
        if self.render_mode == "human":
            self.render()
        return obs, reward, terminated, False, info

    def action_masks(self) -> np.ndarray:
        """The legal actions now as a bool array (for masking libraries)."""
        if self._mask is None:
            raise RuntimeError("call reset() first")
        return self._mask.astype(bool)

    def render(self) -> str | None:
        """The table as the learner sees it (everything, with the scores, once the game is over)."""
        if self.match is None or self.render_mode is None:
            return None
        state = self.match.state
        text = state.render(None if state.is_terminal() else self.seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    # --- internals --------------------------------------------------------------------------------------
    def _play_opponents(self) -> None:
        match = self.match
        assert match is not None
        state = match.state
        seat = self.seat
        while True:
            player = state.current_player()
            if player == seat or player < 0:
                return
            bot = self._bots[player]
            match.apply(bot.choose(state.observation(player), state.legal_actions()))

    def _observe(self) -> np.ndarray:
        # One vector and one mask per learner decision, fresh each time, so no two returns share data.
        assert self.match is not None
        state = self.match.state
        self._obs = observation_vector(state, self.seat)
        if state.is_terminal():
            self._mask = np.zeros(self._n_actions, dtype=np.int8)
        else:
            self._mask = action_mask(state.legal_actions(), self._n_actions)
        return self._obs

    def _info(self, illegal: bool = False) -> dict[str, Any]:
        assert self.match is not None and self._mask is not None
        info: dict[str, Any] = {"action_mask": self._mask.copy(), "seat": self.seat}
        if illegal:
            info["illegal_action"] = True
        state = self.match.state
        if state.is_terminal():
            info["scores"] = state.scores()
            info["ranking"] = state.ranking()
        return info


_CLASSES: dict[str, type[FloeEnv]] = {}


def env_class(name: str) -> type[FloeEnv]:
    """Game ``name``'s environment class, ``<Title>Env``: ``FloeEnv`` with the game chosen (one class per
    game, so ``isinstance`` and pickling work; ``gymnasium.make`` builds it from its registered id)."""
    game = entry(name).name
    cls = _CLASSES.get(game)
    if cls is None:

        class GameEnv(FloeEnv):
            """``FloeEnv`` for one game."""

            def __init__(
                self,
                players: int | None = None,
                seat: int | None = 0,
                opponents: str | Sequence[str] = "random",
                reward: str = "rank",
                options: dict[str, Any] | None = None,
                illegal_action: str = "penalty",
                illegal_penalty: float = -1.0,
                render_mode: str | None = None,
                score_scale: float = SCORE_DIFF_SCALE,
            ) -> None:
                super().__init__(
                    game,
                    players,
                    seat,
                    opponents,
                    reward,
                    options,
                    illegal_action,
                    illegal_penalty,
                    render_mode,
                    score_scale,
                )

        GameEnv.__name__ = GameEnv.__qualname__ = class_name(game)
        GameEnv.__doc__ = f"{entry(game).title}: one learner seat against Floe bots (see ``FloeEnv``)."
        cls = _CLASSES[game] = GameEnv
    return cls


def __getattr__(attribute: str) -> type[FloeEnv]:
    """``<Title>Env`` for every registered game (what Gymnasium's entry points and pickle look up)."""
    found = entry_for_class(attribute)
    if found is None:
        raise AttributeError(f"module {__name__!r} has no attribute {attribute!r}")
    return env_class(found.name)

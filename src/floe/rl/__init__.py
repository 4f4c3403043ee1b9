"""Every registered game for learning agents: PettingZoo, Gymnasium and OpenSpiel (``floe.rl.openspiel``,
imported on its own since it needs ``pyspiel``), built from the game's ``GameEntry``.

- PettingZoo AEC: ``floe.rl.env(game, players=…)`` and ``floe.rl.raw_env``; per game also the module
  convention ``floe.rl.<name>_v0`` (``env()``, ``raw_env``).
- Gymnasium: ``gymnasium.make("floe/<Title>-v0", players=…, opponents=[…])``, registered for every game on
  import; ``ENV_ID`` is the first game's id, ``env_ids()`` all of them; ``floe.rl.<Title>Env`` the classes.

Install with the optional extra: ``uv sync --extra rl`` (or ``pip install 'floe[rl]'``). Guide:
``docs/rl.md``. A game registered after this import (``floe.core.registry.register``) gets its Gymnasium id
from ``register_envs()``; its module and class names work at once.
"""

from __future__ import annotations

from typing import Any

try:
    import gymnasium
    import pettingzoo  # noqa: F401
except ImportError as exc:  # pragma: no cover - only without the extra
    raise ImportError(f"floe.rl needs the optional extra 'rl' (gymnasium, pettingzoo): {exc}") from exc

from floe.core.registry import default_game, game_names
from floe.rl._common import IllegalActionError
from floe.rl.aec import FloeAECEnv, env, game_module, raw_env
from floe.rl.gym_env import FloeEnv, env_class
from floe.rl.names import class_name, entry_for_class, entry_for_module, env_id, module_name


def register_envs() -> list[str]:
    """Register ``floe/<Title>-v0`` with Gymnasium and ``floe.rl.<name>_v0`` as a module for every
    registered game not yet done (idempotent); the Gymnasium ids, in listing order."""
    ids = []
    for name in game_names():
        ident = env_id(name)
        if ident not in gymnasium.registry:
            gymnasium.register(id=ident, entry_point=f"floe.rl.gym_env:{class_name(name)}")
        globals()[module_name(name)] = game_module(name)
        ids.append(ident)
    return ids


def env_ids() -> dict[str, str]:
    """Game name -> its Gymnasium id, for every registered game."""
    return {name: env_id(name) for name in game_names()}


def __getattr__(attribute: str) -> Any:
    """``<name>_v0`` (PettingZoo module) and ``<Title>Env`` (Gymnasium class) of a game registered since."""
    found = entry_for_module(attribute)
    if found is not None:
        return game_module(found.name)
    found = entry_for_class(attribute)
    if found is not None:
        return env_class(found.name)
    raise AttributeError(f"module {__name__!r} has no attribute {attribute!r}")


register_envs()
# The first listed game's id (the game ``floe play`` starts by default); empty if no game is installed.
ENV_ID = env_id(default_game()) if game_names() else ""

__all__ = [
    "ENV_ID",
    "FloeAECEnv",
    "FloeEnv",
    "IllegalActionError",
    "env",
    "env_class",
    "env_ids",
    "game_module",
    "raw_env",
    "register_envs",
]

"""Arctic for learning agents: PettingZoo (``floe.rl.arctic_v0``), Gymnasium (``floe/Arctic-v0``) and
OpenSpiel (``floe.rl.openspiel``, imported on its own since it needs ``pyspiel``).

Install with the optional extra: ``uv sync --extra rl`` (or ``pip install 'floe[rl]'``). Importing this
package registers the Gymnasium environment ``floe/Arctic-v0``. Guide: ``docs/rl.md``.
"""

from __future__ import annotations

try:
    import gymnasium
    import pettingzoo  # noqa: F401
except ImportError as exc:  # pragma: no cover - only without the extra
    raise ImportError(f"floe.rl needs the optional extra 'rl' (gymnasium, pettingzoo): {exc}") from exc

from floe.rl import arctic_v0
from floe.rl._common import IllegalActionError
from floe.rl.gym_env import ArcticEnv

ENV_ID = "floe/Arctic-v0"

if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="floe.rl.gym_env:ArcticEnv")

__all__ = ["ENV_ID", "ArcticEnv", "IllegalActionError", "arctic_v0"]

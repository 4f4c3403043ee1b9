"""What the web table says about a game in words: per-viewer log lines, the decision at hand, the legal
choices, and what the lobby offers. One small adapter per game; the server itself stays game-agnostic.

Everything here starts from what a viewer may know: log lines come from the game's own per-viewer log,
the decision text from the spectator's observation, the legal choices only for the seat that holds them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from floe.bots.base import bot_names
from floe.core.game import State

_CARD = re.compile(r"\b([a-z]+-[a-z]+-[1-5])\b")
_SEAT = re.compile(r"\bto P([1-4])\b")


@dataclass(frozen=True)
class GameInfo:
    """What the lobby may choose for one game."""

    name: str
    min_players: int
    max_players: int
    presets: tuple[str, ...]
    powers: dict[str, list[dict[str, str]]]
    suggested_bots: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON for ``GET /api/games``."""
        return {
            "name": self.name,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "presets": list(self.presets),
            "powers": self.powers,
            "bots": list(self.suggested_bots),
            "bot_names": bot_names(self.name),
        }


def arctic_info() -> GameInfo:
    """Arctic's lobby choices: presets, each animal's two power sides in words, suggested bots."""
    from floe.games.arctic.cards import ANIMALS
    from floe.games.arctic.config import POWER_SLUGS, POWER_WORDS

    powers = {
        animal: [
            {
                "side": str(side),
                "slug": POWER_SLUGS[10 * (a + 1) + side],
                "text": POWER_WORDS[10 * (a + 1) + side],
            }
            for side in (1, 2)
        ]
        for a, animal in enumerate(ANIMALS)
    }
    return GameInfo(
        name="arctic",
        min_players=2,
        max_players=4,
        presets=("rules", "bga"),
        powers=powers,
        suggested_bots=("random", "baseline", "greedy", "ismcts:ms=200", "ismcts:ms=500", "ismcts:ms=1000"),
    )


GAMES: dict[str, GameInfo] = {"arctic": arctic_info()}


def log_line(before: State, action: int, viewer: int | None) -> str | None:
    """``action`` applied to ``before`` in words, as ``viewer`` may know it (None: nothing to say)."""
    from floe.games.arctic.log import log_line as arctic_line

    return arctic_line(before, action, viewer)  # type: ignore[arg-type]


def deciding(state: State) -> str:
    """What the seat to act is deciding, in words (public: built from the spectator's view)."""
    if state.is_terminal():
        return "the game is over"
    from floe.games.arctic.text import step_words

    return step_words(state.observation(None))


def legal_choices(state: State, seat: int) -> list[dict[str, Any]]:
    """The legal choices of ``seat`` (empty unless it is to act): id, notation, words and what it touches."""
    if state.is_terminal() or state.current_player() != seat:
        return []
    out = []
    for action in state.legal_actions():
        notation = state.action_to_string(action)
        card = _CARD.search(notation)
        target = _SEAT.search(notation)
        out.append(
            {
                "id": action,
                "notation": notation,
                "text": state.describe_action(action),
                "verb": notation.split()[0],
                "card": card.group(1) if card else None,
                "seat": int(target.group(1)) - 1 if target else None,
            }
        )
    return out

"""Arctic at the web table: the per-viewer log, the decision at hand in words and the legal choices."""

from __future__ import annotations

import re
from typing import Any

from floe.core.game import State
from floe.server.present import GamePresenter

_CARD = re.compile(r"\b([a-z]+-[a-z]+-[1-5])\b")
_SEAT = re.compile(r"\bto P([1-4])\b")


class ArcticPresenter(GamePresenter):
    """Arctic: presets, power sides, the engine's per-viewer log and step words."""

    def log_line(self, before: State, action: int, viewer: int | None) -> str | None:
        from floe.games.arctic.log import log_line as arctic_line

        return arctic_line(before, action, viewer)  # type: ignore[arg-type]

    def deciding(self, state: State) -> str:
        from floe.games.arctic.text import step_words

        return step_words(state.observation(None))

    def legal_choices(self, state: State, seat: int) -> list[dict[str, Any]]:
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


PRESENTER = ArcticPresenter()

"""Arctic in words for the terminal and the web table: the log, the decision at hand and the legal choices,
each from what the viewer may know (observations and the action as the viewer may know it)."""

from __future__ import annotations

from typing import Any

from floe.core.present import GamePresenter
from floe.games.arctic import actions as act
from floe.games.arctic import log
from floe.games.arctic.actions import ActionKind
from floe.games.arctic.cards import CARD_NAMES
from floe.games.arctic.observation import ArcticObservation
from floe.games.arctic.text import describe, step_words

# Decisions whose seat field names the seat they target (a Bear gift's receiver).
_TARGETING = frozenset((ActionKind.GIVE, ActionKind.GIVE_BLIND))


class ArcticPresenter(GamePresenter):
    """Arctic: the per-viewer log, the step in words, each choice with its card and target seat."""

    def log_line(
        self, before: Any, after: Any, seen: str | None, actor: int | None, viewer: int | None
    ) -> str | None:
        return log.log_line(before, after, seen, actor, viewer)

    def deciding(self, observation: Any, actor: int) -> str:
        return step_words(observation)

    def legal_choices(self, observation: Any, legal: list[int], notations: list[str]) -> list[dict[str, Any]]:
        assert isinstance(observation, ArcticObservation)
        out = []
        for action, notation in zip(legal, notations, strict=True):
            decoded = act.decode(action)
            out.append(
                {
                    "id": action,
                    "notation": notation,
                    "text": describe(observation, action),
                    "verb": notation.split()[0],
                    "card": CARD_NAMES[decoded.card] if decoded.card >= 0 else None,
                    "seat": decoded.seat if decoded.kind in _TARGETING else None,
                }
            )
        return out


PRESENTER = ArcticPresenter()

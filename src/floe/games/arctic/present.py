"""Arctic in words for the terminal and the web table: the log, the decision at hand and the legal choices,
each from what the viewer may know (observations and the action as the viewer may know it)."""

from __future__ import annotations

import re
from typing import Any

from floe.core.present import GamePresenter
from floe.games.arctic import log
from floe.games.arctic.text import describe, step_words
from floe.games.arctic.view import ArcticObservation

_CARD = re.compile(r"\b([a-z]+-[a-z]+-[1-5])\b")
_SEAT = re.compile(r"\bto P([1-4])\b")


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
            card = _CARD.search(notation)
            target = _SEAT.search(notation)
            out.append(
                {
                    "id": action,
                    "notation": notation,
                    "text": describe(observation, action),
                    "verb": notation.split()[0],
                    "card": card.group(1) if card else None,
                    "seat": int(target.group(1)) - 1 if target else None,
                }
            )
        return out


PRESENTER = ArcticPresenter()

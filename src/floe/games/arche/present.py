"""Arche in words for the terminal and the web table: the log, the decision at hand and the legal choices,
each from what the viewer may know (observations and the action as the viewer may know it).

Each legal choice carries what a board needs to know it touches: the ``card`` (its slug), the ``cabin``
(``l2``, ``r1``; a new cabin ``new-l``/``new-r``) with its ``side`` (``left``/``right``) and ``index`` from
the bow (the index a new cabin will have), the evicted ``target``, the scoring ``category`` of a chip or a
figure, and whether the choice opens a ``new_cabin``.

The standings are each scoring card's majorities if the game ended now (``scoring.standings``): the board
draws them as they are.
"""

from __future__ import annotations

from typing import Any

from floe.core.present import GamePresenter
from floe.games.arche import actions as act
from floe.games.arche import log, scoring
from floe.games.arche.cards import CATEGORIES
from floe.games.arche.config import MAX_ROW, NEW_LEFT
from floe.games.arche.observation import ArcheObservation
from floe.games.arche.state import locate
from floe.games.arche.text import describe, step_words


def choice(obs: ArcheObservation, action: int, notation: str) -> dict[str, Any]:
    """One legal choice with what it touches (module docstring)."""
    cfg = obs.config
    d = act.decode(cfg, action)
    slugs = cfg.deck.slugs
    out: dict[str, Any] = {
        "id": action,
        "notation": notation,
        "text": describe(obs, action),
        "verb": notation.split()[0],
        "card": slugs[d.card] if d.card >= 0 else None,
        "cabin": None,
        "side": None,
        "index": None,
        "new_cabin": False,
        "target": slugs[d.target] if d.target >= 0 else None,
        "category": CATEGORIES[d.category] if d.category >= 0 else None,
    }
    if d.kind == "play":
        if d.target >= 0:
            side, index = _where(obs, d.target)
        elif d.slot >= NEW_LEFT:
            side = d.slot - NEW_LEFT
            index = len(obs.left if side == 0 else obs.right)
            out["new_cabin"] = True
        else:
            side, index = d.slot // MAX_ROW, d.slot % MAX_ROW
        out["side"] = "left" if side == 0 else "right"
        out["index"] = index
        out["cabin"] = act.slot_name(NEW_LEFT + side if out["new_cabin"] else side * MAX_ROW + index)
    elif d.kind == "evict":
        side, index = _where(obs, d.card)
        out.update(side="left" if side == 0 else "right", index=index, target=slugs[d.card])
        out["cabin"] = act.slot_name(side * MAX_ROW + index)
    return out


def _where(obs: ArcheObservation, card: int) -> tuple[int, int]:
    return locate(obs.left, obs.right, card)


class ArchePresenter(GamePresenter):
    """Arche: the per-viewer log, the step in words, each choice with its card, cabin and side."""

    def log_line(
        self, before: Any, after: Any, seen: str | None, actor: int | None, viewer: int | None
    ) -> str | None:
        return log.log_line(before, after, seen, actor, viewer)

    def deciding(self, observation: Any, actor: int) -> str:
        return step_words(observation)

    def legal_choices(self, observation: Any, legal: list[int], notations: list[str]) -> list[dict[str, Any]]:
        assert isinstance(observation, ArcheObservation)
        return [choice(observation, a, n) for a, n in zip(legal, notations, strict=True)]

    def standings(self, observation: Any) -> dict[str, Any]:
        """Each scoring card's majorities if the game ended now (``scoring.standings``): figures and chips
        under them are public, so every seat may know them."""
        assert isinstance(observation, ArcheObservation)
        mode = observation.config.options["tie_points"]
        return scoring.standings(observation.players, observation.figures, observation.halves, mode)


PRESENTER = ArchePresenter()

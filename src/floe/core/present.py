"""A game in words: log lines, the decision at hand and the legal choices, told from what a viewer may know.

A ``GamePresenter`` never sees a full state. A log line is built from the viewer's observation before and
after the action and from the action as the viewer may know it (``State.observe_action``, decided by the
game's view module, the one place that decides what a seat may know); the decision from a spectator's
observation; the legal choices from the observation of the seat that holds them; the standings (the
points as the engine counts them now) from a spectator's observation. So a log line, a choice or a standing
can never tell more than an observation does.

The terminal and the web table both use ``describe`` here; a game names its presenter in its entry
(``GameEntry.presenter``), and a game without one gets ``GamePresenter`` itself: the actor and the
notation of what they did.
"""

from __future__ import annotations

from typing import Any

from floe.core.entry import GameEntry, resolve_as
from floe.core.game import CHANCE, State
from floe.core.i18n import FLOE
from floe.core.registry import entry

_ = FLOE.gettext

STANDINGS = "standings"  # the key of the standings in a view the web table sends (``with_standings``)


class GamePresenter:
    """How a game tells itself in words. Every method sees observations only (see the module docstring).

    The defaults work for any game: the actor and the action's notation (``Chance: …`` for a chance outcome
    the viewer may know), ``P2 to act``, and each legal action with its notation. A game overrides them
    to speak its own language.
    """

    def log_line(
        self, before: Any, after: Any, seen: str | None, actor: int | None, viewer: int | None
    ) -> str | None:
        """One line on an action, for ``viewer`` (a seat, or None for a spectator).

        ``before`` and ``after`` are the viewer's observations around the action; ``seen`` is the action as
        the viewer may know it (None: nothing of it); ``actor`` is the seat that chose it (None for a
        chance outcome). None: nothing to say.
        """
        if actor is None:
            return _("Chance: %(seen)s") % {"seen": seen} if seen else None
        if actor == viewer:
            return _("You: %(seen)s") % {"seen": seen} if seen else _("You acted")
        who = {"seat": actor + 1, "seen": seen}
        return _("P%(seat)s: %(seen)s") % who if seen else _("P%(seat)s acted") % who

    def deciding(self, observation: Any, actor: int) -> str:
        """What ``actor`` (the seat to act) is deciding, in words, from a spectator's observation."""
        return _("P%(seat)s to act") % {"seat": actor + 1}

    def legal_choices(self, observation: Any, legal: list[int], notations: list[str]) -> list[dict[str, Any]]:
        """The legal choices of the seat whose ``observation`` this is, one dict per action: at least
        ``id``, ``notation``, ``text`` (words for a button) and ``verb``, plus what the board module needs
        to know what a choice touches (a card, a field, a seat). Two optional keys any game may set, which
        the web table honours: ``confirm`` (a question: the choice is final and costly, so it is played only
        once the person confirms it) and ``warning`` (what the choice costs, e.g. ``ends your game``; shown
        as a warning when every choice carries one)."""
        return [
            {"id": a, "notation": n, "text": n, "verb": n.partition(" ")[0]}
            for a, n in zip(legal, notations, strict=True)
        ]

    def standings(self, observation: Any) -> dict[str, Any] | None:
        """The points as the rules engine counts them now (JSON-ready), from a spectator's ``observation``:
        what a board draws as the live score, so that no board computes the rules again. The final
        position's standings are the final scoring. None (the default): the game has none to show."""
        return None


GENERIC = GamePresenter()


def presenter_for(game: str) -> GamePresenter:
    """The presenter the entry of ``game`` names (``GENERIC`` if it names none)."""
    return presenter_of(entry(game))


def presenter_of(found: GameEntry) -> GamePresenter:
    """The presenter the entry ``found`` names (``GENERIC`` if it names none)."""
    return GENERIC if found.presenter is None else resolve_as(found.presenter, GamePresenter)


def log_line(
    presenter: GamePresenter, before: State, action: int, viewer: int | None, after: State | None = None
) -> str | None:
    """``action`` applied to ``before`` in words for ``viewer``, built from observations only.

    ``after`` is the state after the action if the caller has it (else a clone of ``before`` is advanced);
    neither state is changed.
    """
    if after is None:
        after = before.clone()
        after.apply_unchecked(action)
    actor = before.current_player()
    return presenter.log_line(
        before.observation(viewer),
        after.observation(viewer),
        before.observe_action(action, viewer),
        None if actor == CHANCE else actor,
        viewer,
    )


def deciding(presenter: GamePresenter, state: State) -> str:
    """What the seat to act is deciding (``the game is over`` at the end), from the public view."""
    if state.is_terminal():
        return _("the game is over")
    return presenter.deciding(state.observation(None), state.current_player())


def standings(presenter: GamePresenter, state: State) -> dict[str, Any] | None:
    """The standings of ``state`` (``GamePresenter.standings``), from the spectator's observation: public
    facts only, so the same for every viewer."""
    return presenter.standings(state.observation(None))


def with_standings(view: dict[str, Any], found: dict[str, Any] | None) -> dict[str, Any]:
    """An observation dict with the standings ``found`` under ``standings`` (``view`` itself if None; else a
    copy: ``view`` may be the game's own observation)."""
    if found is None:
        return view
    if STANDINGS in view:
        raise ValueError(f"the observation dict has its own {STANDINGS!r} key: the standings would hide it")
    return {**view, STANDINGS: found}


def legal_choices(presenter: GamePresenter, state: State, seat: int) -> list[dict[str, Any]]:
    """The legal choices of ``seat`` (empty unless it is to act), from its own observation."""
    if state.is_terminal() or state.current_player() != seat:
        return []
    legal = list(state.legal_actions())
    return presenter.legal_choices(state.observation(seat), legal, [state.action_to_string(a) for a in legal])

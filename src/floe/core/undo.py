"""Undo within a turn: a game's event log (actions and undos) and the points a seat may go back to.

The game decides what may be taken back (``State.undoable``): a seat's own decision that draws no chance
outcome, shows nobody anything hidden from them, and leaves the same seat to act in the same turn. An
``UndoPoints`` stack keeps, for each such decision, the state before it; any other action (a chance
outcome, a decision that reveals something or ends the turn, or one the caller says may not be undone,
such as a bot's) empties the stack. So an undo only ever goes back over the acting seat's own undoable
decisions of its current turn — nothing anybody learned from a hidden card or a draw is ever taken back.

A log of events holds the action ids and, for an undo, ``UNDO`` (no game action id is negative); a record
writes an undo as ``UNDO_TEXT`` (no game may use that word as a notation). ``replay_events`` plays such a
log, so a log or a record with undos replays exactly.
"""

from __future__ import annotations

from collections.abc import Iterable

from floe.core.errors import IllegalActionError
from floe.core.game import Game, State

UNDO = -1
UNDO_TEXT = "undo"


class UndoPoints:
    """The decisions of the seat to act that may still be taken back, each with the state before it."""

    __slots__ = ("_points",)

    def __init__(self) -> None:
        self._points: list[tuple[int, State]] = []

    def after_move(self, before: State, action: int, after: State, *, allowed: bool = True) -> None:
        """Note that ``action`` led from ``before`` to ``after`` (with any chance outcomes it set off):
        ``before`` becomes an undo point if ``allowed``, the game says the action may be taken back and no
        chance outcome followed it; otherwise every point is gone. ``before`` is kept as it is: the caller
        must not change it afterwards."""
        if (
            allowed
            and not before.is_chance_node()
            and len(after.history) == len(before.history) + 1
            and before.undoable(action)
        ):
            self._points.append((action, before))
        else:
            self._points.clear()

    def push(self, action: int, before: State) -> None:
        """Add an undo point: ``action`` (which the game says may be taken back) was played at ``before``."""
        self._points.append((action, before))

    def can_undo(self, state: State, seat: int | None = None) -> bool:
        """Whether an undo is possible at ``state`` (by ``seat``, if given: only the seat to act undoes)."""
        return bool(self._points) and (seat is None or state.current_player() == seat)

    def undo(self) -> tuple[int, State]:
        """Take back the last undoable decision: returns it and the state before it (to be adopted as it
        is). ``IllegalActionError`` (nothing changed) if there is none."""
        if not self._points:
            raise IllegalActionError("nothing to undo: the last decision cannot be taken back")
        return self._points.pop()

    def clear(self) -> None:
        """Drop every point."""
        self._points.clear()

    def __len__(self) -> int:
        return len(self._points)


def replay_events(state: State, events: Iterable[int]) -> tuple[State, UndoPoints]:
    """``state`` after the logged ``events`` (action ids, each applied with ``apply``, and ``UNDO``), and the
    undo points left at the end. ``IllegalActionError`` for an illegal action or an undo with nothing to
    take back."""
    points = UndoPoints()
    for event in events:
        if event == UNDO:
            state = points.undo()[1]
            continue
        # A copy only of the states an undo may come back to (the game's check needs a legal action).
        keep = not state.is_chance_node() and state.is_legal(event) and state.undoable(event)
        before = state.clone() if keep else None
        state.apply(event)
        if before is None:
            points.clear()
        else:
            points.push(event, before)
    return state, points


def state_before_last(game: Game, state: State) -> State:
    """The state before ``state``'s last action, rebuilt from its history: how a log that was never checked
    (one a record is written from, whose replay will name the fault) is followed past an undo the game would
    refuse. A checked log is followed with ``follow``, at no such cost."""
    before = game.new_initial_state()
    for action in state.history[:-1]:
        before.apply_unchecked(action)
    return before


def follow(state: State, points: UndoPoints, event: int) -> State:
    """The state after ``event`` (an action, applied unchecked, or ``UNDO``) of a log already checked, with
    ``points`` kept up to date: how a reader of a log (a table's log lines, its replay, a record's notation)
    follows undos at the cost of one copy per undoable decision, never a replay of the whole history.
    ``state`` itself is changed by an action; the state an undo returns is a kept copy."""
    if event == UNDO:
        return points.undo()[1]
    if not state.is_chance_node() and state.undoable(event):
        before = state.clone()
        state.apply_unchecked(event)
        points.push(event, before)
    else:
        state.apply_unchecked(event)
        points.clear()
    return state

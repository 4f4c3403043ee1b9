"""The undo contract (``State.undoable``, core/undo.py), checked at a position for its undoable decisions.

For each decision ``a`` the game says may be taken back (at most ``limit`` of them, drawn with ``rng``; (b)
and the record of (c) for the first of them only, as they cost a world per seat and a replay of the game):

(a) it keeps the turn: after ``a`` the same seat is to act, with no chance outcome pending;
(b) it shows nobody anything hidden: for each seat ``s``, in a world ``W`` of ``s`` (``determinize``) in
    which ``a`` is legal, ``s`` sees the same after ``a`` in ``W`` as in the game — so what ``s`` sees
    after it follows from what ``s`` saw before and ``a`` itself (the mover, whose choices are the same in
    every world of its own, is always checked);
(c) undoing it restores an equal state: through ``UndoPoints``, and through the game's record with the
    word ``undo`` after ``a`` (``Record.replay``), both equal to the position (``to_json``, every view).
"""

from __future__ import annotations

import json
import random

from floe.core.game import Game, State
from floe.core.record import Record
from floe.core.undo import UNDO, UndoPoints
from floe.testing.context import Where
from floe.testing.information import same_view


def check_undo(game: Game, state: State, where: Where, rng: random.Random, limit: int = 3) -> int:
    """Checks (a)–(c) of the module docstring at ``state``; returns how many decisions were checked."""
    if state.is_chance_node() or state.is_terminal():
        return 0
    with where.checking("undoable"):
        undoable = [a for a in state.legal_actions() if state.undoable(a)]
    rng.shuffle(undoable)
    for k, action in enumerate(undoable[:limit]):
        # The costly parts (a world per seat, a record replayed from the start) for one decision per position.
        _check_one(game, state, action, where, rng, thorough=k == 0)
    return min(len(undoable), limit)


def _check_one(
    game: Game, state: State, action: int, where: Where, rng: random.Random, *, thorough: bool
) -> None:
    seat = state.current_player()
    name = state.action_to_string(action)
    check = f"undo of {name}"
    with where.checking(check):
        after = state.clone()
        after.apply(action)
    where.expect(
        after.current_player() == seat,
        check,
        f"the game says {name} may be undone, but after it {after.current_player()} acts, not {seat}",
    )
    if thorough and game.spec.information != "perfect":
        for viewer in range(game.players):
            with where.checking(check):
                world = game.determinize(state.observation(viewer), random.Random(rng.random()))
                if not world.is_legal(action):
                    where.expect(viewer != seat, check, "the mover cannot play it in a world of its own")
                    continue
                world.apply(action)
            same_view(after, world, viewer, where, f"{check}: what P{viewer + 1} sees after it")
    with where.checking(check):
        points = UndoPoints()
        points.after_move(state.clone(), action, after.clone())
        where.expect(points.can_undo(after, seat), check, "UndoPoints keeps no point for it")
        _, back = points.undo()
        restored_states = [(back, "UndoPoints")]
        if thorough:
            events = [*state.history, action, UNDO]
            text = Record.of(game, where.seed, after, events).dumps()
            restored_states.append((Record.from_json(json.loads(text)).replay(), "the record's replay"))
    for restored, how in restored_states:
        where.same(state.to_json(), restored.to_json(), check, f"{how} does not restore the position")
        for viewer in [*range(game.players), None]:
            where.same(
                state.observation_dict(viewer),
                restored.observation_dict(viewer),
                check,
                f"{how}: the view of {'a spectator' if viewer is None else f'P{viewer + 1}'} differs",
            )

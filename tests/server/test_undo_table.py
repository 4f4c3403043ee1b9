"""Issue 13, item 9, in-process: a table's undo points. A bot's decision (its own seat's or one made for an
away person) is never an undo point; a person's undoable decision is, for that seat only; a stored log with
an undo replays to the same table after a restart, which forgets the points (the log does not say who made
each decision)."""

from __future__ import annotations

from floe.core.undo import UNDO
from floe.server.store import TableRow
from floe.server.tables import Table

from .test_tables import make_table, play_to


def _undoable_move(table: Table, seat: int) -> int:
    """Play until ``seat`` has an undoable decision; return it."""
    while True:
        play_to(table, seat)
        undoable = [a for a in table.state.legal_actions() if table.state.undoable(a)]
        if undoable:
            return undoable[0]
        table.commit(table.after(table.state.legal_actions()[0]))


def test_a_person_s_undoable_decision_is_an_undo_point_a_bot_s_is_not() -> None:
    table = make_table()
    action = _undoable_move(table, 0)
    before = table.state
    table.commit(table.after(action), undoable=False)  # as the away bot playing for the person
    assert not table.may_undo(0)
    table = make_table()
    action = _undoable_move(table, 0)
    before, version = table.state, table.version
    table.commit(table.after(action), undoable=True)
    assert table.may_undo(0) and not table.may_undo(1) and not table.may_undo(None)
    table.take_back()
    assert table.state.to_json() == before.to_json() and table.version == version + 2
    assert table.events[-2:] == [action, UNDO]
    assert table.log(0)[-1] == "You take back the last move."
    assert table.log(1)[-1] == "P1 takes back the last move."


def test_a_log_with_an_undo_replays_and_a_restart_forgets_the_points() -> None:
    table = make_table()
    action = _undoable_move(table, 0)
    table.commit(table.after(action), undoable=True)
    table.take_back()
    table.commit(table.after(action), undoable=True)
    assert table.may_undo(0)
    row = table.row
    stored = TableRow(**{**row.__dict__, "actions": list(table.events)})
    again = Table.from_row(stored)
    assert again.state.to_json() == table.state.to_json() and again.version == table.version
    assert not again.may_undo(0)
    assert again.log(0) == table.log(0) and again.replay_frames(0, False) == table.replay_frames(0, False)
    assert again.record().actions.count("undo") == 1

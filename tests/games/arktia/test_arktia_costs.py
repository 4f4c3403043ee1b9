"""The choices that end the chooser's game (``costs.py``) and what the presenter makes of them: a warning on
each, a confirmation question on ``stop`` and on a move that ends the game when another would not."""

from __future__ import annotations

import random

from floe.core import present
from floe.games.arktia.costs import costs
from floe.games.arktia.game import ArktiaGame, ArktiaState
from floe.games.arktia.state import ACTIVE


def _some_finish_goes_on(st: ArktiaState, seat: int, turn: int) -> bool:
    """Whether some way of finishing ``seat``'s turn ``turn`` leaves its game going (exhaustive)."""
    if st.out[seat] != ACTIVE:
        return False
    if st.is_terminal() or st.current_player() != seat or st.turn != turn:
        return True
    for action in st.legal_actions():
        after = st.clone()
        after.apply_unchecked(action)
        if _some_finish_goes_on(after, seat, turn):
            return True
    return False


def _positions(players: int, games: int, seed: int, limits: bool = False) -> list[ArktiaState]:
    """Positions of seeded random games; with ``limits``, each game has a turn limit somewhere in its middle
    game, so the sample has last turns before the limit with a melt still to come."""
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        options = {"max_turns": rng.randrange(30, 90)} if limits else {}
        st = ArktiaGame(players, options).new_initial_state()
        while not st.is_terminal():
            out.append(st.clone())
            st.apply_unchecked(rng.choice(st.legal_actions()))
    return out


def _melt_follows(st: ArktiaState) -> bool:
    """Whether some choice leaves the seat a decision in the same turn (a melt or a keep)."""
    for action in st.legal_actions():
        after = st.clone()
        after.apply_unchecked(action)
        same_turn = after.turn == st.turn and after.current_player() == st.current_player()
        if same_turn and not after.is_terminal():
            return True
    return False


def test_costs_mark_exactly_the_choices_after_which_the_game_is_over() -> None:
    checked = marked = later = 0
    for st in _positions(2, 4, 11)[::3] + [s for s in _positions(3, 8, 5, limits=True) if _melt_follows(s)]:
        seat, turn = st.current_player(), st.turn
        ending = costs(st)
        for action in st.legal_actions():
            after = st.clone()
            after.apply_unchecked(action)
            goes_on = _some_finish_goes_on(after, seat, turn)
            assert (action in ending) == (not goes_on), st.action_to_string(action)
            checked += 1
            # Marked, yet the seat still decides in this turn (a melt, a keep): only the look-ahead knows.
            later += action in ending and not after.is_terminal() and after.current_player() == seat
        marked += len(ending)
    assert checked > 500 and marked > 20 and later > 5  # the sample has every kind


def test_stop_asks_and_warns() -> None:
    st = next(s for s in _positions(2, 1, 3) if "stop" in [s.action_to_string(a) for a in s.legal_actions()])
    choices = present.legal_choices(present.presenter_for("arktia"), st, st.current_player())
    stop = next(c for c in choices if c["verb"] == "stop")
    assert stop["warning"] == "ends your game"
    assert stop["confirm"].startswith("Stop and end your game here?")
    assert not any("confirm" in c for c in choices if c["verb"] != "stop" and "warning" not in c)


def test_every_choice_warns_on_the_last_turn_before_the_limit() -> None:
    game = ArktiaGame(2, {"neutrals": False, "max_turns": 5})
    st = game.new_initial_state()
    while st.turn < 4:
        st.apply_unchecked(st.legal_actions()[0])
    choices = present.legal_choices(present.presenter_for("arktia"), st, st.current_player())
    assert {c["warning"] for c in choices} == {"ends the game: the turn limit is reached"}
    # Only the stop asks: the other choices are no worse than any alternative.
    assert [c["verb"] for c in choices if "confirm" in c] == ["stop"]
    before = st.clone()
    st.apply_unchecked(st.legal_actions()[-1])
    assert st.is_terminal() and not before.is_terminal()


def test_a_move_that_ends_the_game_asks_when_another_would_not() -> None:
    presenter = present.presenter_for("arktia")
    for st in _positions(3, 8, 5):
        ending = costs(st)
        moves = [a for a in ending if st.action_to_string(a) != "stop"]
        if moves and len(ending) < len(st.legal_actions()):
            choices = {c["id"]: c for c in present.legal_choices(presenter, st, st.current_player())}
            assert choices[moves[0]]["warning"] == "ends your game"
            assert "this ends your game" in choices[moves[0]]["confirm"]
            return
    raise AssertionError("no position with a move that ends the game beside one that does not")

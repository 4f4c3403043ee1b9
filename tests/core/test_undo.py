"""Issue 13, item 9: undo within a turn in the engine contract (``State.undoable``, core/undo.py) and in
records. For each game: an undoable decision is taken back exactly (state and every view) through
``UndoPoints`` and through a record with ``undo``; a decision followed by a chance outcome (a card drawn), a
decision of another seat or of an earlier turn cannot be; a record with an undo it does not allow is
refused; records without undos replay as before."""

from __future__ import annotations

import random

import pytest

from floe.core.errors import IllegalActionError, RecordError
from floe.core.game import State
from floe.core.record import Record
from floe.core.registry import entries, make_game
from floe.core.undo import UNDO, UndoPoints, replay_events, state_before_last
from floe.testing.kit import check_game

GAMES = [(e.name, e.min_players) for e in entries()]


def _random_game(name: str, players: int, seed: int) -> tuple[list[int], list[tuple[int, int]]]:
    """A seeded random game's history, and where each decision was made: (index, seat)."""
    game = make_game(name, players, {})
    rng, state = random.Random(seed), game.new_initial_state()
    decisions = []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
        else:
            decisions.append((len(state.history), state.current_player()))
            state.apply(rng.choice(state.legal_actions()))
    return list(state.history), decisions


def _at(name: str, players: int, actions: list[int]) -> State:
    state = make_game(name, players, {}).new_initial_state()
    for action in actions:
        state.apply(action)
    return state


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_undoable_decisions_are_taken_back_exactly(name: str, players: int) -> None:
    game = make_game(name, players, {})
    history, decisions = _random_game(name, players, seed=7)
    checked = 0
    for index, seat in decisions:
        before = _at(name, players, history[:index])
        action = history[index]
        if not before.undoable(action):
            continue
        after = before.clone()
        after.apply(action)
        assert after.current_player() == seat and not after.is_chance_node()
        points = UndoPoints()
        points.after_move(before, action, after)
        assert points.can_undo(after, seat) and not points.can_undo(after, (seat + 1) % players)
        taken, back = points.undo()
        assert taken == action and back.to_json() == before.to_json()
        replayed, _ = replay_events(game.new_initial_state(), [*history[: index + 1], UNDO])
        assert replayed.to_json() == before.to_json()
        assert state_before_last(game, after).to_json() == before.to_json()
        record = Record.of(game, 7, after, [*history[: index + 1], UNDO])
        assert record.actions[-1] == "undo"
        again = Record.from_json(record.to_json()).replay()
        for viewer in [*range(players), None]:
            assert again.observation_dict(viewer) == before.observation_dict(viewer)
        checked += 1
    assert checked > 0 or name == "arktia"  # Arktia's turns are mostly one decision, checked below


def test_arktia_takes_back_a_move_before_its_keep_choice() -> None:
    found = 0
    for seed in range(6):
        history, decisions = _random_game("arktia", 3, seed)
        for index, _ in decisions:
            before = _at("arktia", 3, history[:index])
            found += before.undoable(history[index])
    assert found > 0


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_no_undo_after_a_card_drawn_or_another_seat(name: str, players: int) -> None:
    """A decision followed by a chance outcome while its seat still acts, or by another seat's decision,
    leaves nothing to undo; a record claiming such an undo does not replay."""
    game = make_game(name, players, {})
    refused = 0
    for seed in range(4):
        history, decisions = _random_game(name, players, seed)
        for index, seat in decisions:
            state = _at(name, players, history[: index + 1])
            k = index + 1
            while k < len(history) and state.is_chance_node():
                state.apply(history[k])
                k += 1
            drawn = k > index + 1
            if not (drawn or state.current_player() != seat) or state.is_terminal():
                continue
            _, points = replay_events(game.new_initial_state(), history[:k])
            assert not points.can_undo(state), f"{name}: undo offered after {history[index]} (seed {seed})"
            with pytest.raises(IllegalActionError):
                points.undo()
            with pytest.raises(RecordError, match="nothing to undo"):
                Record.of(game, seed, state, [*history[:k], UNDO]).replay()
            refused += 1
            if refused > 20:
                return
    assert refused > 0


def test_old_records_replay_unchanged() -> None:
    history, _ = _random_game("arctic", 2, 3)
    state = _at("arctic", 2, history)
    record = Record.of(make_game("arctic", 2, {}), 3, state)
    assert "undo" not in record.actions
    assert Record.from_json(record.to_json()).replay().to_json() == state.to_json()


@pytest.mark.slow  # whole games: left out of ./floe-test --quick
@pytest.mark.parametrize("name", [e.name for e in entries()])
def test_the_kit_checks_undo_in_seeded_random_games(name: str) -> None:
    report = check_game(name, games=2, sample=0.3, information=0.0, records=False)
    assert report.undos > 0, report

"""The OpenSpiel game ``python_floe_arctic``: OpenSpiel's own test, chance, masks, hidden information,
serialization, illegal actions and a few iterations of OpenSpiel's IS-MCTS on it."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("pyspiel")  # a guard only: CI installs the extra "rl"

import pyspiel

from floe.games.arctic import actions as act
from floe.rl.openspiel import GAME_NAME, N_CHANCE_OUTCOMES, floe_state


def _game(players: int = 2, **params: object) -> pyspiel.Game:
    return pyspiel.load_game(GAME_NAME, {"players": players, **params})


@pytest.mark.parametrize(("players", "sims"), [(2, 3), (3, 1), (4, 1)])
def test_random_sim_test_with_serialization(players: int, sims: int) -> None:
    pyspiel.random_sim_test(_game(players), num_sims=sims, serialize=True, verbose=False)


def test_game_facts() -> None:
    game = _game(3, preset="bga")
    kind = game.get_type()
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.num_players() == 3
    assert game.num_distinct_actions() == act.N_PLAYER_ACTIONS
    assert game.max_chance_outcomes() == N_CHANCE_OUTCOMES
    assert game.observation_tensor_size() == game.information_state_tensor_size() == 2197
    assert str(game) == "python_floe_arctic(players=3,preset=bga)"
    assert (
        floe_state(game.new_initial_state()).config.to_options()["end_trigger"]
        != (floe_state(_game(3).new_initial_state()).config.to_options()["end_trigger"])
    )


def _walk(players: int, seed: int) -> pyspiel.State:
    """A random game through OpenSpiel's API, checking it against the Floe engine at every node."""
    game = _game(players)
    rng = random.Random(seed)
    state = game.new_initial_state()
    fs = floe_state(state)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert [a + act.N_PLAYER_ACTIONS for a, _ in outcomes] == fs.legal_actions()
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            state.apply_action(rng.choice(outcomes)[0])
            continue
        player = state.current_player()
        assert player == fs.current_player()
        legal = state.legal_actions()
        assert legal == fs.legal_actions()
        assert np.flatnonzero(state.legal_actions_mask(player)).tolist() == legal
        assert state.observation_tensor(player) == pytest.approx(fs.observation_vector(player).tolist())
        state.apply_action(rng.choice(legal))
    assert state.returns() == fs.returns()
    assert [h for h in state.history()] == [
        a if a < act.N_PLAYER_ACTIONS else a - act.N_PLAYER_ACTIONS for a in fs.history
    ]
    return state


@pytest.mark.parametrize("players", [2, 4])
def test_masks_and_tensors_agree_with_engine(players: int) -> None:
    for seed in range(2):
        _walk(players, seed)


def _mid_game(players: int, seed: int, decisions: int) -> pyspiel.State:
    game = _game(players)
    rng = random.Random(seed)
    state = game.new_initial_state()
    fs = floe_state(state)
    done = 0
    while done < decisions or state.is_chance_node():
        if state.is_chance_node():
            state.apply_action(fs.sample_chance(rng) - act.N_PLAYER_ACTIONS)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            done += 1
    return state


def test_observer_shows_only_what_the_seat_may_know() -> None:
    state = _mid_game(3, seed=4, decisions=40)
    player = state.current_player()
    worlds = [
        state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0)) for _ in range(8)
    ]
    hidden = {str(w) for w in worlds}
    assert len(hidden) > 1  # the worlds differ in what the player cannot see...
    for world in worlds:  # ...and the player's strings and tensors cannot tell them apart
        assert world.current_player() == player
        assert world.information_state_string(player) == state.information_state_string(player)
        assert world.observation_string(player) == state.observation_string(player)
        assert world.information_state_tensor(player) == state.information_state_tensor(player)
        assert world.observation_tensor(player) == state.observation_tensor(player)
        assert world.legal_actions() == state.legal_actions()
    # The spectator's view (no private information) is the same for every seat.
    from open_spiel.python.observation import make_observation

    public = pyspiel.IIGObservationType(perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE)
    observer = make_observation(state.get_game(), public)
    views, tensors = set(), set()
    for seat in range(3):
        observer.set_from(state, seat)
        views.add(observer.string_from(state, seat))
        tensors.add(observer.tensor.tobytes())
    assert len(views) == len(tensors) == 1
    assert "(you)" not in views.pop()


def test_serialization_round_trip() -> None:
    state = _mid_game(4, seed=2, decisions=60)
    game = state.get_game()
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game)
    assert str(state2) == str(state)
    assert state2.history() == state.history()
    assert floe_state(state2) == floe_state(state)
    clone = state.clone()
    assert floe_state(clone) == floe_state(state) and floe_state(clone) is not floe_state(state)


def test_illegal_action_raises_and_changes_nothing() -> None:
    state = _mid_game(2, seed=1, decisions=10)
    before = (str(state), state.history(), floe_state(state).to_json())
    illegal = next(a for a in range(act.N_PLAYER_ACTIONS) if a not in state.legal_actions())
    for action in (illegal, act.N_PLAYER_ACTIONS + 5):
        with pytest.raises(pyspiel.SpielError):
            state.apply_action(action)
        assert (str(state), state.history(), floe_state(state).to_json()) == before


def test_same_chance_same_episode() -> None:
    assert _walk(3, 9).history() == _walk(3, 9).history()


def test_openspiel_ismcts_runs_on_it() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    state = _mid_game(2, seed=3, decisions=70)
    while len(state.legal_actions()) < 2:
        state.apply_action(state.legal_actions()[0])
        while state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
    game = state.get_game()
    rng = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 8, random_state=rng)
    assert bot.step(state) in state.legal_actions()

"""The OpenSpiel games ``python_floe_<name>``: OpenSpiel's own test, chance, masks, hidden information,
serialization, parameters, illegal actions and a few iterations of OpenSpiel's IS-MCTS on each."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("pyspiel")  # a guard only: CI installs the extra "rl"

import pyspiel

from floe.core.registry import entries, make_game
from floe.games.arctic import actions as act
from floe.rl.openspiel import floe_state, parameters, spiel_name

GAMES = ["arctic", "arktia"]


def _game(name: str = "arctic", players: int = 2, **params: object) -> pyspiel.Game:
    return pyspiel.load_game(f"python_floe_{name}", {"players": players, **params})


def _base(game: pyspiel.Game) -> int:
    """Floe's first chance id: OpenSpiel's chance outcome + this is Floe's id."""
    return int(game.num_distinct_actions())


@pytest.mark.parametrize(
    ("name", "players", "sims"),
    [
        ("arctic", 2, 3),
        ("arctic", 3, 1),
        ("arctic", 4, 1),
        ("arktia", 2, 3),
        ("arktia", 3, 2),
        ("arktia", 4, 2),
    ],
)
def test_random_sim_test_with_serialization(name: str, players: int, sims: int) -> None:
    pyspiel.random_sim_test(_game(name, players), num_sims=sims, serialize=True, verbose=False)


def test_every_game_is_registered() -> None:
    registered = set(pyspiel.registered_names())
    for entry in entries():
        assert spiel_name(entry.name) == f"python_floe_{entry.name}" in registered
        game = pyspiel.load_game(spiel_name(entry.name))
        assert game.num_players() == entry.min_players
        spec = game.floe_game.spec
        assert game.num_distinct_actions() == spec.player_actions
        assert game.max_chance_outcomes() == spec.num_distinct_actions - spec.player_actions
        assert game.observation_tensor_size() == game.information_state_tensor_size() == spec.observation_size
        assert game.max_game_length() == spec.max_game_length
        assert set(game.get_type().parameter_specification) == set(parameters(entry))


def test_game_facts() -> None:
    game = _game("arctic", 3, preset="bga")
    kind = game.get_type()
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.num_players() == 3
    assert game.num_distinct_actions() == act.N_PLAYER_ACTIONS
    assert game.max_chance_outcomes() == act.N_ACTIONS - act.N_PLAYER_ACTIONS == 158
    assert game.observation_tensor_size() == game.information_state_tensor_size() == 2197
    assert str(game) == "python_floe_arctic(players=3,preset=bga)"
    assert (
        floe_state(game.new_initial_state()).config.to_options()["end_trigger"]
        != (floe_state(_game("arctic", 3).new_initial_state()).config.to_options()["end_trigger"])
    )


def test_game_facts_without_chance() -> None:
    game = _game("arktia", 3, layout="placeholder-36", max_turns=40, tie_break="fewer_lost")
    kind = game.get_type()
    assert kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert game.max_chance_outcomes() == 0
    floe = make_game("arktia", 3, {"layout": "placeholder-36", "max_turns": 40, "tie_break": "fewer_lost"})
    assert game.floe_game.options_dict() == floe.options_dict()
    assert game.num_distinct_actions() == floe.spec.player_actions
    # Options left at their defaults are not passed on (nor shown); None and list defaults are not offered.
    assert (
        str(game) == "python_floe_arktia(layout=placeholder-36,max_turns=40,players=3,tie_break=fewer_lost)"
    )
    assert "neutrals" not in kind.parameter_specification
    assert "power_sides" not in _game().get_type().parameter_specification
    assert str(_game("arktia", 2, tie_break="shared")) == "python_floe_arktia(players=2)"
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter"):
        _game("arktia", 2, neutrals=True)


def _walk(name: str, players: int, seed: int) -> pyspiel.State:
    """A random game through OpenSpiel's API, checking it against the Floe engine at every node."""
    game = _game(name, players)
    base = _base(game)
    rng = random.Random(seed)
    state = game.new_initial_state()
    fs = floe_state(state)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert [a + base for a, _ in outcomes] == fs.legal_actions()
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            assert state.legal_actions() == [a for a, _ in outcomes]
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
    assert [h for h in state.history()] == [a if a < base else a - base for a in fs.history]
    return state


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("name", GAMES)
def test_masks_and_tensors_agree_with_engine(name: str, players: int) -> None:
    for seed in range(2):
        _walk(name, players, seed)


def _mid_game(name: str, players: int, seed: int, decisions: int) -> pyspiel.State:
    game = _game(name, players)
    rng = random.Random(seed)
    state = game.new_initial_state()
    fs = floe_state(state)
    done = 0
    while (done < decisions or state.is_chance_node()) and not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(fs.sample_chance(rng) - _base(game))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            done += 1
    return state


def _spectator_views(state: pyspiel.State, players: int) -> tuple[set[str], set[bytes]]:
    """The spectator's view (no private information) through each seat's observer call."""
    from open_spiel.python.observation import make_observation

    public = pyspiel.IIGObservationType(perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE)
    observer = make_observation(state.get_game(), public)
    views, tensors = set(), set()
    for seat in range(players):
        observer.set_from(state, seat)
        views.add(observer.string_from(state, seat))
        tensors.add(observer.tensor.tobytes())
    return views, tensors


@pytest.mark.parametrize("name", GAMES)
def test_observer_shows_only_what_the_seat_may_know(name: str) -> None:
    state = _mid_game(name, 3, seed=4, decisions=20 if name == "arktia" else 40)
    player = state.current_player()
    worlds = [
        state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0)) for _ in range(8)
    ]
    hidden = {str(w) for w in worlds}
    if state.get_game().get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION:
        assert hidden == {str(state)}  # nothing hidden: the one world is the position itself
    else:
        assert len(hidden) > 1  # the worlds differ in what the player cannot see...
    for world in worlds:  # ...and the player's strings and tensors cannot tell them apart
        assert world.current_player() == player
        assert world.information_state_string(player) == state.information_state_string(player)
        assert world.observation_string(player) == state.observation_string(player)
        assert world.information_state_tensor(player) == state.information_state_tensor(player)
        assert world.observation_tensor(player) == state.observation_tensor(player)
        assert world.legal_actions() == state.legal_actions()
    views, tensors = _spectator_views(state, 3)
    assert len(views) == len(tensors) == 1
    assert "(you)" not in views.pop()


def test_spectator_tensor_where_the_game_gives_one() -> None:
    # Arctic's encoder takes a spectator (seat None); Arktia's does not, so its public tensor is empty.
    for name, size in (("arctic", 2197), ("arktia", 0)):
        _, tensors = _spectator_views(_mid_game(name, 2, seed=1, decisions=6), 2)
        assert len(tensors.pop()) == 4 * size


@pytest.mark.parametrize("name", GAMES)
def test_observation_strings_differ_between_seats_and_positions(name: str) -> None:
    state = _mid_game(name, 2, seed=6, decisions=8)
    later = state.clone()
    later.apply_action(later.legal_actions()[0])
    assert state.observation_string(0) != state.observation_string(1)
    assert state.observation_string(0) != later.observation_string(0)


@pytest.mark.parametrize("name", GAMES)
def test_serialization_round_trip(name: str) -> None:
    state = _mid_game(name, 4, seed=2, decisions=60 if name == "arctic" else 30)
    game = state.get_game()
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game)
    assert str(state2) == str(state)
    assert state2.history() == state.history()
    assert floe_state(state2) == floe_state(state)
    clone = state.clone()
    assert floe_state(clone) == floe_state(state) and floe_state(clone) is not floe_state(state)


def test_serialization_keeps_the_options() -> None:
    game = _game("arktia", 2, layout="placeholder-27", melt_start="same_turn")
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    game2, state2 = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert game2.floe_game.options_dict() == game.floe_game.options_dict()
    assert floe_state(state2) == floe_state(state)


@pytest.mark.parametrize("name", GAMES)
def test_illegal_action_raises_and_changes_nothing(name: str) -> None:
    state = _mid_game(name, 2, seed=1, decisions=10)
    before = (str(state), state.history(), floe_state(state).to_json())
    n = state.get_game().num_distinct_actions()
    illegal = next(a for a in range(n) if a not in state.legal_actions())
    for action in (illegal, n + 5):
        with pytest.raises(pyspiel.SpielError):
            state.apply_action(action)
        assert (str(state), state.history(), floe_state(state).to_json()) == before


@pytest.mark.parametrize("name", GAMES)
def test_same_chance_same_episode(name: str) -> None:
    assert _walk(name, 3, 9).history() == _walk(name, 3, 9).history()


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_search_runs_on_it(name: str) -> None:
    """OpenSpiel's IS-MCTS on an imperfect-information game, its MCTS on a perfect-information one."""
    from open_spiel.python.algorithms import ismcts, mcts

    state = _mid_game(name, 2, seed=3, decisions=70 if name == "arctic" else 10)
    while len(state.legal_actions()) < 2:
        state.apply_action(state.legal_actions()[0])
        while state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
    game = state.get_game()
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    if game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION:
        bot = mcts.MCTSBot(game, 2.0, 8, evaluator, random_state=rng)
    else:
        bot = ismcts.ISMCTSBot(game, evaluator, 2.0, 8, random_state=rng)
    assert bot.step(state) in state.legal_actions()

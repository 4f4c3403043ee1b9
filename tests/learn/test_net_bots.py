"""The learned bots: ``net`` and the searches with a network (``ismcts:net=…``, ``mcts:net=…``): bounded
parameters, honest listing, the time cap, and no hidden information reaching the network."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from floe.bots.labels import bot_label
from floe.bots.registry import bot_names, make_bot
from floe.core.errors import OptionError
from floe.core.game import Game, State
from floe.core.registry import entry, make_game
from floe.learn.model import MODELS_ENV, install_model, new_model


def _position(game: Game, seed: int, steps: int) -> State:
    """A position some random decisions into a game (chance drawn with the same generator)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    made = 0
    while not state.is_terminal() and (made < steps or state.current_player() < 0):
        if state.current_player() < 0:
            state.apply_unchecked(state.sample_chance(rng))
            continue
        state.apply_unchecked(rng.choice(state.legal_actions()))
        made += 1
    return state


@pytest.fixture
def arctic() -> Game:
    game = make_game("arctic", 2)
    install_model("arctic-2p", new_model(game, [16], seed=0))
    return game


@pytest.fixture
def arktia() -> Game:
    game = make_game("arktia", 2)
    install_model("arktia-2p", new_model(game, [16], seed=0))
    return game


def test_net_is_offered_only_where_a_model_can_be_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Arche ships no model and none was handed to this process.
    if not any((entry("arche").models_dir() or tmp_path / "none").glob("*.npz")):
        assert "net" not in bot_names("arche")
    game = make_game("arche", 4)
    install_model("arche-4p", new_model(game, [8], seed=0))
    assert "net" in bot_names("arche")
    monkeypatch.setenv(MODELS_ENV, str(tmp_path))
    assert "net" in bot_names("arktia")


def test_labels_say_what_the_bot_is(arctic: Game) -> None:
    assert bot_label(entry("arctic"), "net") == "Learned policy"
    assert bot_label(entry("arctic"), "ismcts:net=default,it=200") == "ISMCTS · net=default · 200 iterations"


@pytest.mark.parametrize(
    ("spec", "said"),
    [
        ("net:temp=nan", "temp must be a number from 0 to 100"),
        ("net:temp=1000", "temp must be"),
        ("net:temp=-1", "temp must be"),
        ("net:depth=3", "net has no parameter 'depth'"),
        ("net:net=../../etc/passwd", "not a model name"),
        ("net:net=other", "no model other for arctic with 2 players"),
        ("ismcts:net=default,c=0", "c must be a positive number"),
        ("ismcts:net=default,c=1e9", "c must be"),
        ("ismcts:net=default,depth=10001", "depth must be between 0 and 10000"),
        ("ismcts:net=default,it=100000000", "it must be"),
        ("ismcts:net=default,rollout=random", "ismcts with net has no parameter 'rollout'"),
        ("ismcts:net=Default", "not a model name"),
    ],
)
def test_parameters_are_bounded(arctic: Game, spec: str, said: str) -> None:
    with pytest.raises(OptionError) as exc:
        make_bot(spec, arctic, 0, 0)
    assert said in str(exc.value) and "\n" not in str(exc.value)


def test_without_a_model_the_bots_say_so_in_one_line() -> None:
    game = make_game("arctic", 3)
    with pytest.raises(OptionError) as exc:
        make_bot("ismcts:net=default", game, 0, 0)
    text = str(exc.value)
    assert "no model arctic-3p for arctic with 3 players" in text and "\n" not in text
    if "net" not in bot_names("arctic"):  # no model anywhere: the bot is not offered at all
        with pytest.raises(OptionError, match="unknown bot 'net'"):
            make_bot("net", game, 0, 0)


@pytest.mark.parametrize(
    "spec", ["net", "net:temp=0.5", "ismcts:net=default,it=20", "ismcts:net=default,it=10,depth=4"]
)
def test_the_bots_choose_legal_actions(arctic: Game, spec: str) -> None:
    for seed in range(3):
        state = _position(arctic, seed, 10 + 7 * seed)
        seat = state.current_player()
        bot = make_bot(spec, arctic, seat, seed)
        legal = state.legal_actions()
        assert bot.choose(state.observation(seat), legal) in legal


def test_mcts_with_a_network_plays_a_perfect_information_game(arktia: Game) -> None:
    state = _position(arktia, 0, 4)
    seat = state.current_player()
    bot = make_bot("mcts:net=default,it=30", arktia, seat, 1)
    legal = state.legal_actions()
    assert bot.choose(state.observation(seat), legal) in legal
    rows = bot.analyse(state.observation(seat), legal)  # type: ignore[attr-defined]
    assert sorted(a for a, _, _ in rows) == sorted(legal)
    assert 0 < sum(v for _, v, _ in rows) <= 30  # the first iteration evaluates the root itself


def test_a_search_with_a_network_stops_at_the_time_cap(arctic: Game) -> None:
    state = _position(arctic, 2, 6)
    seat = state.current_player()
    bot = make_bot("ismcts:net=default,it=1000000", arctic, seat, 0)
    bot.time_cap = 0.0  # already over when the search starts: one iteration, then it stops
    bot.choose(state.observation(seat), state.legal_actions())
    assert bot.last_iterations == 1  # type: ignore[attr-defined]


def _hidden_variants(game: Game, state: State, seat: int) -> tuple[State, State] | None:
    """Two full states that ``seat`` cannot tell apart (its observation is the same) but whose hidden
    parts differ; None if nothing is hidden from the seat here."""
    observation = state.observation(seat)
    for k in range(50):
        a, b = (
            game.determinize(observation, random.Random(k)),
            game.determinize(observation, random.Random(k + 99)),
        )
        if a.to_json() != b.to_json():
            return a, b
    return None


@pytest.mark.parametrize("name", ["arctic", "goofspiel"])
def test_hidden_parts_never_reach_the_network(name: str, request: pytest.FixtureRequest) -> None:
    game: Game = request.getfixturevalue(name) if name == "goofspiel" else make_game(name, 2)
    install_model(f"{name}-2p", new_model(game, [32], seed=5))
    checked = 0
    for seed in range(4):
        state = _position(game, seed, 3 + 5 * seed)
        seat = state.current_player()
        variants = None if state.is_terminal() else _hidden_variants(game, state, seat)
        if variants is None:
            continue
        checked += 1
        one, two = variants
        assert one.observation_dict(seat) == two.observation_dict(seat)
        np.testing.assert_array_equal(one.observation_vector(seat), two.observation_vector(seat))
        legal = state.legal_actions()
        for spec in ("net", "net:temp=1", "ismcts:net=default,it=25"):
            picks = [make_bot(spec, game, seat, 7).choose(s.observation(seat), legal) for s in (one, two)]
            assert picks[0] == picks[1], spec
    assert checked >= 1


def test_the_searches_with_a_network_can_give_the_terminals_hint(arctic: Game) -> None:
    from floe.play.terminal import Analyser

    state = _position(arctic, 1, 8)
    seat = state.current_player()
    bot = make_bot("ismcts:net=default,it=12", arctic, seat, 0)
    assert isinstance(bot, Analyser)
    legal = state.legal_actions()
    rows = bot.analyse(state.observation(seat), legal)
    assert sorted(a for a, _, _ in rows) == sorted(legal)
    assert all(0.0 <= rate <= 1.0 for _, _, rate in rows)

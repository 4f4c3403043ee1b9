"""``floe train --imitate``: the bootstrap learns the imitated bot's choices, resumes without playing a game
twice or losing one, records its search's visits, and refuses bad settings before any work. Needs the extra
``train`` (JAX, optax)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

from floe.bots.base import Bot
from floe.bots.registry import register_bot, unregister_bot
from floe.cli import app
from floe.core.game import Game
from floe.lab.runner import play_game
from floe.lab.where import Backend
from floe.learn import train as train_module
from floe.learn.model import Model, load_model
from floe.learn.selfplay import ImitationJob, imitation_game
from floe.learn.train import Run, TrainConfig, load_imitation, run_training

pytest.importorskip("jax")
pytest.importorskip("optax")


class HighestBot(Bot):
    """A deterministic rule: the highest legal action id (in the example game, the highest bid)."""

    name = "highest"

    def choose(self, observation: Any, legal_actions: list[int]) -> int:
        return max(legal_actions)


@pytest.fixture
def highest(goofspiel: Game) -> Iterator[str]:
    """The rule registered as a generic bot in this process (the tests run games in-process)."""
    register_bot("highest", HighestBot)
    yield "highest"
    unregister_bot("highest")


def _config(**changes: Any) -> TrainConfig:
    base = TrainConfig(
        game="goofspiel",
        players=2,
        hidden=(32,),
        games=2,
        search=8,
        steps=10,
        eval_games=2,
        eval_search=8,
        learning_rate=3e-3,
        batch=64,
        imitate="highest",
        imitate_games=40,
        imitate_keep=100,
        imitate_steps=300,
    )
    return dataclasses.replace(base, **changes)


def _agreement(model: Model, game: Game, seeds: range) -> float:
    """How often the network's most likely legal action is the rule's, over the decisions of random games
    (positions the bootstrap never saw)."""
    hits = total = 0

    def watch(state: Any, seat: int, legal: list[int], bot: Bot, action: int) -> None:
        nonlocal hits, total
        if len(legal) > 1:
            logits, _ = model.forward(np.asarray([state.observation_vector(seat)], dtype=np.float32))
            hits += int(legal[int(np.argmax(logits[0][legal]))] == max(legal))
            total += 1

    for seed in seeds:
        play_game(game, ["random", "random"], seed, watch)
    return hits / total


def test_the_bootstrap_imitates_a_deterministic_bot(goofspiel: Game, highest: str, tmp_path: Path) -> None:
    out = tmp_path / "run"
    record = run_training(_config(), out, 0, Backend(1), progress=False, command="floe train goofspiel")
    [zero] = record["iterations"]
    assert zero["iteration"] == 0 and zero["imitate"] == "highest" and zero["games"] == 40
    assert zero["net_vs_reference"]["games"] == 2 and "vs_best" not in zero
    assert zero["policy_loss"] < 0.5 * zero["policy_loss_before"]
    # Games 19 and 39 are held out: their losses chose the weights kept.
    assert zero["trained_on"] == zero["examples"] - 2 * zero["examples"] // 40
    assert zero["policy_loss_held_out"] < zero["policy_loss_before"] and 0 < zero["steps_kept"] <= 300
    best = load_model(out / "best.npz", goofspiel)
    assert best.info["imitation"] == "highest" and best.info["imitation_games"] == 40
    start = train_module.new_model(goofspiel, (32,), 0)
    trained, untrained = (
        _agreement(best, goofspiel, range(100, 110)),
        _agreement(start, goofspiel, range(100, 110)),
    )
    assert trained >= 0.9 and trained >= untrained + 0.3
    # Expert iteration goes on from the imitating network, its window keeping the bootstrap's results.
    record = run_training(_config(), out, 1, Backend(1), progress=False, resume=True)
    assert [it["iteration"] for it in record["iterations"]] == [0, 1]
    assert record["iterations"][1]["trained_on"] > record["iterations"][1]["examples"]


def test_an_interrupted_bootstrap_resumes_without_playing_a_game_twice(
    goofspiel: Game, highest: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    played: list[int] = []

    def counted(job: ImitationJob) -> Any:
        if len(played) == 13 and job.index not in played:
            played.append(-1)  # the interruption, once
            raise KeyboardInterrupt
        played.append(job.index)
        return imitation_game(job)

    monkeypatch.setattr(train_module, "imitation_game", counted)
    monkeypatch.setattr(train_module, "CHUNK_GAMES", 5)  # chunks of 5, the last one cut short (3)
    monkeypatch.setattr(train_module, "CHUNK_SECONDS", 1e9)  # whatever the machine's speed
    out = tmp_path / "run"
    with pytest.raises(KeyboardInterrupt):
        run_training(_config(), out, 0, Backend(1), progress=False)
    run = Run(out)
    assert len(run.imitation_files()) == 3
    assert load_imitation(run)[1] == set(range(13))
    assert not [it for it in run.read()["iterations"]]
    record = run_training(_config(), out, 0, Backend(1), progress=False, resume=True)
    games = [g for g in played if g >= 0]
    assert sorted(games) == list(range(40))  # each game played once: none again, none lost
    examples, indices = load_imitation(run)
    assert indices == set(range(40)) and record["iterations"][0]["games"] == 40
    assert examples.games == 40 and len(examples) == record["iterations"][0]["examples"]


def test_a_search_bot_is_imitated_through_its_visits(goofspiel: Game) -> None:
    _, ex = imitation_game(ImitationJob("goofspiel", 2, {}, "ismcts:it=30", 3, 0, 4))
    assert len(ex) == 4  # at most keep positions of the game
    for target, legal in zip(ex.targets, ex.legal, strict=True):
        assert target.shape == legal.shape and target.sum() == pytest.approx(1.0)
    assert any(np.count_nonzero(t) > 1 for t in ex.targets)  # visits, not the one action chosen
    assert set(np.abs(ex.values).ravel()) <= {0.0, 1.0} and (ex.values.sum(axis=1) == 0).all()


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (
            ["--imitate", "baseline", "--imitate-games", "1000001"],
            "--imitate-games must be from 1 to 1,000,000",
        ),
        (["--imitate", "nobot"], "unknown bot 'nobot'"),
        (["--imitate", "greedy", "--imitate-window", "some"], "--imitate-window must be one of"),
        (["--imitate", "greedy", "--imitate-games", "1000000", "--imitate-keep", "5000"], "GB of examples"),
        (["--iterations", "0"], "--iterations must be from 1"),
    ],
)
def test_bad_imitation_settings_are_one_line_and_make_nothing(
    tmp_path: Path, args: list[str], said: str
) -> None:
    out = tmp_path / "run"
    result = CliRunner().invoke(app, ["train", "arktia", "--out", str(out), *args])
    assert result.exit_code != 0
    assert said in result.stderr and "Traceback" not in result.stderr
    assert said in result.stderr.strip().splitlines()[-1]  # the error is one line
    assert not out.exists()


def test_the_searches_report_their_root_visits() -> None:
    """``Bot.last_visits`` after a searched decision: the root's visits, over legal actions only; None
    after a decision that was not searched."""
    from floe.bots.registry import make_bot
    from floe.core.match import Match
    from floe.core.registry import make_game

    for name, spec in (("arktia", "mcts:it=30"), ("arctic", "ismcts:it=30")):
        game = make_game(name, 2)
        match = Match(game, 5)  # it resolves chance events itself
        state = match.state
        while len(state.legal_actions()) < 2:
            match.apply(state.legal_actions()[0])
        seat, legal = state.current_player(), state.legal_actions()
        bot = make_bot(spec, game, seat, 0)
        assert bot.last_visits is None
        action = bot.choose(state.observation(seat), legal)
        visits = bot.last_visits
        assert visits is not None and set(visits) <= set(legal)
        assert sum(visits.values()) >= 30 and visits[action] == max(visits.values())
        bot.choose(state.observation(seat), legal[:1])
        assert bot.last_visits is None


def test_training_stops_early_once_held_out_games_get_worse(goofspiel: Game) -> None:
    """Results that are noise can only be learnt by heart: the held-out loss gets worse, the training stops
    early and keeps the weights of the best measure."""
    from floe.learn.train import fit, merge, subset

    ex = merge([imitation_game(ImitationJob("goofspiel", 2, {}, "random", s, s, 100))[1] for s in range(40)])
    noise = np.random.default_rng(0).choice([-1.0, 1.0], size=len(ex)).astype(np.float32)
    ex.values = np.stack([noise, -noise], axis=1)
    held = ex.origin % 4 == 3
    config = TrainConfig(game="goofspiel", players=2, hidden=(64,), learning_rate=3e-3, batch=64)
    start = train_module.new_model(goofspiel, (64,), 0)
    _, losses = fit(
        start, subset(ex, np.flatnonzero(~held)), config, 0, 5000, subset(ex, np.flatnonzero(held))
    )
    assert losses["steps_kept"] < losses["steps_done"] < 5000
    assert losses["value_loss"] < losses["value_loss_held_out"]

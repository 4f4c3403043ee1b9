"""``floe train``: the trainer learns what it is shown, and a run on the example game goes end to end,
resumes and refuses another run's folder. Needs the extra ``train`` (JAX, optax)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest

from floe.core.errors import OptionError
from floe.core.game import Game
from floe.lab.where import Backend
from floe.learn.model import load_model, new_model
from floe.learn.selfplay import Examples, SelfPlayJob, self_play
from floe.learn.train import TrainConfig, TrainError, fit, merge, run_training

pytest.importorskip("jax")
pytest.importorskip("optax")


def _examples(game: Game, games: int) -> Examples:
    model = new_model(game, [16], seed=0)
    jobs = [SelfPlayJob(game.name, 2, {}, model.to_bytes(), seed, 24, 1.5, 2, 0.25) for seed in range(games)]
    return merge([self_play(job) for job in jobs])


def _agreement(model: object, ex: Examples) -> float:
    """How often the network's most likely legal action is the target's."""
    from floe.learn.model import Model

    assert isinstance(model, Model)
    logits, _ = model.forward(ex.vectors)
    hits = [
        int(legal[np.argmax(row[legal])] == legal[np.argmax(target)])
        for row, legal, target in zip(logits, ex.legal, ex.targets, strict=True)
    ]
    return sum(hits) / len(hits)


def test_training_imitates_the_targets(goofspiel: Game) -> None:
    """A supervised sanity check: targets from a fixed rule over real self-play positions (the highest
    legal bid; the value: +1 for the seat to act), learnt far better than the random network knows them."""
    ex = _examples(goofspiel, 6)
    ex.targets = [np.eye(len(legal), dtype=np.float32)[int(np.argmax(legal))] for legal in ex.legal]
    ex.values = np.tile(np.array([1.0, -1.0], dtype=np.float32), (len(ex), 1))
    start = new_model(goofspiel, [32], seed=1)
    config = TrainConfig(game="goofspiel", players=2, hidden=(32,), steps=300, batch=64, learning_rate=3e-3)
    trained, losses = fit(start, ex, config, seed=0)
    assert _agreement(trained, ex) >= 0.9 > _agreement(start, ex) + 0.3
    assert losses["policy_loss"] < 0.5 * losses["policy_loss_before"]
    assert losses["value_loss"] < 0.25 * losses["value_loss_before"]


def test_a_run_goes_end_to_end_and_resumes(goofspiel: Game, tmp_path: Path) -> None:
    config = TrainConfig(
        game="goofspiel", players=2, hidden=(16,), games=3, search=12, steps=40, eval_games=2, eval_search=8
    )
    out = tmp_path / "run"
    record = run_training(config, out, 1, Backend(1), progress=False, command="floe train goofspiel")
    assert len(record["iterations"]) == 1
    first = record["iterations"][0]
    assert first["examples"] > 0 and first["value_loss"] < first["value_loss_before"]
    assert {"vs_best", "search_vs_reference", "net_vs_reference"} <= set(first)
    assert first["net_vs_reference"]["games"] == 2  # the reference: the entry's away_bot (random)
    assert (out / "report.png").stat().st_size > 0
    assert (out / "models" / "goofspiel-2p.npz").is_file()
    # Not without --resume; not another configuration.
    with pytest.raises(TrainError, match="add --resume"):
        run_training(config, out, 2, Backend(1), progress=False)
    with pytest.raises(TrainError, match="games differ"):
        run_training(dataclasses.replace(config, games=5), out, 2, Backend(1), progress=False, resume=True)
    record = run_training(
        config, out, 2, Backend(1), progress=False, resume=True, command="floe train goofspiel"
    )
    assert [it["iteration"] for it in record["iterations"]] == [1, 2]
    best = load_model(out / "best.npz", goofspiel)
    assert best.info["iterations"] == 2 and best.info["command"] == "floe train goofspiel"
    assert best.info["games"] == 6 and best.info["core_seconds"] > 0
    assert json.loads((out / "run.json").read_text())["config"]["reference"] == "random"


def test_bad_settings_are_refused_before_any_work(tmp_path: Path) -> None:
    with pytest.raises(OptionError, match="--games must be from 1"):
        run_training(TrainConfig(game="arktia", players=2, games=0), tmp_path / "a", 1, Backend(1))
    with pytest.raises(OptionError, match="--iterations"):
        run_training(TrainConfig(game="arktia", players=2), tmp_path / "a", 0, Backend(1))
    assert not (tmp_path / "a").exists()


def test_held_out_losses_agree_with_the_trainers(goofspiel: Game) -> None:
    """The numpy measure of a network's losses on new games is the trainer's measure (JAX)."""
    from floe.learn.train import held_out_losses

    ex = _examples(goofspiel, 2)
    model = new_model(goofspiel, [16], seed=4)
    config = TrainConfig(game="goofspiel", players=2, hidden=(16,), steps=0)
    _, losses = fit(model, ex, config, seed=0)
    held = held_out_losses(model, ex)
    assert held["policy_loss_new_games"] == pytest.approx(losses["policy_loss_before"], rel=1e-4)
    assert held["value_loss_new_games"] == pytest.approx(losses["value_loss_before"], rel=1e-4)

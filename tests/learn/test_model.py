"""The model file of the learned bots: round trip, and every file that does not fit refused in one line."""

from __future__ import annotations

import dataclasses
import io
import zipfile
from pathlib import Path

import numpy as np
import pytest

from floe.core.registry import make_game
from floe.learn.model import (
    MODELS_ENV,
    ModelError,
    find_model,
    install_model,
    load_model,
    model_from_bytes,
    new_model,
)


def _one_line(exc: pytest.ExceptionInfo[ModelError]) -> str:
    text = str(exc.value)
    assert "\n" not in text and "Traceback" not in text
    return text


def test_a_model_file_round_trips(tmp_path: Path) -> None:
    game = make_game("arktia", 2)
    model = new_model(game, [16, 8], seed=3, info={"command": "floe train arktia --players 2"})
    path = tmp_path / "m.npz"
    model.save(path)
    back = load_model(path, game)
    assert back.meta() == model.meta()
    assert back.info["command"] == "floe train arktia --players 2"
    x = np.random.default_rng(0).standard_normal((3, game.spec.observation_size)).astype(np.float32)
    for a, b in zip(model.forward(x), back.forward(x), strict=True):
        np.testing.assert_array_equal(a, b)


def test_evaluate_masks_to_the_legal_actions_and_orders_values_by_seat() -> None:
    game = make_game("arktia", 2)
    model = new_model(game, [8], seed=0)
    state = game.new_initial_state()
    legal = state.legal_actions()
    vector = state.observation_vector(0)
    probs, values = model.evaluate(vector, 0, legal)
    assert probs.shape == (len(legal),) and abs(float(probs.sum()) - 1.0) < 1e-5
    _, rel = model.forward(vector[None, :])
    # Entry 0 of the network's values is the observer; seen from seat 1, it is seat 1's value.
    _, from_one = model.evaluate(vector, 1, legal)
    assert from_one[1] == pytest.approx(float(rel[0, 0])) and from_one[0] == pytest.approx(float(rel[0, 1]))
    assert values[0] == pytest.approx(float(rel[0, 0]))


@pytest.mark.parametrize(
    ("players", "change", "said"),
    [
        (3, {}, "players 2, not 3"),
        (2, {"version": "arktia-0"}, "rules version arktia-0"),
        (2, {"game": "arctic"}, "game arctic, not arktia"),
        (2, {"actions": 7}, None),  # the arrays no longer fit the facts: damaged
    ],
)
def test_a_model_of_another_game_version_or_size_is_refused(
    tmp_path: Path, players: int, change: dict[str, object], said: str | None
) -> None:
    model = dataclasses.replace(new_model(make_game("arktia", 2), [8], seed=0), **change)  # type: ignore[arg-type]
    path = tmp_path / "m.npz"
    model.save(path)
    with pytest.raises(ModelError) as exc:
        load_model(path, make_game("arktia", players))
    assert (said or "damaged") in _one_line(exc)


def _corrupt(data: bytes, how: str) -> bytes:
    if how == "truncated":
        return data[: len(data) // 2]
    if how == "garbage":
        return b"not a model" * 10
    if how == "empty":
        return b""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w") as dst:
        for item in src.namelist():
            content = src.read(item)
            if how == "missing" and item == "wv.npy":
                continue
            if how == "nan" and item == "bp.npy":
                array = np.load(io.BytesIO(content))
                array[0] = np.nan
                buffer = io.BytesIO()
                np.save(buffer, array)
                content = buffer.getvalue()
            if how == "pickle" and item == "b0.npy":
                buffer = io.BytesIO()
                np.save(buffer, np.array([object()], dtype=object), allow_pickle=True)
                content = buffer.getvalue()
            dst.writestr(item, content)
    return out.getvalue()


@pytest.mark.parametrize("how", ["truncated", "garbage", "empty", "missing", "nan", "pickle"])
def test_a_damaged_file_is_refused_in_one_line(tmp_path: Path, how: str) -> None:
    game = make_game("arktia", 2)
    path = tmp_path / "m.npz"
    path.write_bytes(_corrupt(new_model(game, [8], seed=0).to_bytes(), how))
    with pytest.raises(ModelError) as exc:
        load_model(path, game)
    assert "damaged or not a Floe model file" in _one_line(exc)


def test_an_oversized_or_missing_file_is_refused_before_reading(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from floe.learn import model as module

    game = make_game("arktia", 2)
    path = tmp_path / "m.npz"
    new_model(game, [8], seed=0).save(path)
    monkeypatch.setattr(module, "MAX_MODEL_BYTES", 100)
    with pytest.raises(ModelError) as exc:
        load_model(path, game)
    assert "too large" in _one_line(exc)
    with pytest.raises(ModelError) as exc:
        load_model(tmp_path / "none.npz", game)
    assert "cannot read" in _one_line(exc)


def test_models_are_found_by_name_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = make_game("arctic", 2)  # a game that ships no model
    with pytest.raises(ModelError) as exc:
        find_model(game)
    assert "no model arctic-2p for arctic with 2 players" in _one_line(exc)
    for bad in ("../m", "/etc/passwd", "M", "a" * 65, ""):
        if bad:
            with pytest.raises(ModelError, match="not a model name"):
                find_model(game, bad)
    model = new_model(game, [8], seed=1)
    model.save(tmp_path / "arctic-2p.npz")
    monkeypatch.setenv(MODELS_ENV, str(tmp_path))
    assert find_model(game).meta() == model.meta()
    assert find_model(game, "default").meta() == model.meta()
    # A model handed to the process comes first.
    other = new_model(game, [4], seed=2)
    install_model("arctic-2p", other)
    assert find_model(game).meta()["hidden_sizes"] == [4]
    # The right name for the wrong player count: refused by its facts.
    (tmp_path / "arctic-3p.npz").write_bytes(model.to_bytes())
    with pytest.raises(ModelError, match="players 2, not 3"):
        find_model(make_game("arctic", 3))


def test_the_shipped_model_fits_its_game() -> None:
    from floe.core.registry import entry

    game = make_game("arktia", 2)
    model = find_model(game)
    assert model.info["iterations"] >= 1 and model.info["command"].startswith("floe train arktia")
    path = entry("arktia").models_dir()
    assert path is not None and (path / "arktia-2p.npz").stat().st_size < 4_000_000


def test_model_bytes_load_like_files() -> None:
    game = make_game("arktia", 2)
    model = new_model(game, [8], seed=0)
    assert model_from_bytes(model.to_bytes(), game).meta() == model.meta()

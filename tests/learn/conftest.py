"""Fixtures of the learned-bot tests: the example game (``examples/goofspiel``) registered in this process,
small enough that a training run takes seconds, and small random models."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from floe.core import registry
from floe.core.game import Game
from floe.learn import model as model_module

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "goofspiel" / "src"


@pytest.fixture
def goofspiel(monkeypatch: pytest.MonkeyPatch) -> Iterator[Game]:
    """The example game, registered in this process only (tests run it in-process: ``Backend(1)``)."""
    monkeypatch.syspath_prepend(str(EXAMPLE))
    package = importlib.import_module("floe_goofspiel")
    registry.entries()  # discover the installed games first, so the discovery does not run later
    registry.register(package.ENTRY)
    yield registry.make_game("goofspiel", 2)
    registry._ENTRIES.pop("goofspiel", None)


@pytest.fixture(autouse=True)
def no_installed_models(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts with no model handed to this process and no FLOE_MODELS."""
    monkeypatch.setattr(model_module, "_INSTALLED", {})
    monkeypatch.delenv(model_module.MODELS_ENV, raising=False)

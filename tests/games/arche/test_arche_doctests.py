"""The examples in the Arche modules' docstrings run as tests."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["cards", "config", "actions", "scoring", "vector", "text", "terminal"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(f"floe.games.arche.{name}")
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0

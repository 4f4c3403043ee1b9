"""The examples in the Arktia modules' docstrings run as tests."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["board", "towers", "actions", "config", "scoring", "game"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(f"floe.games.arktia.{name}")
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0


def test_helper_examples() -> None:
    from . import arktia_helpers

    result = doctest.testmod(arktia_helpers)
    assert result.attempted > 0 and result.failed == 0

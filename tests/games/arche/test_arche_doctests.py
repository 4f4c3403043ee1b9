"""The examples in the Arche modules' docstrings run as tests."""

from __future__ import annotations

import doctest

import pytest

from ..native_trace import python_module

MODULES = ["cards", "config", "actions", "scoring", "vector", "text", "terminal"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(python_module("arche", name))  # a compiled module's examples from its source
    assert result.attempted > 0 and result.failed == 0

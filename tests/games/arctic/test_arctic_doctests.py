"""The examples in the Arctic modules' docstrings run as tests (a compiled module's from its source)."""

from __future__ import annotations

import doctest

import pytest

from ..native_trace import python_module

MODULES = ["actions", "belief", "cards", "codec", "config", "powers", "vector"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(python_module("arctic", name))
    assert result.attempted > 0 and result.failed == 0

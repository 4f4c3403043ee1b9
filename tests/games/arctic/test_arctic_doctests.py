"""The examples in the Arctic modules' docstrings run as tests."""

from __future__ import annotations

import doctest
import importlib
import importlib.util
from types import ModuleType

import pytest

from floe.games.arctic import native

MODULES = ["actions", "belief", "cards", "codec", "config", "powers", "vector"]


def _with_docstrings(name: str) -> ModuleType:
    # A module of the compiled engine keeps no docstrings (native.py): its source is run as a module of
    # its own for the examples, with the same imports.
    module = importlib.import_module(f"floe.games.arctic.{name}")
    if name not in native.COMPILED or native.STATUS != "mypyc":
        return module
    spec = importlib.util.spec_from_file_location(f"_doctest_{name}", native.HERE / f"{name}.py")
    assert spec is not None and spec.loader is not None
    source = importlib.util.module_from_spec(spec)
    source.__package__ = "floe.games.arctic"
    spec.loader.exec_module(source)
    return source


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(_with_docstrings(name))
    assert result.attempted > 0 and result.failed == 0

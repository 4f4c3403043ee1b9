"""The repository's generator scripts (``scripts/regen_golden*.py``) as modules, for the golden and perft
tests that compare the stored files with what the scripts would write (the positions they list, the
transcript format they own)."""

from __future__ import annotations

import functools
import importlib.util
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


@functools.cache
def regen_module(script: str) -> ModuleType:
    """``scripts/<script>.py`` loaded as a module (once per test session: the golden and perft tests of a
    game share it). The scripts are not a package, so they are loaded from their path."""
    spec = importlib.util.spec_from_file_location(f"floe_scripts_{script}", ROOT / "scripts" / f"{script}.py")
    assert spec is not None and spec.loader is not None, script
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module

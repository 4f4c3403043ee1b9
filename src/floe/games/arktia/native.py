"""Arktia's move generator in C (``_movegen.c``), when it is built: the turn's legal list about ten times
faster than ``rules.python_main_actions``, which stays the reference.

The extension is compiled when the project is installed (``hatch_build.py``: ``./floe``, ``./floe-test``,
``uv sync``, ``pip install``, a wheel); without a C compiler the install goes on and the rules run in
Python. It is used only when it was built from the source next to it (the build stamps the source's
SHA-256 into the module): an edited ``_movegen.c`` is never shadowed by an older build. ``FLOE_NATIVE=0``
turns it off (mutation testing does, so that planted bugs in the Python reference are exercised).
``STATUS`` says which engine runs; ``floe bench engine arktia`` prints it.
"""

from __future__ import annotations

import hashlib
import importlib
import os
from pathlib import Path
from types import ModuleType

SOURCE = Path(__file__).with_name("_movegen.c")


def built_from(module: ModuleType, source: Path) -> bool:
    """Whether the compiled ``module`` was built from ``source`` as it is now (true if there is no source
    to compare with, as in an installed wheel that left it out)."""
    if not source.is_file():
        return True
    return hashlib.sha256(source.read_bytes()).hexdigest() == getattr(module, "SOURCE_SHA", None)


def _load() -> tuple[ModuleType | None, str]:
    if os.environ.get("FLOE_NATIVE", "1").strip() == "0":
        return None, "python (FLOE_NATIVE=0)"
    try:
        movegen = importlib.import_module("floe.games.arktia._movegen")
    except ImportError:
        return None, "python (the C move generator is not built)"
    if not built_from(movegen, SOURCE):
        return None, "python (the C move generator was built from another _movegen.c: reinstall)"
    return movegen, "c"


MOVEGEN, STATUS = _load()

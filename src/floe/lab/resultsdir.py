"""Where a command keeps the results files nobody asked for: a folder of the user's cache, never the current
folder (a documented command run twice must work, and must not litter the folder it runs in).

``floe tournament`` without ``--out`` writes a new file there for each run, named by its configuration and
the time; it says where, so an interrupted run can still be continued (``--out <that file> --resume``).
``--out`` is for results a user means to keep, compare or resume: those go exactly where they say.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Mapping
from pathlib import Path


def cache_dir(environ: Mapping[str, str] | None = None) -> Path:
    """The user's cache folder for Floe, as the platform has it: ``$XDG_CACHE_HOME/floe`` or
    ``~/.cache/floe`` (Linux and other Unixes), ``~/Library/Caches/floe`` (macOS),
    ``%LOCALAPPDATA%\\floe\\Cache`` (Windows)."""
    env = os.environ if environ is None else environ
    if sys.platform == "win32" and env.get("LOCALAPPDATA"):
        return Path(env["LOCALAPPDATA"]) / "floe" / "Cache"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "floe"
    base = env.get("XDG_CACHE_HOME", "")
    # The XDG spec: a relative path is invalid and is ignored.
    root = Path(base) if base and Path(base).is_absolute() else Path.home() / ".cache"
    return root / "floe"


def new_results_file(kind: str, name: str, environ: Mapping[str, str] | None = None) -> Path:
    """A results file that does not exist yet, ``<cache>/<kind>/<name>-<date>-<time>.jsonl`` (with ``-2``,
    ``-3``… if a run of the same second has it), its folder made; ``OSError`` if it cannot be."""
    folder = cache_dir(environ) / kind
    folder.mkdir(parents=True, exist_ok=True)
    base = f"{name}-{time.strftime('%Y%m%d-%H%M%S')}"
    path, k = folder / f"{base}.jsonl", 2
    while path.exists():
        path, k = folder / f"{base}-{k}.jsonl", k + 1
    return path

"""Arctic's compiled engine: the engine modules (``COMPILED``) compiled by mypyc, when they are built.

The Python modules are the reference and the only source: mypyc compiles those same strictly typed modules
to one C extension (``hatch_build.py``, on every install and wheel build: ``./floe``, ``./floe-test``,
``uv sync``, ``pip install``). The compiled modules live in ``_native/`` beside this file; ``use`` puts
that directory first on the package's search path, so ``import floe.games.arctic.rules`` finds the compiled
module there and the ``.py`` file otherwise. They are used only when built from the sources as they are now
(the build stamps a digest of them, ``sources_digest``): an edited rule never runs stale compiled code.
``FLOE_NATIVE=0`` keeps the pure-Python engine (mutation testing does, and the differential test runs its
reference that way). ``STATUS`` says which engine runs; ``floe bench arctic`` prints it.

This module is also loaded by path by ``hatch_build.py`` during a build, so it imports nothing of Floe.
"""

from __future__ import annotations

import hashlib
import os
import sysconfig
from pathlib import Path

# The modules the profiles name (docs/performance.md): the state, the rules and the tables they read, the
# final scoring, and what ISMCTS adds: sampling a world and the rollout policy.
COMPILED = ("state", "rules", "actions", "cards", "powers", "scoring", "determinize", "evaluation")
GROUP = "floe.games.arctic._engine"  # mypyc's shared library: floe/games/arctic/_native/_engine__mypyc*.so
NATIVE_DIR = "_native"
STAMP = "SOURCES_SHA256"
HERE = Path(__file__).resolve().parent


def sources_digest(package_dir: Path) -> str:
    """SHA-256 over the compiled modules' sources and ``config.py`` (whose record they read)."""
    digest = hashlib.sha256()
    for name in (*COMPILED, "config"):
        digest.update(name.encode() + b"\0" + (package_dir / f"{name}.py").read_bytes() + b"\0")
    return digest.hexdigest()


def _status(native_dir: Path) -> str:
    if os.environ.get("FLOE_NATIVE", "1").strip() == "0":
        return "python (FLOE_NATIVE=0)"
    suffix = str(sysconfig.get_config_var("EXT_SUFFIX") or ".so")
    if not all((native_dir / f"{name}{suffix}").is_file() for name in COMPILED):
        return "python (the compiled engine is not built)"
    try:
        stamp = (native_dir / STAMP).read_text(encoding="utf-8").strip()
    except OSError:
        return "python (the compiled engine is not built)"
    if all((HERE / f"{name}.py").is_file() for name in COMPILED) and stamp != sources_digest(HERE):
        return "python (the compiled engine was built from other sources: reinstall)"
    return "mypyc"


STATUS = _status(HERE / NATIVE_DIR)


def use(package_path: list[str]) -> None:
    """Put the compiled modules first on ``package_path`` (the package's ``__path__``) if they are used."""
    if STATUS == "mypyc":
        package_path.insert(0, str(HERE / NATIVE_DIR))

"""Arctic's compiled engine: which modules mypyc compiles (``floe.core.compiled`` says how they are built
and when they are used; ``FLOE_NATIVE=0`` keeps the Python modules, which are the reference).

Module level holds data only: ``hatch_build.py`` reads it by its path during a build, without Floe.
"""

from __future__ import annotations

from pathlib import Path

# The modules the profiles name (docs/performance.md): the state, the rules and the tables they read, the
# final scoring, what ISMCTS adds (sampling a world and the rollout policy) and what a lab game adds (each
# seat's observation at every decision).
COMPILED = (
    "state",
    "rules",
    "actions",
    "cards",
    "powers",
    "scoring",
    "determinize",
    "evaluation",
    "observation",
)
STAMPED = (*COMPILED, "config")  # the stamp covers config.py too: the compiled code reads its record
GROUP = "floe.games.arctic._engine"  # mypyc's shared library: _native/_engine__mypyc*.so
HERE = Path(__file__).resolve().parent


def status() -> str:
    """``mypyc`` when the compiled engine is in use, else ``python (why)``."""
    from floe.core import compiled

    return compiled.status(HERE, COMPILED, STAMPED)


def use(package_path: list[str]) -> None:
    """Put the compiled modules first on the package's ``__path__`` when they are in use."""
    from floe.core import compiled

    compiled.use(package_path, HERE, COMPILED, STAMPED)

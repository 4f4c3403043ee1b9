"""Engine modules compiled by mypyc: which of a game's builds is used, and the decorator its code needs.

A game whose engine is compiled has a ``native.py`` naming the modules (``COMPILED``), the sources the
build's stamp covers (``STAMPED``: the compiled modules and what they read) and mypyc's group; the build
(``hatch_build.py``, on every install) compiles those very modules into ``_native/`` beside them, with a
SHA-256 of the stamped sources. ``use`` puts ``_native/`` first on the package's search path when it is
used, so importing an engine module finds the compiled module there and the ``.py`` file otherwise.
It is used only when built from the sources as they are now (an edited rule never runs stale compiled
code) and ``FLOE_NATIVE`` is not ``0``; ``status`` says which engine runs and why.

Imports nothing of Floe: ``hatch_build.py`` loads it by its path during a build.
"""

from __future__ import annotations

import functools
import hashlib
import os
import sysconfig
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

NATIVE_DIR = "_native"
STAMP = "SOURCES_SHA256"
COMPILED_STATUS = "mypyc"

_T = TypeVar("_T")

try:
    from mypy_extensions import mypyc_attr as mypyc_attr  # (re-exported for the engines' classes)
except ImportError:  # a pure-Python install need not have it; only the compiler reads the decorator

    def mypyc_attr(*_attrs: str, **_kwattrs: object) -> Callable[[_T], _T]:
        return lambda cls: cls


def sources_digest(package_dir: Path, names: Sequence[str]) -> str:
    """SHA-256 over the sources ``names`` (module names) of ``package_dir``."""
    digest = hashlib.sha256()
    for name in names:
        digest.update(name.encode() + b"\0" + (package_dir / f"{name}.py").read_bytes() + b"\0")
    return digest.hexdigest()


def build_status(native_dir: Path, package_dir: Path, compiled: Sequence[str], stamped: Sequence[str]) -> str:
    """``mypyc`` if the build in ``native_dir`` is to be used for ``package_dir``, else ``python (why)``."""
    if os.environ.get("FLOE_NATIVE", "1").strip() == "0":
        return "python (FLOE_NATIVE=0)"
    suffix = str(sysconfig.get_config_var("EXT_SUFFIX") or ".so")
    if not all((native_dir / f"{name}{suffix}").is_file() for name in compiled):
        return "python (the compiled engine is not built)"
    try:
        stamp = (native_dir / STAMP).read_text(encoding="utf-8").strip()
    except OSError:
        return "python (the compiled engine is not built)"
    # An installed wheel may leave the sources out: then there is nothing to compare with.
    sources_here = all((package_dir / f"{name}.py").is_file() for name in stamped)
    if sources_here and stamp != sources_digest(package_dir, stamped):
        return "python (the compiled engine was built from other sources: reinstall)"
    return COMPILED_STATUS


@functools.cache
def status(package_dir: Path, compiled: tuple[str, ...], stamped: tuple[str, ...]) -> str:
    """``build_status`` of the package's own build (``_native/``), worked out once per process."""
    return build_status(package_dir / NATIVE_DIR, package_dir, compiled, stamped)


def use(
    package_path: list[str], package_dir: Path, compiled: tuple[str, ...], stamped: tuple[str, ...]
) -> None:
    """Put the compiled modules first on ``package_path`` (the package's ``__path__``) if they are used."""
    if status(package_dir, compiled, stamped) == COMPILED_STATUS:
        package_path.insert(0, str(package_dir / NATIVE_DIR))

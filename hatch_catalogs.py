"""The catalogs' part of the build (``hatch_build.py``'s hook calls ``compile_catalogs``): compile the
gettext catalogs (every ``.po`` under ``src/floe``) to ``.mo`` files when a wheel or an editable install
is built (docs/languages.md).

A wheel gets each ``.mo`` beside its ``.po`` inside the package (compiled into a temporary folder, so the
source tree is left as it is). An editable install runs from the source tree, so there the ``.mo`` files
are written beside the ``.po`` files (git ignores ``*.mo``). At run time a ``.mo`` older than its ``.po``
is not used (``floe.core.mofiles.current_mo``): an edited ``.po`` is never shadowed.

The compiling is ``floe.core.mofiles``, loaded by its path: the build environment has hatchling and Babel
(``[build-system] requires``), not Floe's own dependencies.
"""

from __future__ import annotations

import importlib.util
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any


def _mofiles(root: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location("_floe_mofiles", root / "src/floe/core/mofiles.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def compile_catalogs(hook: Any, version: str, build_data: dict[str, Any]) -> Path | None:
    """The hook's work, callable from another build hook's ``initialize`` (hatchling runs one ``custom``
    hook per target): compile every catalog for ``hook``'s wheel; returns the temporary folder to remove
    once the wheel is written (``finalize``), None if there is none."""
    if hook.target_name != "wheel":  # an sdist carries the .po files only
        return None
    root = Path(hook.root)
    mofiles = _mofiles(root)
    source = root / "src"
    temp = None
    if version == "editable":
        written = mofiles.compile_all(source)
    else:
        temp = Path(tempfile.mkdtemp(prefix="floe-mo-"))
        written = mofiles.compile_all(source, lambda po: temp / mofiles.mo_path(po).relative_to(source))
        for mo in written:
            build_data["force_include"][str(mo)] = mo.relative_to(temp).as_posix()
    hook.app.display_info(f"compiled {len(written)} catalogs")
    return temp

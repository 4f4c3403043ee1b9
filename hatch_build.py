"""Build step of the package (a hatchling hook): compiles Arktia's C move generator and, through
``hatch_catalogs.py``, the gettext catalogs (hatchling runs one custom hook per target).

Runs on every install of the project (``./floe``, ``./floe-test``, ``uv sync``, ``pip install``) and when a
wheel is built. An editable install compiles into the source tree, next to ``_movegen.c`` (git-ignored); a
wheel carries the compiled module and is tagged for this platform. Without a working C compiler the build
says so and goes on: Arktia then runs its Python move generator (``floe.games.arktia.native``).

``python hatch_build.py`` compiles in place by hand (after editing ``_movegen.c`` without reinstalling).
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "src" / "floe" / "games" / "arktia" / "_movegen.c"
MODULE = "floe/games/arktia/_movegen"


def extension_name() -> str:
    """The compiled module's file name for this interpreter (``_movegen.cpython-311-x86_64-linux-gnu.so``)."""
    return "_movegen" + str(sysconfig.get_config_var("EXT_SUFFIX") or ".so")


def compile_movegen(source: Path, target: Path) -> str | None:
    """Compile ``source`` into the extension module ``target``; ``None`` if done, else why not (one line).

    The module is stamped with the source's SHA-256, which ``native.py`` checks before using it. The file
    appears whole or not at all (written beside, then renamed), so a process importing it meanwhile never
    reads half a library.
    """
    digest = hashlib.sha256(source.read_bytes()).hexdigest()
    compiler = shlex.split(os.environ.get("CC") or str(sysconfig.get_config_var("CC") or "cc"))
    include = sysconfig.get_paths()["include"]
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=target.parent) as scratch:
        built = Path(scratch) / target.name
        command = [
            *compiler,
            "-O2",
            "-fPIC",
            "-shared",
            "-fvisibility=hidden",
            f"-I{include}",
            f'-DFLOE_SOURCE_SHA="{digest}"',
            str(source),
            "-o",
            str(built),
        ]
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
        except (OSError, subprocess.TimeoutExpired) as exc:
            return f"{compiler[0]}: {exc}"
        if done.returncode != 0:
            lines = (done.stderr or done.stdout).strip().splitlines()
            return lines[-1] if lines else f"{compiler[0]} exited with {done.returncode}"
        os.replace(built, target)
    return None


try:
    from hatchling.builders.hooks.plugin.interface import BuildHookInterface
except ImportError:  # run by hand, outside a build
    BuildHookInterface = object  # type: ignore[assignment,misc]


def _catalogs() -> Any:
    """hatch_catalogs.py, loaded by its path (the project's root is not on the build's import path)."""
    spec = importlib.util.spec_from_file_location("_floe_hatch_catalogs", HERE / "hatch_catalogs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class MovegenBuildHook(BuildHookInterface):  # type: ignore[misc]
    """Compiles ``_movegen.c`` for the wheel or the editable install being built."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        # The gettext catalogs too (hatch_catalogs.py): hatchling runs one custom hook per target.
        self.catalogs = _catalogs().compile_catalogs(self, version, build_data)
        name = extension_name()
        if version == "editable":
            target = SOURCE.with_name(name)
        else:
            self.scratch = tempfile.mkdtemp(prefix="floe-build-")
            target = Path(self.scratch) / name
        why = compile_movegen(SOURCE, target)
        if why is not None:
            print(
                f"floe: Arktia's C move generator was not built ({why}); it runs in Python.", file=sys.stderr
            )
            return
        if version != "editable":
            build_data["force_include"][str(target)] = f"{MODULE}{name[len('_movegen') :]}"
            build_data["pure_python"] = False
            build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        if getattr(self, "catalogs", None):
            shutil.rmtree(self.catalogs, ignore_errors=True)
        if getattr(self, "scratch", None):
            shutil.rmtree(self.scratch, ignore_errors=True)


if __name__ == "__main__":
    problem = compile_movegen(SOURCE, SOURCE.with_name(extension_name()))
    print(problem or f"built {SOURCE.with_name(extension_name())}")
    sys.exit(1 if problem else 0)

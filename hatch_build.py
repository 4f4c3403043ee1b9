"""Build step of the package (a hatchling hook): compiles Arktia's C move generator, Arctic's and Arche's
engine modules with mypyc and, through ``hatch_catalogs.py``, the gettext catalogs (hatchling runs one custom
hook per target).

Runs on every install of the project (``./floe``, ``./floe-test``, ``uv sync``, ``pip install``) and when a
wheel is built. An editable install compiles into the source tree (git-ignored: ``_movegen*.so`` next to
``_movegen.c``, a game's compiled modules in ``src/floe/games/<game>/_native/``); a wheel carries the compiled
modules and is tagged for this platform. Without a working C compiler (or mypyc) the build says so and goes
on: the games then run their Python code (``floe.games.arktia.native``, ``floe.core.compiled``).

``python hatch_build.py`` compiles everything in place by hand (after editing ``_movegen.c`` or a compiled
engine module without reinstalling); mypyc's part needs setuptools, which the project's environment lacks:
``uv run --with setuptools python hatch_build.py``.
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
GAMES = HERE / "src" / "floe" / "games"
# The games whose engine modules mypyc compiles (each names them in its native.py; floe.core.compiled).
COMPILED_ENGINES = ("arctic", "arche")


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


def _by_path(name: str, path: Path) -> Any:
    """A module loaded by its path (the ``floe`` package is not importable during a build)."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _compiled() -> Any:
    """``floe.core.compiled``: the stamp's name and digest and the build directory's name, shared with the
    check at import time so that the two cannot disagree."""
    return _by_path("_floe_compiled", GAMES.parent / "core" / "compiled.py")


def _engine(game: str) -> Any:
    """The game's ``native.py`` (data at module level): the modules to compile, the stamped sources, the
    group."""
    return _by_path(f"_floe_{game}_native", GAMES / game / "native.py")


def compile_engine(game: str, target: Path) -> str | None:
    """Compile ``game``'s engine modules with mypyc into the directory ``target`` (replaced whole); ``None``
    if done, else why not (one line).

    mypyc turns the strictly typed Python modules themselves into one C extension (no second
    implementation); setuptools runs the C compiler. ``target`` gets the modules and a stamp of the sources
    they came from, which ``floe.core.compiled`` checks before using them.
    """
    compiled, engine, package = _compiled(), _engine(game), GAMES / game
    try:
        from mypyc.build import mypycify
        from setuptools import Distribution
    except ImportError as exc:
        return f"{exc.name} is not installed"
    sources = [str(package / f"{name}.py") for name in engine.COMPILED]
    # Taken before compiling: a source edited meanwhile makes the build stale, not wrongly stamped.
    stamp = compiled.sources_digest(package, engine.STAMPED)
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="floe-mypyc-") as scratch:
        work = Path(scratch)
        old_cwd = os.getcwd()
        try:
            os.chdir(HERE)  # mypy finds the project's settings and the ``floe`` package from here
            extensions = mypycify(
                [
                    f"--config-file={HERE / 'pyproject.toml'}",
                    f"--cache-dir={work / 'cache'}",
                    # The build's own environment has none of the runtime dependencies (numpy...), and only
                    # the compiled modules must type-check here (the whole project does in the tests).
                    "--ignore-missing-imports",
                    "--follow-imports=silent",
                    *sources,
                ],
                opt_level="2",
                group_name=engine.GROUP,
                target_dir=str(work / "c"),
            )
            dist = Distribution({"name": f"floe-{game}-engine", "ext_modules": extensions})
            command = dist.get_command_obj("build_ext")
            command.build_lib = str(work / "lib")  # type: ignore[attr-defined]
            command.build_temp = str(work / "tmp")  # type: ignore[attr-defined]
            command.ensure_finalized()
            command.run()
        except (Exception, SystemExit) as exc:  # mypy exits on a type error; the compiler raises
            return f"mypyc: {type(exc).__name__}: {exc}".splitlines()[0]
        finally:
            os.chdir(old_cwd)
        built = work / "lib" / "floe" / "games" / game
        # Staged beside the target and swapped in by renames: a process importing meanwhile finds the old
        # set or the new one, never a mix.
        staged = Path(tempfile.mkdtemp(dir=target.parent, prefix=f".{target.name}-"))
        staged.chmod(0o755)  # mkdtemp's 0700 would hide the modules from other users of an installation
        for path in built.iterdir():
            shutil.copy2(path, staged / path.name)
        (staged / compiled.STAMP).write_text(stamp + "\n", encoding="utf-8")
        old = staged.with_name(staged.name + ".old")
        if target.exists():
            os.replace(target, old)
        os.replace(staged, target)
        shutil.rmtree(old, ignore_errors=True)
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
    """Compiles ``_movegen.c`` and Arctic's engine for the wheel or the editable install being built."""

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
        elif version != "editable":
            build_data["force_include"][str(target)] = f"{MODULE}{name[len('_movegen') :]}"
            build_data["pure_python"] = False
            build_data["infer_tag"] = True
        for game in COMPILED_ENGINES:
            self._engine(game, version, build_data)

    def _engine(self, game: str, version: str, build_data: dict[str, Any]) -> None:
        native_dir = _compiled().NATIVE_DIR
        if version == "editable":
            target = GAMES / game / native_dir
        else:
            self.scratch = getattr(self, "scratch", None) or tempfile.mkdtemp(prefix="floe-build-")
            target = Path(self.scratch) / game / native_dir
        why = compile_engine(game, target)
        if why is not None:
            print(
                f"floe: {game}'s compiled engine was not built ({why}); it runs in Python.", file=sys.stderr
            )
            return
        if version != "editable":
            for path in target.iterdir():
                build_data["force_include"][str(path)] = f"floe/games/{game}/{native_dir}/{path.name}"
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
    for game in COMPILED_ENGINES:
        engine_dir = GAMES / game / _compiled().NATIVE_DIR
        engine_problem = compile_engine(game, engine_dir)
        print(engine_problem or f"built {engine_dir}")
        problem = problem or engine_problem
    sys.exit(1 if problem else 0)

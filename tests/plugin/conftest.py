"""The example game (``examples/goofspiel``, a separate pip package) installed for these tests only.

It is installed for real — ``uv pip install --target`` builds its wheel and writes its ``.dist-info`` with
the ``floe.games`` entry point — into a temporary folder that only these tests put on the path (for this
process and for the ``floe`` processes they start), so the project's own environment never lists it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from floe.core import registry

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "goofspiel"
# The server tests' helpers (a real `floe serve` process): the package tests/server, as pytest names it.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def _uv() -> list[str]:
    """How to run uv here: on PATH, or as the module the bootstrap installed into the system Python."""
    found = shutil.which("uv")
    if found:
        return [found]
    for python in ("python3", "python"):
        exe = shutil.which(python)
        if exe and subprocess.run([exe, "-m", "uv", "--version"], capture_output=True).returncode == 0:
            return [exe, "-m", "uv"]
    raise RuntimeError("uv is needed to install the example game (./floe-test installs it)")


@pytest.fixture(scope="session")
def plugin_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding the installed example game (its package and its .dist-info)."""
    target = tmp_path_factory.mktemp("plugin")
    subprocess.run(
        [*_uv(), "pip", "install", "--quiet", "--no-deps", "--target", str(target),
         "--python", sys.executable, str(EXAMPLE)],
        check=True,
    )  # fmt: skip
    return target


@pytest.fixture
def goofspiel(plugin_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The example game visible to this process (registry rediscovered) and to child processes."""
    monkeypatch.syspath_prepend(str(plugin_dir))
    monkeypatch.setenv(
        "PYTHONPATH", os.pathsep.join(filter(None, [str(plugin_dir), os.environ.get("PYTHONPATH")]))
    )
    monkeypatch.setattr(registry, "_discovered", False)
    yield plugin_dir
    registry._ENTRIES.pop("goofspiel", None)

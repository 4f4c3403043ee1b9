"""The generic layers never name a game (issue: one package per game).

``floe.core``, the generic bots, the lab, the benchmarks (``floe.bench``), the web table (server and browser
chrome), terminal play, the learning adapters, the conformance kit and the command line know games only
through the registry. This test reads every file of those layers and fails on any registered game's name or
title (in code, strings, comments or docstrings) and on any import of a game package.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from floe.core.registry import entries

SRC = Path(__file__).resolve().parents[2] / "src" / "floe"
GENERIC = [
    "core",
    "bots",
    "bench",
    "lab",
    "server",
    "play",
    "rl",
    "testing",
    "web",
    "cli.py",
    "__init__.py",
    "__main__.py",
]


def generic_files() -> list[Path]:
    """Every text file of the generic layers."""
    files: list[Path] = []
    for part in GENERIC:
        path = SRC / part
        if path.is_file():
            files.append(path)
        elif path.is_dir():
            files += [
                p for p in path.rglob("*") if p.is_file() and p.suffix in (".py", ".js", ".html", ".css")
            ]
    return sorted(files)


def test_the_layers_exist() -> None:
    assert len(generic_files()) > 40


@pytest.mark.parametrize(
    "word", sorted({w for e in entries() for w in (e.name, e.title.lower(), *e.aliases)})
)
def test_no_generic_file_names_a_registered_game(word: str) -> None:
    pattern = re.compile(rf"\b{re.escape(word)}", re.IGNORECASE)
    hits = [
        f"{path.relative_to(SRC)}:{number}: {line.strip()}"
        for path in generic_files()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if pattern.search(line)
    ]
    assert hits == [], "\n".join(hits)


def test_no_generic_file_imports_a_game_package() -> None:
    pattern = re.compile(r"(from|import)\s+floe\.games\b|floe\.games\.")
    hits = [
        f"{path.relative_to(SRC)}:{number}"
        for path in generic_files()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if pattern.search(line)
    ]
    assert hits == [], "\n".join(hits)

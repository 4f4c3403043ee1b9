"""Arctic's compiled engine (mypyc, ``native.py``) plays exactly as the Python reference.

The compiled engine is the Python engine modules themselves compiled by mypyc; ``FLOE_NATIVE=0`` runs them
as Python. One subprocess runs ``native_trace.py`` as the reference and this process runs it on the compiled
engine: seeded random games of every player count under a mix of options (each position's legal list,
chance probabilities, full state, every seat's observation and a spectator's, the scores at the end,
compared as digests after every action), ISMCTS's search statistics from seeded positions, and whole games
of the baseline bot. Also: a build from other sources is not used, and ``FLOE_NATIVE=0`` turns it off.
CI sets ``FLOE_REQUIRE_NATIVE=1``: there a missing build fails instead of skipping. The golden games, perft
counts and records of this directory run on whichever engine is in use.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import sysconfig
from pathlib import Path
from typing import Any

import pytest

from floe.core import compiled
from floe.games.arctic import native, rules
from floe.games.arctic.game import ArcticGame

from .. import native_trace
from .invariants import random_options

REQUIRED = os.environ.get("FLOE_REQUIRE_NATIVE") == "1"


@pytest.fixture(scope="module", autouse=True)  # before the module's traces are made
def _built() -> None:
    if native.status() != "mypyc":
        if REQUIRED:
            pytest.fail(f"FLOE_REQUIRE_NATIVE=1 but Arctic's engine is {native.status()}")
        pytest.skip(native.status())


def _spec() -> dict[str, Any]:
    rng = random.Random(26)
    games = [{"players": n, "options": {}, "seed": n} for n in (2, 3, 4)]
    games += [
        {"players": n, "options": random_options(rng, n), "seed": 100 + k}
        for k in range(4)
        for n in (2, 3, 4)
    ]
    games += [{"players": n, "options": {"preset": "bga"}, "seed": 200 + n} for n in (2, 3, 4)]
    searches = [
        {"players": n, "seed": seed, "steps": steps, "iterations": 60}
        for n in (2, 4)
        for seed, steps in ((1, 10), (2, 25 * n), (3, 45 * n))  # early, middle and late
    ]
    bots = [{"players": 2, "bot": "baseline", "seed": 5}, {"players": 4, "bot": "baseline", "seed": 6}]
    return {"game": "arctic", "games": games, "searches": searches, "bots": bots}


@pytest.fixture(scope="module")
def traces() -> tuple[dict[str, Any], dict[str, Any]]:
    spec = _spec()
    env = {**os.environ, "FLOE_NATIVE": "0"}
    done = subprocess.run(
        [sys.executable, native_trace.__file__],
        input=json.dumps(spec),
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout), native_trace.run(spec)


def test_the_reference_is_python_and_this_process_compiled(
    traces: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    reference, compiled = traces
    assert reference["engine"] == "python (FLOE_NATIVE=0)" and reference["rules"].endswith("rules.py")
    assert compiled["engine"] == "mypyc" and compiled["rules"].endswith(
        str(sysconfig.get_config_var("EXT_SUFFIX"))
    )
    assert ArcticGame(4).engine() == "mypyc" and rules.__file__ == compiled["rules"]


def test_every_position_of_seeded_games_agrees(traces: tuple[dict[str, Any], dict[str, Any]]) -> None:
    reference, compiled = traces
    spec = _spec()["games"]
    assert len(compiled["games"]) == len(spec)
    for case, ref, ours in zip(spec, reference["games"], compiled["games"], strict=True):
        first = next((i for i, (a, b) in enumerate(zip(ref, ours, strict=False)) if a != b), None)
        assert first is None and len(ref) == len(ours), f"{case}: positions differ from action {first}"
    positions = sum(len(g) for g in compiled["games"])
    assert positions > 4000, positions  # whole games, every player count: not a few positions


def test_ismcts_searches_the_same(traces: tuple[dict[str, Any], dict[str, Any]]) -> None:
    reference, compiled = traces
    assert compiled["searches"] == reference["searches"]
    assert all(sum(row[1] for row in rows) >= 60 for rows in compiled["searches"])  # real searches ran


def test_the_baseline_bot_plays_the_same_games(traces: tuple[dict[str, Any], dict[str, Any]]) -> None:
    reference, compiled = traces
    assert compiled["bots"] == reference["bots"]
    assert all(len(history) > 100 for history in compiled["bots"])


def _fake_build(where: Path, stamp: str | None) -> Path:
    suffix = str(sysconfig.get_config_var("EXT_SUFFIX"))
    where.mkdir()
    for name in native.COMPILED:
        (where / f"{name}{suffix}").write_bytes(b"")
    if stamp is not None:
        (where / compiled.STAMP).write_text(stamp + "\n")
    return where


def test_a_build_from_other_sources_or_switched_off_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def status(where: Path, package: Path = native.HERE) -> str:
        return compiled.build_status(where, package, native.COMPILED, native.STAMPED)

    current = compiled.sources_digest(native.HERE, native.STAMPED)
    assert status(_fake_build(tmp_path / "same", current)) == "mypyc"
    assert "other sources" in status(_fake_build(tmp_path / "edited", "0" * 64))
    assert "not built" in status(_fake_build(tmp_path / "unstamped", None))
    assert "not built" in status(tmp_path / "missing")
    edited = tmp_path / "src"
    edited.mkdir()
    for name in native.STAMPED:
        (edited / f"{name}.py").write_bytes((native.HERE / f"{name}.py").read_bytes())
    assert compiled.sources_digest(edited, native.STAMPED) == current
    assert status(tmp_path / "same", edited) == "mypyc"
    with (edited / "config.py").open("a") as f:  # a stamped module that is not compiled counts too
        f.write("# an edit after the build\n")
    assert "other sources" in status(tmp_path / "same", edited)
    monkeypatch.setenv("FLOE_NATIVE", "0")
    assert status(_fake_build(tmp_path / "off", current)) == "python (FLOE_NATIVE=0)"

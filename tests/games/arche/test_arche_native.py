"""Arche's compiled engine (mypyc, ``native.py``) plays exactly as the Python reference.

As for Arctic (``tests/games/arctic/test_arctic_native.py``): one subprocess runs
``tests/games/native_trace.py`` with ``FLOE_NATIVE=0`` (the reference) and this process runs it on the
compiled engine; seeded random games of every player count under random option mixes (each position's
who-acts, legal list, chance probabilities, full state, every seat's and a spectator's observation, the
scores at the end, as digests), ISMCTS's search statistics and whole games of the greedy bot must be equal.
CI sets ``FLOE_REQUIRE_NATIVE=1``: there a missing build fails instead of skipping.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from typing import Any

import pytest

from floe.games.arche import native

from .. import native_trace
from .arche_helpers import random_options

REQUIRED = os.environ.get("FLOE_REQUIRE_NATIVE") == "1"


@pytest.fixture(scope="module", autouse=True)  # before the module's traces are made
def _built() -> None:
    if native.status() != "mypyc":
        if REQUIRED:
            pytest.fail(f"FLOE_REQUIRE_NATIVE=1 but Arche's engine is {native.status()}")
        pytest.skip(native.status())


def _spec() -> dict[str, Any]:
    rng = random.Random(26)
    games = [{"players": n, "options": {}, "seed": n} for n in (3, 4, 5)]
    games += [
        {"players": n, "options": random_options(rng, n), "seed": 100 + k}
        for k in range(3)
        for n in (3, 4, 5)
    ]
    searches = [
        {"players": n, "seed": seed, "steps": steps, "iterations": 40}
        for n in (3, 5)
        for seed, steps in ((1, 5), (2, 8 * n))  # early and middle
    ]
    bots = [{"players": 3, "bot": "greedy", "seed": 5}]
    return {"game": "arche", "games": games, "searches": searches, "bots": bots}


@pytest.fixture(scope="module")
def traces() -> tuple[dict[str, Any], dict[str, Any]]:
    spec = _spec()
    done = subprocess.run(
        [sys.executable, native_trace.__file__],
        input=json.dumps(spec),
        env={**os.environ, "FLOE_NATIVE": "0"},
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
    assert compiled["engine"] == "mypyc" and not compiled["rules"].endswith(".py")


def test_every_position_of_seeded_games_agrees(traces: tuple[dict[str, Any], dict[str, Any]]) -> None:
    reference, compiled = traces
    spec = _spec()["games"]
    for case, ref, ours in zip(spec, reference["games"], compiled["games"], strict=True):
        first = next((i for i, (a, b) in enumerate(zip(ref, ours, strict=False)) if a != b), None)
        assert first is None and len(ref) == len(ours), f"{case}: positions differ from action {first}"
    assert sum(len(g) for g in compiled["games"]) > 1500  # whole games, every player count


def test_ismcts_and_greedy_play_the_same(traces: tuple[dict[str, Any], dict[str, Any]]) -> None:
    reference, compiled = traces
    assert compiled["searches"] == reference["searches"]
    assert all(sum(row[1] for row in rows) >= 40 for rows in compiled["searches"])  # real searches ran
    assert compiled["bots"] == reference["bots"] and all(len(h) > 50 for h in compiled["bots"])

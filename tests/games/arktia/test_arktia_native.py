"""Arktia's C move generator (``_movegen.c`` through ``native.py``) gives exactly the Python reference's list.

``rules.main_actions`` uses the C generator where it is built; ``rules.python_main_actions`` is the
reference every rule test was written against. Along seeded random games of every player count and option
mix (custom layouts, melting, removals, pieces leaving with their seat), and on a 64-field board that uses
the last bit of a set, both are asked for every seat at every position and must agree id for id. Also: bad
input is refused with an error (never a crash), a build from another source is not used, and
``FLOE_NATIVE=0`` turns the C generator off. CI sets ``FLOE_REQUIRE_NATIVE=1``: there a missing build
fails instead of skipping.
"""

from __future__ import annotations

import importlib.util
import os
import pickle
import random
import subprocess
import sys
from pathlib import Path

import pytest

from floe.games.arktia import native, rules
from floe.games.arktia.bitsets import current
from floe.games.arktia.game import ArktiaGame, ArktiaState

from .arktia_helpers import choose, position, random_options

ROOT = Path(__file__).resolve().parents[3]
REQUIRED = os.environ.get("FLOE_REQUIRE_NATIVE") == "1"


@pytest.fixture(autouse=True)
def _built() -> None:
    if native.MOVEGEN is None:
        if REQUIRED:
            pytest.fail(f"FLOE_REQUIRE_NATIVE=1 but Arktia's engine is {native.STATUS}")
        pytest.skip(native.STATUS)


def _agree_everywhere(st: ArktiaState, rng: random.Random) -> int:
    # Plays ``st`` to its end; at every position compares both generators for every seat past round 1.
    compared = 0
    assert st.space.native is not None
    while not st.is_terminal():
        for seat in range(st.n):
            if st.turns[seat] > 0:
                fast = rules.main_actions(st, seat)
                assert fast == rules.python_main_actions(st, seat), f"seat {seat}, history {st.history}"
                compared += 1
        st.apply(choose(rng, st.legal_actions()))
    return compared


@pytest.mark.parametrize("seed", range(10))
def test_c_and_python_agree_along_random_games(seed: int) -> None:
    rng = random.Random(seed)
    players = 2 + seed % 3
    game = ArktiaGame(players, random_options(rng, players))
    assert game.engine() == "c"
    assert sum(_agree_everywhere(game.new_initial_state(), rng) for _ in range(12)) > 500


def test_c_and_python_agree_on_a_64_field_board() -> None:
    # 8 x 8 fields: field 63 is the sets' last bit (no room for an off-by-one in a shift or a mask).
    cells = [[q, r] for q in range(8) for r in range(8)]
    game = ArktiaGame(4, {"layout": cells})
    assert game.space.size == 64
    rng = random.Random(7)
    reached_63 = False
    for _ in range(6):
        st = game.new_initial_state()
        assert _agree_everywhere(st, rng) > 0
        reached_63 |= any(game.space.decode(a).cell == 63 for a in st.history)
    assert reached_63, "no game used field 63"


def test_c_and_python_agree_around_holes_and_towers() -> None:
    # Rays stop at melted fields; towers lift each top part; an own piece under another colour stays put.
    crowded = {"c3": "t1 d2 g1", "d3": "t2 d1", "b3": "d1", "c2": "g2", "b2": "t1 dn", "d2": "g1", "c4": "t2"}
    sparse = {"c3": "t1 d2 g1", "d3": "d1", "c2": "g2", "c4": "t2"}
    movers = set()
    for board in (crowded, sparse):
        st = position(2, board, player=0, melted=["e3", "b4", "c1"], supply={0: (1, 0, 2)})
        for seat in (0, 1):
            assert rules.main_actions(st, seat) == rules.python_main_actions(st, seat)
        movers |= {st.space.decode(a).mover for a in rules.main_actions(st, 0)}
    assert movers >= {1, 2, 3, 6, 7}, movers


def test_bad_input_is_refused_not_crashed() -> None:
    st = position(2, {"c3": "t1 d2 g1", "d3": "d2"})
    movegen, geometry = native.MOVEGEN, st.space.native
    assert movegen is not None
    sets = current(st)
    good = (geometry, st.fields, sets, 0, 7, True)
    assert movegen.main_actions(*good) == rules.python_main_actions(st, 0)
    bad_code = list(st.fields)
    bad_code[st.space.layout.index("c3")] = 4096
    for args, error in [
        ((geometry, st.fields[:-1], sets, 0, 7, True), ValueError),  # not the board's field list
        ((geometry, st.fields, sets[:-1], 0, 7, True), ValueError),
        ((geometry, bad_code, sets, 0, 7, True), ValueError),  # a field code out of range
        ((geometry, st.fields, sets, 5, 7, True), ValueError),  # no such seat
        ((geometry, st.fields, [-1, *sets[1:]], 0, 7, True), OverflowError),
        (("not a geometry", st.fields, sets, 0, 7, True), ValueError),
        (good[:5], TypeError),
    ]:
        with pytest.raises(error):
            movegen.main_actions(*args)
    with pytest.raises(ValueError):
        movegen.geometry([(0, 0, 0, 0, 0, 0)] * 65, [[]] * 65)  # more than 64 fields
    with pytest.raises(ValueError):
        movegen.geometry([(9, -1, -1, -1, -1, -1)], [[-1]])  # a neighbour off the board


def test_an_action_space_pickles_with_its_geometry() -> None:
    st = position(2, {"c3": "t1 d2 g1", "d3": "d2"})
    copy = pickle.loads(pickle.dumps(st))
    assert copy.space.native is not None and copy.space.native is not st.space.native
    assert copy.legal_actions() == st.legal_actions()


def test_a_build_from_another_source_is_not_used(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("floe_hatch_build", ROOT / "hatch_build.py")
    assert spec is not None and spec.loader is not None
    hatch_build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hatch_build)
    edited = tmp_path / "_movegen.c"
    edited.write_text(native.SOURCE.read_text() + "\n/* an edit after the build */\n")
    target = tmp_path / hatch_build.extension_name()
    assert hatch_build.compile_movegen(edited, target) is None
    loaded = importlib.util.spec_from_file_location("_movegen", target)
    assert loaded is not None and loaded.loader is not None
    module = importlib.util.module_from_spec(loaded)
    loaded.loader.exec_module(module)
    assert native.built_from(module, edited)
    assert not native.built_from(module, native.SOURCE), "a build of the edited copy passed for the real one"
    assert native.built_from(native.MOVEGEN, native.SOURCE)
    broken = tmp_path / "broken.c"
    broken.write_text("this is not C\n")
    problem = hatch_build.compile_movegen(broken, tmp_path / "broken.so")
    assert problem and "\n" not in problem and not (tmp_path / "broken.so").exists()


def test_floe_native_0_runs_the_python_reference() -> None:
    code = "from floe.games.arktia.game import ArktiaGame as G; g = G(2); print(g.engine(), g.space.native)"
    env = {**os.environ, "FLOE_NATIVE": "0"}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["python", "(FLOE_NATIVE=0)", "None"]

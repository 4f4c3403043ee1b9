"""The engine's derived data stays equal to what a fresh computation gives (issue 14, "Speed").

Arktia keeps bit sets of the fields in step with ``fields`` (``bitsets.py``) and each layout memoises
board facts (``Layout.ice_facts``, ``reach_around``, ``near_every_group``), some of them noted by the
rules rather than computed (``Layout.melted``). Any of them going stale would change legal lists, so
along seeded random games of every player count and option mix, after every action:

- the kept sets equal sets computed plainly from the pieces on each field, in the state and in a clone;
- every memoised layout fact equals a plain recomputation from the cells and neighbours.
"""

from __future__ import annotations

import random

import pytest

from floe.games.arktia import rules
from floe.games.arktia.bitsets import HOLES, N_SETS, SHAPE_AT, TOP_AT, build, current
from floe.games.arktia.board import Layout, bits, components
from floe.games.arktia.game import ArktiaGame, ArktiaState
from floe.games.arktia.towers import EMPTY, HOLE, N_CODES, N_COLOURS, is_legal_code, pieces_bottom_up

from .arktia_helpers import choose, position, random_options

SEEDS = range(12)
GAMES_PER_SEED = 3


def _plain_sets(fields: list[int]) -> list[int]:
    sets = [0] * N_SETS
    for c, code in enumerate(fields):
        bit = 1 << c
        if code == HOLE:
            sets[HOLES] |= bit
            continue
        pieces = pieces_bottom_up(code)
        for _, colour in pieces:
            sets[colour] |= bit
        if pieces:
            sets[TOP_AT + pieces[-1][1]] |= bit
        sets[SHAPE_AT + sum(1 << size for size, _ in pieces)] |= bit
    return sets


def _plain_ice_facts(layout: Layout, ice: int) -> tuple[bool, int]:
    edge = sum(1 << c for c in bits(ice) if (layout.nb_mask[c] & ice).bit_count() < 6)
    return len(components(layout.nb_mask, ice)) <= 1, edge


def _plain_reach(layout: Layout, cell: int, holes: int) -> int:
    out = 0
    for ray in layout.rays[cell]:
        for c in ray:
            if holes >> c & 1:
                break
            out |= 1 << c
    return out


def _plain_near(layout: Layout, mask: int) -> int:
    out = layout.full
    for comp in components(layout.nb_mask, mask):
        touch = 0
        for c in bits(comp):
            touch |= layout.nb_mask[c]
        out &= comp | touch
    return out


def _check_memos(layout: Layout) -> None:
    for ice, facts in list(layout._ice_cache.items()):
        assert facts == _plain_ice_facts(layout, ice), f"ice facts of {ice:b}"
    for key, reach in list(layout._reach_cache.items()):
        cell, holes = key & 63, key >> 6
        assert reach == _plain_reach(layout, cell, holes), f"reach of {cell} around {holes:b}"
    for mask, near in list(layout._near_cache.items()):
        assert near == _plain_near(layout, mask), f"surroundings of {mask:b}"


def _play(st: ArktiaState, rng: random.Random) -> int:
    steps = 0
    while not st.is_terminal():
        st.apply(choose(rng, st.legal_actions()))
        steps += 1
        assert st._bits_of is st.fields
        assert st._bits == _plain_sets(st.fields), f"bit sets out of step after {steps} actions"
        copy = st.clone()
        assert copy._bits == st._bits and copy._bits is not st._bits and copy._bits_of is copy.fields
    return steps


@pytest.mark.parametrize("seed", SEEDS)
def test_bit_sets_and_memos_stay_exact_along_random_games(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # The memos serve the Python move generator (the C one, where built, needs none): play with it.
    monkeypatch.setattr(rules, "main_actions", rules.python_main_actions)
    rng = random.Random(seed)
    players = 2 + seed % 3
    game = ArktiaGame(players, random_options(rng, players))
    layout = game.config.layout
    for cache in (layout._ice_cache, layout._reach_cache, layout._near_cache):
        cache.clear()  # only what these games put there is checked below
    for _ in range(GAMES_PER_SEED):
        assert _play(game.new_initial_state(), rng) > 0
    assert layout._ice_cache and layout._near_cache, "the games exercised the memos"
    _check_memos(layout)


def test_out_pieces_removed_keep_the_sets_exact() -> None:
    # A seat that stops takes its Muglus off the board (retire), one more place the rules edit fields.
    board = {"c3": "t1 d2 g1", "d3": "t2", "b3": "d1", "c2": "g2"}
    st = position(2, board, player=0, options={"out_pieces": "remove"})
    st.apply(st.parse_legal("stop"))
    assert st._bits == _plain_sets(st.fields)


def test_a_replaced_field_list_is_read_afresh() -> None:
    """Code outside the rules edits a position by assigning a new ``fields`` list (hand-built positions,
    loaded records); the sets are rebuilt for it instead of being read stale."""
    rng = random.Random(5)
    game = ArktiaGame(3)
    st = game.new_initial_state()
    for _ in range(25):
        st.apply(choose(rng, st.legal_actions()))
    other = game.new_initial_state()
    for _ in range(40):
        other.apply(choose(rng, other.legal_actions()))
    st.fields = list(other.fields)
    assert current(st) == _plain_sets(other.fields) == build(other.fields)
    st._legal = None
    rules.begin_turn(st)
    assert st._bits == _plain_sets(st.fields)
    loaded = game.state_from_json(other.to_json())
    assert loaded.legal_actions() == other.legal_actions()
    assert loaded._bits == other._bits


def test_lift_plans_follow_the_pieces() -> None:
    """``rules.LIFT_PLANS`` (what move generation may lift from a field, issue 14 round two) equals what the
    pieces say: every top part of the stack, smallest first, and whether a piece of the seat stays below."""
    for seat in range(N_COLOURS):
        for code in range(N_CODES):
            if code == EMPTY or not is_legal_code(code):
                continue
            pieces = pieces_bottom_up(code)
            plain = []
            for k in range(len(pieces) - 1, -1, -1):
                mover = sum(1 << size for size, _ in pieces[k:])
                stays = any(colour == seat for _, colour in pieces[:k])
                plain.append((mover, mover - 1, stays))
            assert list(rules.LIFT_PLANS[seat][code]) == plain, f"seat {seat}, code {code}"

"""Tests for Arctic final scoring (docs/arctic-rules.md §8), against the rules reference's vectors and
independent brute force."""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from floe.games.arctic.cards import ANIMALS, BEAR, FOX, MOOSE, ORCA, PUFFIN, WALRUS
from floe.games.arctic.scoring import (
    FACE_DOWN,
    RUN_POINTS,
    ScoreBreakdown,
    best_run_score,
    rank,
    run_points,
    score,
)

from ..native_trace import python_module

F = FACE_DOWN
MODES = ("free_max", "bga_adjacent")

# ---------------------------------------------------------------------------------------------------------
# Independent reference implementations (deliberately naive: groupby + exhaustive enumeration).


def ref_run_score(pile: Sequence[int]) -> int:
    """Runs + bonus of a pile without face-down cards, straight from the wording of
    docs/arctic-rules.md §8.1."""
    f = {0: 0, 1: 0, 2: 1, 3: 3, 4: 6, 5: 10}
    longest: dict[int, int] = {}
    for animal, group in itertools.groupby(pile):
        longest[animal] = max(longest.get(animal, 0), len(list(group)))
    scored = [n for n in longest.values() if n >= 2]
    return sum(f.get(n, 15) for n in scored) + f.get(len(scored), 15)


def ref_longest(pile: Sequence[int]) -> tuple[int, ...]:
    longest = [0] * 6
    for animal, group in itertools.groupby(pile):
        longest[animal] = max(longest[animal], len(list(group)))
    return tuple(longest)


def fill(pile: Sequence[int], wildcards: Sequence[int]) -> list[int]:
    it = iter(wildcards)
    filled = [next(it) if a == F else a for a in pile]
    assert next(it, None) is None, "more wildcards than face-down cards"
    return filled


def brute_free(pile: Sequence[int]) -> int:
    k = sum(1 for a in pile if a == F)
    return max(ref_run_score(fill(pile, combo)) for combo in itertools.product(range(6), repeat=k))


def bga_assignments(pile: Sequence[int]) -> list[tuple[int, ...]]:
    """Every assignment BGA's interface allows (docs/arctic-rules.md §8.3 item 3), enumerated block by
    block."""
    per_block: list[list[tuple[int, ...]]] = []
    i = 0
    while i < len(pile):
        if pile[i] != F:
            i += 1
            continue
        j = i
        while j < len(pile) and pile[j] == F:
            j += 1
        k = j - i
        below = pile[i - 1] if i > 0 else -1
        above = pile[j] if j < len(pile) else -1
        if below < 0 and above < 0:
            options = [(FOX,) * k]
        elif below < 0:
            options = [(above,) * k]
        elif above < 0 or below == above:
            options = [(below,) * k]
        else:
            options = [(below,) * s + (above,) * (k - s) for s in range(k + 1)]
        per_block.append(options)
        i = j
    return [tuple(itertools.chain.from_iterable(parts)) for parts in itertools.product(*per_block)]


def brute_bga(pile: Sequence[int]) -> int:
    return max(ref_run_score(fill(pile, a)) for a in bga_assignments(pile))


@st.composite
def piles(draw: st.DrawFn, max_len: int = 14, max_wild: int = 4) -> list[int]:
    """Piles of up to ``max_len`` cards with up to ``max_wild`` face-down cards.

    Few distinct animals are drawn often, so that long runs, bridges and ties actually occur.
    """
    n_animals = draw(st.integers(1, 6))
    names = draw(st.permutations(range(6)))[:n_animals]
    real = draw(st.lists(st.sampled_from(names), max_size=max_len))
    k = draw(st.integers(0, min(max_wild, max_len - len(real))))
    pile = list(real)
    for _ in range(k):
        pile.insert(draw(st.integers(0, len(pile))), F)
    return pile


# ---------------------------------------------------------------------------------------------------------
# Spec 8.1 basics.


def test_run_points_table() -> None:
    assert RUN_POINTS == (0, 0, 1, 3, 6, 10, 15)
    assert [run_points(n) for n in range(10)] == [0, 0, 1, 3, 6, 10, 15, 15, 15, 15]
    with pytest.raises(ValueError, match=r"^run length must be >= 0, got -1$"):
        run_points(-1)


# Spec 8.6, written in the rules reference's own notation (1 fox .. 6 bear, "F" face-down): (pile, free_max,
# bga).
SPEC_VECTORS: list[tuple[str, int, int]] = [
    ("", 0, 0),
    ("1,2,3,4,5,6", 0, 0),
    ("1,1,2,2,3,3,4,4,5,5,6,6", 21, 21),
    ("1,1,1,1,1,1,1,1", 15, 15),
    ("1,1,1,2,1,1", 3, 3),
    ("1,1,2,2,1,1,1,1", 8, 8),
    ("1,2,1,2,1,2", 0, 0),
    ("1,1,F,1,1", 10, 10),
    ("1,1,F,2,2,2", 8, 8),
    ("1,1,F,F,2", 6, 6),
    ("3,3,3,3,3,F,F,2", 17, 17),
    ("F,4,4", 3, 3),
    ("5,F,6", 1, 1),
    ("1,1,1,1,1,F,F,F,F,2,2,2,2,2", 34, 31),
]


def spec_pile(text: str) -> list[int]:
    return [F if tok == "F" else int(tok) - 1 for tok in text.split(",") if tok]


# Spec 8.5: walrus 1, puffin 3, orca 2, bear 6, fox 1, orca 5, puffin 2, moose 4 (bottom to top).
RULEBOOK_PILE = (
    [WALRUS] + [PUFFIN] * 3 + [ORCA] * 2 + [BEAR] * 6 + [FOX] + [ORCA] * 5 + [PUFFIN] * 2 + [MOOSE] * 4
)


@pytest.mark.parametrize(("text", "free", "bga"), SPEC_VECTORS)
def test_spec_vectors(text: str, free: int, bga: int) -> None:
    pile = spec_pile(text)
    assert best_run_score(pile, "free_max")[0] == free
    assert best_run_score(pile, "bga_adjacent")[0] == bga
    # The vector values are runs + bonus only, i.e. a total with no totem and no penalties.
    assert score(pile, 0, 0).total == free
    assert score(pile, 0, 0, mode="bga_adjacent").total == bga


def test_spec_vector_choices() -> None:
    # 1,1,F,2,2,2: the face-down card joins moose (above), not the default "join below".
    assert best_run_score(spec_pile("1,1,F,2,2,2"))[1:] == ((2, 4, 0, 0, 0, 0), (MOOSE,))
    # The 34-point pile: fox 6, moose 6 and the other two face-down cards form a run of a third animal.
    runs_score, runs, wild = best_run_score(spec_pile("1,1,1,1,1,F,F,F,F,2,2,2,2,2"))
    assert runs_score == 34
    assert (runs[FOX], runs[MOOSE]) == (6, 6)
    assert sorted(runs) == [0, 0, 0, 2, 6, 6]
    assert wild[0] == FOX and wild[3] == MOOSE and wild[1] == wild[2] not in (FOX, MOOSE)
    # BGA's best split here gives one card to one side and three to the other: 15 + 15 + 1 = 31.
    bga_score, bga_runs, bga_wild = best_run_score(spec_pile("1,1,1,1,1,F,F,F,F,2,2,2,2,2"), "bga_adjacent")
    assert bga_score == 31
    assert set(bga_wild) <= {FOX, MOOSE} and list(bga_wild) == sorted(bga_wild)
    assert min(bga_runs[FOX], bga_runs[MOOSE]) >= 6


def test_rulebook_example() -> None:
    assert len(RULEBOOK_PILE) == 24
    for mode in MODES:
        assert best_run_score(RULEBOOK_PILE, mode)[0] == 40
        b = score(RULEBOOK_PILE, totem_value=10, penalties=4, mode=mode)
        assert b.total == 46
        assert b.run_points == (0, 6, 0, 10, 3, 15)
        assert b.runs == (1, 4, 1, 5, 3, 6)
        assert (b.bonus, b.totem, b.penalties, b.wildcards) == (6, 10, 4, ())


def test_runs_report_longest_run_uncapped() -> None:
    # Fox: runs of 2 then 4 -> 4 is reported; moose single; walrus run of 8 is not capped at 6.
    pile = [FOX, FOX, MOOSE, FOX, FOX, FOX, FOX] + [WALRUS] * 8
    b = score(pile, 0, 0)
    assert b.runs == (4, 1, 8, 0, 0, 0)
    assert b.run_points == (6, 0, 15, 0, 0, 0)
    assert b.bonus == 1 and b.total == 22
    # A face-down bridge: the reported run is the bridged one, 2 + 1 + 3.
    assert score([ORCA, ORCA, F, ORCA, ORCA, ORCA], 0, 0).runs[ORCA] == 6


def test_total_can_be_negative_and_counts_every_part() -> None:
    b = score([PUFFIN], totem_value=0, penalties=3)
    assert (b.total, b.bonus, b.run_points) == (-3, 0, (0,) * 6)
    b = score([BEAR, BEAR, BEAR, ORCA, ORCA], totem_value=15, penalties=2)
    assert b.total == 3 + 1 + 1 + 15 - 2


def test_to_dict_is_json_ready_with_animal_names() -> None:
    b = score([FOX, FOX, F, MOOSE, MOOSE, MOOSE], totem_value=3, penalties=1)
    d = json.loads(json.dumps(b.to_dict()))
    assert d["runs"] == {"fox": 2, "moose": 4, "walrus": 0, "orca": 0, "puffin": 0, "bear": 0}
    assert d["run_points"]["moose"] == 6 and d["run_points"]["fox"] == 1
    assert list(d["runs"]) == list(ANIMALS)
    assert (d["bonus"], d["totem"], d["penalties"], d["total"]) == (1, 3, 1, 10)
    assert d["wildcards"] == ["moose"]


def test_score_breakdown_is_frozen() -> None:
    b = score([FOX, FOX], 0, 0)
    assert isinstance(b, ScoreBreakdown)
    with pytest.raises(AttributeError):
        b.total = 99  # type: ignore[misc]


def test_bad_input_is_rejected() -> None:
    with pytest.raises(
        ValueError, match=r"^unknown wildcard scoring mode 'bga'; expected one of free_max, bga_adjacent$"
    ):
        best_run_score([FOX, FOX], "bga")
    with pytest.raises(ValueError, match="unknown wildcard scoring mode"):
        best_run_score([], "nope")
    with pytest.raises(ValueError, match=r"^pile card 6 is not an animal 0\.\.5 or FACE_DOWN \(-1\)$"):
        best_run_score([FOX, 6])
    with pytest.raises(ValueError, match="not an animal"):
        best_run_score([-2, -2])
    with pytest.raises(ValueError, match=r"^pile card 7 is not an animal 0\.\.5 "):
        best_run_score([F, 7])
    with pytest.raises(ValueError, match=r"^pile card 6 is not an animal"):
        best_run_score([F, 6])
    with pytest.raises(ValueError, match="penalties"):
        score([FOX], 0, -1)


def test_no_face_down_card_skips_the_dp(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(*_args: object) -> None:
        raise AssertionError("DP used for a pile without face-down cards")

    python = python_module("arctic", "scoring")  # the compiled module's calls cannot be replaced
    monkeypatch.setattr(python, "_dp", boom)
    assert python.best_run_score(RULEBOOK_PILE) == (40, (1, 4, 1, 5, 3, 6), ())
    with pytest.raises(AssertionError):
        python.best_run_score([FOX, F])


def test_only_face_down_cards() -> None:
    # bga_adjacent: no face-up run to join, so the whole block is one run (documented as foxes).
    assert best_run_score([F] * 4, "bga_adjacent") == (6, (4, 0, 0, 0, 0, 0), (FOX,) * 4)
    assert best_run_score([F], "bga_adjacent") == (0, (1, 0, 0, 0, 0, 0), (FOX,))
    # free_max may split the block into runs of different animals when that pays: 9 cards as 6 + 3.
    assert best_run_score([F] * 4)[0] == 6
    assert best_run_score([F] * 9)[0] == 15 + 3 + 1  # run of 6 + run of 3 + bonus f(2)


def test_deterministic_tie_preference_joins_below() -> None:
    # A lone face-down card between unrelated animals gains nothing anywhere: it joins the card below.
    assert best_run_score([WALRUS, F, ORCA])[2] == (WALRUS,)
    assert best_run_score([F, ORCA])[2] == (ORCA,)


# ---------------------------------------------------------------------------------------------------------
# Properties against brute force.


@settings(max_examples=300, deadline=None)
@given(piles())
def test_free_max_matches_brute_force(pile: list[int]) -> None:
    assert best_run_score(pile, "free_max")[0] == brute_free(pile)


@settings(max_examples=300, deadline=None)
@given(piles(max_len=16, max_wild=6))
def test_bga_adjacent_matches_enumerated_splits(pile: list[int]) -> None:
    value, _runs, wildcards = best_run_score(pile, "bga_adjacent")
    assert value == brute_bga(pile)
    assert wildcards in bga_assignments(pile)


@settings(max_examples=300, deadline=None)
@given(piles(max_len=20, max_wild=6))
def test_bga_adjacent_never_beats_free_max(pile: list[int]) -> None:
    assert best_run_score(pile, "bga_adjacent")[0] <= best_run_score(pile, "free_max")[0]


@settings(max_examples=300, deadline=None)
@given(piles(max_len=20, max_wild=6), st.sampled_from(MODES))
def test_wildcards_reproduce_the_score(pile: list[int], mode: str) -> None:
    value, runs, wildcards = best_run_score(pile, mode)
    assert len(wildcards) == pile.count(F)
    assert all(0 <= a < 6 for a in wildcards)
    filled = fill(pile, wildcards)
    assert ref_run_score(filled) == value
    assert ref_longest(filled) == runs
    assert best_run_score(filled, mode) == (value, runs, ())


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 5), max_size=30), st.integers(-5, 20), st.integers(0, 10))
def test_score_without_wildcards_matches_reference(pile: list[int], totem: int, penalties: int) -> None:
    b = score(pile, totem, penalties)
    assert b.runs == ref_longest(pile)
    assert b.total == ref_run_score(pile) + totem - penalties
    assert b.total == sum(b.run_points) + b.bonus + b.totem - b.penalties
    assert b.wildcards == ()


# ---------------------------------------------------------------------------------------------------------
# Spec 8.4 tie-break.


def test_rank_by_score_then_turn_order() -> None:
    assert rank([30, 45, 12], first_player=0) == [1, 0, 2]
    # All tied: turn order from the first player, wrapping around the table.
    assert rank([7, 7, 7, 7], first_player=0) == [0, 1, 2, 3]
    assert rank([7, 7, 7, 7], first_player=2) == [2, 3, 0, 1]
    # Seats 0 and 2 tie; with seat 1 first, seat 2 plays before seat 0 and ranks higher.
    assert rank([20, 5, 20], first_player=1) == [2, 0, 1]
    assert rank([20, 5, 20], first_player=0) == [0, 2, 1]
    # Negative scores are fine.
    assert rank([-2, -1], first_player=1) == [1, 0]
    assert rank([5], first_player=0) == [0]


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 5).flatmap(
        lambda n: st.tuples(st.lists(st.integers(-5, 5), min_size=n, max_size=n), st.integers(0, n - 1))
    )
)
def test_rank_matches_bga_score_aux(args: tuple[list[int], int]) -> None:
    totals, first = args
    n = len(totals)
    # BGA: player_no 1 is the first player; score_aux = n - player_no; rank by (score, aux) descending.
    player_no = {seat: (seat - first) % n + 1 for seat in range(n)}
    expected = sorted(range(n), key=lambda s: (totals[s], n - player_no[s]), reverse=True)
    assert rank(totals, first) == expected


def test_rank_rejects_bad_first_player() -> None:
    with pytest.raises(ValueError, match=r"^first_player 2 is not a seat of 2 players$"):
        rank([1, 2], first_player=2)
    with pytest.raises(ValueError, match=r"^first_player 1 is not a seat of 1 players$"):
        rank([5], first_player=1)

"""Arctic's final scoring (docs/arctic-rules.md §8): runs, the bonus, totem, penalties and the tie-break.

A pile is a sequence of animal ints (``cards.FOX`` .. ``cards.BEAR``) from bottom to top, with
``FACE_DOWN`` standing for a card placed face-down with the fox wildcard power (docs/arctic-rules.md §6.3,
§8.2). Each face-down card counts as an animal chosen at scoring; two policies are offered:

* ``"free_max"`` (the default, docs/arctic-rules.md §8.2): any animal per card, chosen to maximise the score.
* ``"bga_adjacent"`` (docs/arctic-rules.md §8.3): a card may only join the real run directly below or above
it.

>>> best_run_score([FOX, FOX, FACE_DOWN, FOX, FOX])
(10, (5, 0, 0, 0, 0, 0), (0,))
>>> from floe.core.compiled import mypyc_attr
from floe.games.arctic.cards import BEAR, MOOSE
>>> best_run_score([FOX, FOX, FACE_DOWN, MOOSE, MOOSE, MOOSE])
(8, (2, 4, 0, 0, 0, 0), (1,))
>>> score([MOOSE, MOOSE, BEAR, BEAR], totem_value=6, penalties=2).total
7
>>> rank([10, 12, 10], first_player=1)
[1, 2, 0]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from floe.core.compiled import mypyc_attr
from floe.games.arctic.cards import ANIMALS, FOX, N_ANIMALS

__all__ = [
    "FACE_DOWN",
    "MODES",
    "RUN_POINTS",
    "ScoreBreakdown",
    "best_run_score",
    "rank",
    "run_points",
    "score",
]

# f(n) for n = 0..6 (docs/arctic-rules.md §8.1); f is flat from 6 on, so 6 is also the cap used by the DP
# below.
RUN_POINTS: tuple[int, ...] = (0, 0, 1, 3, 6, 10, 15)
_CAP = len(RUN_POINTS) - 1

FACE_DOWN = -1
MODES: tuple[str, ...] = ("free_max", "bga_adjacent")

# For the face-down card at segment index i (see _segments), the animals it may take, given the animal
# of the card below it (-1 at the bottom). The order matters only on ties: the first animal wins.
_Allowed = Callable[[int, int], Sequence[int]]
# One DP state's payload: the packed best-run vector (below) and the animals chosen so far.
_Entry = tuple[int, tuple[int, ...]]

# The DP packs the per-animal best-run vector (each 0..6) into one int, 4 bits per animal: 3 value bits
# and a guard bit. Then "u >= v in every animal" is a single subtraction: with every guard bit of u set,
# a field where u < v borrows its own guard bit (and never more, as 8 + u - v >= 2), so all guards survive
# exactly when u dominates v. This keeps the pruning, the DP's inner loop, cheap.
_BITS = 4
_FIELD = (1 << (_BITS - 1)) - 1  # 0b111, enough for 0.._CAP
_GUARDS = sum(1 << (_BITS * a + _BITS - 1) for a in range(N_ANIMALS))


def run_points(n: int) -> int:
    """f(n): the points for a longest run of ``n`` cards (0, 0, 1, 3, 6, 10, then 15 for 6 or more).

    >>> [run_points(n) for n in range(9)]
    [0, 0, 1, 3, 6, 10, 15, 15, 15]
    """
    if n < 0:
        raise ValueError(f"run length must be >= 0, got {n}")
    return RUN_POINTS[n if n < _CAP else _CAP]


@mypyc_attr(native_class=False)  # compiled (native.py), a native frozen record would not unpickle
@dataclass(frozen=True, slots=True)
class ScoreBreakdown:
    """One player's final score, split into its parts (docs/arctic-rules.md §8.1).

    ``runs`` and ``run_points`` are indexed by animal; ``runs`` holds the longest run after the face-down
    cards got their animals (uncapped, so a run of 8 reads 8). ``wildcards`` lists the animal chosen for
    each face-down card, bottom to top. ``total = sum(run_points) + bonus + totem - penalties``.
    """

    runs: tuple[int, ...]
    run_points: tuple[int, ...]
    bonus: int
    totem: int
    penalties: int
    total: int
    wildcards: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data: runs and points keyed by animal name, wildcards as animal names."""
        return {
            "runs": dict(zip(ANIMALS, self.runs, strict=True)),
            "run_points": dict(zip(ANIMALS, self.run_points, strict=True)),
            "bonus": self.bonus,
            "totem": self.totem,
            "penalties": self.penalties,
            "total": self.total,
            "wildcards": [ANIMALS[a] for a in self.wildcards],
        }


def _points_from_runs(runs: Sequence[int]) -> int:
    """Sum of f over the animals' longest runs plus the bonus f(number of animals with a run of 2+)."""
    total = 0
    scored = 0
    for n in runs:
        if n >= 2:
            total += RUN_POINTS[n if n < _CAP else _CAP]
            scored += 1
    return total + RUN_POINTS[scored]


def _bad_card(card: object) -> ValueError:
    return ValueError(f"pile card {card!r} is not an animal 0..{N_ANIMALS - 1} or FACE_DOWN ({FACE_DOWN})")


def _longest_runs(pile: Sequence[int]) -> tuple[int, ...]:
    """Longest run per animal of a pile with no face-down card (one pass, no DP)."""
    best = [0] * N_ANIMALS
    prev: int | None = None
    length = 0
    for a in pile:
        if a == prev:
            length += 1
            continue
        # Validate only at run boundaries: every card of a run equals the one checked here.
        if not 0 <= a < N_ANIMALS:
            raise _bad_card(a)
        if prev is not None and length > best[prev]:
            best[prev] = length
        prev = a
        length = 1
    if prev is not None and length > best[prev]:
        best[prev] = length
    return tuple(best)


def _insert(bucket: list[_Entry], vec: int, chosen: tuple[int, ...]) -> None:
    """Add a state to its (last animal, run length) bucket unless dominated; drop what it dominates.

    States sharing (last animal, current run length) evolve identically from here on, and the final score
    is monotone in the best-run vector, so a componentwise-dominated vector can never do better
    (docs/arctic-rules.md §8.2). An equal vector already present wins, which keeps the tie-breaking order of
    ``allowed``.
    """
    for other, _chosen in bucket:
        if ((other | _GUARDS) - vec) & _GUARDS == _GUARDS:
            return
    guarded = vec | _GUARDS
    bucket[:] = [e for e in bucket if (guarded - e[0]) & _GUARDS != _GUARDS]
    bucket.append((vec, chosen))


def _segments(pile: Sequence[int]) -> list[tuple[int, int]]:
    """The pile as (animal, length) for each run of face-up cards, and (FACE_DOWN, 1) per face-down card.

    The DP then steps once per run rather than once per card, which matters in long piles.
    """
    segments: list[tuple[int, int]] = []
    for a in pile:
        if segments and a != FACE_DOWN and segments[-1][0] == a:
            segments[-1] = (a, segments[-1][1] + 1)
        else:
            segments.append((a, 1))
    return segments


def _dp(segments: Sequence[tuple[int, int]], allowed: _Allowed) -> tuple[int, tuple[int, ...]]:
    """Exact dominance-pruned DP of docs/arctic-rules.md §8.2; returns (best runs + bonus score, chosen
    wildcard animals).

    State key: (last animal, current run length capped at 6); payload: best-run vector capped at 6
    (packed, see ``_GUARDS``) plus the animals chosen so far (kept with the state instead of back-pointers;
    there are few face-down cards, so the copies are cheap). ``allowed(i, last)`` gives the animals
    face-down segment ``i`` may take.
    """
    last_wild = max(i for i, (a, _n) in enumerate(segments) if a == FACE_DOWN)
    # later[i]: bitmask of the animals of the face-up runs after segment i. An animal that is neither
    # the last one nor among those plays no further role except through its best-run value, so two such
    # animals with equal values are interchangeable (the score is symmetric in the animals): branching on
    # one of them is enough. This tames blocks of adjacent face-down cards.
    later = [0] * len(segments)
    mask = 0
    for i in range(len(segments) - 1, -1, -1):
        later[i] = mask
        if segments[i][0] != FACE_DOWN:
            mask |= 1 << segments[i][0]
    states: dict[tuple[int, int], list[_Entry]] = {(-1, 0): [(0, ())]}
    for i in range(last_wild + 1):
        card, size = segments[i]
        nxt: dict[tuple[int, int], list[_Entry]] = {}
        if card != FACE_DOWN:
            for (last, length), entries in states.items():
                n = min(length + size if card == last else size, _CAP)
                shift = _BITS * card
                bucket = nxt.setdefault((card, n), [])
                for vec, chosen in entries:
                    old = (vec >> shift) & _FIELD
                    _insert(bucket, vec if old >= n else vec + ((n - old) << shift), chosen)
        else:
            for (last, length), entries in states.items():
                options = allowed(i, last)
                for vec, chosen in entries:
                    seen_values = 0
                    for b in options:
                        shift = _BITS * b
                        old = (vec >> shift) & _FIELD
                        if b != last and not (later[i] >> b) & 1:
                            if (seen_values >> old) & 1:
                                continue
                            seen_values |= 1 << old
                        n = min(length + 1, _CAP) if b == last else 1
                        new_vec = vec if old >= n else vec + ((n - old) << shift)
                        _insert(nxt.setdefault((b, n), []), new_vec, (*chosen, b))
        states = nxt

    # Past the last face-down card nothing branches, so finish each state in closed form instead of
    # stepping through the rest of the pile: only the first run there can extend a state's current run.
    suffix = segments[last_wild + 1 :]
    head, head_size = suffix[0] if suffix else (FACE_DOWN, 0)
    rest = [0] * N_ANIMALS
    for a, n in suffix[1:]:
        rest[a] = max(rest[a], min(n, _CAP))
    best_score = -1
    best_chosen: tuple[int, ...] = ()
    for (last, length), entries in states.items():
        joined = min(length + head_size if last == head else head_size, _CAP)
        for vec, chosen in entries:
            final = [max((vec >> (_BITS * a)) & _FIELD, rest[a]) for a in range(N_ANIMALS)]
            if head != FACE_DOWN and joined > final[head]:
                final[head] = joined
            s = _points_from_runs(final)
            if s > best_score:  # strict: the first state found wins ties, for a deterministic answer
                best_score, best_chosen = s, chosen
    return best_score, best_chosen


def _nearest_real(pile: Sequence[int]) -> tuple[list[int], list[int]]:
    """For each index, the animal of the nearest face-up card strictly below / above it (-1 if none)."""
    below = [-1] * len(pile)
    above = [-1] * len(pile)
    seen = -1
    for i, a in enumerate(pile):
        below[i] = seen
        if a != FACE_DOWN:
            seen = a
    seen = -1
    for i in range(len(pile) - 1, -1, -1):
        above[i] = seen
        if pile[i] != FACE_DOWN:
            seen = pile[i]
    return below, above


@cache
def _free_order(last: int, above: int) -> tuple[int, ...]:
    """All six animals, trying "join the card below" then "join the card above" first.

    Any order is exact; this one only decides ties, and then picks the assignment a player would name
    first (BGA's default is "join below").
    """
    head = [a for a in (last, above) if a >= 0]
    head = list(dict.fromkeys(head))
    return (*head, *(a for a in range(N_ANIMALS) if a not in head))


def _free_allowed(segments: Sequence[tuple[int, int]]) -> _Allowed:
    _below, above = _nearest_real([a for a, _n in segments])
    return lambda i, last: _free_order(last, above[i])


def _bga_allowed(segments: Sequence[tuple[int, int]]) -> _Allowed:
    """Spec 8.3 item 3: a block between real runs X (below) and Y (above) splits as j cards to X, rest Y.

    The split is enforced through the DP state: once a card of the block took Y, the rest must take Y, so
    the DP maximises over exactly the splits BGA's interface offers.
    """
    below, above = _nearest_real([a for a, _n in segments])

    def allowed(i: int, last: int) -> Sequence[int]:
        x, y = below[i], above[i]
        if x < 0 and y < 0:
            # No face-up card at all: every split is the same, so call them all foxes (it is the fox's
            # power); one run of k cards scores f(k) whichever animal it is.
            return (FOX,)
        if x < 0:
            return (y,)  # bottom block joins the first run above
        if y < 0 or x == y:
            return (x,)  # top block joins the run below; a block inside one animal's run bridges it
        return (y,) if last == y else (x, y)

    return allowed


def best_run_score(
    pile: Sequence[int], mode: str = "free_max"
) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
    """Runs + bonus score of a pile, with the longest run per animal and the animals chosen for wildcards.

    ``pile`` lists animal ints bottom to top, ``FACE_DOWN`` for a face-down card. ``mode`` is
    ``"free_max"`` or ``"bga_adjacent"`` (module docstring). The returned runs are those of the pile with
    each face-down card replaced, in order, by the returned wildcard animal.

    >>> best_run_score([0, 0, 0, 0, 0, -1, -1, -1, -1, 1, 1, 1, 1, 1])
    (34, (6, 6, 2, 0, 0, 0), (0, 2, 2, 1))
    >>> best_run_score([0, 0, 0, 0, 0, -1, -1, -1, -1, 1, 1, 1, 1, 1], "bga_adjacent")[0]
    31
    """
    if mode == "free_max":
        make_allowed = _free_allowed
    elif mode == "bga_adjacent":
        make_allowed = _bga_allowed
    else:
        raise ValueError(f"unknown wildcard scoring mode {mode!r}; expected one of {', '.join(MODES)}")
    if FACE_DOWN not in pile:
        # Fast path: the common case (and every rollout without the fox wildcard power) needs no DP.
        runs = _longest_runs(pile)
        return _points_from_runs(runs), runs, ()
    for a in pile:
        # Checked before the DP because the wildcard options are built from the neighbouring cards.
        if a != FACE_DOWN and not 0 <= a < N_ANIMALS:
            raise _bad_card(a)
    segments = _segments(pile)
    _dp_score, chosen = _dp(segments, make_allowed(segments))
    wild = iter(chosen)
    runs = _longest_runs([next(wild) if a == FACE_DOWN else a for a in pile])
    # Recomputing from the filled pile gives uncapped runs; its score equals the DP's by construction.
    return _points_from_runs(runs), runs, chosen


def score(pile: Sequence[int], totem_value: int, penalties: int, mode: str = "free_max") -> ScoreBreakdown:
    """A player's final score (docs/arctic-rules.md §8.1): runs + bonus + totem value − number of penalty
    cards.

    >>> b = score([2, 4, 4, 4, 3, 3, 5, 5, 5, 5, 5, 5, 0, 3, 3, 3, 3, 3, 4, 4, 1, 1, 1, 1], 10, 4)
    >>> (b.run_points, b.bonus, b.total)
    ((0, 6, 0, 10, 3, 15), 6, 46)
    """
    if penalties < 0:
        raise ValueError(f"penalties counts penalty cards and must be >= 0, got {penalties}")
    _runs_score, runs, wildcards = best_run_score(pile, mode)
    points = tuple(RUN_POINTS[n if n < _CAP else _CAP] if n >= 2 else 0 for n in runs)
    bonus = RUN_POINTS[sum(1 for n in runs if n >= 2)]
    return ScoreBreakdown(
        runs=runs,
        run_points=points,
        bonus=bonus,
        totem=totem_value,
        penalties=penalties,
        total=sum(points) + bonus + totem_value - penalties,
        wildcards=wildcards,
    )


def rank(totals: Sequence[int], first_player: int) -> list[int]:
    """Seats ordered best first: higher score, then earlier in turn order counted from ``first_player``.

    Seats are 0..n-1 with ``n = len(totals)`` and play in increasing seat order, wrapping
    (docs/arctic-rules.md §8.4).

    >>> rank([5, 5, 5, 5], first_player=2)
    [2, 3, 0, 1]
    """
    n = len(totals)
    if not 0 <= first_player < max(n, 1):
        raise ValueError(f"first_player {first_player} is not a seat of {n} players")
    return sorted(range(n), key=lambda seat: (-totals[seat], (seat - first_player) % n))

"""Face-down cards (the fox wildcard power, docs/arctic-rules.md §8.2 and §8.3) in piles worked out by hand,
where the best-run search's shortcuts could go wrong: blocks of face-down cards, animals met again further up,
and the bottom card of a pile (found by mutation testing: the random piles of ``test_scoring`` never met
them).

In the comments D is a face-down card; a run of 2 scores 1, 3 scores 3, 4 scores 6, 6 or more 15, and the
bonus is that table again for the number of animals with a run of 2 or more (docs/arctic-rules.md §8.1).
"""

from __future__ import annotations

import pytest

from floe.games.arctic.cards import BEAR, FOX, MOOSE, ORCA, PUFFIN, WALRUS
from floe.games.arctic.scoring import FACE_DOWN, best_run_score

D = FACE_DOWN


@pytest.mark.parametrize(
    ("pile", "mode", "best", "runs"),
    [
        # D D | puffin | D | fox | bear | D | puffin | D: the bottom pair as moose, then fox, bear and puffin
        # each get a pair from one D: four pairs (4 × 1) and the bonus for four animals (6) = 10. Joining
        # the puffins instead gives at most 8.
        ([D, D, PUFFIN, D, FOX, BEAR, D, PUFFIN, D], "free_max", 10, (2, 2, 0, 0, 2, 2)),
        # D D D | bear | D | bear | D | bear: the top three D make the bears a run of 6 (15), the bottom two
        # a fox pair (1), two animals (1) = 17.
        ([D, D, D, BEAR, D, BEAR, D, BEAR], "free_max", 17, (2, 0, 0, 0, 0, 6)),
        # D D under six foxes: a run of 6 scores 15 already, so the two D are worth more as a pair of their
        # own (1) and a second animal for the bonus (1) = 17, not as foxes 7 and 8.
        ([D, D, FOX, FOX, FOX, FOX, FOX, FOX], "free_max", 17, (6, 2, 0, 0, 0, 0)),
        # Every animal can get a run of 2 (five pairs and a fox run of 3): 5 + 3 + the bonus for six (15).
        (
            [PUFFIN, D, WALRUS, D, D, MOOSE, D, D, WALRUS, FOX, D, FOX, D, WALRUS, MOOSE, MOOSE],
            "free_max",
            23,
            (3, 2, 2, 2, 2, 2),
        ),
        # Spec 8.3 (bga_adjacent): the bottom block joins the foxes above (D D fox), the D between fox and
        # moose joins the fox run too (fox run 4: 6), the top D the fox below it: 6.
        ([D, D, FOX, D, MOOSE, FOX, D], "bga_adjacent", 6, (4, 1, 0, 0, 0, 0)),
        # A face-down bottom card joins the run above it: a moose pair, 1.
        ([D, MOOSE], "bga_adjacent", 1, (0, 2, 0, 0, 0, 0)),
    ],
)
def test_best_runs_with_face_down_cards(pile: list[int], mode: str, best: int, runs: tuple[int, ...]) -> None:
    score, found_runs, wildcards = best_run_score(pile, mode)
    assert (score, found_runs) == (best, runs)
    assert len(wildcards) == pile.count(D)


def test_orca_is_an_animal_like_the_others() -> None:
    # The same pile with orca for walrus scores the same (the search is symmetric in the animals).
    pile = [PUFFIN, D, WALRUS, D, D, MOOSE, D, D, WALRUS, FOX, D, FOX, D, WALRUS, MOOSE, MOOSE]
    swapped = [ORCA if a == WALRUS else a for a in pile]
    assert best_run_score(swapped)[0] == best_run_score(pile)[0] == 23

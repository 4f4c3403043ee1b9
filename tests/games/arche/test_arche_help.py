"""The "How to play" panel's worked example (``web/help.js``) scores as Arche's scoring code says."""

from __future__ import annotations

from floe.games.arche.cards import CATEGORIES, N_SCORING
from floe.games.arche.scoring import majority_fractions
from floe.testing.helpexample import help_example


def test_the_worked_example_scores_as_the_scoring_code_says() -> None:
    e = help_example("arche")
    assert list(e["strengths"]) == list(CATEGORIES[:N_SCORING])
    totals = [0 for _ in e["chips"]]
    for category, strengths in e["strengths"].items():
        points = majority_fractions(strengths)
        assert points == e["points"][category], category
        totals = [t + p for t, p in zip(totals, points, strict=True)]
    assert [t + c for t, c in zip(totals, e["chips"], strict=True)] == e["totals"]

"""The "How to play" panel's worked example (``web/help.js``) scores as Arktia's scoring code says."""

from __future__ import annotations

from floe.games.arktia.scoring import breakdowns
from floe.games.arktia.towers import NEUTRAL, SIZE_LETTERS, TOP, make_code
from floe.testing.helpexample import help_example

COLOURS = {"p1": 0, "p2": 1, "n": NEUTRAL}


def test_the_worked_example_scores_as_the_scoring_code_says() -> None:
    e = help_example("arktia")
    fields = []
    for f in e["fields"]:
        code = make_code({SIZE_LETTERS.index(s): COLOURS[c] for s, c in f["pieces"].items()})
        assert TOP[code] == COLOURS[f["control"]], f["field"]
        fields.append(code)
    seats = ["p1", "p2"]
    got = breakdowns(
        fields,
        [e["players"][p]["captured"] for p in seats],
        [e["players"][p]["melted"] for p in seats],
        [0, 0],
    )
    for p, b in zip(seats, got, strict=True):
        stated = e["players"][p]
        assert (b.captured, b.controlled, b.melted, b.total) == (
            stated["captured"],
            stated["controlled"],
            stated["melted"],
            stated["total"],
        ), p

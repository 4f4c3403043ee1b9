"""The "How to play" panel's worked example (``web/help.js``) scores as the scoring code says, and the
panel lists every power the engine has."""

from __future__ import annotations

import re
from importlib import resources

from floe.games.arctic.cards import ANIMALS
from floe.games.arctic.powers import POWER_SLUGS
from floe.games.arctic.scoring import FACE_DOWN, best_run_score, score
from floe.testing.helpexample import help_example


def _pile(names: list[str]) -> list[int]:
    return [FACE_DOWN if a == "face-down" else ANIMALS.index(a) for a in names]


def test_the_worked_example_scores_as_the_scoring_code_says() -> None:
    e = help_example("arctic")
    got = score(_pile(e["pile"]), totem_value=e["totem_value"], penalties=e["penalties"])
    assert dict(zip(ANIMALS, got.runs, strict=True)) == e["runs"]
    assert dict(zip(ANIMALS, got.run_points, strict=True)) == e["run_points"]
    assert (got.bonus, got.totem, got.penalties, got.total) == (e["bonus"], 10, 4, e["total"])
    assert e["total"] == 46  # the rulebook's figure (docs/arctic-rules.md §8.5)


def test_the_face_down_example_scores_as_the_scoring_code_says() -> None:
    w = help_example("arctic")["wildcard"]
    points, runs, wildcards = best_run_score(_pile(w["pile"]))
    assert points == w["runs_and_bonus"]
    assert [ANIMALS[a] for a in wildcards] == [w["joins"]]
    assert {a: n for a, n in zip(ANIMALS, runs, strict=True) if n} == w["runs"]
    got = score(_pile(w["pile"]), totem_value=0, penalties=0)
    assert {a: got.run_points[ANIMALS.index(a)] for a in w["runs"]} == w["run_points"]
    assert got.bonus == w["bonus"]


def test_every_power_of_the_engine_is_explained() -> None:
    text = resources.files("floe.games.arctic").joinpath("web/powerhelp.js").read_text(encoding="utf-8")
    explained = set(re.findall(r'^  "([a-z-]+)": \[', text, re.M))
    assert explained == set(POWER_SLUGS.values())

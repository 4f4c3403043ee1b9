"""Golden games are change detectors (``scripts/regen_golden*.py`` writes them from the code they test); this
file makes them oracles too: each stored game's final scores are worked out again here from the rulebooks'
scoring rules, written independently of the engines' scoring code, and must match the stored result.

- Arctic (rulebook, scoring): for each animal the longest run of consecutive cards of that main animal in the
  pile scores 0, 0, 1, 3, 6, 10, 15 for a run of 0..6+; the same table again for the number of animals with
  a run of at least 2 (the bonus); plus the landscape value (0, 1, 3, 6, 10, 15) under the token of the
  player's totem animal; minus one per penalty card. A face-down card counts as any animal (the best for its
  owner, ``free_max``); seats with face-down cards under the BGA rule are left to the rules tests.
- Arktia (rulebook, end of the game): one point per captured Muglu, per melted field and per field the player
  controls (the top piece is theirs).
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from floe.core.record import Record

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
RUN_TABLE = (0, 0, 1, 3, 6, 10, 15)
LANDSCAPE = (0, 1, 3, 6, 10, 15)
ANIMALS = ("fox", "moose", "walrus", "orca", "puffin", "bear")


def arctic_pile_points(animals: list[str | None]) -> int:
    """Runs and bonus of a pile of main animals bottom to top (None: a face-down card, any animal)."""
    hidden = [i for i, a in enumerate(animals) if a is None]
    best = 0
    for guess in itertools.product(ANIMALS, repeat=len(hidden)):
        pile = list(animals)
        for i, animal in zip(hidden, guess, strict=True):
            pile[i] = animal
        longest = dict.fromkeys(ANIMALS, 0)
        run = 0
        for k, animal in enumerate(pile):
            run = run + 1 if k and pile[k - 1] == animal else 1
            longest[animal] = max(longest[animal], run)  # type: ignore[index]
        runs = [n for n in longest.values() if n >= 2]
        best = max(best, sum(RUN_TABLE[min(n, 6)] for n in runs) + RUN_TABLE[min(len(runs), 6)])
    return best


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("arctic-*.json")), ids=lambda p: p.stem)
def test_arctic_golden_scores_follow_the_rulebook(path: Path) -> None:
    record = Record.load(path)
    state = record.replay()
    view = state.observation_dict(None)  # the game is over: every pile and totem is shown
    free_max = record.options["wildcard_scoring"] == "free_max"
    checked = 0
    for q, seat in enumerate(view["players_view"]):
        if any(entry.get("face_down") for entry in seat["pile"]) and not free_max:
            continue
        animals = [None if entry.get("face_down") else entry["card"].split("-")[0] for entry in seat["pile"]]
        totem = LANDSCAPE[view["tokens"][seat["totem"]]]
        expected = arctic_pile_points(animals) + totem - seat["penalty_count"]
        assert record.result is not None and record.result["scores"][q] == expected, (path.stem, q)
        checked += 1
    assert checked >= 2


@pytest.mark.parametrize("path", sorted((GOLDEN / "arktia").glob("*.json")), ids=lambda p: p.stem)
def test_arktia_golden_scores_follow_the_rulebook(path: Path) -> None:
    record = Record.load(path)
    view = record.replay().observation_dict(None)
    for q, seat in enumerate(view["seats"]):
        controlled = sum(1 for field in view["board"] if field.get("control") == f"p{q + 1}")
        expected = seat["captured"] + seat["melted"] + controlled
        assert record.result is not None and record.result["scores"][q] == expected, (path.stem, q)
    stored = json.loads(path.read_text())["result"]["scores"]
    assert stored == record.result["scores"]  # type: ignore[index]

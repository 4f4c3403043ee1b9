"""Golden Arche games (docs/style.md §8): stored records replay to the same result and the same transcript.

Files live in ``tests/golden/arche/``; ``scripts/regen_golden_arche.py`` writes them and owns the
transcript format. A failure here means the rules' behaviour changed: inspect the diff, and if the change is
intended, regenerate with ``.venv/bin/python scripts/regen_golden_arche.py`` and bump the game's VERSION.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from floe.core.record import Record
from floe.games.arche import VERSION
from floe.testing import golden

from ..scripts import regen_module

ROOT = Path(__file__).resolve().parents[3]
GOLDEN = ROOT / "tests" / "golden" / "arche"


REGEN = regen_module("regen_golden_arche")


def test_every_golden_game_has_its_files() -> None:
    stored = {p.stem for p in GOLDEN.glob("*.json")}
    assert stored == set(REGEN.GAMES)
    assert {p.stem for p in GOLDEN.glob("*.txt")} == stored


@pytest.mark.parametrize("name", sorted(REGEN.GAMES))
def test_golden_record_replays_to_the_same_result_and_transcript(name: str) -> None:
    record = Record.load(GOLDEN / f"{name}.json")
    players, _, seed = REGEN.GAMES[name]
    assert (record.game, record.players, record.seed, record.version) == ("arche", players, seed, VERSION)
    # RecordError if an action became illegal or the scores changed; AssertionError with the transcript's diff
    golden.assert_replays(record, (GOLDEN / f"{name}.txt").read_text(encoding="utf-8"), REGEN.transcript)


@pytest.mark.parametrize("name", sorted(REGEN.GAMES))
def test_golden_game_is_reproduced_from_its_seed(name: str) -> None:
    """The seeded play loop still produces the stored record (same choices from the same legal lists)."""
    players, options, seed = REGEN.GAMES[name]
    stored = (GOLDEN / f"{name}.json").read_text(encoding="utf-8")
    assert golden.play("arche", players, options, seed, REGEN.choose).dumps() == stored


def test_the_golden_games_show_the_rules_at_work() -> None:
    """Evictions, a pet round, new cabins, the Chimpanzee's chip and plays after the fifth rain appear in
    every golden game."""
    for name in REGEN.GAMES:
        actions = Record.load(GOLDEN / f"{name}.json").actions
        rains = [i for i, a in enumerate(actions) if a == "rain"]
        assert len(rains) == 5, name
        assert any("evict" in a for a in actions), name
        assert any(a.startswith("pet ") for a in actions), name
        assert any(" new-" in a for a in actions), name
        assert any(a.startswith("chip ") or a == "no-chip" for a in actions), name
        assert any(a.startswith("play ") for a in actions[rains[-1] :]), name

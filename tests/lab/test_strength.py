"""A CI-sized check that the tournament measures strength: ISMCTS must beat random play clearly."""

from __future__ import annotations

from pathlib import Path

import pytest

from floe.lab.stats import summarize
from floe.lab.tournament import make_tournament, run_tournament


@pytest.mark.slow
def test_ismcts_beats_random(tmp_path: Path) -> None:
    # 6 deals × 2 seatings = 12 games on two workers.
    t = make_tournament("arctic", 2, "ismcts:it=100,random", 2024, {})
    outcome = run_tournament(t, 6, 2, tmp_path / "strength.jsonl", progress=False)
    stats = {b.bot: b for b in summarize(outcome.results, order=t.bots).bots}
    ismcts, rand = stats["ismcts:it=100"], stats["random"]
    assert ismcts.games == rand.games == 12
    assert ismcts.win_rate >= 0.75, f"ismcts won {ismcts.wins} of 12"
    assert ismcts.elo > rand.elo

"""The evaluation bots play well, not only deterministically: each beats random play in a seeded duel.

(A greedy bot that took its worst-valued action instead of its best would lose these duels.)
"""

from __future__ import annotations

import pytest

from floe.lab.simulate import simulate


@pytest.mark.parametrize(
    ("game", "bot"), [("arctic", "greedy"), ("arctic", "baseline"), ("arktia", "greedy")]
)
def test_it_beats_random_in_a_seeded_duel(game: str, bot: str) -> None:
    summaries, _ = simulate(game, 2, 20, [bot, "random"], seed=11, options={})
    rows = {s.bot: s for s in summaries}
    assert rows[bot].games == rows["random"].games == 20
    assert rows[bot].wins >= 17, (rows[bot].wins, rows["random"].wins)
    assert rows[bot].score_total > rows["random"].score_total

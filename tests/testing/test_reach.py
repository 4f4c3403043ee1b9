"""``floe.testing.advance`` and ``midgame``: the seeded mid-game positions the bot and server tests share."""

from __future__ import annotations

import pytest

from floe.testing import advance, midgame


def test_the_same_seed_reaches_the_same_position() -> None:
    first = midgame("arktia", 2, 5, 12, avoid=("stop",))
    again = midgame("arktia", 2, 5, 12, avoid=("stop",))
    assert first.state.history == again.state.history and not first.is_over()
    assert first.state.history != midgame("arktia", 2, 6, 12, avoid=("stop",)).state.history


def test_advance_stops_at_the_end_and_midgame_refuses_a_game_that_ended() -> None:
    over = advance("arctic", 2, 3, 100_000)
    assert over.is_over()
    with pytest.raises(ValueError, match="ends within 100000 decisions"):
        midgame("arctic", 2, 3, 100_000)

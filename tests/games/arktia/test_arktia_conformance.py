"""Conformance coverage: random play reaches every end condition and choice, the option mix every value.

The seeded random games themselves are played and checked by the conformance kit in
``test_arktia_kit.py`` (``floe.testing.check_game`` with ``arktia_helpers.check_state`` and
``arktia_helpers.Watcher``: conservation of Muglus, legal stacks, one ice region, connected colours,
captures and melts by the seat in turn only, the slow reference model in one game in ten).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from floe.games.arktia.game import ArktiaGame

from .arktia_helpers import play_checked, random_options

GAMES = {2: 150, 3: 150, 4: 100}  # as in test_arktia_kit's many-game runs


@pytest.mark.slow  # whole games: left out of ./floe-test --quick
def test_random_play_reaches_every_end_condition_and_choice() -> None:
    """Across the suite's seeds every way out (a)–(d), the turn limit and a tie choice all happen."""
    seen: Counter[str] = Counter()
    for players, count in GAMES.items():
        for seed in range(0, count, 4):
            _, events = play_checked(players, seed)
            seen.update(events)
    for kind in ("neutral", "keep", "stop", "out1", "out2", "out3", "out4", "out5"):
        assert seen[kind] > 0, f"{kind} never happened"


def test_option_mix_covers_every_flag_value() -> None:
    seen: dict[str, set[object]] = {}
    for players, count in GAMES.items():
        for seed in range(count):
            rng = random.Random(seed * 1_000_003 + players)
            for key, value in random_options(rng, players).items():
                seen.setdefault(key, set()).add(str(value) if isinstance(value, list) else value)
    assert seen["neutral_starter"] == {"start_player", "previous_player"}
    assert seen["melt_start"] == {"next_turn", "same_turn"}
    assert seen["bridge_melt_ends"] == {True, False}
    assert seen["out_pieces"] == {"stay", "remove"}
    assert seen["tie_break"] == {"shared", "fewer_lost"}
    assert seen["neutrals"] == {True, False}
    assert len(seen["layout"]) == 3 and "max_turns" in seen


def test_spec_sheet() -> None:
    for players, fields in ((2, 18), (3, 27), (4, 36)):
        spec = ArktiaGame(players).spec
        assert spec.information == "perfect" and spec.max_chance_outcomes == 0
        assert (spec.min_players, spec.max_players, spec.players) == (2, 4, players)
        assert spec.observation_size == 21 * fields + 53
        assert spec.version.startswith("arktia-")

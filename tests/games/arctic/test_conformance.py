"""Conformance coverage: the random option mix and random play reach every flag value and decision.

The seeded random games themselves are played and checked by the conformance kit in ``test_kit.py``
(``floe.testing.check_game`` with ``invariants.check_state`` and ``invariants.Watcher``).
"""

from __future__ import annotations

import random
from collections import Counter

from floe.games.arctic import actions as act
from floe.games.arctic.game import ArcticGame

from .invariants import random_options

CHUNK = 100
CHUNKS = 2  # the seeds of test_kit's many-game runs: 0 .. CHUNK * CHUNKS - 1 per player count


def test_option_mix_covers_every_flag_value() -> None:
    seen: dict[str, set[object]] = {}
    for players in (2, 3, 4):
        for seed in range(CHUNK * CHUNKS):
            rng = random.Random(seed * 1_000_003 + players)
            for key, value in random_options(rng, players).items():
                seen.setdefault(key, set()).add(value if not isinstance(value, list) else tuple(value))
    assert seen["preset"] == {"rules", "bga"}
    assert seen["end_trigger"] == {"deck_emptied", "refill_fails", "bga"}
    assert seen["deck_selection"] == {"random", "first_n"}
    assert seen["walrus_mode"] == {"extra_step", "double_move"}
    assert seen["bear_give_step"] == {"C", "A"}
    assert seen["wildcard_scoring"] == {"free_max", "bga_adjacent"}
    assert seen["moose_no_visible"] == {"one_or_two", "bga_exactly_one"}
    assert seen["penalties"] == {"hidden_look", "seen", "hidden_blind"}
    for flag in ("fox_first_card_bga_limit", "piles_public"):
        assert seen[flag] == {True, False}
    sides = {side for combo in seen["power_sides"] for side in combo}
    assert sides == {0, 1, 2}


def test_random_play_uses_every_kind_of_decision() -> None:
    kinds: Counter[str] = Counter()
    for players in (2, 3, 4):
        for seed in range(100):
            rng = random.Random(seed * 1_000_003 + players)
            game = ArcticGame(players, random_options(rng, players))
            st = game.new_initial_state()
            while not st.is_terminal():
                assert len(st.history) < 4000, "the game does not end"
                a = rng.choice(st.legal_actions())
                st.apply_unchecked(a)
                if a < act.N_PLAYER_ACTIONS:
                    text = act.action_to_string(a)
                    kinds[text.split()[0] + (" ?" if "?" in text else "")] += 1
    expected = {
        "place", "under", "facedown", "swap", "take-back", "stop", "main", "extra", "pass", "river", "deck",
        "penalty", "penalty ?", "look", "discard", "give", "give ?",
    }  # fmt: skip
    assert set(kinds) == expected

"""Conformance: seeded random games under a mix of options, checked after every action (STYLE items 6, 9).

2,100 games in 21 chunks (so xdist can spread them). After every action ``invariants.Watcher`` checks card
conservation (30·n cards, each in exactly one place), the hand limit whenever a turn with a step C passes,
token bounds and base moves against the table of spec 5.2, power holders, sorted non-empty legal actions,
``is_legal`` against ``legal_actions`` (with random illegal ids), and at the end equal turn counts, one
trigger, returns within the spec's bounds and the game length. One game in ten also checks the
observation vector after every decision.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from invariants import check_state, play_checked, random_options

from floe.core.match import Match
from floe.games.arctic import actions as act
from floe.games.arctic.game import ArcticGame
from floe.games.arctic.powers import POWER_SLUGS

CHUNK = 100
CHUNKS = 7


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_keep_every_invariant(players: int, chunk: int) -> None:
    held: set[int] = set()
    lengths = []
    for seed in range(chunk * CHUNK, (chunk + 1) * CHUNK):
        st = play_checked(players, seed, vectors=seed % 10 == 0)
        held.update(st.powers[a] for a in range(6) if st.holder[a] >= 0)
        lengths.append(len(st.history))
    assert held == set(POWER_SLUGS), "random play should see every power held"
    assert max(lengths) <= ArcticGame(players).spec.max_game_length


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
    for flag in ("fox_first_card_bga_limit", "owner_sees_penalties", "piles_public"):
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
        "penalty", "penalty ?", "discard", "give", "give ?",
    }  # fmt: skip
    assert set(kinds) == expected


@pytest.mark.parametrize("players", [2, 3, 4])
def test_match_games_through_the_public_api(players: int) -> None:
    """Matches resolve chance themselves: the seat to act is never chance, and the checks still hold."""
    for seed in range(30):
        match = Match.new(
            "arctic", players=players, seed=seed, options={"preset": "bga" if seed % 2 else "rules"}
        )
        rng = random.Random(seed)
        st = match.state
        while not match.is_over():
            assert len(match.state.history) < 4000, "the game does not end"
            assert match.current_player() >= 0
            match.apply(rng.choice(match.legal_actions()))
            check_state(st, rng)  # type: ignore[arg-type]
        assert st.turns == [st.turns[0]] * players
        assert len(st.history) <= match.game.spec.max_game_length
        assert all(-1.0 <= r <= 1.0 for r in st.returns())

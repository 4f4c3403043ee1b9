"""Conformance: seeded random Arktia games under a mix of options, checked after every action.

500 games (200 two-player, 150 three-player, 150 four-player) in chunks. After every action
``arktia_helpers.Watcher`` checks: every Muglu of every colour and size is on the board, in a supply,
captured or boxed, never lost or duplicated; only legal stacks exist; the ice is one region; every colour is
one connected group at the start of each turn; sorted legal actions of the right kind for the step;
``is_legal`` against ``legal_actions`` (with random ids); captures and melts only by the seat in turn and
only by a move/keep or melt; a seat whose game ended never comes back; the observation vector's shape.
One game in ten also compares every legal placement, move and melt with the slow reference model.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from arktia_helpers import choose, play_checked, random_options

from floe.core.match import Match
from floe.games.arktia.game import ArktiaGame

GAMES = {2: 200, 3: 150, 4: 150}
CHUNK = 50


def chunks() -> list[tuple[int, int]]:
    return [(players, start) for players, count in GAMES.items() for start in range(0, count, CHUNK)]


@pytest.mark.parametrize(("players", "start"), chunks(), ids=lambda v: str(v))
def test_random_games_keep_every_invariant(players: int, start: int) -> None:
    seen: Counter[str] = Counter()
    for seed in range(start, start + CHUNK):
        _, events = play_checked(players, seed, reference=seed % 10 == 0)
        seen.update(events)
    # Every chunk plays placements, moves of towers, captures and melting to the end.
    for kind in ("place", "move", "tower-move", "capture", "melt", "out2"):
        assert seen[kind] > 0, f"{kind} never happened in {players}-player games {start}..{start + CHUNK}"


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


@pytest.mark.parametrize("players", [2, 3, 4])
def test_match_games_through_the_public_api(players: int) -> None:
    """Matches, records and the default options: the seat to act is never chance, games end in bounds."""
    for seed in range(10):
        match = Match.new("arktia", players=players, seed=seed)
        rng = random.Random(seed)
        while not match.is_over():
            assert match.current_player() >= 0
            match.apply(choose(rng, match.legal_actions()))
        st = match.state
        assert len(st.history) <= match.game.spec.max_game_length
        assert all(-1.0 <= r <= 1.0 for r in st.returns())
        assert match.record().replay() == st


def test_spec_sheet() -> None:
    for players, fields in ((2, 18), (3, 27), (4, 36)):
        spec = ArktiaGame(players).spec
        assert spec.information == "perfect" and spec.max_chance_outcomes == 0
        assert (spec.min_players, spec.max_players, spec.players) == (2, 4, players)
        assert spec.observation_size == 21 * fields + 53
        assert spec.version.startswith("arktia-")

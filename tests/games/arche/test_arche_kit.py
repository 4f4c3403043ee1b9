"""Arche through the conformance kit (``floe.testing.check_game``), with Arche's own invariants.

Two kinds of runs per player count:

- full: every check of the kit (notation, refused actions, clones and JSON/pickle copies playing on,
  records, every view, determinization and twin worlds, the seen actions) under the default options and
  a random mix, with ``arche_helpers.check_state`` on every state and ``arche_helpers.Watcher`` on every
  transition;
- many: many more seeded random games under random option mixes with only the per-action checks, the
  invariants and the watcher (the issue's "after every action over ≥ 2,000 seeded random games"): all
  cards in exactly one place, the scale within ±2, every cabin satisfying the predicate (shy animals at
  their placement), ≤ 3 cards a cabin, figures within the player's supply, chips conserved.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

import pytest

from floe.core.game import Game, State
from floe.games.arche.game import ArcheGame, ArcheState
from floe.testing import Watch, check_game

from .arche_helpers import Watcher, check_state, random_options

MIXES: dict[str, Mapping[str, Any] | Callable[[random.Random, int], Mapping[str, Any]]] = {
    "default": {},
    "random": random_options,
}


def watcher(seen: Counter[str]) -> Callable[[Game, State, random.Random], Watch]:
    """A factory of watchers adding what happened in each game to ``seen``."""

    def make(game: Game, state: State, rng: random.Random) -> Watch:
        assert isinstance(game, ArcheGame) and isinstance(state, ArcheState)
        w = Watcher(game, state, rng)
        final = w.final

        def final_and_note(st: State) -> None:
            final(st)
            seen.update(w.seen)

        w.final = final_and_note  # type: ignore[method-assign]
        return w  # type: ignore[return-value]

    return make


@pytest.mark.parametrize("mix", MIXES)
@pytest.mark.parametrize("players", [3, 4, 5])
def test_kit_full(players: int, mix: str) -> None:
    seen: Counter[str] = Counter()
    report = check_game(
        "arche",
        players,
        games=3,
        seed=1000,
        options=MIXES[mix],
        invariants=check_state,
        watch=watcher(seen),
        sample=0.05,
    )
    assert report.finished == report.games == 3
    assert report.full_checks > 3 * 3 and report.information_checks > 3 * 3


GAMES = 700  # per player count: 2,100 games in all
CHUNK = 100


def chunks() -> list[tuple[int, int]]:
    return [(players, start) for players in (3, 4, 5) for start in range(0, GAMES, CHUNK)]


@pytest.mark.slow  # whole games: left out of ./floe-test --quick
@pytest.mark.parametrize(("players", "start"), chunks(), ids=lambda v: str(v))
def test_kit_many(players: int, start: int) -> None:
    seen: Counter[str] = Counter()
    report = check_game(
        "arche",
        players,
        games=CHUNK,
        seed=start,
        options=random_options,
        invariants=check_state,
        watch=watcher(seen),
        sample=0.0,
        information=0.0,
        records=False,
        observed_actions=0,
    )
    assert report.finished == CHUNK
    events = ("placed", "shy placed", "carnivore next to a shy animal", "new cabin", "evicted", "half point")
    for what in (*events, "pets", "rain 5", "endgame"):
        assert seen[what] > 0, f"{what} never happened in {players}-player games {start}..{start + CHUNK}"


@pytest.mark.slow  # whole games: left out of ./floe-test --quick
def test_observe_action_tells_no_hidden_card() -> None:
    """Every observed action, for every seat, names only what the seat's observation after it reveals (the
    kit's leak check at every position of whole games)."""
    options = [{}, {"pet": "voluntary", "evict_from": "any_cabin"}]
    check_game("arche", [4], games=2, options=options, sample=0.0, information=0.3, twin_steps=0)

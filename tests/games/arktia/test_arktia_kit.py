"""Arktia through the conformance kit (``floe.testing.check_game``), with Arktia's own invariants.

(Named ``test_arktia_kit`` like the other Arktia modules: test directories are not packages here, so two
``test_kit`` modules would clash.)

Two kinds of runs per player count, with ``arktia_helpers.choose`` as the policy (``stop`` only rarely,
so games run into melting and the end conditions):

- full: every check of the kit (notation, refused actions, clones and JSON/pickle copies playing on,
  records, every view, exact determinization of a perfect-information game, the seen action) under the
  default options and a random mix, with ``arktia_helpers.check_state`` on every state and
  ``arktia_helpers.Watcher`` on every transition (conservation of Muglus, legal stacks, one ice region,
  connected colours, captures and melts by the seat in turn only, the slow reference model in one game in
  ten);
- many: many more games under random option mixes with only the per-action checks and the watcher (the
  bulk random-play conformance, formerly ``test_arktia_conformance``'s chunks).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

import pytest

from floe.core.game import Game, State
from floe.games.arktia.game import ArktiaGame, ArktiaState
from floe.testing import Watch, check_game

from .arktia_helpers import Watcher, check_state, choose, random_options

MIXES: dict[str, Mapping[str, Any] | Callable[[random.Random, int], Mapping[str, Any]]] = {
    "default": {},
    "random": random_options,
}


def policy(state: State, rng: random.Random) -> int:
    """``choose``: a random legal action, ``stop`` only rarely."""
    return choose(rng, state.legal_actions())


def watcher(seen: Counter[str]) -> Callable[[Game, State, random.Random], Watch]:
    """A factory of watchers (the reference model in one game in ten) adding the events seen to ``seen``."""

    def make(game: Game, state: State, rng: random.Random) -> Watch:
        assert isinstance(game, ArktiaGame) and isinstance(state, ArktiaState)
        w = Watcher(game, state, rng, reference=rng.random() < 0.1)
        final = w.final

        def final_and_note(st: ArktiaState) -> None:
            final(st)
            seen.update(w.seen)

        w.final = final_and_note  # type: ignore[method-assign]
        return w  # type: ignore[return-value]

    return make


@pytest.mark.parametrize("mix", MIXES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_kit_full(players: int, mix: str) -> None:
    report = check_game(
        "arktia",
        players,
        games=3,
        seed=1000,
        options=MIXES[mix],
        invariants=check_state,
        watch=watcher(Counter()),
        policy=policy,
        sample=0.05,
    )
    assert report.finished == report.games == 3
    assert report.full_checks > 3 * 3 and report.information_checks > 3 * 3


GAMES = {2: 150, 3: 150, 4: 100}
CHUNK = 50


def chunks() -> list[tuple[int, int]]:
    return [(players, start) for players, count in GAMES.items() for start in range(0, count, CHUNK)]


@pytest.mark.slow  # whole games: left out of ./floe-test --quick
@pytest.mark.parametrize(("players", "start"), chunks(), ids=lambda v: str(v))
def test_kit_many(players: int, start: int) -> None:
    seen: Counter[str] = Counter()
    report = check_game(
        "arktia",
        players,
        games=CHUNK,
        seed=start,
        options=random_options,
        watch=watcher(seen),
        policy=policy,
        sample=0.0,
        information=0.0,
        records=False,
        observed_actions=0,
    )
    assert report.finished == CHUNK
    # Every chunk plays placements, moves of towers, captures and melting to the end.
    for kind in ("place", "move", "tower-move", "capture", "melt", "out2"):
        assert seen[kind] > 0, f"{kind} never happened in {players}-player games {start}..{start + CHUNK}"

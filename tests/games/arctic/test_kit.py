"""Arctic through the conformance kit (``floe.testing.check_game``), with Arctic's own invariants.

Two kinds of runs per player count:

- full: every check of the kit (notation, refused actions, clones and JSON/pickle copies playing on,
  records, every view, determinization and twin worlds) under the rules preset, the BGA preset and a
  random mix of flags, with ``invariants.check_state`` on every state and ``invariants.Watcher`` on every
  transition (hand limit, power transfers, token moves of docs/arctic-rules.md §5.2, one end trigger);
- many: many more games under random option mixes with only the per-action checks and the watcher (the
  bulk random-play conformance, docs/style.md §6 and §9, formerly ``test_conformance``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

import pytest

from floe.core.game import Game, State
from floe.games.arctic.game import ArcticGame, ArcticState
from floe.games.arctic.powers import POWER_SLUGS
from floe.testing import Watch, check_game

from .invariants import Watcher, check_state, random_options

MIXES: dict[str, Mapping[str, Any] | Callable[[random.Random, int], Mapping[str, Any]]] = {
    "rules": {"preset": "rules"},
    "bga": {"preset": "bga"},
    "random": random_options,
}


def watcher(held: set[int]) -> Callable[[Game, State, random.Random], Watch]:
    """A factory of watchers that add the powers held at the end of each game to ``held``."""

    def make(game: Game, state: State, rng: random.Random) -> Watch:
        assert isinstance(game, ArcticGame) and isinstance(state, ArcticState)
        w = Watcher(game, state, rng, vectors=False)
        final = w.final

        def final_and_note(st: ArcticState) -> None:
            final(st)
            held.update(st.powers[a] for a in range(6) if st.holder[a] >= 0)

        w.final = final_and_note  # type: ignore[method-assign]
        return w  # type: ignore[return-value]

    return make


@pytest.mark.parametrize("mix", MIXES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_kit_full(players: int, mix: str) -> None:
    report = check_game(
        "arctic",
        players,
        games=4,
        seed=1000,
        options=MIXES[mix],
        invariants=check_state,
        watch=watcher(set()),
        sample=0.05,  # the entry's reveals hook (floe.games.arctic.reveals)
        observed_actions=0,  # see test_observe_action_tells_no_hidden_card
    )
    assert report.finished == report.games == 4
    assert report.full_checks > 4 * 5 and report.information_checks > 4 * 5


CHUNK = 100
CHUNKS = 2


@pytest.mark.slow  # whole games: left out of ./floe-test --quick
@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_kit_many(players: int, chunk: int) -> None:
    held: set[int] = set()
    report = check_game(
        "arctic",
        players,
        games=CHUNK,
        seed=chunk * CHUNK,
        options=random_options,
        watch=watcher(held),
        sample=0.0,
        information=0.0,
        records=False,
        observed_actions=0,
    )
    assert report.finished == CHUNK and report.distinct_actions > 600
    assert held == set(POWER_SLUGS), "random play should see every power held"


@pytest.mark.slow  # whole games: left out of ./floe-test --quick
@pytest.mark.parametrize(
    "options",
    [{"preset": "rules"}, {"preset": "bga"}, {"penalties": "hidden_blind", "piles_public": False}],
    ids=["rules", "bga", "hidden"],
)
def test_observe_action_tells_no_hidden_card(options: dict[str, Any]) -> None:
    """Every observed action, for every seat, names only what the seat's observation after it reveals (the
    kit's leak check over whole games under both presets, with hidden penalty zones and piles too). Half the
    positions, drawn at random: a leak shows in every game at many positions (a leaked card stays leaked)."""
    check_game("arctic", [2, 3], games=2, options=options, sample=0.0, information=0.5, twin_steps=0)

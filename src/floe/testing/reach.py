"""Positions for tests: a game advanced from its start by seeded random decisions.

Bots, renderers and servers are tested on positions in the middle of a game, not only at its start; these
reach one the same way on every run, for any registered game (chance is drawn by the ``Match`` from its
seed)::

    from floe.testing import midgame

    match = midgame("mygame", players=2, seed=9, steps=20)      # a decision of some seat, mid-game
    bot.choose(match.state.observation(seat), match.legal_actions())
"""

from __future__ import annotations

import random
from collections.abc import Collection
from typing import Any

from floe.core.match import Match


def advance(
    game: str,
    players: int,
    seed: int,
    steps: int,
    *,
    options: dict[str, Any] | None = None,
    avoid: Collection[str] = (),
) -> Match:
    """A match of ``game`` (from ``seed``) after ``steps`` decisions drawn by ``random.Random(seed)``, or at
    its end if it ends sooner. A decision whose notation is in ``avoid`` is never drawn unless it is the only
    choice (``avoid=("stop",)`` keeps a game with a voluntary stop going)."""
    match = Match.new(game, players=players, options=options, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if match.is_over():
            break
        legal = match.legal_actions()
        if avoid:
            legal = [a for a in legal if match.state.action_to_string(a) not in avoid] or legal
        match.apply(rng.choice(legal))
    return match


def midgame(
    game: str,
    players: int,
    seed: int,
    steps: int,
    *,
    options: dict[str, Any] | None = None,
    avoid: Collection[str] = (),
) -> Match:
    """``advance``, at a decision of some seat: a ``ValueError`` if the game ended within ``steps`` (choose
    fewer steps or another seed)."""
    match = advance(game, players, seed, steps, options=options, avoid=avoid)
    if match.is_over():
        raise ValueError(f"{game} with {players} players, seed {seed}, ends within {steps} decisions")
    return match

"""Arche's entry: everything Floe needs to know about the game (registered as a ``floe.games`` plug-in)."""

from __future__ import annotations

from floe.core.entry import GameEntry
from floe.core.i18n import N_
from floe.games.arche.cards import PLACEHOLDER_NOTICE
from floe.games.arche.game import ArcheGame

ENTRY = GameEntry(
    game=ArcheGame,
    summary=N_("Cards: load animals into the ark's cabins without tipping the scale; win the majorities"),
    notice=PLACEHOLDER_NOTICE,
    bots={"greedy": "floe.games.arche.greedy:GreedyBot"},
    default_bot="greedy",
    away_bot="greedy",
    hint_bots=("ismcts:ms=1000",),
    lobby_bots=("random", "greedy", "ismcts:it=200", "ismcts:ms=500", "ismcts:ms=1000"),
    bot_labels={"greedy": N_("Greedy (one move ahead)")},
    # Measured (docs/strength.md): greedy wins 71.75% against random, one ISMCTS 59.75% against greedy.
    bot_strength={"random": 0, "greedy": 1, "ismcts": 2},
    search="floe.games.arche.search:HOOKS",
    terminal="floe.games.arche.terminal:VIEW",
    presenter="floe.games.arche.present:PRESENTER",
    web="floe.games.arche:web",
    locale="floe.games.arche:locale",
    balance="floe.games.arche.balance:BALANCE",
    order=20,
)

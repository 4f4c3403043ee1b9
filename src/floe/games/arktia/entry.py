"""Arktia's entry: everything Floe needs to know about the game (registered as a ``floe.games`` plug-in)."""

from __future__ import annotations

from floe.core.entry import GameEntry
from floe.core.i18n import N_
from floe.games.arktia.game import ArktiaGame

ENTRY = GameEntry(
    game=ArktiaGame,
    summary=N_("Hex board: place and stack Muglus on melting ice, cut your rivals off"),
    notice=N_("placeholder board layouts, not the printed ones"),
    bots={"greedy": "floe.games.arktia.greedy:ArktiaGreedyBot"},
    default_bot="mcts",
    away_bot="greedy",
    # Perfect information: plain MCTS is the right search; ISMCTS works too.
    hint_bots=("mcts:ms=1000", "ismcts:ms=1000"),
    lobby_bots=("random", "greedy", "mcts:ms=200", "mcts:ms=500"),
    bot_labels={"greedy": N_("Greedy (one move ahead)")},
    # Measured (docs/strength.md): mcts at 500 ms wins 90.7% against greedy.
    bot_strength={"random": 0, "greedy": 1, "mcts": 2},
    search="floe.games.arktia.search:HOOKS",
    terminal="floe.games.arktia.terminal:VIEW",
    presenter="floe.games.arktia.present:PRESENTER",
    web="floe.games.arktia:web",
    locale="floe.games.arktia:locale",
    balance="floe.games.arktia.balance:BALANCE",
    # Trained by floe train (docs/learning.md; figures in docs/strength.md): arktia-2p.npz for 2 players.
    models="floe.games.arktia:models",
    order=1,
)

"""Arctic's entry: everything Floe needs to know about the game (registered as a ``floe.games`` plug-in)."""

from __future__ import annotations

from floe.core.entry import GameEntry
from floe.core.i18n import N_
from floe.games.arctic.game import ArcticGame

ENTRY = GameEntry(
    game=ArcticGame,
    summary=N_("Cards: build runs of animals and push your hidden totem's token ahead"),
    bots={
        "baseline": "floe.games.arctic.baseline:ArcticBaselineBot",
        "greedy": "floe.games.arctic.greedy:GreedyBot",
    },
    # Board Game Arena's automatic player is what an Arctic player expects to face, and what stands in.
    default_bot="baseline",
    away_bot="baseline",
    hint_bots=("ismcts:ms=1000",),
    lobby_bots=("random", "greedy", "baseline", "ismcts:ms=200", "ismcts:ms=500", "ismcts:ms=1000"),
    bot_labels={"baseline": N_("Baseline (BGA's automatic player)"), "greedy": N_("Greedy (one move ahead)")},
    # Measured (docs/strength.md): greedy wins 40.5% against baseline, ISMCTS over 90% against both.
    bot_strength={"random": 0, "greedy": 1, "baseline": 2, "ismcts": 3},
    search="floe.games.arctic.search:HOOKS",
    terminal="floe.games.arctic.terminal:VIEW",
    presenter="floe.games.arctic.present:PRESENTER",
    web="floe.games.arctic:web",
    locale="floe.games.arctic:locale",
    score="floe.games.arctic.score_cmd:score_command",
    balance="floe.games.arctic.balance:BALANCE",
    reveals="floe.games.arctic.reveals:reveals",
    order=0,
)

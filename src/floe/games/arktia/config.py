"""Arktia's options: the board layout, the neutral set-up and every [GUESS] of the rules reference as a flag.

The defaults are the rules reference's recommendations. Options arrive as a mapping (CLI, record, server) and
are checked by the option schema (``options.OPTIONS``) before a config is built from them.

===================  ==================  =====================================================================
option               default             meaning
===================  ==================  =====================================================================
``layout``           by player count     ``placeholder-18``/``-27``/``-36`` (docs/arktia-rules.md §3.3
[GUESS], not the
                                         printed layouts) or custom cells (``[[q, r], ...]``, ``"b1 c1 ..."``)
``neutrals``         2p yes, 3p no       neutral Muglus at the start (docs/arktia-rules.md §5.2; variant 1 of
docs/arktia-rules.md §12 for 3p) ``first_player``     0                   the start player's seat
``neutral_starter``  ``start_player``    who places the first neutral (docs/arktia-rules.md §5.2 [GUESS]);
``previous_player``:
                                         the seat before the start player begins
``melt_start``       ``next_turn``       first melt: the turn after the last Muglu was placed
(docs/arktia-rules.md §9
                                         [GUESS]); ``same_turn``: already at the end of that turn
``bridge_melt_ends`` true                (b) also ends a player's game when every free edge field would split
                                         the board (docs/arktia-rules.md §10(b) [GUESS]); false: that player
                                         skips the melt
``out_pieces``       ``stay``            a player's pieces stay on the board after their game ends
(docs/arktia-rules.md §10
                                         [GUESS]); ``remove``: they leave the board with the player
``tie_break``        ``shared``          equal totals share the win (docs/arktia-rules.md §11 [GUESS]);
``fewer_lost``: fewer
                                         Muglus lost ranks higher (the rules reference's optional house rule)
``max_turns``        1000                a table limit on turns (the rules allow endless play): the game ends
                                         and is scored when it is reached
===================  ==================  =====================================================================

>>> ArktiaConfig.from_options({"melt_start": "same_turn"}, 3).layout.name
'placeholder-27'
>>> ArktiaConfig.from_options({}, 2).neutrals
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from floe.core.errors import OptionError
from floe.games.arktia.board import DEFAULT_LAYOUT, Layout
from floe.games.arktia.i18n import L_


@dataclass(frozen=True, slots=True)
class ArktiaConfig:
    """Every Arktia option, resolved for a player count (see the module docstring)."""

    players: int
    layout: Layout
    neutrals: bool
    first_player: int = 0
    neutral_starter: str = "start_player"
    melt_start: str = "next_turn"
    bridge_melt_ends: bool = True
    out_pieces: str = "stay"
    tie_break: str = "shared"
    max_turns: int = 1000

    @classmethod
    def from_options(cls, options: Mapping[str, Any] | None, players: int) -> ArktiaConfig:
        """Build from user options (text or JSON values), checked by the option schema first."""
        from floe.games.arktia.options import OPTIONS

        return cls.from_parsed(OPTIONS.parse(options, players), players)

    @classmethod
    def from_parsed(cls, options: Mapping[str, Any], players: int) -> ArktiaConfig:
        """Build from options the schema has checked, for ``players`` seats."""
        layout_opt = options.get("layout", "default")
        if layout_opt == "default":
            layout = Layout.named(DEFAULT_LAYOUT[players])
        elif isinstance(layout_opt, str):
            layout = Layout.named(layout_opt)
        else:
            layout = Layout.from_cells(layout_opt)
        neutrals = options.get("neutrals")
        if neutrals is None:
            neutrals = players == 2
        if neutrals and players == 4:
            raise OptionError(L_("4 players use every colour: there is no neutral colour left"))
        changes = {k: v for k, v in options.items() if k not in ("layout", "neutrals")}
        return cls(players=players, layout=layout, neutrals=neutrals, **changes)

    def to_options(self) -> dict[str, Any]:
        """Every option spelled out, as it is stored in a record (the layout by name, or its cells)."""
        return {
            "layout": self.layout.to_option(),
            "neutrals": self.neutrals,
            "first_player": self.first_player,
            "neutral_starter": self.neutral_starter,
            "melt_start": self.melt_start,
            "bridge_melt_ends": self.bridge_melt_ends,
            "out_pieces": self.out_pieces,
            "tie_break": self.tie_break,
            "max_turns": self.max_turns,
        }

"""Arktia's options as a schema: the one source for the command line, the lobby, records and the docs.

Defaults are the recommendations of ``docs/arktia-rules.md``; each [GUESS] of the rules reference is a flag.
"""

from __future__ import annotations

import json
from typing import Any

from floe.core.errors import OptionError
from floe.core.i18n import N_
from floe.core.options import Option, OptionSchema, choices
from floe.games.arktia.board import MAX_CELLS, PLACEHOLDERS, Layout
from floe.games.arktia.i18n import L_

# A custom layout's longest text: MAX_CELLS cells written as "[q, r]" pairs with room to spare.
LAYOUT_LENGTH = 16 * MAX_CELLS


def parse_layout(value: Any, players: int) -> str | list[list[int]]:
    """A layout as it goes into a record: ``default``, a placeholder's name, or a list of ``[q, r]`` cells
    (from JSON, from ``"[[0, 0], …]"`` text or from names such as ``"b1 c1 b2"``)."""
    if value is None:
        return "default"
    if isinstance(value, str):
        text = value.strip()
        if text.lower() == "default":
            return "default"
        if text.startswith("["):
            try:  # a JSON list of [q, r] cells, as the command line passes it
                value = json.loads(text)
            except (json.JSONDecodeError, RecursionError):
                raise OptionError(
                    L_("cannot read the layout as a JSON list of cells like [[0, 0], [1, 0]]")
                ) from None
        elif " " not in text and "," not in text:
            return Layout.named(text).to_option()
    if not isinstance(value, str | list | tuple):
        said = L_("layout must be a layout name or a list of cells, not %(kind)s", kind=type(value).__name__)
        raise OptionError(said)
    return Layout.from_cells(value).to_option()


# The placeholder layouts' sizes in words (message ids: the lobby translates them where shown).
_FIELDS = {18: N_("18 fields"), 27: N_("27 fields"), 36: N_("36 fields")}


OPTIONS = OptionSchema(
    (
        Option(
            "layout",
            "text",
            "default",
            N_("the board: a placeholder layout by name (not the printed ones) or a list of cells"),
            "3.3 [GUESS]",
            label=N_("Board"),
            choices=choices(
                ("default", N_("by player count (18 / 27 / 36 fields)")),
                *(
                    (name, _FIELDS.get(len(cells), f"{len(cells)} fields"))
                    for name, cells in PLACEHOLDERS.items()
                ),
            ),
            max_length=LAYOUT_LENGTH,
            parser=parse_layout,
            default_text=N_("by player count: `placeholder-18`, `-27`, `-36`"),
        ),
        Option(
            "neutrals",
            "bool",
            None,
            N_("neutral Muglus at the start (not possible with 4 players)"),
            "5.2; 12 variant 1",
            label=N_("Neutral Muglus"),
            default_text=N_("with 2 players only"),
        ),
        Option(
            "first_player",
            "seat",
            0,
            N_("the start player's seat"),
            "5.1",
            label=N_("Start player"),
            advanced=True,
        ),
        Option(
            "neutral_starter",
            "choice",
            "start_player",
            N_("who places the first neutral Muglu: the start player, or the seat before them"),
            "5.2 [GUESS]",
            label=N_("First neutral placed by"),
            choices=choices(
                ("start_player", N_("the start player")), ("previous_player", N_("the seat before"))
            ),
            advanced=True,
        ),
        Option(
            "melt_start",
            "choice",
            "next_turn",
            N_("the first melt: in the turn after the last Muglu is placed, or already in that turn"),
            "9 [GUESS]",
            label=N_("First melt"),
            choices=choices(
                ("next_turn", N_("the turn after the last placement")),
                ("same_turn", N_("in the turn of the last placement")),
            ),
        ),
        Option(
            "bridge_melt_ends",
            "bool",
            True,
            N_("when every free edge field would split the ice, that player's game ends (false: no melt)"),
            "10(b) [GUESS]",
            label=N_("No melt without splitting the ice ends that player's game"),
        ),
        Option(
            "out_pieces",
            "choice",
            "stay",
            N_("a player's Muglus when their game ends: they stay on the board and score, or leave it"),
            "10 [GUESS]",
            label=N_("A player's Muglus when their game ends"),
            choices=choices(("stay", N_("stay on the board and score")), ("remove", N_("leave the board"))),
        ),
        Option(
            "tie_break",
            "choice",
            "shared",
            N_("equal totals share the win, or fewer Muglus lost ranks higher (the spec's house rule)"),
            "11 [GUESS]",
            label=N_("Equal totals"),
            choices=choices(
                ("shared", N_("share the win")), ("fewer_lost", N_("fewer Muglus lost ranks higher"))
            ),
        ),
        Option(
            "max_turns",
            "int",
            1000,
            N_("a table limit on turns (the rules allow endless play): the game ends and is scored there"),
            "our decision",
            label=N_("Turn limit"),
            low=1,
            high=100_000,
            advanced=True,
        ),
    )
)

"""Arktia's options: the board layout, the neutral set-up and every [GUESS] of the spec as a flag.

The defaults are the spec's recommendations. Options arrive as a mapping (CLI, record, server) and are
checked here once: an unknown key or a bad value gives an ``OptionError`` naming it.

===================  ==================  =====================================================================
option               default             meaning
===================  ==================  =====================================================================
``layout``           by player count     ``placeholder-18``/``-27``/``-36`` (spec 3.3 [GUESS], not the
                                         printed layouts) or custom cells (``[[q, r], ...]``, ``"b1 c1 ..."``)
``neutrals``         2p yes, 3p no       neutral Muglus at the start (spec 5.2; variant 1 of spec 12 for 3p)
``first_player``     0                   the start player's seat
``neutral_starter``  ``start_player``    who places the first neutral (spec 5.2 [GUESS]); ``previous_player``:
                                         the seat before the start player begins
``melt_start``       ``next_turn``       first melt: the turn after the last Muglu was placed (spec 9
                                         [GUESS]); ``same_turn``: already at the end of that turn
``bridge_melt_ends`` true                (b) also ends a player's game when every free edge field would split
                                         the board (spec 10(b) [GUESS]); false: that player skips the melt
``out_pieces``       ``stay``            a player's pieces stay on the board after their game ends (spec 10
                                         [GUESS]); ``remove``: they leave the board with the player
``tie_break``        ``shared``          equal totals share the win (spec 11 [GUESS]); ``fewer_lost``: fewer
                                         Muglus lost ranks higher (the spec's optional house rule)
``max_turns``        1000                a table limit on turns (the rules allow endless play): the game ends
                                         and is scored when it is reached
===================  ==================  =====================================================================

>>> ArktiaConfig.from_options({"melt_start": "same_turn"}, 3).layout.name
'placeholder-27'
>>> ArktiaConfig.from_options({}, 2).neutrals
True
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from floe.core.errors import OptionError
from floe.games.arktia.board import DEFAULT_LAYOUT, Layout

_CHOICES: dict[str, tuple[str, ...]] = {
    "neutral_starter": ("start_player", "previous_player"),
    "melt_start": ("next_turn", "same_turn"),
    "out_pieces": ("stay", "remove"),
    "tie_break": ("shared", "fewer_lost"),
}
_BOOLS = ("bridge_melt_ends",)
KNOWN = ("layout", "neutrals", "first_player", *_CHOICES, *_BOOLS, "max_turns")


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
        """Build and check the options for ``players`` seats (2–4)."""
        if not isinstance(players, int) or not 2 <= players <= 4:
            raise OptionError(f"Arktia is for 2 to 4 players, not {players}")
        opts = dict(options or {})
        unknown = sorted(set(opts) - set(KNOWN))
        if unknown:
            raise OptionError(f"unknown option {unknown[0]!r}; known options: {', '.join(KNOWN)}")
        layout_opt = opts.get("layout", "default")
        if isinstance(layout_opt, str) and layout_opt.strip().startswith("["):
            try:  # a JSON list of [q, r] cells, as the command line passes it
                layout_opt = json.loads(layout_opt)
            except json.JSONDecodeError as exc:
                raise OptionError(f"cannot read the layout as a JSON list of cells: {exc.msg}") from None
        if layout_opt is None or (isinstance(layout_opt, str) and layout_opt.strip().lower() == "default"):
            layout = Layout.named(DEFAULT_LAYOUT[players])
        elif isinstance(layout_opt, str) and " " not in layout_opt.strip() and "," not in layout_opt:
            layout = Layout.named(layout_opt)
        else:
            layout = Layout.from_cells(layout_opt)
        neutrals_opt = opts.get("neutrals")
        neutrals = players == 2 if neutrals_opt is None else _parse_bool("neutrals", neutrals_opt)
        if neutrals and players == 4:
            raise OptionError("4 players use every colour: there is no neutral colour left")
        changes: dict[str, Any] = {}
        for key, allowed in _CHOICES.items():
            if key in opts:
                text = str(opts[key]).strip().lower()
                if text not in allowed:
                    raise OptionError(f"{key} must be one of {', '.join(allowed)}, not {opts[key]!r}")
                changes[key] = text
        for key in _BOOLS:
            if key in opts:
                changes[key] = _parse_bool(key, opts[key])
        if "first_player" in opts:
            changes["first_player"] = _parse_int("first_player", opts["first_player"], 0, players - 1)
        if "max_turns" in opts:
            changes["max_turns"] = _parse_int("max_turns", opts["max_turns"], 1, 100_000)
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


def _parse_bool(key: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("0", "false", "no", "off"):
        return False
    raise OptionError(f"{key} must be true or false, not {value!r}")


def _parse_int(key: str, value: Any, low: int, high: int) -> int:
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise OptionError(f"{key} must be a whole number, not {value!r}") from None
    if isinstance(value, bool) or not low <= number <= high:
        raise OptionError(f"{key} must be between {low} and {high}, not {value!r}")
    return number

"""Arctic's compact table for the terminal: what a decision needs in about 20 rows, so that on a 45-row
terminal the last moves above it, the choices and the prompt below it stay on screen.

The landscape on one line, the river and the hand one card after another, one line per player (visible
card, pile, hand, penalty cards, powers held), the player's own pile, the powers in play and the counts.
The ``table`` command draws the whole table (``terminal.table_view``: every pile, each power's words).
Like the full table it starts from ``state.observation(seat)`` only.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.text import Text

from floe.games.arctic.cards import LANDSCAPE, N_ANIMALS
from floe.games.arctic.i18n import _
from floe.games.arctic.observation import FACE_DOWN_UNKNOWN, HIDDEN, ArcticObservation
from floe.games.arctic.powers import POWER_SLUGS
from floe.games.arctic.state import FACE_DOWN_FLAG
from floe.games.arctic.terminal_parts import (
    animal_text,
    card_text,
    footer_line,
    now_line,
    pile_runs,
    table_title,
)
from floe.play.common import player_names

__all__ = ["compact_view", "landscape_line"]

_SEP = (" · ", "dim")


def landscape_line(obs: ArcticObservation) -> Text:
    """``Landscape  0: moose orca · 1: walrus · 3: - …``; ★ marks the seat's own totem."""
    own_totem = obs.totems[obs.seat] if obs.seat is not None and not obs.scores else -1
    out = Text(_("Landscape") + "  ", style="bold")
    for pos, value in enumerate(LANDSCAPE):
        if pos:
            out.append(*_SEP)
        out.append(f"{value}:", style="bold")
        animals = [a for a in range(N_ANIMALS) if obs.tokens[a] == pos]
        for a in animals:
            out.append(" ")
            out.append_text(animal_text(a))
            if a == own_totem:
                out.append("★", style="bold yellow")
        if not animals:
            out.append(" -", style="dim")
    return out


def _cards_line(title: str, cards: Sequence[int], empty: str) -> Text:
    out = Text(f"{title} ({len(cards)}): ", style="bold")
    if not cards:
        out.append(empty, style="dim")
    for i, c in enumerate(cards):
        if i:
            out.append(*_SEP)
        out.append_text(card_text(c))
    return out


def _player_line(obs: ArcticObservation, q: int, name: str) -> Text:
    s = obs.scalars
    out = Text(name, style="bold" if q == obs.seat else "")
    if q == s["to_act"]:
        out.append(" ◀", style="bold yellow")
    out.append("  ")
    pile = obs.piles[q]
    top = pile[-1] if pile else HIDDEN
    if 0 <= top < FACE_DOWN_FLAG:
        out.append_text(card_text(top))
    else:
        out.append(_("no visible card"), style="dim")
    face_down = sum(1 for e in pile if e >= FACE_DOWN_FLAG or e == FACE_DOWN_UNKNOWN)
    out.append(*_SEP)
    out.append(_("pile %(n)s") % {"n": len(pile)} + (f" ({face_down}?)" if face_down else ""))
    out.append(*_SEP)
    out.append(_("hand %(n)s") % {"n": obs.hand_counts[q]})
    out.append(*_SEP)
    out.append(_("pen. %(n)s") % {"n": obs.penalty_counts[q]})
    held = [a for a in range(N_ANIMALS) if obs.holder[a] == q]
    if held:
        out.append(*_SEP)
        out.append_text(Text(" ").join(animal_text(a) for a in held))
    if obs.totems[q] >= 0 and q != obs.seat:  # the others' totems show at the end only
        out.append(*_SEP)
        out.append(_("totem") + " ")
        out.append_text(animal_text(obs.totems[q]))
    return out


def _powers_line(obs: ArcticObservation, names: Sequence[str]) -> Text:
    out = Text(_("Powers: "), style="bold")
    for a in range(N_ANIMALS):
        if a:
            out.append(*_SEP)
        out.append(POWER_SLUGS.get(obs.powers[a], _("not drawn yet")))
        holder = obs.holder[a]
        out.append(f" {names[holder].split(' ')[0]}" if holder >= 0 else "", style="yellow")
    return out


def compact_view(obs: ArcticObservation, names: Sequence[str] | None = None) -> RenderableType:
    """The Arctic table as ``obs.seat`` sees it, in about 20 rows (see the module docstring)."""
    n = obs.scalars["players"]
    names = list(names) if names else player_names(n, obs.seat)
    parts: list[RenderableType] = [
        now_line(obs),
        landscape_line(obs),
        _cards_line(_("River"), obs.river, _("(empty)")),
    ]
    if obs.seat is not None:
        parts.append(_cards_line(_("Your hand"), obs.hand, _("(no cards)")))
    parts += [_player_line(obs, q, names[q]) for q in range(n)]
    if obs.seat is not None:
        own = Text(_("Your pile, bottom to top: "), style="bold")
        own.append_text(pile_runs(obs.piles[obs.seat]))
        parts.append(own)
    parts += [_powers_line(obs, names), footer_line(obs)]
    return Panel(
        Group(*parts),
        title=table_title(obs, names),
        title_align="left",
        subtitle=Text(_("table: every pile and what each power does"), style="dim"),
        subtitle_align="right",
        border_style="blue",
    )

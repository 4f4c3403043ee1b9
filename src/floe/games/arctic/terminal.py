"""Arctic in the terminal: the table drawn with Rich from one seat's observation only
(docs/arctic-rules.md §9).

Everything here starts from ``state.observation(seat)``, never from the full state, so the terminal
cannot show a person more than the rules let them know: landscape, river, hand, piles, powers, counts and
the step being decided. ``VIEW`` is what the game's entry gives terminal play and ``floe replay``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich import box
from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from floe.core.game import State
from floe.core.i18n import N_
from floe.games.arctic.actions import STOP
from floe.games.arctic.cards import (
    ANIMALS,
    COMPANION,
    DRAW,
    LANDSCAPE,
    MAIN,
    N_ANIMALS,
    PLACEMENT,
)
from floe.games.arctic.i18n import CATALOG, _
from floe.games.arctic.observation import FACE_DOWN_UNKNOWN, HIDDEN, ArcticObservation
from floe.games.arctic.powers import POWER_SLUGS, POWER_WORDS, Power, power_words
from floe.games.arctic.state import FACE_DOWN_FLAG
from floe.games.arctic.terminal_compact import compact_view
from floe.games.arctic.terminal_parts import (
    animal_text,
    card_text,
    footer_line,
    now_line,
    pile_runs,
    table_title,
)
from floe.games.arctic.text import step_words
from floe.play.common import player_names, ranking_text
from floe.play.views import GameView

__all__ = [
    "HELP",
    "VIEW",
    "choice_order",
    "draw_compact_table",
    "draw_table",
    "final_view",
    "scores_table",
    "step_words",
    "table_view",
    "turn_key",
]

# The step each power belongs to (docs/arctic-rules.md §6.2), shown next to its words.
POWER_STEP: dict[int, str] = {
    Power.FOX_FACEDOWN: "A",
    Power.FOX_UNDER: "A",
    Power.MOOSE_DRAW: "C",
    Power.MOOSE_PLACE: "A",
    Power.WALRUS_MAIN: "B",
    Power.WALRUS_COMPANION: "B",
    Power.ORCA_REFILL: "C",
    Power.ORCA_DECK: "C",
    Power.PUFFIN_SWAP: "A",
    Power.PUFFIN_TAKE_BACK: "A",
    Power.BEAR_DRAW_PENALTY: "C",
    Power.BEAR_GIVE: "C",
}

# The help text of the terminal prompt in an Arctic game.
HELP = N_("""\
[bold]How to answer[/]
  a number     the choice with that number
  an action    its notation, e.g. [cyan]place fox-walrus-4[/] or [cyan]stop[/]; a unique
               start is enough ([cyan]pl fox-w[/]), so is the card alone if only one
               choice uses it ([cyan]fox-walrus-4[/])
  [cyan]table[/]        draw the whole table: every pile, what each power does
  [cyan]hint[/]         ask the ismcts bot: its choice and its win-rate estimate for each option
  [cyan]help[/]         this text
  [cyan]quit[/]         leave the game (the seed is printed so you can replay it)
[bold]A turn[/]
  A  place as many cards as your visible card's placement value, then take
     the power card of your visible card's animal
  B  move that animal's token one step and its companion's the other way
  C  draw as many cards as the visible card's draw value (from the river);
     the river refills; keep at most 7 cards in hand
  Score: your longest run of each animal in your pile, a bonus for the number
  of animals with a run, the landscape value under your totem's token, minus
  one per penalty card.""")


# --- Arctic ------------------------------------------------------------------------------------------------


def turn_key(observation: Any) -> tuple[int, int] | None:
    """(round, turn player) of an observation, to notice a new turn; None for games without one."""
    if isinstance(observation, ArcticObservation):
        return observation.scalars["round"], observation.scalars["turn_player"]
    return None


def _cards_table(title: str, cards: Sequence[int], empty: str) -> Table:
    table = Table(title=title, title_justify="left", title_style="bold", expand=False)
    table.add_column(_("main"), no_wrap=True)
    table.add_column(_("companion"), no_wrap=True)
    table.add_column(_("place"), justify="right", no_wrap=True)
    table.add_column(_("draw"), justify="right", no_wrap=True)
    for c in cards:
        table.add_row(
            animal_text(MAIN[c]), animal_text(COMPANION[c], dim=True), str(PLACEMENT[c]), str(DRAW[c])
        )
    if not cards:
        table.add_row(Text(empty, style="dim"), "", "", "")
    return table


def _landscape(obs: ArcticObservation) -> Table:
    table = Table(
        title=_("Landscape"), title_justify="left", title_style="bold", expand=True, show_lines=False
    )
    for value in LANDSCAPE:
        table.add_column(str(value), justify="center", ratio=1)
    own_totem = obs.totems[obs.seat] if obs.seat is not None and not obs.scores else -1
    cells = []
    for pos in range(len(LANDSCAPE)):
        cell = Text()
        for a in range(N_ANIMALS):
            if obs.tokens[a] == pos:
                if cell:
                    cell.append("\n")
                cell.append_text(animal_text(a))
                if a == own_totem:
                    cell.append(" ★", style="bold yellow")
                elif obs.scores and a in obs.totems:
                    owners = ",".join(f"P{q + 1}" for q, t in enumerate(obs.totems) if t == a)
                    cell.append(f" ★ {owners}", style="yellow")
        cells.append(cell)
    table.add_row(*cells)
    return table


def _players_table(obs: ArcticObservation, names: Sequence[str]) -> Table:
    s = obs.scalars
    # A light box and wrapping cells keep four players readable on an 80-column terminal.
    table = Table(
        title=_("Players"), title_justify="left", title_style="bold", expand=True, box=box.SIMPLE_HEAD
    )
    table.add_column(_("player"))
    table.add_column(_("visible card"), min_width=13)  # the longest main/companion pair
    table.add_column(_("pile"), justify="right", no_wrap=True)
    table.add_column(_("hand"), justify="right", no_wrap=True)
    table.add_column(_("pen."), justify="right", no_wrap=True)
    table.add_column(_("powers"), min_width=12)
    table.add_column(_("totem"), no_wrap=True, min_width=5)
    for q in range(s["players"]):
        pile = obs.piles[q]
        top = pile[-1] if pile else HIDDEN
        visible = card_text(top) if 0 <= top < FACE_DOWN_FLAG else Text(_("none"), style="dim")
        face_down = sum(1 for e in pile if e >= FACE_DOWN_FLAG or e == FACE_DOWN_UNKNOWN)
        # Animal names only: the powers table below gives each one's side and words.
        powers = Text(" ").join(animal_text(a) for a in range(N_ANIMALS) if obs.holder[a] == q)
        totem = obs.totems[q]
        totem_cell = animal_text(totem) if totem >= 0 else Text("?", style="dim")
        name = Text(names[q], style="bold" if q == obs.seat else "")
        if q == s["to_act"]:
            name.append(" ◀", style="bold yellow")
        table.add_row(
            name,
            visible,
            f"{len(pile)} ({face_down}?)" if face_down else str(len(pile)),
            str(obs.hand_counts[q]),
            str(obs.penalty_counts[q]),
            powers if powers else Text("-", style="dim"),
            totem_cell,
        )
    first = names[s["first_player"]] if 0 <= s["first_player"] < len(names) else "-"
    table.caption = _(
        "first player: %(first)s; visible card: main/companion p(lacement) d(raw); "
        "pile: cards (face-down); pen.: penalty cards"
    ) % {"first": first}
    table.caption_justify = "left"
    return table


def _piles_grid(obs: ArcticObservation, names: Sequence[str]) -> Table:
    """Every pile in full, bottom to top, one line per player (runs compressed, ``?`` face-down)."""
    grid = Table(
        title=_("Piles, bottom to top (?: face-down)"),
        title_justify="left",
        title_style="bold",
        box=None,
        show_header=False,
        expand=True,
        padding=(0, 1),
    )
    grid.add_column(no_wrap=True)
    grid.add_column(ratio=1)
    for q in range(obs.scalars["players"]):
        grid.add_row(Text(names[q], style="bold" if q == obs.seat else ""), pile_runs(obs.piles[q]))
    return grid


def _powers_table(obs: ArcticObservation, names: Sequence[str]) -> Table:
    table = Table(title=_("Powers in play"), title_justify="left", title_style="bold", expand=True)
    table.add_column(_("animal"), no_wrap=True)
    table.add_column(_("power"), no_wrap=True)
    table.add_column(_("step"), justify="center")
    table.add_column(_("held by"), no_wrap=True)
    table.add_column(_("what it does"), ratio=1)
    for a in range(N_ANIMALS):
        pid = obs.powers[a]
        holder = obs.holder[a]
        table.add_row(
            animal_text(a),
            POWER_SLUGS.get(pid, _("not drawn yet")),
            POWER_STEP.get(pid, ""),
            names[holder] if holder >= 0 else Text(_("nobody"), style="dim"),
            power_words(pid) if pid in POWER_WORDS else "",
        )
    return table


def table_view(obs: ArcticObservation, names: Sequence[str] | None = None) -> RenderableType:
    """The whole Arctic table as ``obs.seat`` sees it, as one Rich renderable."""
    n = obs.scalars["players"]
    names = list(names) if names else player_names(n, obs.seat)
    river = _cards_table(_("River (%(n)s)") % {"n": len(obs.river)}, obs.river, _("(empty)"))
    parts: list[RenderableType] = (
        [_landscape(obs)] if obs.scores is not None else [now_line(obs), _landscape(obs)]
    )
    if obs.seat is not None:
        hand = _cards_table(_("Your hand (%(n)s)") % {"n": len(obs.hand)}, obs.hand, _("(no cards)"))
        grid = Table.grid(padding=(0, 2))
        grid.add_row(river, hand)
        parts.append(grid)
    else:
        parts.append(river)
    parts += [
        _players_table(obs, names),
        _piles_grid(obs, names),
        _powers_table(obs, names),
        footer_line(obs),
    ]
    return Panel(Group(*parts), title=table_title(obs, names), title_align="left", border_style="blue")


def draw_compact_table(
    console: Console, state: State, seat: int | None, names: Sequence[str] | None = None
) -> None:
    """Print the compact table as ``seat`` sees it (``terminal_compact``): what a decision needs in about
    20 rows, so the last moves and the prompt fit with it on a 45-row terminal."""
    obs = state.observation(seat)
    if isinstance(obs, ArcticObservation):
        console.print(compact_view(obs, names))
    else:
        console.print(Text(state.render(seat)))


def draw_table(console: Console, state: State, seat: int | None, names: Sequence[str] | None = None) -> None:
    """Print the whole table as ``seat`` sees it (built from ``state.observation(seat)`` only)."""
    obs = state.observation(seat)
    if isinstance(obs, ArcticObservation):
        console.print(table_view(obs, names))
    else:
        console.print(Text(state.render(seat)))


def status_line(state: State, seat: int | None) -> Text:
    """A short reminder between decisions of one turn: the step and the landscape on one line."""
    obs = state.observation(seat)
    if not isinstance(obs, ArcticObservation):
        return Text("")
    words = step_words(obs)
    out = Text(words[:1].upper() + words[1:], style="bold")  # German nouns keep their capitals
    out.append("   " + _("landscape: "), style="dim")
    for pos, value in enumerate(LANDSCAPE):
        animals = [a for a in range(N_ANIMALS) if obs.tokens[a] == pos]
        if animals:
            out.append(f"{value}:")
            out.append_text(Text(",").join(animal_text(a) for a in animals))
            out.append(" ")
    return out


# --- final scores ------------------------------------------------------------------------------------------


def scores_table(
    breakdowns: Sequence[dict[str, Any]],
    ranking: Sequence[int],
    names: Sequence[str],
    totems: Sequence[int] | None = None,
) -> Table:
    """Each player's scoring breakdown, one column per player in ranking order: every animal's longest
    run's points and length, the bonus, the totem, the penalties and the total."""
    table = Table(title=_("Final scores"), title_justify="left", title_style="bold")
    table.add_column("", no_wrap=True)
    for place, q in enumerate(ranking, start=1):
        table.add_column(f"{place}. {names[q]}", justify="right", no_wrap=True)
    for a, animal in enumerate(ANIMALS):
        cells: list[RenderableType] = [Text.assemble(animal_text(a), (" " + _("points (run)"), "dim"))]
        for q in ranking:
            run, pts = breakdowns[q]["runs"][animal], breakdowns[q]["run_points"][animal]
            cells.append(run_cell(run, pts))
        table.add_row(*cells)
    table.add_row(_("bonus"), *(str(breakdowns[q]["bonus"]) for q in ranking))
    totem_cells: list[RenderableType] = []
    for q in ranking:
        value = str(breakdowns[q]["totem"])
        totem_cells.append(
            Text.assemble(animal_text(totems[q]), f" {value}")
            if totems is not None and totems[q] >= 0
            else value
        )
    table.add_row(_("totem"), *totem_cells)
    table.add_row(
        _("penalties"),
        *(f"-{breakdowns[q]['penalties']}" if breakdowns[q]["penalties"] else "0" for q in ranking),
    )
    if any(breakdowns[q]["wildcards"] for q in ranking):
        table.add_row(
            Text(_("face-down cards as"), style="dim"),
            *(Text(", ".join(breakdowns[q]["wildcards"]) or "-", style="dim") for q in ranking),
        )
    table.add_row(
        Text(_("total"), style="bold"), *(Text(str(breakdowns[q]["total"]), style="bold") for q in ranking)
    )
    table.caption = _(
        "points (longest run): a run of n scores 0, 0, 1, 3, 6, 10, 15 (n = 0..6+); "
        "bonus: the same for the runs scored"
    )
    table.caption_justify = "left"
    return table


def run_cell(run: int, points: int) -> Text:
    """A run in the final scores as the web table writes it: its points, then its length in brackets
    (``0 (1)`` for a run of one, which scores nothing); dim when it scores nothing."""
    return Text(f"{points} ({run})", style="" if points else "dim")


def final_view(state: State, seat: int | None, names: Sequence[str] | None = None) -> RenderableType:
    """The final table (every totem revealed), the scoring breakdowns and the ranking."""
    obs = state.observation(seat)
    n = len(state.scores())
    names = list(names) if names else player_names(n, seat)
    breakdowns = state.score_breakdowns()
    if isinstance(obs, ArcticObservation):
        table: RenderableType = table_view(obs, names)
        totems: list[int] | None = obs.totems
    else:
        table, totems = Text(state.render(seat)), None
    return Group(table, scores_table(breakdowns, state.ranking(), names, totems), ranking_text(state, names))


def choice_order(legal: Sequence[int]) -> list[int]:
    """``stop`` after every other choice: placing or drawing comes first, so choice 1 is never the Moose's
    "place no card" (or "draw fewer") by accident."""
    return [a for a in legal if a != STOP] + [a for a in legal if a == STOP]


VIEW = GameView(
    draw_table=draw_compact_table,
    full_table=draw_table,
    status_line=status_line,
    final_view=final_view,
    turn_key=turn_key,
    turn_word=N_("Round"),
    catalog=CATALOG,
    help=HELP,
    # More choices than this are listed as numbered notations in columns: described one per line (two at
    # 80 columns) they would push the table and the last moves off a 45-row terminal.
    compact_choices=8,
    choice_order=choice_order,
)

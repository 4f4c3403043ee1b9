"""Arktia in the terminal: the hex board drawn with Rich, the seats' counters, the log and the final scores.

Arktia has perfect information, so every seat's observation is the whole position; everything here is
still built from ``state.observation(seat)`` (plus the last action's notation, to mark its fields).

The board is drawn as offset rows, like the engine's notation (``docs/arktia-rules.md``): a field ``c3`` is
column ``c``, row 3; a row sits half a field to the right of the one above, so a column runs diagonally down
to the right. Row numbers stand at both sides; each column's letter stands on the line above the board and,
within the board's width, on the line below it, where the column's diagonal crosses them (never inside a
row of fields).
A field shows:

- its name, dimmed (``c3``), when it is empty ice;
- ``~~`` when it has melted (a hole); a gap that was never part of the layout stays blank;
- its stack bottom to top, one upper-case size letter and the owner's colour per piece (``T1DNG2``: a
  Torus of P1, a neutral Diskus, a Globus of P2 on top). The last piece is on top and controls the field;
  ``G1T2`` is tower C, a Globus inside a Torus (the Torus controls).

>>> from floe.games.arktia.game import ArktiaGame
>>> import io; from rich.console import Console
>>> console = Console(file=io.StringIO(), width=80, color_system=None)
>>> draw_table(console, ArktiaGame(2).new_initial_state(), 0)
>>> "d2" in console.file.getvalue()
True
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from rich import box
from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from floe.core.game import State
from floe.core.i18n import N_
from floe.games.arktia.actions import STOP
from floe.games.arktia.board import COLUMNS
from floe.games.arktia.i18n import CATALOG, _, counted
from floe.games.arktia.observation import ArktiaObservation
from floe.games.arktia.scoring import breakdowns
from floe.games.arktia.state import KEEP, MELT, NEUTRAL_SETUP, OVER
from floe.games.arktia.towers import NEUTRAL, SIZE_LETTERS, pieces_bottom_up
from floe.play.common import ranking_text
from floe.play.views import GameView

__all__ = [
    "HELP",
    "board_text",
    "choice_order",
    "draw_table",
    "field_text",
    "final_view",
    "now_words",
    "players_table",
    "scores_table",
    "status_line",
    "table_view",
    "turn_key",
]

# One style per colour (P1..P4, then neutral); the colour's digit (or N) is always written too.
COLOUR_STYLES: tuple[str, ...] = ("red1", "dodger_blue1", "green3", "orange1", "grey70")
# Why a seat's game ended (docs/arktia-rules.md §10), short: (a) no placement or move, (b) no melt, (c) one
# Muglu left,
# (d) stopped, or the table's turn limit.
STATUS = (
    N_("active"),
    N_("out (a) stuck"),
    N_("out (b) melt"),
    N_("out (c) 1 left"),
    N_("stopped"),
    N_("turn limit"),
)
HALF = 4  # characters per half field: neighbours in a row are 8 characters apart
CELL = 6  # the widest token (a tower D) fits in 6 characters
LABEL = "bold cyan"
MELTED = "~~"
_CELL_NAME = re.compile(r"\b([a-z])(\d+)\b")

HELP = N_("""\
[bold]How to answer[/]
  a number    the choice with that number
  an action   its notation: [cyan]g@c3[/] places a Globus on c3 ([cyan]d@c3[/] a Diskus,
              [cyan]t@c3[/] a Torus); [cyan]g c3-e3[/] moves the Globus on c3 to e3, [cyan]dg c3-e3[/]
              tower A (a Globus on a Diskus), [cyan]tdg[/] a tower D, [cyan]gt[/] a tower C; a bare
              [cyan]c3-e3[/] will do when only one move goes there; [cyan]melt a2[/],
              [cyan]keep p2 c3[/], [cyan]stop[/] (ends your game: your pieces stay and score)
  [cyan]table[/]       draw the board again
  [cyan]hint[/]        ask a search bot for its choice and its win-rate estimates
  [cyan]help[/]        this text
  [cyan]quit[/]        leave the game (the seed is printed so you can replay it)
[bold]The board[/]
  A field is named by its column letter and row number (row 1 at the top); a
  column runs diagonally down to the right. Empty ice shows its name, a melted
  field [bold blue]~~[/]. A stack shows its pieces bottom to top, each as its size (G Globus,
  D Diskus, T Torus) and colour (1-4, N neutral); the last piece controls.
[bold]A turn[/]
  Place a Muglu from your supply, or move a piece or tower in a straight line
  over any number of fields (never over a hole), or stop. Stacking: G on D, D
  on T, A (G on D) on T, G on B (D on T), T around G (tower C, nothing on it).
  Muglus cut off from their colour's largest group are removed and captured by
  the mover. Once your supply is empty, melt an empty edge field after each
  turn. Score: captured Muglus + controlled fields + melted fields.""")


def colour_char(colour: int) -> str:
    """``1``..``4`` for a seat's colour, ``N`` for neutral."""
    return "N" if colour == NEUTRAL else str(colour + 1)


def colour_style(colour: int) -> str:
    """The Rich style of a colour."""
    return COLOUR_STYLES[colour] if 0 <= colour < len(COLOUR_STYLES) else ""


def _cell_of(name: str) -> tuple[int, int]:
    """(q, r) of a field from its notation (the notation is the coordinates)."""
    return COLUMNS.index(name[0]), int(name[1:]) - 1


def field_text(name: str, code: int, *, marked: bool = False) -> Text:
    """One field's token (see the module docstring); ``marked`` underlines it (the last action's field)."""
    if code < 0:
        out = Text(MELTED, style="bold blue")
    elif code == 0:
        out = Text(name, style="dim")
    else:
        out = Text()
        pieces = pieces_bottom_up(code)
        for i, (size, colour) in enumerate(pieces):
            top = i == len(pieces) - 1
            style = colour_style(colour) + (" bold" if top else "")
            out.append(SIZE_LETTERS[size].upper() + colour_char(colour), style=style)
    if marked:
        out.stylize("underline")
    return out


def board_text(obs: ArktiaObservation, marked: Sequence[str] = ()) -> Text:
    """The hex board as offset rows with the coordinates on its edges (see the module docstring)."""
    fields: list[int] = obs.raw["fields"]
    cells = {_cell_of(name): (name, code) for name, code in zip(obs.names, fields, strict=True)}
    rows = sorted({r for _, r in cells})
    columns = sorted({q for q, _ in cells})
    # What goes where: (q, r) -> token. A column's letter stands on the line above the board and on the line
    # below it, where its diagonal crosses them: never inside a row of fields, where it would pass for one.
    # Below, only within the board's width (the columns that end further right have their letter above).
    tokens: dict[tuple[int, int], Text] = {
        qr: field_text(name, code, marked=name in marked) for qr, (name, code) in cells.items()
    }
    x1 = max(2 * q + r for q, r in cells)
    for q in columns:
        tokens[(q, rows[0] - 1)] = Text(COLUMNS[q], style=LABEL)
        if 2 * q + rows[-1] + 1 <= x1:
            tokens[(q, rows[-1] + 1)] = Text(COLUMNS[q], style=LABEL)
    x0 = min(2 * q + r for q, r in tokens)
    width = (x1 - x0) * HALF + CELL
    digits = len(str(rows[-1] + 1))
    out = Text(no_wrap=True, overflow="crop")
    for r in range(rows[0] - 1, rows[-1] + 2):
        line = Text()
        in_board = rows[0] <= r <= rows[-1]
        line.append(f"{r + 1:>{digits}} " if in_board else " " * (digits + 1), style=LABEL)
        col = 0
        for q in sorted(q for q, rr in tokens if rr == r):
            token = tokens[(q, r)]
            start = (2 * q + r - x0) * HALF + (CELL - len(token)) // 2
            line.append(" " * (start - col))
            line.append_text(token)
            col = start + len(token)
        if in_board:
            line.append(" " * (width - col + 1))
            line.append(str(r + 1), style=LABEL)
        if r != rows[0] - 1:
            out.append("\n")
        out.append_text(line)
    out.rstrip()
    return out


def _names(obs: ArktiaObservation, names: Sequence[str] | None) -> list[str]:
    n = obs.raw["n"]
    if names:
        return list(names)
    return [_("P%(n)d (you)") % {"n": q + 1} if q == obs.seat else f"P{q + 1}" for q in range(n)]


def _player_text(q: int, names: Sequence[str]) -> Text:
    return Text(names[q], style=colour_style(q) + " bold")


def now_words(obs: ArktiaObservation) -> str:
    """What is being decided, in words (``place or move, or stop``)."""
    raw = obs.raw
    step = raw["step"]
    player = raw["player"]
    if step == OVER:
        return _("the game is over")
    if step == NEUTRAL_SETUP:
        return _("set-up: place a neutral Muglu (the first anywhere, then next to the neutrals placed)")
    if step == KEEP:
        colour = raw["pending_keep"][0]
        if colour == NEUTRAL:
            return _("the neutral Muglus split into tied largest groups: choose the one that stays (keep)")
        return _("P%(n)d's Muglus split into tied largest groups: choose the one that stays (keep)") % {
            "n": colour + 1
        }
    if step == MELT:
        return _("melt an empty field on the edge of the ice (the rest must stay one piece)")
    turns = raw["turns"][player]
    if turns == 0:
        return _("opening round 1: place a Muglu next to any occupied field")
    if turns == 1:
        return _("opening round 2: place a Muglu next to one of your own")
    if raw["melt_due"]:
        return _(
            "place a Muglu, move a piece or tower in a straight line, or stop; "
            "then melt a field (your supply is empty)"
        )
    return _("place a Muglu, move a piece or tower in a straight line, or stop")


def _header(obs: ArktiaObservation, names: Sequence[str]) -> Text:
    raw = obs.raw
    if raw["step"] == OVER:
        return Text(
            _("Game over after %(turns)s") % {"turns": counted(raw["turn"], "turn", "turns")}, style="bold"
        )
    # "Turn 3 · P2 to play": the player's name keeps its colour inside the translated sentence.
    before, _sep, after = (
        _("Turn %(n)d · %(player)s to play") % {"n": raw["turn"] + 1, "player": "\0"}
    ).partition("\0")
    out = Text(before, style="bold")
    out.append_text(_player_text(raw["player"], names))
    out.append(after, style="bold yellow" if raw["player"] == obs.seat else "bold")
    return out


def players_table(obs: ArktiaObservation, names: Sequence[str]) -> Table:
    """Per seat: supply by size, Muglus on the board, captures, melted fields, controlled fields, points."""
    raw = obs.raw
    fields: list[int] = raw["fields"]
    table = Table(box=box.SIMPLE_HEAD, expand=False, pad_edge=False, show_edge=False, collapse_padding=True)
    table.add_column(_("player"))
    for column in (
        _("supply\nG D T"),
        _("on\nboard"),
        _("cap-\ntured"),
        _("mel-\nted"),
        _("con-\ntrols"),
        _("points"),
    ):
        table.add_column(column, justify="right", no_wrap=True)
    table.add_column(_("status"), min_width=7)
    lost_by = [sum(raw["lost"][3 * k : 3 * k + 3]) for k in range(NEUTRAL + 1)]
    # The points so far as the scoring counts them (the web board draws the same: the presenter's standings).
    points = breakdowns(fields, raw["captured"], raw["melted"], lost_by[: raw["n"]])
    for q in range(raw["n"]):
        supply = raw["supply"][3 * q : 3 * q + 3]
        on_board = sum(1 for code in fields if code > 0 for _, k in pieces_bottom_up(code) if k == q)
        name = _player_text(q, names)
        if raw["step"] != OVER and q == raw["player"]:
            name.append(" ◀", style="bold yellow")
        reason = raw["out"][q]
        status = _(STATUS[reason])
        table.add_row(
            name,
            " ".join(str(c) for c in supply),
            str(on_board),
            str(raw["captured"][q]),
            str(raw["melted"][q]),
            str(points[q].controlled),
            Text(str(points[q].total), style="bold"),
            Text(status, style="bold" if reason else "dim"),
        )
    neutral_on_board = sum(
        1 for code in fields if code > 0 for _, k in pieces_bottom_up(code) if k == NEUTRAL
    )
    if raw["step"] == NEUTRAL_SETUP:
        table.caption = _("neutral Muglus still to place (G D T): %(supplies)s") % {
            "supplies": ", ".join(
                f"P{q + 1} " + " ".join(str(c) for c in raw["neutral_supply"][3 * q : 3 * q + 3])
                for q in range(raw["n"])
            )
        }
    elif neutral_on_board or lost_by[NEUTRAL]:
        table.caption = _("neutral Muglus: %(board)d on the board, %(captured)d captured") % {
            "board": neutral_on_board,
            "captured": lost_by[NEUTRAL],
        }
    table.caption_justify = "left"
    return table


def _legend() -> Text:
    out = Text(_("G Globus · D Diskus · T Torus, bottom to top; 1-4 player, N neutral; "), style="dim")
    out.append(_("the last piece controls · "), style="dim")
    out.append(MELTED, style="bold blue")
    out.append(" " + _("melted"), style="dim")
    return out


def table_view(
    obs: ArktiaObservation, names: Sequence[str] | None = None, marked: Sequence[str] = ()
) -> RenderableType:
    """The whole Arktia table as one Rich renderable: what is decided, the board, the legend, the seats."""
    names = _names(obs, names)
    parts: list[RenderableType] = []
    if obs.raw["step"] != OVER:
        parts.append(Text.assemble((_("Now: "), "bold"), now_words(obs)))
    parts += [board_text(obs, marked), _legend(), players_table(obs, names)]
    return Panel(
        Group(*parts), title=_header(obs, names), title_align="left", border_style="blue", expand=False
    )


def choice_order(legal: Sequence[int]) -> list[int]:
    """The order choices are numbered in: ``stop`` (id 0, it ends the seat's game) last, not first."""
    return [a for a in legal if a != STOP] + [a for a in legal if a == STOP]


def _last_fields(state: State) -> list[str]:
    """The fields the last action named (to underline them on the board)."""
    if not state.history:
        return []
    text = state.action_to_string(state.history[-1])
    if text.startswith("keep "):
        text = text.split(" ", 2)[2]  # not the colour (p2)
    return [m.group(0) for m in _CELL_NAME.finditer(text)]


def draw_table(console: Console, state: State, seat: int | None, names: Sequence[str] | None = None) -> None:
    """Print the table as ``seat`` sees it (the whole position: Arktia has perfect information)."""
    console.print(table_view(_observation(state, seat), names, _last_fields(state)))


def status_line(state: State, seat: int | None) -> RenderableType:
    """Between two decisions of one turn (a ``keep``, a melt) the board has changed: draw it again."""
    return table_view(_observation(state, seat), None, _last_fields(state))


def turn_key(observation: Any) -> tuple[int, int] | None:
    """(turn number, player) of an observation, to notice a new turn."""
    if not isinstance(observation, ArktiaObservation) or observation.raw["step"] == OVER:
        return None
    return observation.raw["turn"] + 1, observation.raw["player"]


def _observation(state: State, seat: int | None) -> ArktiaObservation:
    obs = state.observation(seat)
    if not isinstance(obs, ArktiaObservation):
        raise TypeError(f"not an Arktia observation: {type(obs).__name__}")
    return obs


# --- final scores ------------------------------------------------------------------------------------------


def scores_table(obs: ArktiaObservation, ranking: Sequence[int], names: Sequence[str]) -> Table:
    """Each seat's points (captured, controlled, melted), one column per seat in ranking order."""
    breakdowns = obs.scores or []
    table = Table(title=_("Final scores"), title_justify="left", title_style="bold")
    table.add_column("", no_wrap=True)
    for place, q in enumerate(ranking, start=1):
        table.add_column(Text(f"{place}. {names[q]}", style=colour_style(q)), justify="right", no_wrap=True)
    for key, label in (
        ("captured", N_("captured Muglus")),
        ("controlled", N_("controlled fields")),
        ("melted", N_("melted fields")),
    ):
        table.add_row(_(label), *(str(breakdowns[q][key]) for q in ranking))
    table.add_row(
        Text(_("total"), style="bold"), *(Text(str(breakdowns[q]["total"]), style="bold") for q in ranking)
    )
    table.add_row(
        Text(_("Muglus lost"), style="dim"), *(Text(str(breakdowns[q]["lost"]), style="dim") for q in ranking)
    )
    tie = obs.raw["config"].get("tie_break", "shared")
    table.caption = (
        _("1 point per captured Muglu, controlled field and melted field; equal totals share a place")
        if tie == "shared"
        else _(
            "1 point per captured Muglu, controlled field and melted field; "
            "equal totals: fewer Muglus lost ranks higher"
        )
    )
    table.caption_justify = "left"
    return table


def final_view(state: State, seat: int | None, names: Sequence[str] | None = None) -> RenderableType:
    """The final board, the scoring breakdowns and the ranking."""
    obs = _observation(state, seat)
    names = _names(obs, names)
    return Group(
        table_view(obs, names, _last_fields(state)),
        scores_table(obs, state.ranking(), names),
        ranking_text(state, names),
    )


VIEW = GameView(
    draw_table=draw_table,
    status_line=status_line,
    final_view=final_view,
    turn_key=turn_key,
    turn_word=N_("Turn"),
    catalog=CATALOG,
    help=HELP,
    compact_choices=8,
    choice_order=choice_order,
)

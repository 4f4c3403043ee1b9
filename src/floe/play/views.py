"""How a game shows itself in the terminal: the ``GameView`` its entry names (``GameEntry.terminal``).

A view bundles what terminal play and ``floe replay`` need from a game: how to draw its table, a short
reminder between two decisions of one turn, the final scores, how to notice a new turn, the help text and
how to number the choices. (The log comes from the game's presenter, ``floe.core.present``.) A game without
a view of its own gets ``GENERIC``: its ``State.render`` text and a plain scores table.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from floe.core.entry import resolve_as
from floe.core.errors import OptionError
from floe.core.game import State
from floe.core.i18n import FLOE, N_, Catalog
from floe.core.record import Record
from floe.core.registry import entry
from floe.play.common import player_names, ranking_text

__all__ = ["GENERIC", "GameView", "print_final", "view_for"]

_ = FLOE.gettext


def _text_table(console: Console, state: State, seat: int | None, names: Sequence[str] | None = None) -> None:
    console.print(Text(state.render(seat)))


def _no_status(state: State, seat: int | None) -> RenderableType:
    return Text("")


def _no_turns(observation: Any) -> tuple[int, int] | None:
    return None


def _text_final(state: State, seat: int | None, names: Sequence[str] | None = None) -> RenderableType:
    n = len(state.scores())
    names = list(names) if names else player_names(n, seat)
    table = Table(title=_("Final scores"), title_justify="left", title_style="bold")
    table.add_column(_("player"))
    table.add_column(_("score"), justify="right")
    for q in state.ranking():
        table.add_row(names[q], str(state.scores()[q]))
    return Group(Text(state.render(seat)), table, ranking_text(state, names))


GENERIC_HELP = N_("""\
[bold]How to answer[/]
  a number     the choice with that number
  an action    its notation (shown in brackets next to each choice); a unique start is enough
  [cyan]table[/]        draw the whole table again
  [cyan]hint[/]         ask a search bot: its choice and its win-rate estimate for each option
  [cyan]help[/]         this text
  [cyan]quit[/]         leave the game (the seed is printed so you can replay it)""")


@dataclass(frozen=True)
class GameView:
    """How one game shows itself in the terminal (see the module docstring).

    ``full_table`` draws the whole table for the ``table`` command when ``draw_table`` (shown at the start
    of the person's turn) is a compact one (None: ``draw_table`` serves both).
    ``compact_choices``: with more legal actions than this, they are listed as numbered notations in
    columns instead of one described line each (None: always described). ``choice_order`` orders the legal
    actions for numbering.
    """

    draw_table: Callable[[Console, State, int | None, Sequence[str] | None], None] = _text_table
    status_line: Callable[[State, int | None], RenderableType] = _no_status
    full_table: Callable[[Console, State, int | None, Sequence[str] | None], None] | None = None
    final_view: Callable[[State, int | None, Sequence[str] | None], RenderableType] = _text_final
    turn_key: Callable[[Any], tuple[int, int] | None] = _no_turns
    turn_word: str = N_("Turn")
    help: str = GENERIC_HELP
    compact_choices: int | None = None
    choice_order: Callable[[Sequence[int]], list[int]] = list
    # The catalog the game's own texts above (``help``, ``turn_word``) are translated with (None: Floe's).
    catalog: Catalog | None = None

    def text(self, message: str) -> str:
        """One of the view's own texts (``help``, ``turn_word``) in the language in force."""
        return (self.catalog or FLOE).gettext(message)


GENERIC = GameView()


def view_for(game: str) -> GameView:
    """The terminal view of ``game`` (``GENERIC`` for a game without one)."""
    ref = entry(game).terminal
    return GENERIC if ref is None else resolve_as(ref, GameView)


def print_final(
    state: State,
    seat: int | None,
    record: Record | None = None,
    console: Console | None = None,
    names: Sequence[str] | None = None,
    *,
    game: str | None = None,
) -> None:
    """Print a game's final table and scores (``floe replay``); an unfinished game shows where it stopped.

    The game is the record's, or ``game``. ``seat`` (0-based) shows the table as that seat saw it; None
    shows a spectator's view (hidden cards stay hidden). ``OptionError`` if ``seat`` is not a seat of the
    game.
    """
    console = console or Console()
    name = record.game if record is not None else game
    if name is None:
        raise ValueError("print_final needs the record or the game's name")
    view = view_for(name)
    n = record.players if record is not None else len(state.scores())
    if seat is not None and not 0 <= seat < n:
        raise OptionError(
            _("seat %(seat)s does not exist: this game has seats 1 to %(n)s") % {"seat": seat + 1, "n": n}
        )
    names = list(names) if names else player_names(n, seat)
    if record is not None:
        seed = _("none") if record.seed is None else str(record.seed)
        head = _("%(game)s · %(players)s players · seed %(seed)s · %(actions)s actions") % {
            "game": record.game,
            "players": record.players,
            "seed": seed,
            "actions": len(record.actions),
        }
        console.print(Rule(head + (f" · {record.version}" if record.version else "")))
    if state.is_terminal():
        console.print(view.final_view(state, seat, names))
        return
    view.draw_table(console, state, seat, names)
    actions = len(state.history)
    stops = _("The record stops before the end of the game (%(n)s actions).") % {"n": actions}
    console.print(Text(stops, style="bold"))

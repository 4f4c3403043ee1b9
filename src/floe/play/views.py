"""Which terminal view each game gets: one ``GameView`` per game name, looked up by ``view_for``.

A view bundles what terminal play and ``floe replay`` need from a game: how to draw its table, a short
reminder between two decisions of one turn, the final scores, how to notice a new turn, the log line of an
action, the help text, the bots for ``hint`` and the default opponents. A game without a view of its own
gets ``GENERIC``: its ``State.render`` text and a plain scores table.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, cast

from rich.console import Console, Group, RenderableType
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from floe.bots.base import bot_names, parse_bot_spec
from floe.core.errors import OptionError
from floe.core.game import State
from floe.core.record import Record
from floe.play import arktia_render, render

__all__ = ["GENERIC", "VIEWS", "GameView", "Logger", "print_final", "view_for"]

Logger = Callable[[State, int, int | None], str | None]


def _generic_log(before: State, action: int, viewer: int | None) -> str | None:
    # Without a game-specific log we cannot tell what is hidden, so only the actor hears the details.
    if before.is_chance_node():
        return None
    seat = before.current_player()
    if seat == viewer:
        return f"You: {before.describe_action(action)}"
    return f"P{seat + 1} acted"


def _arctic_log(before: State, action: int, viewer: int | None) -> str | None:
    from floe.games.arctic.game import ArcticState
    from floe.games.arctic.log import log_line

    return log_line(cast(ArcticState, before), action, viewer)


def _text_table(console: Console, state: State, seat: int | None, names: Sequence[str] | None = None) -> None:
    console.print(Text(state.render(seat)))


def _no_status(state: State, seat: int | None) -> RenderableType:
    return Text("")


def _no_turns(observation: Any) -> tuple[int, int] | None:
    return None


def _text_final(state: State, seat: int | None, names: Sequence[str] | None = None) -> RenderableType:
    n = len(state.scores())
    names = list(names) if names else render.player_names(n, seat)
    table = Table(title="Final scores", title_justify="left", title_style="bold")
    table.add_column("player")
    table.add_column("score", justify="right")
    for q in state.ranking():
        table.add_row(names[q], str(state.scores()[q]))
    return Group(Text(state.render(seat)), table, render.ranking_text(state, names))


GENERIC_HELP = """\
[bold]How to answer[/]
  a number     the choice with that number
  an action    its notation (shown in brackets next to each choice); a unique start is enough
  [cyan]table[/]        draw the whole table again
  [cyan]hint[/]         ask a search bot: its choice and its win-rate estimate for each option
  [cyan]help[/]         this text
  [cyan]quit[/]         leave the game (the seed is printed so you can replay it)"""


@dataclass(frozen=True)
class GameView:
    """How one game shows itself in the terminal (see the module docstring).

    ``hint_bots`` and ``default_bots`` are bot specs in order of preference: the first one registered for
    the game is used (for ``hint``, also the first that can ``analyse`` a position). ``compact_choices``:
    with more legal actions than this, they are listed as numbered notations in columns instead of one
    described line each (None: always described). ``choice_order`` orders the legal actions for numbering.
    """

    draw_table: Callable[[Console, State, int | None, Sequence[str] | None], None] = _text_table
    status_line: Callable[[State, int | None], RenderableType] = _no_status
    final_view: Callable[[State, int | None, Sequence[str] | None], RenderableType] = _text_final
    turn_key: Callable[[Any], tuple[int, int] | None] = _no_turns
    turn_word: str = "Turn"
    log_line: Logger = _generic_log
    help: str = GENERIC_HELP
    hint_bots: tuple[str, ...] = ("ismcts:ms=1000",)
    default_bots: tuple[str, ...] = ("random",)
    compact_choices: int | None = None
    choice_order: Callable[[Sequence[int]], list[int]] = list

    def default_bot(self, game: str) -> str:
        """The first of ``default_bots`` registered for ``game``."""
        return _first_registered(self.default_bots, game) or "random"

    def hint_candidates(self, game: str) -> list[str]:
        """``hint_bots`` that are registered for ``game``, in order of preference."""
        known = set(bot_names(game))
        return [spec for spec in self.hint_bots if parse_bot_spec(spec)[0] in known]


def _first_registered(specs: Sequence[str], game: str) -> str | None:
    known = set(bot_names(game))
    return next((spec for spec in specs if parse_bot_spec(spec)[0] in known), None)


GENERIC = GameView()

# Game name -> its view. A hint's budget is a second of thought.
VIEWS: dict[str, GameView] = {
    "arctic": GameView(
        draw_table=render.draw_table,
        status_line=render.status_line,
        final_view=render.final_view,
        turn_key=render.turn_key,
        turn_word="Round",
        log_line=_arctic_log,
        help=render.HELP,
        hint_bots=("ismcts:ms=1000",),
        default_bots=("baseline",),
    ),
    "arktia": GameView(
        draw_table=arktia_render.draw_table,
        status_line=arktia_render.status_line,
        final_view=arktia_render.final_view,
        turn_key=arktia_render.turn_key,
        turn_word="Turn",
        log_line=arktia_render.log_line,
        help=arktia_render.HELP,
        # Perfect information: plain MCTS is the right search when it is there; ISMCTS works too.
        hint_bots=("mcts:ms=1000", "ismcts:ms=1000"),
        default_bots=("mcts", "random"),
        compact_choices=8,
        choice_order=arktia_render.choice_order,
    ),
}


def view_for(game: str) -> GameView:
    """The terminal view of ``game`` (``GENERIC`` for a game without one)."""
    return VIEWS.get(game, GENERIC)


def _game_of(state: State) -> str:
    """The game name of a state from its module (``floe.games.<name>.…``), for callers without a record."""
    parts = type(state).__module__.split(".")
    return parts[2] if parts[:2] == ["floe", "games"] and len(parts) > 2 else ""


def print_final(
    state: State,
    seat: int | None,
    record: Record | None = None,
    console: Console | None = None,
    names: Sequence[str] | None = None,
) -> None:
    """Print a game's final table and scores (``floe replay``); an unfinished game shows where it stopped.

    ``seat`` (0-based) shows the table as that seat saw it; None shows a spectator's view (hidden cards
    stay hidden). ``OptionError`` if ``seat`` is not a seat of the game.
    """
    console = console or Console()
    view = view_for(record.game if record is not None else _game_of(state))
    n = record.players if record is not None else len(state.scores())
    if seat is not None and not 0 <= seat < n:
        raise OptionError(f"seat {seat + 1} does not exist: this game has seats 1 to {n}")
    names = list(names) if names else render.player_names(n, seat)
    if record is not None:
        seed = "none" if record.seed is None else str(record.seed)
        console.print(
            Rule(
                f"{record.game} · {record.players} players · seed {seed} · {len(record.actions)} actions"
                + (f" · {record.version}" if record.version else "")
            )
        )
    if state.is_terminal():
        console.print(view.final_view(state, seat, names))
        return
    view.draw_table(console, state, seat, names)
    actions = len(state.history)
    console.print(Text(f"The record stops before the end of the game ({actions} actions).", style="bold"))

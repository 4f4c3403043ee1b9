"""Playing a game in the terminal: one person against bots, with a Rich table and numbered choices.

The person sees only their own seat's observation; each bot sees only its own. Every action is logged in
words as the person may know it (``floe.games.arctic.log``). Bad input never ends the game: it gets a
short message and the prompt comes back. ``quit`` or the end of input leaves cleanly (exit status 0).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn, cast

import typer
from rich.console import Console
from rich.markup import escape
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from floe.bots.base import Bot, make_bot, parse_bot_list
from floe.bots.ismcts import ISMCTSBot
from floe.core.errors import FloeError, OptionError
from floe.core.game import State
from floe.core.match import Match
from floe.play import render

__all__ = ["GameQuit", "parse_bot_specs", "run_terminal_game"]

Logger = Callable[[State, int, int | None], str | None]

HINT_BOT = "ismcts:ms=1000"  # the budget of one hint: a second of thought

HELP = """\
[bold]How to answer[/]
  a number     the choice with that number
  an action    its notation, e.g. [cyan]place fox-walrus-4[/] or [cyan]stop[/]; a unique
               start is enough ([cyan]pl fox-w[/]), so is the card alone if only one
               choice uses it ([cyan]fox-walrus-4[/])
  [cyan]table[/]        draw the whole table again
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
  one per penalty card."""


class GameQuit(typer.Exit):
    """The person left the game (``quit`` or end of input); exits with status 0, no traceback."""


def parse_bot_specs(bots: str, others: int) -> list[str]:
    """The bot spec for each of the ``others`` seats, in seat order, from comma-separated ``bots``.

    One spec is repeated for every seat; fewer specs than seats are repeated in turn; more specs than seats
    is an ``OptionError``. A bot parameter list may itself use commas (``ismcts:ms=200,c=0.7,random``):
    a piece that looks like ``key=value`` continues the spec before it.
    """
    specs = parse_bot_list(bots)
    if len(specs) > others:
        raise OptionError(f"{len(specs)} bots given for {others} other seat{'s' if others != 1 else ''}")
    return [specs[i % len(specs)] for i in range(others)]


def _logger_for(game: str) -> Logger:
    """The game's log-line function; a game without one logs only that a seat acted."""
    if game == "arctic":
        from floe.games.arctic.game import ArcticState
        from floe.games.arctic.log import log_line

        def arctic(before: State, action: int, viewer: int | None) -> str | None:
            return log_line(cast(ArcticState, before), action, viewer)

        return arctic

    def generic(before: State, action: int, viewer: int | None) -> str | None:
        # Without a game-specific log we cannot tell what is hidden, so only the actor hears the details.
        if before.is_chance_node():
            return None
        seat = before.current_player()
        if seat == viewer:
            return f"You: {before.describe_action(action)}"
        return f"P{seat + 1} acted"

    return generic


class _Session:
    """One terminal game: the match, the bots, the console and what the person has been shown."""

    def __init__(
        self,
        match: Match,
        seat: int,
        bots: dict[int, Bot],
        names: list[str],
        console: Console,
        input_fn: Callable[[str], str],
    ) -> None:
        self.match = match
        self.seat = seat
        self.bots = bots
        self.names = names
        self.console = console
        self.input_fn = input_fn
        self.log = _logger_for(match.game.name)
        self.turn: tuple[int, int] | None = None
        self.needs_table = True  # draw the whole table before the person's next decision

    # --- applying actions, with the log ---------------------------------------------------------------
    def apply(self, action: int) -> None:
        """Apply a player's action and the chance events that follow, logging each as the person sees it.

        This is ``Match.apply`` unrolled (same generator, same order of draws), so the record is the same;
        it is unrolled only to log every chance outcome (river refills, cards drawn) on its own line.
        """
        state = self.match.state
        before = state.clone()
        state.apply(action)
        self._log(before, action)
        rng = self.match.rng
        while state.is_chance_node():
            before = state.clone()
            outcome = state.sample_chance(rng)
            state.apply_unchecked(outcome)
            self._log(before, outcome)
        self._announce_turn()

    def _log(self, before: State, action: int) -> None:
        line = self.log(before, action, self.seat)
        if line:
            mine = not before.is_chance_node() and before.current_player() == self.seat
            self.console.print(Text("  " + line, style="" if mine else "dim"))

    def _announce_turn(self) -> None:
        """A rule line when a new turn starts, so the log reads turn by turn."""
        state = self.match.state
        if state.is_terminal():
            return
        key = render.turn_key(state.observation(self.seat))
        if key is None or key == self.turn:
            return
        self.turn = key
        round_no, player = key
        if player < 0:
            return
        style = "bold yellow" if player == self.seat else "blue"
        self.console.print(Rule(f"Round {round_no} · {self.names[player]}", style=style))
        if player == self.seat:
            self.needs_table = True

    # --- the person's decisions ------------------------------------------------------------------------
    def ask(self) -> int:
        """Show the table and the numbered choices; read until the answer names one legal action."""
        state = self.match.state
        legal = list(state.legal_actions())
        if self.needs_table:
            render.draw_table(self.console, state, self.seat, self.names)
            self.needs_table = False
        else:
            self.console.print(render.status_line(state, self.seat))
        self._list_choices(state, legal)
        while True:
            try:
                text = self.input_fn(f"Your choice (1-{len(legal)}, help): ")
            except EOFError:
                self.console.print()
                self.leave("Input ended")
            key = " ".join(text.strip().lower().split())
            if key in ("quit", "exit", "q"):
                self.leave("You left the game")
            if key in ("help", "h", "?"):
                self.console.print(HELP)
                continue
            if key in ("table", "board"):
                render.draw_table(self.console, state, self.seat, self.names)
                self._list_choices(state, legal)
                continue
            if key == "hint":
                self._hint(state, legal)
                continue
            action, problem = self._parse(state, legal, key)
            if action is not None:
                return action
            self.console.print(f"[red]{escape(problem)}[/] Type a number from 1 to {len(legal)}, or help.")

    def _hint(self, state: State, legal: Sequence[int]) -> None:
        """Run the ismcts bot on the person's own observation (never the full state) and show its view."""
        hint_bot = make_bot(HINT_BOT, self.match.game, self.seat, self.match.seed + len(state.history))
        if not isinstance(hint_bot, ISMCTSBot):  # pragma: no cover - HINT_BOT names an ismcts spec
            return
        with self.console.status("thinking…"):
            rows = hint_bot.analyse(state.observation(self.seat), list(legal))
        table = Table(title=f"ismcts hint ({hint_bot.last_iterations} iterations)", title_justify="left")
        for column in ("#", "choice", "win rate", "visits"):
            table.add_column(column, justify="left" if column == "choice" else "right")
        for action, visits, rate in rows:
            number = legal.index(action) + 1
            mark = " ◀ ismcts" if action == rows[0][0] else ""
            table.add_row(str(number), state.describe_action(action) + mark, f"{rate:.0%}", str(visits))
        self.console.print(table)

    def _list_choices(self, state: State, legal: Sequence[int]) -> None:
        # A grid, so a long description wraps inside its column and the notation stays on one line.
        grid = Table.grid(padding=(0, 1))
        grid.add_column(justify="right", no_wrap=True)
        grid.add_column(ratio=1)
        grid.add_column(no_wrap=True, style="dim")
        for i, action in enumerate(legal, start=1):
            grid.add_row(
                Text(f"  {i}.", style="bold"),
                Text(state.describe_action(action)),
                Text(f"[{state.action_to_string(action)}]"),
            )
        self.console.print(grid)

    @staticmethod
    def _parse(state: State, legal: Sequence[int], key: str) -> tuple[int | None, str]:
        """The legal action named by ``key`` (a number, notation, a unique start, or the card alone)."""
        if not key:
            return None, "Nothing typed."
        if key.isdigit():
            number = int(key)
            if 1 <= number <= len(legal):
                return legal[number - 1], ""
            return None, f"There is no choice {number}."
        try:
            return state.parse_legal(key), ""
        except FloeError as exc:
            problem = str(exc)
        # "fox-walrus-4" alone: accept it when exactly one choice's notation ends with it.
        matches = [a for a in legal if state.action_to_string(a).partition(" ")[2].startswith(key)]
        if len(matches) == 1:
            return matches[0], ""
        if len(matches) > 1:
            return None, f"{key!r} fits {len(matches)} choices; say which (a number or the full action)."
        return None, f"{problem[0].upper()}{problem[1:]}." if problem else "Not understood."

    def leave(self, why: str) -> NoReturn:
        """End the game early: tell the seed, save what was played if asked, exit with status 0."""
        self.console.print(
            f"[bold]{why}.[/] Seed {self.match.seed}: replay this deal with --seed {self.match.seed}."
        )
        raise GameQuit(0)

    # --- the loop ---------------------------------------------------------------------------------------
    def play(self) -> State:
        """Play until the game is over; return the final state."""
        state = self.match.state
        self._announce_turn()
        while not state.is_terminal():
            player = state.current_player()
            legal = state.legal_actions()
            if player != self.seat:
                bot = self.bots[player]
                self.apply(bot.choose(state.observation(player), list(legal)))
                self.needs_table = True
                continue
            if len(legal) == 1:
                # One legal action is no decision (nothing to choose between): apply it and say so.
                self.console.print(
                    Text("  Only one choice: " + state.describe_action(legal[0]), style="italic")
                )
                self.apply(legal[0])
                continue
            self.apply(self.ask())
        return state


def run_terminal_game(
    game: str,
    *,
    players: int,
    seat: int,
    bots: str,
    seed: int | None,
    options: dict[str, Any],
    save: Path | None,
    console: Console | None = None,
    input_fn: Callable[[str], str] | None = None,
) -> State:
    """Play ``game`` in the terminal: the person at ``seat`` (0-based), bots at every other seat.

    ``bots`` lists bot specs for the other seats in seat order (one spec serves them all). ``input_fn``
    reads one answer (default: the console's input); the end of input quits. At the end the final table,
    every scoring breakdown and the ranking are printed, and the record is saved to ``save`` if given
    (also when the person quits early). ``OptionError`` for a bad seat, bot list or option; ``GameQuit``
    (a ``typer.Exit`` with status 0) when the person leaves.
    """
    console = console or Console()
    # The game checks its name, player count and options first, so those messages come before ours.
    match = Match.new(game, players=players, options=options, seed=seed)
    if not 0 <= seat < players:
        raise OptionError(f"seat {seat + 1} does not exist: choose a seat from 1 to {players}")
    specs = parse_bot_specs(bots, players - 1)
    others = [q for q in range(players) if q != seat]
    # Bot seeds follow from the game seed, so the same seed and the same answers replay the same game.
    bot_objects = {
        q: make_bot(spec, match.game, q, match.seed * 7919 + q) for q, spec in zip(others, specs, strict=True)
    }
    labels = [""] * players
    for q, spec in zip(others, specs, strict=True):
        labels[q] = spec
    names = render.player_names(players, seat, labels)
    session = _Session(
        match, seat, bot_objects, names, console, input_fn or (lambda prompt: console.input(prompt))
    )

    console.print(
        Rule(f"{match.game.name.capitalize()} · {players} players · seed {match.seed}", style="bold blue")
    )
    console.print(
        f"You are [bold]{escape(names[seat])}[/]; "
        + ", ".join(f"{escape(names[q])}" for q in others)
        + f" are bots. Replay this deal with [bold]--seed {match.seed}[/]. Type [cyan]help[/] at any prompt."
    )
    try:
        state = session.play()
    except GameQuit:
        if save is not None:
            match.record().save(save)
            console.print(f"The game so far was saved to {escape(str(save))}.")
        raise
    console.print(Rule("Game over", style="bold blue"))
    console.print(render.final_view(state, seat, names))
    if save is not None:
        match.record().save(save)
        console.print(
            f"Game record saved to {escape(str(save))} (check it with: floe replay {escape(str(save))})."
        )
    console.print(f"Seed {match.seed}.")
    return state

"""Playing a game in the terminal: one person against bots, with a Rich table and numbered choices.

The person sees only their own seat's observation; each bot sees only its own. Every action is logged in
words as the person may know it (the game's own log). Bad input never ends the game: it gets a short
message and the prompt comes back. ``quit`` or the end of input leaves cleanly (exit status 0). What is
game-specific comes from the game's entry: the table, the log and the help from its terminal view
(``floe.play.views``), the hint bots and the default opponent from the entry itself.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn, Protocol, runtime_checkable

import typer
from rich.console import Console
from rich.markup import escape
from rich.padding import Padding
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from floe.bots.base import Bot
from floe.bots.labels import bot_label
from floe.bots.registry import bot_names, first_available, make_bot
from floe.bots.specs import parse_bot_list, parse_bot_spec
from floe.core.errors import FloeError, OptionError
from floe.core.game import State
from floe.core.i18n import FLOE
from floe.core.match import Match
from floe.core.present import legal_choices, log_line, presenter_for
from floe.core.registry import entry
from floe.play.common import player_names
from floe.play.reading import matching
from floe.play.views import view_for

__all__ = ["GameQuit", "parse_bot_specs", "run_terminal_game"]

_ = FLOE.gettext
ngettext = FLOE.ngettext

# How many choices ``hint`` shows (the best first), so the bot's pick stays on screen; ``hint all``: all.
HINT_ROWS = 8

# A notation example in a help text: ``[cyan]place fox-walrus-4[/]``.
_EXAMPLE = re.compile(r"\[cyan\]([^\[]*)\[/\]")


@runtime_checkable
class Analyser(Protocol):
    """A bot that can explain a position for ``hint``: (action, visits, win rate) per action, best first."""

    name: str

    def analyse(self, observation: Any, legal_actions: list[int]) -> list[tuple[int, int, float]]: ...


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
        raise OptionError(
            ngettext(
                "%(bots)s bots given for %(n)s other seat",
                "%(bots)s bots given for %(n)s other seats",
                others,
            )
            % {"bots": len(specs), "n": others}
        )
    return [specs[i % len(specs)] for i in range(others)]


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
        rows: int | None = None,
    ) -> None:
        self.match = match
        # The screen's height each decision is fitted into (None: the terminal's, read at each decision so a
        # resized window counts; no fitting when the output is not a terminal).
        self.rows = rows
        self.seat = seat
        self.bots = bots
        self.names = names
        self.console = console
        self.input_fn = input_fn
        self.view = view_for(match.game.name)
        self.presenter = presenter_for(match.game.name)
        self.catalog = entry(match.game.name).catalog()  # the game's notation words in the reader's language
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
        self._log(before, action, state)
        rng = self.match.rng
        while state.is_chance_node():
            before = state.clone()
            outcome = state.sample_chance(rng)
            state.apply_unchecked(outcome)
            self._log(before, outcome, state)
        self._announce_turn()

    def _log(self, before: State, action: int, after: State) -> None:
        line = log_line(self.presenter, before, action, self.seat, after)
        if line:
            mine = not before.is_chance_node() and before.current_player() == self.seat
            self.console.print(Text("  " + line, style="" if mine else "dim"))

    def _announce_turn(self) -> None:
        """A rule line when a new turn starts, so the log reads turn by turn."""
        state = self.match.state
        if state.is_terminal():
            return
        key = self.view.turn_key(state.observation(self.seat))
        if key is None or key == self.turn:
            return
        self.turn = key
        round_no, player = key
        if player < 0:
            return
        style = "bold yellow" if player == self.seat else "blue"
        self.console.print(
            Rule(f"{self.view.text(self.view.turn_word)} {round_no} · {self.names[player]}", style=style)
        )
        if player == self.seat:
            self.needs_table = True

    # --- the person's decisions ------------------------------------------------------------------------
    def ask(self) -> int:
        """Show the table and the numbered choices; read until the answer names one legal action."""
        state = self.match.state
        legal = self.view.choice_order(state.legal_actions())
        self._show(state, legal)
        while True:
            try:
                text = self.input_fn(_("Your choice (1-%(n)s, help): ") % {"n": len(legal)})
            except EOFError:
                self.console.print()
                self.leave(_("Input ended"))
            key = " ".join(text.strip().lower().split())
            if key in ("quit", "exit", "q") or key == _("quit"):
                self.leave(_("You left the game"))
            if key in ("help", "h", "?") or key == _("help"):
                self.console.print(self.help_text())
                continue
            if key in ("table", "board") or key == _("table"):
                (self.view.full_table or self.view.draw_table)(self.console, state, self.seat, self.names)
                self._list_choices(state, legal)
                continue
            if key in ("hint", _("hint")):
                self._hint(state, legal)
                continue
            if key in ("hint all", _("hint all")):
                self._hint(state, legal, every=True)
                continue
            action, problem = self._parse(state, legal, key)
            if action is not None and self._confirmed(state, action):
                return action
            if action is not None:  # not confirmed: the choices again, nothing played
                self._list_choices(state, legal)
                continue
            self.console.print(
                f"[red]{escape(problem)}[/] "
                + escape(_("Type a number from 1 to %(n)s, or help.") % {"n": len(legal)})
            )

    def _confirmed(self, state: State, action: int) -> bool:
        """A choice the game marks as final and costly (its presenter's ``confirm``: ending one's game) is
        played only once the person says yes to its question, as at the web table; any other at once."""
        choices = legal_choices(self.presenter, state, self.seat)
        question = next((c.get("confirm") for c in choices if c["id"] == action), None)
        if not question:
            return True
        try:
            answer = self.input_fn(f"{question} " + _("(yes/no): "))
        except EOFError:
            self.console.print()
            self.leave(_("Input ended"))
        return " ".join(answer.strip().lower().split()) in ("y", "yes", _("y"), _("yes"))

    def _hint_bot(self, state: State) -> Analyser | None:
        """The game's preferred hint bot that can analyse a position (``GameEntry.hint_bots``)."""
        game = self.match.game
        known = set(bot_names(game.name))
        for spec in entry(game.name).hint_bots:
            if parse_bot_spec(spec)[0] not in known:
                continue
            try:
                bot = make_bot(spec, game, self.seat, self.match.seed + len(state.history))
            except OptionError:  # a spec its bot does not accept: try the next one
                continue
            if isinstance(bot, Analyser):
                return bot
        return None

    def _hint(self, state: State, legal: Sequence[int], *, every: bool = False) -> None:
        """Run the hint bot on the person's own observation (never the full state) and show its view: the
        best ``HINT_ROWS`` choices, so its pick stays on screen (``every``: all of them, ``hint all``)."""
        hint_bot = self._hint_bot(state)
        if hint_bot is None:
            self.console.print(f"[red]{escape(_('No hint bot is available for this game.'))}[/]")
            return
        with self.console.status(_("thinking…")):
            rows = hint_bot.analyse(state.observation(self.seat), list(legal))
        iterations = getattr(hint_bot, "last_iterations", None)
        title = _("%(bot)s hint") % {"bot": hint_bot.name}
        if iterations is not None:
            title += " " + ngettext("(%(n)s iteration)", "(%(n)s iterations)", iterations) % {"n": iterations}
        table = Table(title=title, title_justify="left")
        table.add_column("#", justify="right")
        table.add_column(_("choice"), justify="left")
        for column in (_("win rate"), _("visits")):
            table.add_column(column, justify="right")
        shown = rows if every else rows[:HINT_ROWS]
        for action, visits, rate in shown:
            number = legal.index(action) + 1
            mark = f" ◀ {hint_bot.name}" if action == rows[0][0] else ""
            table.add_row(str(number), state.describe_action(action) + mark, f"{rate:.0%}", str(visits))
        self.console.print(table)
        if len(shown) < len(rows):
            more = len(rows) - len(shown)
            self.console.print(
                ngettext(
                    "%(n)s more choice: type hint all to see every one.",
                    "%(n)s more choices: type hint all to see every one.",
                    more,
                )
                % {"n": more},
                style="dim",
            )

    def _show(self, state: State, legal: Sequence[int]) -> None:
        """The table (whole at a turn's start, else the status line) and the choices. Fitted into
        ``rows`` with the prompt, so neither the table's head nor the choices scroll away: described choices
        that do not fit become numbered notations, and a table that still does not fit gives way to the
        status line and a pointer to the ``table`` command."""
        whole = self.needs_table
        self.needs_table = False

        def table() -> None:
            if whole:
                self.view.draw_table(self.console, state, self.seat, self.names)
            else:
                self.console.print(self.view.status_line(state, self.seat))

        rows = self.rows if self.rows is not None or not self.console.is_terminal else self.console.height
        if rows is None:
            table()
            self._list_choices(state, legal)
            return
        room = rows - 1  # the prompt's line
        drawn = self._height(table)
        described = self._height(lambda: self._list_choices(state, legal))
        notations = self._height(lambda: self._list_choices(state, legal, described=False))
        if drawn + described <= room:
            table()
            self._list_choices(state, legal)
            return
        if whole and drawn + notations > room:
            self.console.print(self.view.status_line(state, self.seat))
            # The command's word as the parser takes it in the reader's language.
            hint = _("Type %(table)s to see the whole table.") % {"table": _("table")}
            self.console.print(Text(hint, style="dim"))
        else:
            table()
        self._list_choices(state, legal, described=False)

    def _height(self, draw: Callable[[], None]) -> int:
        """How many lines ``draw`` prints on this console."""
        with self.console.capture() as captured:
            draw()
        return len(captured.get().splitlines())

    def _list_choices(self, state: State, legal: Sequence[int], *, described: bool = True) -> None:
        compact = self.view.compact_choices
        if not described or (compact is not None and len(legal) > compact):
            self._list_notations(state, legal)
            return
        # A grid, so a long description wraps inside its column and the notation stays on one line.
        grid = Table.grid(padding=(0, 1))
        grid.add_column(justify="right", no_wrap=True)
        grid.add_column(ratio=1)
        grid.add_column(no_wrap=True, style="dim")
        for i, action in enumerate(legal, start=1):
            grid.add_row(
                Text(f"  {i}.", style="bold"),
                Text(state.describe_action(action)),
                Text(f"[{self.notation(state, action)}]"),
            )
        self.console.print(grid)

    def _list_notations(self, state: State, legal: Sequence[int]) -> None:
        """Many choices: their numbers and notations in columns, row by row."""
        entries = [(f"{i}.", self.notation(state, a)) for i, a in enumerate(legal, start=1)]
        number_w = max(len(n) for n, _ in entries)
        entry_w = number_w + 1 + max(len(t) for _, t in entries)
        per_row = max(1, (self.console.width - 2) // (entry_w + 2))
        grid = Table.grid(padding=(0, 2), pad_edge=False)
        for _ in range(per_row):
            grid.add_column(no_wrap=True, min_width=entry_w)
        for start in range(0, len(entries), per_row):
            grid.add_row(
                *(
                    Text.assemble((number.rjust(number_w), "bold"), " ", notation)
                    for number, notation in entries[start : start + per_row]
                )
            )
        self.console.print(Padding(grid, (0, 0, 0, 2)))

    def notation(self, state: State, action: int) -> str:
        """``action``'s notation as the reader sees it: its words in their language (``floe.core.i18n``)."""
        text = state.action_to_string(action)
        return self.catalog.show_notation(text) if self.catalog is not None else text

    def help_text(self) -> str:
        """The view's help in the language in force, its notation examples (``[cyan]…[/]``) in the reader's
        words, so the help shows what the choices show and the parser takes (``floe.play.reading``)."""
        text = self.view.text(self.view.help)
        catalog = self.catalog
        if catalog is None:
            return text
        return _EXAMPLE.sub(lambda m: f"[cyan]{catalog.show_notation(m.group(1))}[/]", text)

    def _forms(self, state: State, legal: Sequence[int]) -> dict[int, tuple[str, str]]:
        """Each legal action's notation in English and as the reader sees it."""
        return {a: (state.action_to_string(a), self.notation(state, a)) for a in legal}

    def _parse(self, state: State, legal: Sequence[int], key: str) -> tuple[int | None, str]:
        """The legal action named by ``key``: a number, or notation in English or the reader's words, each
        word cut to a unique start if wished, the verb left out if wished (``floe.play.reading``)."""
        if not key:
            return None, _("Nothing typed.")
        if key.isdigit():
            number = int(key)
            if 1 <= number <= len(legal):
                return legal[number - 1], ""
            return None, _("There is no choice %(n)s.") % {"n": number}
        forms = self._forms(state, legal)
        matches = matching(key, forms)
        if len(matches) == 1:
            return matches[0], ""
        if matches:
            shown = ", ".join(forms[a][1] for a in matches[:6]) + (", …" if len(matches) > 6 else "")
            return None, _("%(text)r could be %(names)s") % {"text": key, "names": shown} + "."
        # Nothing fits a legal choice: the game says why (not its notation, or an action not legal now);
        # a game may also read forms of its own that are not a choice's words (a move without its piece).
        english = self.catalog.read_notation(key) if self.catalog is not None else key
        try:
            return state.parse_legal(english), ""
        except FloeError as exc:
            problem = str(exc)
        if not problem:
            return None, _("Not understood.")
        # "cannot read …" becomes a sentence; a message opening with notation ("c3 and e4 …") keeps it.
        first = problem.split(" ", 1)[0]
        return None, (f"{problem[0].upper()}{problem[1:]}" if first.isalpha() else problem) + "."

    def leave(self, why: str) -> NoReturn:
        """End the game early: tell the seed, save what was played if asked, exit with status 0."""
        self.console.print(
            f"[bold]{escape(why)}.[/] "
            + escape(_("Seed %(seed)s: replay this deal with --seed %(seed)s.") % {"seed": self.match.seed})
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
                    Text(
                        "  " + _("Only one choice: %(choice)s") % {"choice": state.describe_action(legal[0])},
                        style="italic",
                    )
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
    bots: str | None,
    seed: int | None,
    options: dict[str, Any],
    save: Path | None,
    console: Console | None = None,
    input_fn: Callable[[str], str] | None = None,
    rows: int | None = None,
) -> State:
    """Play ``game`` in the terminal: the person at ``seat`` (0-based), bots at every other seat.

    ``bots`` lists bot specs for the other seats in seat order (one spec serves them all; None: the game's
    default opponent). ``input_fn`` reads one answer (default: the console's
    input); the end of input quits. At the end the final table, every scoring breakdown and the ranking
    are printed, and the record is saved to ``save`` if given (also when the person quits early). Each
    decision's table, choices and prompt are fitted into ``rows`` lines (default: the terminal's height; no
    fitting when the output is not a terminal).
    ``OptionError`` for a bad seat, bot list or option; ``GameQuit`` (a ``typer.Exit`` with status 0)
    when the person leaves.
    """
    console = console or Console()
    # The game checks its name, player count and options first, so those messages come before ours.
    match = Match.new(game, players=players, options=options, seed=seed)
    if not 0 <= seat < players:
        raise OptionError(
            _("seat %(seat)s does not exist: choose a seat from 1 to %(players)s")
            % {"seat": seat + 1, "players": players}
        )
    game_entry = entry(match.game.name)
    default = first_available((game_entry.default_bot, "random"), match.game.name) or "random"
    specs = parse_bot_specs(bots or default, players - 1)
    others = [q for q in range(players) if q != seat]
    # Bot seeds follow from the game seed, so the same seed and the same answers replay the same game.
    bot_objects = {
        q: make_bot(spec, match.game, q, match.seed * 7919 + q) for q, spec in zip(others, specs, strict=True)
    }
    labels = [""] * players
    for q, spec in zip(others, specs, strict=True):
        labels[q] = bot_label(game_entry, spec)  # the name people see, as at the web table, in the language
    names = player_names(players, seat, labels)
    session = _Session(
        match, seat, bot_objects, names, console, input_fn or (lambda prompt: console.input(prompt)), rows
    )

    head = _("%(game)s · %(players)s players · seed %(seed)s") % {
        "game": _(game_entry.title),
        "players": players,
        "seed": match.seed,
    }
    console.print(Rule(head, style="bold blue"))
    own = match.game.notice()  # the options may lift the entry's notice (a loaded deck)
    message = game_entry.notice if own is None else own
    if message:
        # The notice is the game's text: its own catalog translates it (Floe's if it has none).
        notice = (game_entry.catalog() or FLOE).gettext(message)
        console.print(f"[yellow]{escape(_(game_entry.title))}: {escape(notice)}.[/]")
    console.print(
        escape(
            ngettext(
                "You are %(you)s; %(bots)s is a bot. Replay this deal with --seed %(seed)s."
                " Type help at any prompt.",
                "You are %(you)s; %(bots)s are bots. Replay this deal with --seed %(seed)s."
                " Type help at any prompt.",
                len(others),
            )
            % {"you": names[seat], "bots": ", ".join(names[q] for q in others), "seed": match.seed}
        )
    )
    try:
        state = session.play()
    except GameQuit:
        if save is not None:
            match.record().save(save)
            console.print(escape(_("The game so far was saved to %(path)s.") % {"path": save}))
        raise
    console.print(Rule(_("Game over"), style="bold blue"))
    console.print(view_for(match.game.name).final_view(state, seat, names))
    if save is not None:
        match.record().save(save)
        console.print(
            escape(_("Game record saved to %(path)s (check it with: floe replay %(path)s).") % {"path": save})
        )
    console.print(_("Seed %(seed)s.") % {"seed": match.seed})
    return state

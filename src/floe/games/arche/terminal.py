"""Arche in the terminal: the ark drawn with Rich from one seat's observation only.

Everything here starts from ``state.observation(seat)``, never from the full state, so the terminal shows
a person no more than the rules let them know. The table shows, from top to bottom: the header (with the
placeholder notice while the placeholder cards are in play), the decision at hand, the ark (both rows from
the bow, one column per cabin place, each card with its weight, climate, diet, category and "!"), the
scale with its marker, the display, your hand and pet, and the scoring cards with everyone's figures,
chips, hand sizes and pets (yours only until the end). ``VIEW`` is what the entry gives ``floe play``.

>>> from floe.games.arche.game import ArcheGame
>>> import io; from rich.console import Console
>>> console = Console(file=io.StringIO(), width=120, color_system=None)
>>> state = ArcheGame(3, {"first_player": 0}).new_initial_state()
>>> draw_table(console, state, 0)
>>> "placeholder cards" in console.file.getvalue()
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich import box
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from floe.core.game import State
from floe.core.i18n import N_
from floe.games.arche.cards import (
    CATEGORIES,
    N_SCORING,
    NO_SPECIAL,
    PLACEHOLDER_NOTICE,
    SPECIALS,
)
from floe.games.arche.config import RulesConfig
from floe.games.arche.i18n import CATALOG, _
from floe.games.arche.observation import ArcheObservation
from floe.games.arche.state import ENDGAME, bits
from floe.games.arche.text import (
    CLIMATE_SHORT,
    cabin_label,
    category_name,
    category_short,
    diet_letter,
    figures_text,
    step_words,
)
from floe.play.common import player_names, ranking_text
from floe.play.views import GameView

__all__ = [
    "HELP",
    "VIEW",
    "ArkView",
    "ark_table",
    "card_text",
    "draw_table",
    "final_view",
    "scoring_table",
    "turn_key",
]

CLIMATE_STYLES = ("bold dark_orange", "bold deep_sky_blue1", "bold green3")  # hot, cold, any
CATEGORY_STYLES = ("bold red1", "bold gold1", "bold orchid", "bold cyan", "bold wheat1", "dim")
SEAT_STYLES = ("red1", "dodger_blue1", "green3", "orange1", "magenta")

HELP = N_("""\
[bold]How to answer[/]
  a number    the choice with that number
  an action   its notation; a unique start is enough:
              [cyan]draw hare[/]          take Hare from the display, then the deck's top card
              [cyan]play hare l2[/]       play Hare into the left row's 2nd cabin from the bow
              [cyan]play hare new-r[/]    open a new cabin at the end of the right row (a chip to
                                  your right-hand neighbour, then [cyan]take[/] a display card)
              [cyan]play skunk evict goat[/]   the Skunk takes the Goat's place, evicting it
              [cyan]done[/]  end the turn after one card · [cyan]pass[/]  end-game: pass for good
              [cyan]pet hare[/], [cyan]no-pet[/], [cyan]chip useful[/], [cyan]figure shy[/],
              [cyan]evict hare[/], [cyan]discard hare[/]
  [cyan]table[/]       draw the table again
  [cyan]hint[/]        ask a search bot for its choice and its win-rate estimates
  [cyan]help[/]        this text
  [cyan]quit[/]        leave the game (the seed is printed so you can replay it)
[bold]A card[/]  name, weight 0-4, climate (hot/cold/any), diet (H herbivore, C carnivore,
  O omnivore, - none), category (heavy, useful, shy, slow, prov), ! and its ability.
[bold]A turn[/]  Draw (a display card and the deck's top card), or play 1-2 cards into
  different cabins (at most 3 cards a cabin; slow animals and provisions only alone).
  The scale (left minus right) must stay within -2..+2 after each card. Each card
  puts one of your figures on its category's scoring card. After the 5th rain, in
  turn: pass for good, or pay a chip and play one animal. Majorities score 10/6/2,
  chips 1 point each.""")


def card_text(cfg: RulesConfig, c: int) -> Text:
    """A card with its five features at a glance: ``Hare 1 cold H shy`` (``!skunk`` for an ability)."""
    d = cfg.deck
    out = Text(d.name(c), style="bold")
    out.append(f" {d.weight[c]}", style="bold white")
    out.append(f" {_(CLIMATE_SHORT[d.climate[c]])}", style=CLIMATE_STYLES[d.climate[c]])
    out.append(f" {diet_letter(d.diet[c])}", style="bold")
    k = d.category[c]
    out.append(f" {category_short(k)}", style=CATEGORY_STYLES[k])
    if d.special[c] != NO_SPECIAL:
        out.append(f" !{SPECIALS[d.special[c]]}", style="bold magenta")
    return out


def _cards(cfg: RulesConfig, mask: int, empty: str = "—", sep: str = ", ") -> Text:
    cards = bits(mask)
    if not cards:
        return Text(empty, style="dim")
    return Text(sep).join(card_text(cfg, c) for c in cards)


def _names(obs: ArcheObservation, names: Sequence[str] | None) -> list[str]:
    return list(names) if names else player_names(obs.players, obs.seat)


def scale_text(tilt: int) -> Text:
    """The scale's five places with the marker: ``left heavier  -2 -1 [0] +1 +2  right heavier``."""
    out = Text(_("scale") + "  ", style="bold")
    for v in range(-2, 3):
        label = "0" if v == 0 else f"{v:+d}"
        if v == tilt:
            out.append(f"[{label}]", style="bold reverse yellow")
        else:
            out.append(f" {label} ", style="dim")
        out.append(" ")
    out.append(" " + _("(+ left row heavier, - right row heavier)"), style="dim")
    return out


def ark_table(obs: ArcheObservation, first: int = 0, count: int | None = None) -> Table:
    """The ark's cabin places ``first`` .. ``first + count - 1``: the left and right rows from the bow."""
    cfg = obs.config
    width = max(len(obs.left), len(obs.right), 1)
    last = width if count is None else min(width, first + count)
    table = Table(box=box.ROUNDED, show_header=False, pad_edge=False, expand=False)
    table.add_column("", no_wrap=True, style="bold cyan", min_width=5)
    for _column in range(first, last):
        table.add_column("", no_wrap=True, min_width=12)
    for side, label, row in ((0, _("left"), obs.left), (1, _("right"), obs.right)):
        # Only the first block has the bow; a later one is the rows' continuation (no "…": it reads as a cut).
        cells: list[RenderableType] = [Text(label + ("\n◀ " + _("bow") if first == 0 else ""))]
        for i in range(first, last):
            if i < len(row):
                cell = Text(cabin_label(side, i) + "\n", style="cyan")
                cell.append_text(_cards(cfg, row[i], _("empty"), "\n"))
                cells.append(cell)
            else:
                cells.append(Text(""))
        table.add_row(*cells)
    return table


class ArkView:
    """The ark as wide as the console allows: the cabin places in blocks of as many as fit side by side."""

    def __init__(self, obs: ArcheObservation) -> None:
        self.obs = obs

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        obs = self.obs
        cfg = obs.config
        width = max(len(obs.left), len(obs.right), 1)
        widths = []
        for i in range(width):
            cards = [c for row in (obs.left, obs.right) if i < len(row) for c in bits(row[i])]
            widths.append(max([len(card_text(cfg, c)) for c in cards] + [5]) + 3)
        room = options.max_width - 10
        first = 0
        while first < width:
            used, last = 0, first
            while last < width and (last == first or used + widths[last] <= room):
                used += widths[last]
                last += 1
            yield ark_table(obs, first, last - first)
            first = last


def scoring_table(obs: ArcheObservation, names: Sequence[str]) -> Table:
    """The five scoring cards with everyone's figures (½: a chip under one), then chips, cards, pets."""
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False, collapse_padding=True)
    table.add_column(_("scoring card"), no_wrap=True)
    to_act = obs.scalars["to_act"]
    for q in range(obs.players):
        header = Text(names[q], style=SEAT_STYLES[q % len(SEAT_STYLES)] + " bold")
        if q == to_act:
            header.append(" ◀", style="bold yellow")
        table.add_column(header, justify="right", no_wrap=True)
    for k in range(N_SCORING):
        row = [Text(category_name(k), style=CATEGORY_STYLES[k])]
        for q in range(obs.players):
            i = N_SCORING * q + k
            row.append(Text(figures_text(obs.figures[i], obs.halves[i])))
        table.add_row(*row)
    table.add_row(_("figures left"), *(str(obs.figures_left[q]) for q in range(obs.players)))
    table.add_row(_("chips"), *(Text(str(obs.chips[q]), style="bold") for q in range(obs.players)))
    table.add_row(_("hand"), *(str(obs.hand_counts[q]) for q in range(obs.players)))
    pets = []
    for q in range(obs.players):
        if obs.pets[q] >= 0:
            pets.append(Text(obs.config.deck.name(obs.pets[q])))
        else:
            pets.append(Text("?" if obs.has_pet[q] else "—", style="dim"))
    table.add_row(_("pet"), *pets)
    if obs.scalars["phase"] == ENDGAME or obs.scalars["passed"]:
        table.add_row(
            _("passed"),
            *(_("yes") if obs.scalars["passed"] >> q & 1 else "" for q in range(obs.players)),
        )
    return table


def _header(obs: ArcheObservation, names: Sequence[str]) -> Text:
    sc = obs.scalars
    # Short enough for an 80-column panel's title (the placeholder notice is the panel's first line).
    out = Text("Arche Opti Mix", style="bold")
    out.append(" · " + _("turn %(turn)s") % {"turn": sc["turn"]})
    out.append(
        " · " + _("rain %(rain)s/5") % {"rain": sc["rain_out"]}, style="bold blue" if sc["rain_out"] else ""
    )
    deck = _("deck %(cards)s+%(rains)s rain · bank %(bank)s")
    out.append(" · " + deck % {"cards": obs.stock_count, "rains": obs.rain_in_deck, "bank": sc["bank"]})
    if obs.over:
        out.append(" · " + _("game over"), style="bold")
    return out


def table_view(obs: ArcheObservation, names: Sequence[str] | None = None) -> RenderableType:
    """The whole table as one Rich renderable (see the module docstring)."""
    names = _names(obs, names)
    cfg = obs.config
    parts: list[RenderableType] = []
    if cfg.deck.placeholder:
        parts.append(Text(_(PLACEHOLDER_NOTICE), style="bold yellow"))
    if not obs.over:
        parts.append(Text.assemble((_("Now:") + " ", "bold"), step_words(obs)))
    parts += [ArkView(obs), scale_text(obs.scalars["tilt"])]
    parts.append(Text.assemble((_("Display:") + " ", "bold"), _cards(cfg, obs.scalars["display"]).copy()))
    if obs.scalars["out"]:
        out_names = ", ".join(cfg.deck.name(c) for c in bits(obs.scalars["out"]))
        parts.append(Text.assemble((_("Out of the game:") + " ", "bold"), (out_names, "dim")))
    if obs.seat is not None:
        hand = Text.assemble((_("Your hand:") + " ", "bold"), _cards(cfg, obs.hand, _("empty")))
        parts.append(hand)
        pet = obs.pets[obs.seat]
        if pet >= 0:
            parts.append(Text.assemble((_("Your pet:") + " ", "bold"), card_text(cfg, pet)))
    for q in range(obs.players):
        if q != obs.seat and obs.known[q]:
            known = ", ".join(cfg.deck.name(c) for c in bits(obs.known[q]))
            holds = _("%(name)s holds %(cards)s (taken from the display)") % {
                "name": names[q],
                "cards": known,
            }
            parts.append(Text(holds, style="dim"))
    parts.append(scoring_table(obs, names))
    return Panel(
        Group(*parts), title=_header(obs, names), title_align="left", border_style="blue", expand=False
    )


def draw_table(console: Console, state: State, seat: int | None, names: Sequence[str] | None = None) -> None:
    """Print the table as ``seat`` sees it."""
    console.print(table_view(_observation(state, seat), names))


def status_line(state: State, seat: int | None) -> RenderableType:
    """Between two decisions of one turn (and for a table too tall for the screen): the header, the
    decision, the scale, the display and the hand."""
    obs = _observation(state, seat)
    cfg = obs.config
    parts: list[RenderableType] = [
        _header(obs, _names(obs, None)),
        Text.assemble((_("Now:") + " ", "bold"), step_words(obs)),
        scale_text(obs.scalars["tilt"]),
    ]
    parts.append(Text.assemble((_("Display:") + " ", "bold"), _cards(cfg, obs.scalars["display"])))
    if obs.seat is not None:
        parts.append(Text.assemble((_("Your hand:") + " ", "bold"), _cards(cfg, obs.hand, _("empty"))))
    return Group(*parts)


def turn_key(observation: Any) -> tuple[int, int] | None:
    """(turn number, player) of an observation, to notice a new turn."""
    if not isinstance(observation, ArcheObservation) or observation.over:
        return None
    return observation.scalars["turn"], observation.scalars["turn_player"]


def _observation(state: State, seat: int | None) -> ArcheObservation:
    obs = state.observation(seat)
    if not isinstance(obs, ArcheObservation):
        raise TypeError(f"not an Arche observation: {type(obs).__name__}")
    return obs


def scores_table(obs: ArcheObservation, ranking: Sequence[int], names: Sequence[str]) -> Table:
    """Each seat's points per scoring card (figures in brackets), chips and total, in ranking order."""
    breakdowns = obs.scores or []
    table = Table(title=_("Final scores"), title_justify="left", title_style="bold")
    table.add_column("", no_wrap=True)
    for place, q in enumerate(ranking, start=1):
        table.add_column(
            Text(f"{place}. {names[q]}", style=SEAT_STYLES[q % 5]), justify="right", no_wrap=True
        )
    for k in range(N_SCORING):
        name = CATEGORIES[k]  # the breakdown's key (English, as in the record)
        cells = []
        for q in ranking:
            card = breakdowns[q]["cards"][name]
            figures = card["figures"]
            shown = f"{int(figures)}½" if figures != int(figures) else str(figures)
            cells.append(f"{_points(card['points'])} ({shown})")
        table.add_row(Text(category_name(k), style=CATEGORY_STYLES[k]), *cells)
    table.add_row(_("chips"), *(str(breakdowns[q]["chips"]) for q in ranking))
    table.add_row(
        Text(_("total"), style="bold"),
        *(Text(_points(breakdowns[q]["total"]), style="bold") for q in ranking),
    )
    table.add_row(
        Text(_("animals in hand"), style="dim"),
        *(Text(str(breakdowns[q]["animals_in_hand"]), style="dim") for q in ranking),
    )
    table.caption = _(
        "per scoring card: points (figures, ½ = a chip under one); majorities 10/6/2, tied places share "
        "their points; chips 1 point each; equal totals: fewer animal cards in hand is better"
    )
    table.caption_justify = "left"
    return table


def _points(value: Any) -> str:
    if isinstance(value, float) and value != int(value):
        thirds = round(value * 3)
        if abs(value * 3 - thirds) < 1e-9 and thirds % 3:
            whole, rest = divmod(thirds, 3)
            return f"{whole} {rest}/3" if whole else f"{rest}/3"
        return f"{value:g}"
    return str(int(value))


def final_view(state: State, seat: int | None, names: Sequence[str] | None = None) -> RenderableType:
    """The final table, the scoring breakdowns and the ranking."""
    obs = _observation(state, seat)
    names = _names(obs, names)
    return Group(
        table_view(obs, names), scores_table(obs, state.ranking(), names), ranking_text(state, names)
    )


def choice_order(legal: Sequence[int]) -> list[int]:
    """Choices numbered as listed, ``done``/``pass`` (ids 0 and 1) last."""
    return [a for a in legal if a > 1] + [a for a in legal if a <= 1]


VIEW = GameView(
    draw_table=draw_table,
    status_line=status_line,
    final_view=final_view,
    turn_key=turn_key,
    turn_word=N_("Turn"),
    catalog=CATALOG,
    help=HELP,
    compact_choices=12,
    choice_order=choice_order,
)

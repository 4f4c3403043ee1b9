"""The pieces both Arctic tables draw (``terminal``'s whole table, ``terminal_compact``'s short one): animals
and cards in colour, a pile's runs, the title, the step line and the counts under the table. From one seat's
observation only, like the tables.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from floe.games.arctic.actions import decks_mask_text
from floe.games.arctic.cards import CARD_NAMES, COMPANION, DRAW, LANDSCAPE, MAIN, PLACEMENT, animal_word
from floe.games.arctic.i18n import _
from floe.games.arctic.observation import FACE_DOWN_UNKNOWN, ArcticObservation
from floe.games.arctic.state import FACE_DOWN_FLAG, STEP_NAMES
from floe.games.arctic.text import step_words

# One colour per animal, chosen to stay distinct on dark and light terminals (and readable without colour,
# since the name is always written out).
ANIMAL_STYLES: tuple[str, ...] = (
    "bold dark_orange",  # fox
    "bold green3",  # moose
    "bold orchid",  # walrus
    "bold dodger_blue1",  # orca
    "bold red1",  # puffin
    "bold bright_white",  # polar bear
)


def animal_text(animal: int, *, dim: bool = False) -> Text:
    """An animal's name in its colour."""
    style = ANIMAL_STYLES[animal] + (" dim" if dim else "")
    return Text(animal_word(animal), style=style)


def card_text(card: int) -> Text:
    """A card in one line: main animal (coloured), companion, then placement and draw values."""
    return Text.assemble(
        animal_text(MAIN[card]),
        ("/", "dim"),
        Text(animal_word(COMPANION[card]), style=ANIMAL_STYLES[COMPANION[card]].replace("bold ", "")),
        (f" p{PLACEMENT[card]} d{DRAW[card]}", "cyan"),
    )


def pile_runs(pile: Sequence[int]) -> Text:
    """The whole pile bottom to top, compactly: runs of one animal as ``fox×3``; ``?`` face-down."""
    out = Text()
    groups: list[tuple[int, str, int]] = []  # (key, kind, count); key = animal, or -1 per hidden entry
    for entry in pile:
        if 0 <= entry < FACE_DOWN_FLAG:
            key, kind = MAIN[entry], "up"
        elif entry >= FACE_DOWN_FLAG:
            key, kind = MAIN[entry - FACE_DOWN_FLAG], "own-down"
        elif entry == FACE_DOWN_UNKNOWN:
            key, kind = -1, "down"
        else:
            key, kind = -1, "covered"
        if groups and groups[-1][0] == key and groups[-1][1] == kind and kind == "up":
            groups[-1] = (key, kind, groups[-1][2] + 1)
        else:
            groups.append((key, kind, 1))
    for i, (key, kind, count) in enumerate(groups):
        if i:
            out.append(" ")
        if kind == "up":
            out.append_text(animal_text(key))
            if count > 1:
                out.append(f"×{count}", style="bold")
        elif kind == "own-down":
            out.append("?", style="bold yellow")
            out.append_text(animal_text(key, dim=True))
        elif kind == "down":
            out.append("?", style="bold yellow")
        else:
            out.append("·", style="dim")
    return out if groups else Text(_("(empty)"), style="dim")


def table_title(obs: ArcticObservation, names: Sequence[str]) -> Text:
    """The panel title: the round and whose turn it is (the step goes inside, where it may wrap)."""
    s = obs.scalars
    if obs.scores is not None or STEP_NAMES[s["step"]] == "over":
        return Text(_("Game over"), style="bold")
    out = Text(_("Round %(n)s") % {"n": s["round"]}, style="bold")
    player = s["turn_player"]
    if player >= 0:
        out.append(" · ")
        out.append(
            _("%(who)s to play") % {"who": names[player]},
            style="bold yellow" if player == obs.seat else "bold",
        )
    if s["final_round"]:
        out.append(" · " + _("final round: steps A and B only"), style="bold red")
    elif s["end_triggered"]:
        out.append(" · " + _("end triggered: last normal round"), style="bold red")
    return out


def now_line(obs: ArcticObservation) -> Text:
    """``Now: `` and the step being decided, in words."""
    out = Text(_("Now: "), style="bold")
    out.append(step_words(obs))
    return out


def footer_line(obs: ArcticObservation) -> Text:
    """The counts under the table: deck, reserve, decks in play, and what the seat knows of its totem and
    penalty cards."""
    s = obs.scalars
    decks = decks_mask_text(s["decks_in_play"])
    out = Text(
        _("Deck %(deck)s · reserve %(reserve)s · decks in play %(decks)s")
        % {"deck": obs.deck_count, "reserve": s["reserve_count"], "decks": decks or "-"}
    )
    if obs.seat is not None:
        totem = obs.totems[obs.seat]
        if totem >= 0:
            out.append(" · " + _("your totem (★): "))
            out.append_text(animal_text(totem))
            out.append(" " + _("(now worth %(n)s)") % {"n": LANDSCAPE[obs.tokens[totem]]})
        unseen = obs.penalty_counts[obs.seat] - len(obs.penalties or ())
        if obs.penalties:
            out.append(
                " · "
                + _("your penalty cards: %(cards)s")
                % {"cards": ", ".join(CARD_NAMES[c] for c in obs.penalties)}
            )
            if unseen:
                out.append(" " + _("and %(n)s face-down") % {"n": unseen})
        elif obs.penalties is None and unseen:
            out.append(" · " + _("you may not look at your penalty cards"))
        elif unseen:
            out.append(
                " · "
                + _("your penalty cards: %(n)s face-down (a Polar bear power lets you look)") % {"n": unseen}
            )
    return out

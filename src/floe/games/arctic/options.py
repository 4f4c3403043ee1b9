"""Arctic's options as a schema: the one source for the command line, the lobby, records and the docs.

Each flag follows a numbered decision of ``docs/arctic-rules.md`` (§10, §D1–§D27). Defaults are the
rulebook's; ``preset=bga`` starts from the Board Game Arena compatible set instead, and flags given with it
override it. ``powers`` is a typing shortcut for ``power_sides`` (slugs or ``animal=side``) and is folded
into it, so records only ever hold ``power_sides``.
"""

from __future__ import annotations

from typing import Any

from floe.core.errors import OptionError
from floe.core.i18n import N_
from floe.core.options import Choice, Option, OptionSchema, choices
from floe.games.arctic.cards import ANIMALS
from floe.games.arctic.i18n import L_
from floe.games.arctic.powers import POWER_BY_SLUG, POWER_SLUGS, POWER_WORDS, Power, power_id

# The longest ``powers`` text anyone needs: six slugs and commas.
_POWERS_LENGTH = 120


# Each animal's side option's help (message ids: one sentence each).
_SIDE_HELP = {
    "fox": N_("the fox power card's side"),
    "moose": N_("the moose power card's side"),
    "walrus": N_("the walrus power card's side"),
    "orca": N_("the orca power card's side"),
    "puffin": N_("the puffin power card's side"),
    "bear": N_("the bear power card's side"),
}


# The animals' names as the lobby labels each power card's side (translated where shown, as the board's).
_SIDE_LABELS = (N_("Fox"), N_("Moose"), N_("Walrus"), N_("Orca"), N_("Puffin"), N_("Polar bear"))


def _side_item(animal: int) -> Option:
    """The side of one animal's power card: random at setup, or side 1 / side 2."""
    name = ANIMALS[animal]
    return Option(
        name,
        "choice",
        0,
        _SIDE_HELP[name],
        label=_SIDE_LABELS[animal],
        choices=(
            Choice(0, "random", ("random",)),
            *(
                Choice(side, f"{POWER_SLUGS[power_id(animal, side)]}: {POWER_WORDS[power_id(animal, side)]}",
                       (POWER_SLUGS[power_id(animal, side)], "ab"[side - 1]))
                for side in (1, 2)
            ),
        ),
    )  # fmt: skip


def parse_powers(value: Any, players: int) -> dict[int, int]:
    """``fox-under,moose-draw`` or ``fox=2,bear=random`` (text or a list) as animal -> side (0 = random)."""
    items = value if isinstance(value, list | tuple) else str(value).split(",")
    out: dict[int, int] = {}
    for raw in items:
        item = str(raw).strip().lower()
        if not item:
            continue
        if "=" in item:
            name, _, side_text = item.partition("=")
            name = name.strip().replace("polar-bear", "bear")
            if name not in ANIMALS:
                said = L_(
                    "unknown animal %(animal)s in powers; animals: %(animals)s",
                    animal=repr(name),
                    animals=", ".join(ANIMALS),
                )
                raise OptionError(said)
            sides = {"random": 0, "1": 1, "2": 2, "a": 1, "b": 2}
            side = sides.get(side_text.strip().lower())
            if side is None:
                said = L_(
                    "side for %(animal)s must be 1, 2, A, B or random, not %(value)s",
                    animal=name,
                    value=repr(side_text.strip()),
                )
                raise OptionError(said)
            out[ANIMALS.index(name)] = side
        elif item in POWER_BY_SLUG:
            power = Power(POWER_BY_SLUG[item])
            out[power.animal] = power.side
        else:
            said = L_(
                "unknown power %(power)s; powers: %(powers)s",
                power=repr(item[:40]),
                powers=", ".join(POWER_BY_SLUG),
            )
            raise OptionError(said)
    return out


OPTIONS = OptionSchema(
    (
        Option(
            "preset",
            "choice",
            "rules",
            N_("the defaults of every flag below: the rulebook's, or Board Game Arena's"),
            "10 (flag summary)",
            label=N_("Rules"),
            choices=choices(("rules", N_("rulebook")), ("bga", N_("Board Game Arena compatible"))),
            stored=False,
        ),
        Option(
            "end_trigger",
            "choice",
            "deck_emptied",
            N_(
                "when the end is triggered: the main deck's last card is drawn, a refill finds it empty, or "
                "BGA's check of ≤ 1 card at each refill"
            ),
            "7.1, D2, D3",
            label=N_("End of the game"),
            choices=choices(
                ("deck_emptied", N_("when the main deck's last card is drawn")),
                ("refill_fails", N_("when a card is needed and the main deck is empty")),
                ("bga", N_("Board Game Arena: main deck ≤ 1 at a river refill")),
            ),
            default_text="`deck_emptied` (bga: `bga`)",
            advanced=True,
        ),
        Option(
            "deck_selection",
            "choice",
            "random",
            N_("which of the four decks are in play: chosen at random, or decks 1..n"),
            "D5",
            label=N_("Decks in play"),
            choices=choices(("random", N_("chosen at random")), ("first_n", N_("decks 1 to n"))),
            default_text="`random` (bga: `first_n`)",
            advanced=True,
        ),
        Option(
            "first_player",
            "seat",
            None,
            N_("the first player's seat, or drawn at random during setup"),
            "D6",
            label=N_("First player"),
            random_ok=True,
            default_text="random (bga: P1)",
            advanced=True,
        ),
        Option(
            "walrus_mode",
            "choice",
            "extra_step",
            N_("the Walrus power: one extra step either way after the base move, or the Italian double move"),
            "D7",
            label=N_("Walrus power"),
            choices=choices(
                ("extra_step", N_("one extra step, either direction")),
                ("double_move", N_("one more step in the direction just moved")),
            ),
            advanced=True,
        ),
        Option(
            "bear_give_step",
            "choice",
            "C",
            N_("the step in which the Polar bear's gift is offered"),
            "D9",
            label=N_("Polar bear gift"),
            choices=choices(
                ("C", N_("in step C, after the discards")), ("A", N_("in step A, before placing"))
            ),
            advanced=True,
        ),
        Option(
            "wildcard_scoring",
            "choice",
            "free_max",
            N_(
                "face-down cards at scoring: any animal (the best is taken), "
                "or only the run just below or above"
            ),
            "8.2, D10",
            label=N_("Face-down cards at scoring"),
            choices=choices(
                ("free_max", N_("any animal (the best for the owner)")),
                ("bga_adjacent", N_("the run directly below or above (Board Game Arena)")),
            ),
            default_text="`free_max` (bga: `bga_adjacent`)",
            advanced=True,
        ),
        Option(
            "fox_first_card_bga_limit",
            "bool",
            False,
            N_("Board Game Arena's limit: no Fox placement for the first card of a turn unless P = 1"),
            "D11",
            label=N_("Fox power limited as on BGA"),
            default_text="false (bga: true)",
            advanced=True,
        ),
        Option(
            "moose_no_visible",
            "choice",
            "one_or_two",
            N_("the Moose placement power with no visible card: place one or two cards, or exactly one"),
            "D12",
            label=N_("Moose with no visible card"),
            choices=choices(
                ("one_or_two", N_("one or two cards")), ("bga_exactly_one", N_("exactly one card"))
            ),
            default_text="`one_or_two` (bga: `bga_exactly_one`)",
            advanced=True,
        ),
        Option(
            "penalties",
            "choice",
            "hidden_look",
            N_(
                "what a player sees of their own penalty zone: face down until a Polar bear power's look "
                "(the rulebook), every card as it arrives (BGA), or never (Polar bear draws and gifts "
                "then take an unseen card)"
            ),
            "9, D20",
            label=N_("Own penalty cards"),
            choices=choices(
                ("hidden_look", N_("face down; a Polar bear power shows them to its user, who chooses")),
                ("seen", N_("the owner sees each one (Board Game Arena)")),
                ("hidden_blind", N_("face down; Polar bear powers take an unseen card")),
            ),
            default_text="`hidden_look` (bga: `seen`)",
            advanced=True,
        ),
        Option(
            "owner_sees_penalties",
            "bool",
            True,
            N_(
                "the flag `penalties` replaced, read from older records: true is `seen`, false `hidden_blind`"
            ),
            "D20",
            label=N_("Players see their own penalty cards (old records)"),
            stored=False,
            lobby=False,
            default_text="—",
            advanced=True,
        ),
        Option(
            "piles_public",
            "bool",
            True,
            N_("whether every face-up card of other players' piles shows, or only their visible cards"),
            "D23",
            label=N_("Piles are public"),
            advanced=True,
        ),
        Option(
            "power_sides",
            "list",
            [0, 0, 0, 0, 0, 0],
            N_(
                "each animal's power card side: 0 (random at setup), 1 or 2, "
                "in the order fox, moose, walrus, orca, puffin, bear"
            ),
            "4.4, 12.1",
            label=N_("Power sides"),
            items=tuple(_side_item(a) for a in range(len(ANIMALS))),
            default_text="all random",
        ),
        Option(
            "powers",
            "text",
            "",
            N_("a shortcut for power_sides: slugs such as fox-under,moose-draw, or fox=2, bear=random"),
            "4.4, 12.1",
            label=N_("Powers"),
            max_length=_POWERS_LENGTH,
            parser=parse_powers,
            stored=False,
            lobby=False,
            default_text="all random",
        ),
    )
)

"""Arctic's options as a schema: the one source for the command line, the lobby, records and the docs.

Each flag follows a numbered decision of ``shared/rules/arctic.md`` (section 10, D1–D27). Defaults are the
rulebook's; ``preset=bga`` starts from the Board Game Arena compatible set instead, and flags given with it
override it. ``powers`` is a typing shortcut for ``power_sides`` (slugs or ``animal=side``) and is folded
into it, so records only ever hold ``power_sides``.
"""

from __future__ import annotations

from typing import Any

from floe.core.errors import OptionError
from floe.core.options import Choice, Option, OptionSchema, choices
from floe.games.arctic.cards import ANIMALS
from floe.games.arctic.powers import POWER_BY_SLUG, POWER_SLUGS, POWER_WORDS, Power, power_id

# The longest ``powers`` text anyone needs: six slugs and commas.
_POWERS_LENGTH = 120


def _side_item(animal: int) -> Option:
    """The side of one animal's power card: random at setup, or side 1 / side 2."""
    name = ANIMALS[animal]
    return Option(
        name,
        "choice",
        0,
        f"the {name} power card's side",
        label=name.replace("-", " ").capitalize(),
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
                raise OptionError(f"unknown animal {name!r} in powers; animals: {', '.join(ANIMALS)}")
            sides = {"random": 0, "1": 1, "2": 2, "a": 1, "b": 2}
            side = sides.get(side_text.strip().lower())
            if side is None:
                raise OptionError(f"side for {name} must be 1, 2, A, B or random, not {side_text.strip()!r}")
            out[ANIMALS.index(name)] = side
        elif item in POWER_BY_SLUG:
            power = Power(POWER_BY_SLUG[item])
            out[power.animal] = power.side
        else:
            raise OptionError(f"unknown power {item[:40]!r}; powers: {', '.join(POWER_BY_SLUG)}")
    return out


OPTIONS = OptionSchema(
    (
        Option(
            "preset",
            "choice",
            "rules",
            "the defaults of every flag below: the rulebook's, or Board Game Arena's",
            "10 (flag summary)",
            label="Rules",
            choices=choices(("rules", "rulebook"), ("bga", "Board Game Arena compatible")),
            stored=False,
        ),
        Option(
            "end_trigger",
            "choice",
            "deck_emptied",
            "when the end is triggered: the main deck's last card is drawn, a refill finds it empty, or "
            "BGA's check of ≤ 1 card at each refill",
            "7.1, D2, D3",
            label="End of the game",
            choices=choices(
                ("deck_emptied", "when the main deck's last card is drawn"),
                ("refill_fails", "when a card is needed and the main deck is empty"),
                ("bga", "Board Game Arena: main deck ≤ 1 at a river refill"),
            ),
            default_text="`deck_emptied` (bga: `bga`)",
            advanced=True,
        ),
        Option(
            "deck_selection",
            "choice",
            "random",
            "which of the four decks are in play: chosen at random, or decks 1..n",
            "D5",
            label="Decks in play",
            choices=choices(("random", "chosen at random"), ("first_n", "decks 1 to n")),
            default_text="`random` (bga: `first_n`)",
            advanced=True,
        ),
        Option(
            "first_player",
            "seat",
            None,
            "the first player's seat, or drawn at random during setup",
            "D6",
            label="First player",
            random_ok=True,
            default_text="random (bga: 0)",
            advanced=True,
        ),
        Option(
            "walrus_mode",
            "choice",
            "extra_step",
            "the Walrus power: one extra step either way after the base move, or the Italian double move",
            "D7",
            label="Walrus power",
            choices=choices(
                ("extra_step", "one extra step, either direction"),
                ("double_move", "one more step in the direction just moved"),
            ),
            advanced=True,
        ),
        Option(
            "bear_give_step",
            "choice",
            "C",
            "the step in which the Polar bear's gift is offered",
            "D9",
            label="Polar bear gift",
            choices=choices(("C", "in step C, after the discards"), ("A", "in step A, before placing")),
            advanced=True,
        ),
        Option(
            "wildcard_scoring",
            "choice",
            "free_max",
            "face-down cards at scoring: any animal (the best is taken), or only the run just below or above",
            "8.2, D10",
            label="Face-down cards at scoring",
            choices=choices(
                ("free_max", "any animal (the best for the owner)"),
                ("bga_adjacent", "the run directly below or above (Board Game Arena)"),
            ),
            default_text="`free_max` (bga: `bga_adjacent`)",
            advanced=True,
        ),
        Option(
            "fox_first_card_bga_limit",
            "bool",
            False,
            "Board Game Arena's limit: no Fox placement for the first card of a turn unless P = 1",
            "D11",
            label="Fox power limited as on BGA",
            default_text="false (bga: true)",
            advanced=True,
        ),
        Option(
            "moose_no_visible",
            "choice",
            "one_or_two",
            "the Moose placement power with no visible card: place one or two cards, or exactly one",
            "D12",
            label="Moose with no visible card",
            choices=choices(("one_or_two", "one or two cards"), ("bga_exactly_one", "exactly one card")),
            default_text="`one_or_two` (bga: `bga_exactly_one`)",
            advanced=True,
        ),
        Option(
            "penalties",
            "choice",
            "hidden_look",
            "what a player sees of their own penalty zone: face down until a Polar bear power's look "
            "(the rulebook), every card as it arrives (BGA), or never (Polar bear draws and gifts then take "
            "an unseen card)",
            "9, D20",
            label="Own penalty cards",
            choices=choices(
                ("hidden_look", "face down; a Polar bear power shows them to its user, who chooses"),
                ("seen", "the owner sees each one (Board Game Arena)"),
                ("hidden_blind", "face down; Polar bear powers take an unseen card"),
            ),
            default_text="`hidden_look` (bga: `seen`)",
            advanced=True,
        ),
        Option(
            "owner_sees_penalties",
            "bool",
            True,
            "the flag `penalties` replaced, read from older records: true is `seen`, false `hidden_blind`",
            "D20",
            label="Players see their own penalty cards (old records)",
            stored=False,
            lobby=False,
            default_text="—",
            advanced=True,
        ),
        Option(
            "piles_public",
            "bool",
            True,
            "whether every face-up card of other players' piles shows, or only their visible cards",
            "D23",
            label="Piles are public",
            advanced=True,
        ),
        Option(
            "power_sides",
            "list",
            [0, 0, 0, 0, 0, 0],
            "each animal's power card side: 0 (random at setup), 1 or 2, in the order " + ", ".join(ANIMALS),
            "4.4, 12.1",
            label="Power sides",
            items=tuple(_side_item(a) for a in range(len(ANIMALS))),
            default_text="all random",
        ),
        Option(
            "powers",
            "text",
            "",
            "a shortcut for power_sides: slugs such as fox-under,moose-draw, or fox=2, bear=random",
            "4.4, 12.1",
            label="Powers",
            max_length=_POWERS_LENGTH,
            parser=parse_powers,
            stored=False,
            lobby=False,
            default_text="all random",
        ),
    )
)

"""Arche's options as a schema: the one source for the command line, the lobby, records and the docs.

Every [GUESS] of ``docs/arche-rules.md`` and every numbered ambiguity of its §12 is an
option here, with the rules reference's recommended reading as the default; ``follows`` names the section.
``deck`` is the card list (a ``file`` option: the command line reads ``deck=FILE``, records keep the parsed
cards).
"""

from __future__ import annotations

from floe.core.i18n import N_
from floe.core.options import Option, OptionSchema, choices
from floe.games.arche.cards import parse_deck

DECK_OPTION = Option(
    "deck",
    "file",
    [],
    N_(
        "the card list: a CSV file with the placeholder's columns (name_de, name_en, weight, "
        "climate, diet, category, special; five rain rows); empty: the placeholder cards, not "
        "the printed ones"
    ),
    "13, 13.1",
    label=N_("Card list"),
    max_length=4000,
    parser=parse_deck,
    default_text=N_("the placeholder deck (13.1)"),
    advanced=True,
    # The lobby's form has no file field (a one-line text box would lose the CSV's lines), so a browser
    # table always plays the placeholder deck; the command line and the API take a deck's text.
    lobby=False,
)

OPTIONS = OptionSchema(
    (
        Option(
            "first_player",
            "seat",
            None,
            N_("the first player's seat, or drawn at random during set-up"),
            "12 #13",
            label=N_("First player"),
            random_ok=True,
        ),
        Option(
            "start_chips",
            "int",
            3,
            N_("action chips each player starts with"),
            "4.3, 12 #3",
            label=N_("Starting chips"),
            low=1,
            high=4,
        ),
        Option(
            "seat_chips",
            "choice",
            "equal",
            N_(
                "everyone starts with the same chips, or every seat after the first player gets one more "
                "(keirat's 3 or 4 by seating)"
            ),
            "4.3 [CONFLICT], 12 #3",
            label=N_("Chips by seat"),
            choices=choices(("equal", N_("the same for everyone")), ("later_plus_one", N_("later seats +1"))),
            advanced=True,
        ),
        Option(
            "figures",
            "int",
            17,
            N_(
                "scoring figures per player (85 in 5 colours: 17; superfred counts 19); none placed once "
                "used up"
            ),
            "2, 12 #4",
            label=N_("Figures per player"),
            low=10,
            high=19,
            advanced=True,
        ),
        Option(
            "bank",
            "choice",
            "finite",
            N_(
                "the bank of chips: the 22 discs less the players' (Fox, Bronto and Chimpanzee get what "
                "is left), or unlimited"
            ),
            "9.2, 12 #12",
            label=N_("Bank"),
            choices=choices(("finite", N_("22 discs in all")), ("unlimited", N_("never runs out"))),
            advanced=True,
        ),
        Option(
            "opening_rejects",
            "choice",
            "shuffle_back",
            N_(
                "set-up: a card that cannot open the ark (weight not 1–2, or a third of its category) is "
                "shuffled back, or leaves the game"
            ),
            "4.2 [GUESS]",
            label=N_("Cards unfit for the opening"),
            choices=choices(
                ("shuffle_back", N_("shuffled back into the deck")), ("out_of_game", N_("out of the game"))
            ),
            advanced=True,
        ),
        Option(
            "rain_placement",
            "choice",
            "middle",
            N_(
                "where the rain cards go: rain 1 in the middle and 2–5 in the lower half, all five in "
                "the lower half, or anywhere"
            ),
            "4.4",
            label=N_("Rain cards in the deck"),
            choices=choices(
                ("middle", N_("rain 1 in the middle, 2–5 in the lower half")),
                ("lower_half", N_("all five in the lower half")),
                ("anywhere", N_("shuffled anywhere")),
            ),
            advanced=True,
        ),
        Option(
            "setup_rain",
            "choice",
            "reshuffle",
            N_(
                "a rain card revealed while the display is laid out: shuffled back (into the lower "
                "part), or it counts as a rain (only possible with rain_placement=anywhere)"
            ),
            "4.5 [GUESS]",
            label=N_("Rain at set-up"),
            choices=choices(("reshuffle", N_("shuffled back")), ("counts", N_("counts as a rain"))),
            advanced=True,
        ),
        Option(
            "refill_rain",
            "choice",
            "counts",
            N_(
                "a rain card revealed while the display is refilled counts like any other reveal, or is "
                "shuffled back into the deck"
            ),
            "6 1a [GUESS], 12 #9",
            label=N_("Rain during a refill"),
            choices=choices(("counts", N_("counts as a rain")), ("reshuffle", N_("shuffled back"))),
            advanced=True,
        ),
        Option(
            "pet_timing",
            "choice",
            "immediately",
            N_("the pet round at the 2nd rain: at once (before the replacement card), or after that turn"),
            "6 1a [GUESS], 12 #10",
            label=N_("Pet round"),
            choices=choices(("immediately", N_("at once")), ("end_of_turn", N_("after the turn"))),
            advanced=True,
        ),
        Option(
            "pet",
            "choice",
            "mandatory",
            N_("a player with an eligible card (animal, weight < 3, no !) must put down a pet, or may"),
            "8 [GUESS], 12 #10",
            label=N_("Pets"),
            choices=choices(("mandatory", N_("must, if able")), ("voluntary", N_("may"))),
        ),
        Option(
            "uncategorised_pets",
            "bool",
            True,
            N_("whether an animal without a category may be a pet (it scores no figure either way)"),
            "8 [GUESS], 12 #5",
            label=N_("Uncategorised pets"),
            advanced=True,
        ),
        Option(
            "uncategorised_figure",
            "choice",
            "none",
            N_(
                "a card without a category gives no figure, or its player puts the figure on a scoring "
                "card of their choice"
            ),
            "6.2 [GUESS], 12 #5",
            label=N_("Figure for an uncategorised card"),
            choices=choices(
                ("none", N_("no figure")), ("choose", N_("on a scoring card of the player's choice"))
            ),
            advanced=True,
        ),
        Option(
            "open_without_chips",
            "bool",
            False,
            N_("whether a player without chips may open a new cabin (giving nothing)"),
            "6 1b [GUESS], 12 #6",
            label=N_("Open a cabin without chips"),
            advanced=True,
        ),
        Option(
            "predator_weight",
            "choice",
            "heavier",
            N_(
                "the cabin table's weight cells: the other animal must be strictly heavier than a "
                "carnivore or omnivore, or at least as heavy"
            ),
            "7.2, 12 #1",
            label=N_("Predator weight rule"),
            choices=choices(("heavier", N_("strictly heavier")), ("not_lighter", N_("at least as heavy"))),
            advanced=True,
        ),
        Option(
            "shy_neighbours",
            "choice",
            "row_and_opposite",
            N_(
                "which cabins are neighbours for shy animals: before and after in the row and the one "
                "opposite, or the row only"
            ),
            "5, 12 #2",
            label=N_("Shy animals' neighbours"),
            choices=choices(("row_and_opposite", N_("same row and opposite")), ("row", N_("same row only"))),
            advanced=True,
        ),
        Option(
            "immune_shy",
            "bool",
            True,
            N_(
                "whether an immune shy animal (none in the placeholder deck) may share a cabin with "
                "carnivores and omnivores"
            ),
            "7.3 [GUESS]",
            label=N_("Immune shy animals"),
            advanced=True,
        ),
        Option(
            "immune_predator",
            "choice",
            "limits_apply",
            N_(
                "an immune card that is itself a carnivore or omnivore: its own limits towards other "
                "animals still apply, or it is exempt from every predator check"
            ),
            "7.3, 12 #7",
            label=N_("Immune predators"),
            choices=choices(
                ("limits_apply", N_("its own limits apply")), ("exempt", N_("exempt from every check"))
            ),
            advanced=True,
        ),
        Option(
            "shy_with_provisions",
            "bool",
            False,
            N_(
                "whether a shy herbivore may share a cabin with provisions (the rulebook's table says no for "
                "herbivores and yes for shy animals; false: the herbivores' no)"
            ),
            "7.3, seed 004",
            label=N_("Shy herbivores with provisions"),
            advanced=True,
        ),
        Option(
            "provisions_scare_shy",
            "bool",
            False,
            N_(
                "whether a provisions card with a carnivore diet (only in a loaded deck) keeps shy "
                "animals out of the cabins next to it"
            ),
            "7.3 [GUESS]",
            label=N_("Carnivorous provisions scare"),
            advanced=True,
        ),
        Option(
            "eviction",
            "choice",
            "optional",
            N_(
                "whether Mosquito, Skunk and Spider may evict (else they need a free place like any "
                "card), or must when they enter a cabin with a card they can evict"
            ),
            "9.1 [GUESS], 12 #8",
            label=N_("Eviction"),
            choices=choices(("optional", N_("may evict")), ("mandatory", N_("must evict when they can"))),
            advanced=True,
        ),
        Option(
            "evict_provisions",
            "bool",
            False,
            N_("whether provisions can be evicted (Skunk)"),
            "9.1 [GUESS]",
            label=N_("Provisions can be evicted"),
            advanced=True,
        ),
        Option(
            "evict_from",
            "choice",
            "own_cabin",
            N_(
                "the evicted card: in the cabin the evicter enters (it takes that place, so a full cabin "
                "will do), or in any cabin (the evicter needs a free place of its own)"
            ),
            "9.1 [GUESS], 12 #8",
            label=N_("Where the evicted card is"),
            choices=choices(
                ("own_cabin", N_("in the cabin entered")), ("any_cabin", N_("anywhere in the ark"))
            ),
            advanced=True,
        ),
        Option(
            "endgame_figures",
            "bool",
            True,
            N_("whether cards played in the end-game still give scoring figures"),
            "10 [GUESS]",
            label=N_("Figures in the end-game"),
            advanced=True,
        ),
        Option(
            "endgame_abilities",
            "bool",
            True,
            N_("whether special abilities and evictions still work in the end-game"),
            "9.1 [GUESS], 10 [GUESS]",
            label=N_("Abilities in the end-game"),
            advanced=True,
        ),
        Option(
            "chips_per_figure",
            "choice",
            "one",
            N_("at most one chip (half point) under a figure, or any number"),
            "9.2 [GUESS]",
            label=N_("Chips under a figure"),
            choices=choices(("one", N_("at most one")), ("any", N_("any number"))),
            advanced=True,
        ),
        Option(
            "chimp_order",
            "choice",
            "figure_first",
            N_(
                "the Chimpanzee: its own figure is placed first (and may get the chip), or the chip is "
                "placed before it"
            ),
            "9.2 [GUESS], 12 #16",
            label=N_("Chimpanzee and its figure"),
            choices=choices(("figure_first", N_("figure first")), ("chip_first", N_("chip first"))),
            advanced=True,
        ),
        Option(
            "chimp_chip",
            "choice",
            "may",
            N_(
                "the Chimpanzee's chip: the player may place it under a figure or decline it (the rulebook's "
                '"kann"), or must place it'
            ),
            "9.2, seed 004",
            label=N_("The Chimpanzee's chip"),
            choices=choices(("may", N_("the player chooses")), ("must", N_("always placed"))),
            advanced=True,
        ),
        Option(
            "second_card_scale",
            "choice",
            "after_first",
            N_(
                "the second card of a turn is checked against the scale after the first card, or must "
                "fit both before and after it"
            ),
            "5, 12 #15",
            label=N_("Second card and the scale"),
            choices=choices(("after_first", N_("after the first card")), ("both", N_("before and after it"))),
            advanced=True,
        ),
        Option(
            "hand_limit",
            "int",
            0,
            N_(
                "hand cards a player may keep at the end of a turn, discarding the rest face up (0: no limit)"
            ),
            "12 #14",
            label=N_("Hand limit"),
            low=0,
            high=12,
            advanced=True,
        ),
        Option(
            "tie_points",
            "choice",
            "exact",
            N_("tied majorities share their places' points exactly (10/3), or rounded to half points"),
            "11 [GUESS], 12 #11",
            label=N_("Shared points"),
            choices=choices(("exact", N_("exact fractions")), ("halves", N_("rounded to halves"))),
            advanced=True,
        ),
        DECK_OPTION,
    )
)

# Every stored option with its default (the deck's default [] is the placeholder deck).
DEFAULTS = OPTIONS.defaults()

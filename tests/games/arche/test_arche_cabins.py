"""The cabin predicate of docs/arche-rules.md §7 against the reconstructed table itself, over every pair of
card types × weights × climates; the shy animals' neighbours; the immune animals; the engine's masks agreeing
with it.

The expected answer is read from the rules reference's 5×5 table (§7.2), spelled out here: a card belongs to
its diet's type (H, C, O) or to P (provisions), and also to S when it is shy; two cards may share a cabin when
every cell that applies to them (each of one card's types against each of the other's) allows it, and
their climates are not hot and cold. This is the consolidated predicate of 7.3, derived independently.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from floe.games.arche.cards import Deck, deck_of
from floe.games.arche.config import RulesConfig, pair_ok
from floe.games.arche.options import DEFAULTS

from .arche_helpers import card, notations, play, position

OK, NO, HEAVIER, LIGHTER, ONLY_HERBIVORES = "ok", "no", "heavier", "lighter", "herbivores"
# Spec 7.2: rows = the type that wants in, columns = the type already there.
TABLE = {
    "H": {"H": OK, "C": HEAVIER, "O": HEAVIER, "S": OK, "P": NO},
    "C": {"H": LIGHTER, "C": NO, "O": NO, "S": NO, "P": OK},
    "O": {"H": LIGHTER, "C": NO, "O": NO, "S": NO, "P": NO},
    "S": {"H": OK, "C": NO, "O": NO, "S": ONLY_HERBIVORES, "P": OK},
    "P": {"H": NO, "C": OK, "O": NO, "S": OK, "P": OK},
}
# (diet, category) of each card type of the test deck: herbivore, carnivore, omnivore, shy herbivore, shy
# carnivore (Fox, Penguin), provisions.
TYPES = {
    "h": ("H", "useful"),
    "c": ("C", "useful"),
    "o": ("O", "useful"),
    "sh": ("H", "shy"),
    "sc": ("C", "shy"),
    "p": ("-", "provisions"),
}
CLIMATES = ("hot", "cold", "any")


def table_types(kind: str) -> list[str]:
    diet, category = TYPES[kind]
    if category == "provisions":
        return ["P"]
    return [diet] + (["S"] if category == "shy" else [])


def cell_allows(cell: str, x: tuple[str, int], y: tuple[str, int]) -> bool:
    """A cell of the table for card x (wanting in) and y (there): (kind, weight) pairs."""
    if cell == OK:
        return True
    if cell == NO:
        return False
    if cell == HEAVIER:  # the herbivore (x) must be heavier than the predator there
        return x[1] > y[1]
    if cell == LIGHTER:  # the predator (x) must be lighter than the herbivore there
        return x[1] < y[1]
    return TYPES[x[0]][0] == "H" and TYPES[y[0]][0] == "H"  # two shy animals: only herbivores


def expected(x: tuple[str, int, str], y: tuple[str, int, str]) -> bool:
    if {x[2], y[2]} == {"hot", "cold"}:
        return False
    xs, ys = table_types(x[0]), table_types(y[0])
    return all(cell_allows(TABLE[a][b], x[:2], y[:2]) for a in xs for b in ys)


CARDS = [(kind, w, climate) for kind in TYPES for w in range(5) for climate in CLIMATES]


def deck_for(cards: list[tuple[str, int, str]]) -> Deck:
    rows = []
    for i, (kind, w, climate) in enumerate(cards):
        diet, category = TYPES[kind]
        rows.append((f"K{i}", f"card {i}", w, climate, diet, category, "-"))
    return deck_of(rows)


@pytest.mark.parametrize("kind", sorted(TYPES))
def test_every_pair_of_types_weights_and_climates_follows_the_table(kind: str) -> None:
    """6 types × 5 weights × 3 climates wanting in, against every card of the same grid (chunked by the
    first card's type to keep the decks small): 8,100 pairs, both orders."""
    first = [c for c in CARDS if c[0] == kind]
    for other_kind in TYPES:
        second = [c for c in CARDS if c[0] == other_kind]
        deck = deck_for(first + second)
        for i, x in enumerate(first):
            for j, y in enumerate(second, start=len(first)):
                want = expected(x, y)
                assert pair_ok(deck, i, j, DEFAULTS) == want, (x, y)
                assert pair_ok(deck, j, i, DEFAULTS) == want, (y, x)
                assert expected(y, x) == want, "the rules reference's table is symmetric"


def test_the_grid_covers_every_verdict() -> None:
    verdicts = {expected(x, y) for x, y in itertools.product(CARDS, CARDS)}
    assert verdicts == {True, False}
    # weights matter exactly where the table says so
    assert expected(("h", 2, "any"), ("c", 1, "any")) and not expected(("h", 1, "any"), ("c", 1, "any"))
    assert not expected(("sh", 4, "any"), ("c", 0, "any")), "a shy animal never meets a carnivore"


def placeholder_pair(a: str, b: str, **options: Any) -> bool:
    cfg = RulesConfig.from_options(options)
    d = cfg.deck
    return pair_ok(d, d.card_id(a), d.card_id(b), cfg.options)


def test_immune_animals_share_with_predators_but_keep_their_own_limits() -> None:
    """Spec 9 and 12 #7: the Hedgehog (an omnivore of weight 1, immune) may share with a carnivore; its own
    limit towards a herbivore still applies (the herbivore heavier) unless immune_predator=exempt."""
    assert placeholder_pair("hedgehog", "tyrannosaurus")
    assert placeholder_pair("hedgehog", "dog")
    assert placeholder_pair("tortoise", "polar-bear") is False, "hot with cold"
    assert placeholder_pair("tortoise", "tyrannosaurus"), "the Tortoise (2) with a heavier carnivore"
    assert not placeholder_pair("hedgehog", "goat"), "the Hedgehog (O 1) needs a heavier herbivore"
    assert placeholder_pair("hedgehog", "goat", immune_predator="exempt")
    assert placeholder_pair("hedgehog", "donkey")
    assert not placeholder_pair("hedgehog", "hare"), "the Hedgehog is an omnivore: the shy hare shuns it"


def test_predator_weight_option() -> None:
    assert not placeholder_pair("goat", "dog")  # both weigh 1
    assert placeholder_pair("goat", "dog", predator_weight="not_lighter")


def test_config_masks_agree_with_the_predicate() -> None:
    for options in ({}, {"immune_shy": False, "immune_predator": "exempt", "predator_weight": "not_lighter"}):
        cfg = RulesConfig.from_options(options)
        n = cfg.deck.n
        for x in range(n):
            for y in range(n):
                if x != y:
                    assert bool(cfg.compat[x] >> y & 1) == pair_ok(cfg.deck, x, y, cfg.options)


# --- the cabin rules in play -------------------------------------------------------------------------------


def test_a_full_cabin_takes_no_card_and_the_scale_is_checked_per_card() -> None:
    st = position(
        left=[["goat", "sheep", "cow"]], right=[["horse"], ["camel"]], hands={0: ["donkey", "elephant"]}
    )
    assert st.tilt == 0
    legal = notations(st)
    assert "play donkey l1" not in legal, "three cards: full"
    assert "play donkey r1" in legal and "play donkey r2" in legal
    assert not any(t.startswith("play elephant") for t in legal), "4 tips the ark either way"
    st = position(left=[["goat", "sheep"]], right=[["horse"]], hands={0: ["donkey", "elephant", "nuts"]})
    assert st.tilt == 0
    legal = notations(st)
    assert "play donkey l1" not in legal, "the sheep is cold, the donkey hot"
    assert "play nuts new-l" in legal and "play elephant new-l" not in legal
    play(st, "play donkey r1")
    assert st.tilt == -2
    legal = notations(st)
    assert "play elephant new-l" in legal, "the second card relies on the first (the scale after it)"
    assert not any(t.startswith("play nuts") for t in legal), "provisions only alone, as the first card"
    assert "play elephant r1" not in legal and "done" in legal


def test_second_card_scale_option_checks_both() -> None:
    st = position(
        left=[["goat", "sheep"]],
        right=[["horse"]],
        hands={0: ["donkey", "elephant"]},
        options={"second_card_scale": "both"},
    )
    play(st, "play donkey r1")
    assert "play elephant new-l" not in notations(st), "4 would not have fitted before the first card"


def test_shy_animals_avoid_carnivore_neighbours_in_the_row_and_opposite() -> None:
    left = [["goat"], ["dog"], ["sheep"]]
    right = [["squirrel"], ["horse"], ["reindeer"]]
    st = position(left=left, right=right, hands={0: ["marmot"]})
    assert st.tilt == -1
    legal = notations(st)
    assert "play marmot l1" not in legal and "play marmot l3" not in legal, "next to the dog"
    assert "play marmot r2" not in legal, "the cabin opposite the dog"
    assert "play marmot r1" in legal and "play marmot r3" in legal
    st = position(left=left, right=right, hands={0: ["marmot"]}, options={"shy_neighbours": "row"})
    assert "play marmot r2" in notations(st)


def test_a_carnivore_may_join_next_to_a_shy_animal_which_stays() -> None:
    st = position(left=[["goat", "marmot"], ["horse"]], right=[["cow"], ["donkey"]], hands={0: ["dog"]})
    assert st.tilt == 0
    assert "play dog l2" in notations(st)
    play(st, "play dog l2")
    assert st.left[0] >> card(st, "marmot") & 1, "the shy animal stays"


def test_new_cabin_neighbours_for_shy_animals() -> None:
    st = position(left=[["dog"]], right=[["goat"]], hands={0: ["marmot"]})
    legal = notations(st)
    assert "play marmot new-l" not in legal, "next to the dog in its row"
    assert "play marmot new-r" in legal, "the new r2 faces no l2"

"""Action notation (docs/style.md §4) and the card data (docs/arctic-rules.md §2, §13.1).

That every action legal in random games round-trips (``string_to_action``, ``parse_legal``) is checked by
the conformance kit in ``test_kit.py``.
"""

from __future__ import annotations

import pytest

from floe.core.errors import AmbiguousActionError, IllegalActionError, InvalidActionError
from floe.games.arctic import actions as act
from floe.games.arctic import cards
from floe.games.arctic.cards import (
    ANIMALS,
    CARD_NAMES,
    COMPANION,
    DECK,
    DRAW,
    MAIN,
    N_CARDS,
    PLACEMENT,
    CardDataError,
    card_name,
    parse_card,
    validate,
)

from .positions import arrange, new_game

# --- notation --------------------------------------------------------------------------------------------


def test_all_action_ids_round_trip_and_texts_are_unique() -> None:
    ids = act.all_action_ids()
    texts = [act.action_to_string(a) for a in ids]
    assert len(set(texts)) == len(ids)
    for a, text in zip(ids, texts, strict=True):
        assert act.string_to_action(text) == a
        assert act.string_to_action(f"  {text.upper()}  ".replace(" ", "   ")) == a
    gaps = set(range(act.N_ACTIONS)) - set(ids)
    assert gaps == {14, 15, act.DECKS}  # the unused ids of the layout
    for a in (*gaps, -1, act.N_ACTIONS, 10**6):
        with pytest.raises(InvalidActionError):
            act.action_to_string(a)


def test_action_layout() -> None:
    assert act.action_to_string(act.PLACE) == "place fox-moose-5"
    assert act.action_to_string(act.GIVE + 4 * 1 + 2) == "give fox-walrus-4 to P3"
    assert act.action_to_string(act.GIVE_BLIND + 1) == "give ? to P2"
    assert act.action_to_string(act.DECKS + 0b0101) == "decks 1+3"
    assert act.action_to_string(act.SIDE) == "side fox-facedown"
    assert act.action_to_string(act.TOTEM + 5) == "totem bear"
    assert act.action_to_string(act.FIRST + 3) == "first P4"
    assert act.string_to_action("take back") == act.TAKE_BACK
    assert act.string_to_action("decks 3+1") == act.DECKS + 0b0101


@pytest.mark.parametrize(
    "text",
    [
        "",
        "dance",
        "place",
        "place unicorn-fox-3",
        "place fox-fox-3",
        "place fox-moose-6",
        "give fox-moose-5 to P5",
        "give fox-moose-5",
        "decks 5",
        "decks 1+",
        "side fox-sideways",
        "totem dragon",
        "first P9",
        "card",
        "main up",
    ],
)
def test_unknown_text_is_invalid(text: str) -> None:
    with pytest.raises(InvalidActionError):
        act.string_to_action(text)


def test_errors_are_value_errors() -> None:
    for cls in (InvalidActionError, IllegalActionError, AmbiguousActionError):
        assert issubclass(cls, ValueError)


def test_parse_legal_prefixes() -> None:
    _, st = new_game(2)
    arrange(
        st, player=0, piles={0: ["moose-bear-2"]}, hands={0: ["fox-moose-5", "fox-walrus-4", "orca-bear-4"]}
    )
    fox_moose, orca = act.PLACE + parse_card("fox-moose-5"), act.PLACE + parse_card("orca-bear-4")
    assert st.parse_legal("place fox-moose-5") == fox_moose
    assert st.parse_legal("  PLACE   Fox-Moose ") == fox_moose  # a unique prefix
    assert st.parse_legal("place o") == orca
    with pytest.raises(AmbiguousActionError, match="place fox-moose-5"):
        st.parse_legal("place fox")
    with pytest.raises(AmbiguousActionError):
        st.parse_legal("p")
    with pytest.raises(IllegalActionError):
        st.parse_legal("stop")  # an action, but not legal now
    with pytest.raises(IllegalActionError):
        st.parse_legal("place bear-fox-5")  # not in the hand
    with pytest.raises(InvalidActionError):
        st.parse_legal("fly away")
    with pytest.raises(InvalidActionError):
        st.parse_legal("   ")
    st.apply(fox_moose)
    with pytest.raises(AmbiguousActionError):
        st.parse_legal("pl")
    assert st.parse_legal("place f") == act.PLACE + parse_card("fox-walrus-4")  # now unique


def test_parse_legal_in_step_b() -> None:
    _, st = new_game(2)
    arrange(st, player=0, hands={0: ["fox-moose-5"]})
    st.apply(act.PLACE + parse_card("fox-moose-5"))
    with pytest.raises(AmbiguousActionError):
        st.parse_legal("main")
    assert st.parse_legal("main r") == act.MOVE_RIGHT
    assert st.parse_legal("MAIN LEFT") == act.MOVE_LEFT


def test_parse_actions_applies_to_a_clone() -> None:
    game, st = new_game(2)
    arrange(st, player=0, hands={0: ["fox-moose-5"]})
    before = st.to_json()
    ids = game.parse_actions(st, ["place fox-moose-5", "main l"])
    assert ids == [act.PLACE + parse_card("fox-moose-5"), act.MOVE_LEFT]
    assert st.to_json() == before


# --- card data -----------------------------------------------------------------------------------------

# Spec 2.5, deck by deck: for each main animal (fox..bear) its companions for draw values 1..5.
SPEC_MATRICES = """
fox: moose walrus orca puffin bear | moose: walrus orca puffin bear fox | walrus: orca puffin bear fox moose
orca: puffin bear fox moose walrus | puffin: bear fox moose walrus orca | bear: fox moose walrus orca puffin
fox: walrus orca puffin bear moose | moose: orca puffin bear fox walrus | walrus: puffin bear fox moose orca
orca: bear fox moose walrus puffin | puffin: fox moose walrus orca bear | bear: moose walrus orca puffin fox
fox: orca puffin bear moose walrus | moose: puffin bear fox walrus orca | walrus: bear fox moose orca puffin
orca: fox moose walrus puffin bear | puffin: moose walrus orca bear fox | bear: walrus orca puffin fox moose
fox: puffin bear moose walrus orca | moose: bear fox walrus orca puffin | walrus: fox moose orca puffin bear
orca: moose walrus puffin bear fox | puffin: walrus orca bear fox moose | bear: orca puffin fox moose walrus
"""


def spec_table() -> dict[tuple[int, int, int], int]:
    """(deck 1..4, main 1..6, draw 1..5) -> companion 1..6, from the matrices above."""
    rows = [part.strip() for line in SPEC_MATRICES.strip().splitlines() for part in line.split("|")]
    assert len(rows) == 24
    out = {}
    for i, row in enumerate(rows):
        name, _, companions = row.partition(":")
        k, p = i // 6 + 1, ANIMALS.index(name) + 1
        assert p == i % 6 + 1
        for d, comp in enumerate(companions.split(), start=1):
            out[(k, p, d)] = ANIMALS.index(comp) + 1
    return out


def test_card_table_matches_the_spec_matrices_and_both_formulas() -> None:
    table = spec_table()
    assert len(table) == N_CARDS
    for c in range(N_CARDS):
        k, p, d = DECK[c] + 1, MAIN[c] + 1, DRAW[c]
        assert c == (k - 1) * 30 + (p - 1) * 5 + (d - 1)  # card_no order of docs/arctic-rules.md §2.6
        companion = COMPANION[c] + 1
        assert table[(k, p, d)] == companion
        s = (1 if d + k >= 7 else 0) + ((p + d + k - 1) % 6)  # BGA's formula (docs/arctic-rules.md §2.3)
        assert companion == (s if s else 6)
        offset = ((d + k - 2) % 5) + 1  # the closed form
        assert companion == ((p - 1 + offset) % 6) + 1
        assert PLACEMENT[c] == 6 - d


def test_card_invariants_of_spec_2_4() -> None:
    assert len(MAIN) == len(COMPANION) == len(PLACEMENT) == len(DRAW) == len(DECK) == N_CARDS == 120
    for k in range(4):
        deck = [c for c in range(N_CARDS) if DECK[c] == k]
        assert len(deck) == 30
        for p in range(6):
            own = [c for c in deck if MAIN[c] == p]
            assert sorted(DRAW[c] for c in own) == [1, 2, 3, 4, 5]  # invariant 2
            assert sorted(COMPANION[c] for c in own) == sorted(set(range(6)) - {p})  # invariant 5
        for a in range(6):
            assert sum(1 for c in deck if COMPANION[c] == a) == 5  # invariant 6
        assert len({(MAIN[c], COMPANION[c]) for c in deck}) == 30
    assert all(PLACEMENT[c] + DRAW[c] == 6 for c in range(N_CARDS))  # invariant 3
    assert all(MAIN[c] != COMPANION[c] for c in range(N_CARDS))  # invariant 4
    for p in range(6):
        for a in range(6):
            if a != p:  # invariant 7: each ordered pair 4 times, with 4 different draw values
                draws = [DRAW[c] for c in range(N_CARDS) if MAIN[c] == p and COMPANION[c] == a]
                assert len(draws) == 4 and len(set(draws)) == 4
        for d in range(1, 6):
            comps = [COMPANION[c] for c in range(N_CARDS) if MAIN[c] == p and DRAW[c] == d]
            assert len(comps) == 4 and len(set(comps)) == 4
    assert len(set(CARD_NAMES)) == N_CARDS  # invariant 8: no two cards alike


def test_card_names_round_trip() -> None:
    for c in range(N_CARDS):
        assert parse_card(card_name(c)) == c
        assert parse_card(card_name(c).upper().replace("-", " ")) == c
    with pytest.raises(ValueError):
        parse_card("fox-fox-3")


def table() -> list[list[int]]:
    return [list(MAIN), list(COMPANION), list(PLACEMENT), list(DRAW), list(DECK)]


def corrupt(edit) -> tuple[tuple[int, ...], ...]:  # type: ignore[no-untyped-def]
    data = table()
    edit(data)
    return tuple(tuple(col) for col in data)


def test_validate_accepts_the_shipped_table() -> None:
    validate(cards.MAIN, cards.COMPANION, cards.PLACEMENT, cards.DRAW, cards.DECK)


@pytest.mark.parametrize(
    "name",
    [
        "swap companions",
        "companion equals main",
        "placement",
        "draw out of range",
        "deck",
        "short",
        "duplicate",
    ],
)
def test_validate_rejects_a_corrupted_table(name: str) -> None:
    def swap_companions(d: list[list[int]]) -> None:
        d[1][0], d[1][1] = d[1][1], d[1][0]

    def comp_is_main(d: list[list[int]]) -> None:
        d[1][7] = d[0][7]

    def placement(d: list[list[int]]) -> None:
        d[2][10] = 5 if d[2][10] != 5 else 4

    def draw(d: list[list[int]]) -> None:
        d[3][3], d[2][3] = 6, 0

    def deck(d: list[list[int]]) -> None:
        d[4][40] = 4

    def short(d: list[list[int]]) -> None:
        for col in d:
            col.pop()

    def duplicate(d: list[list[int]]) -> None:
        for col in d:
            col[31] = col[30]

    edits = {
        "swap companions": swap_companions,
        "companion equals main": comp_is_main,
        "placement": placement,
        "draw out of range": draw,
        "deck": deck,
        "short": short,
        "duplicate": duplicate,
    }
    with pytest.raises(CardDataError):
        validate(*corrupt(edits[name]))

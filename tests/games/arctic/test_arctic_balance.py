"""Arctic's balance facts (``floe balance``): power uses on hand-built positions, and every fact of whole
random games checked against the game's record (its actions in notation) and its final state."""

from __future__ import annotations

from collections import Counter

import pytest

from floe.core.record import Record
from floe.core.registry import make_game
from floe.games.arctic.balance import facts, powers_used
from floe.games.arctic.cards import ANIMALS, LANDSCAPE
from floe.games.arctic.game import ArcticState
from floe.games.arctic.powers import POWER_SLUGS, Power
from floe.lab.runner import play_game

from .positions import arrange, new_game, play, step_name

RIVER = ["fox-walrus-5", "moose-orca-5", "walrus-puffin-5", "orca-bear-5", "puffin-fox-5", "bear-moose-5"]


def _uses(st: ArcticState, text: str) -> list[int]:
    """The powers ``text`` uses in ``st``, then plays it."""
    used = powers_used(st, st.string_to_action(text))
    play(st, text)
    return used


def _placing(powers: list[str], hand: list[str], **kw: object) -> ArcticState:
    # P1's visible card fox-bear-1 asks for 1 card (placement value 1).
    _, st = new_game(2, powers=powers)
    return arrange(st, player=0, piles={0: ["fox-bear-1"]}, hands={0: hand}, **kw)  # type: ignore[arg-type]


def _to_draw(st: ArcticState) -> None:
    while step_name(st) in ("move", "extra"):
        play(st, "main right" if step_name(st) == "move" else "pass")


def test_moose_place_counts_one_more_or_one_fewer_card() -> None:
    hand = ["puffin-moose-3", "walrus-fox-2"]
    st = _placing(["moose-place"], hand, holder={"moose": 0})
    assert (st.placement_value, st.place_min, st.place_max) == (1, 0, 2)
    assert _uses(st, "place puffin-moose-3") == []  # the card's number: no power needed
    assert _uses(st, "place walrus-fox-2") == [Power.MOOSE_PLACE]  # one more than the number
    st = _placing(["moose-place"], hand, holder={"moose": 0})
    assert _uses(st, "stop") == [Power.MOOSE_PLACE]  # one fewer: none
    st = _placing(["moose-place"], hand, holder={"moose": 1})  # the other seat holds it: no range at all
    assert _uses(st, "place puffin-moose-3") == []


def test_moose_draw_counts_draws_past_or_stops_short_of_the_number() -> None:
    st = _placing(["moose-draw"], ["puffin-moose-3"], holder={"moose": 0}, river=RIVER)
    play(st, "place puffin-moose-3")
    _to_draw(st)
    assert (st.draw_min, st.draw_max) == (2, 4)  # the card's number is 3
    assert [_uses(st, f"river {c}") for c in RIVER[:3]] == [[], [], []]
    assert _uses(st, f"river {RIVER[3]}") == [Power.MOOSE_DRAW]
    st = _placing(["moose-draw"], ["puffin-moose-3"], holder={"moose": 0}, river=RIVER)
    play(st, "place puffin-moose-3")
    _to_draw(st)
    assert [_uses(st, f"river {c}") for c in RIVER[:2]] == [[], []]
    assert _uses(st, "stop") == [Power.MOOSE_DRAW]  # two: one fewer than the number


def test_orca_refill_counts_each_river_card_its_holder_takes() -> None:
    st = _placing(["orca-refill"], ["puffin-moose-3"], holder={"orca": 0}, river=RIVER)
    play(st, "place puffin-moose-3")
    _to_draw(st)
    assert _uses(st, f"river {RIVER[0]}") == [Power.ORCA_REFILL]
    st = _placing(["orca-refill"], ["puffin-moose-3"], holder={"orca": 1}, river=RIVER)
    play(st, "place puffin-moose-3")
    _to_draw(st)
    assert _uses(st, f"river {RIVER[0]}") == []  # not its holder


def test_an_action_of_its_own_is_the_power_it_belongs_to() -> None:
    st = _placing(["fox-under"], ["puffin-moose-3"], holder={"fox": 0})
    assert _uses(st, "under puffin-moose-3") == [Power.FOX_UNDER]
    st = _placing(["puffin-swap"], ["puffin-moose-3"], holder={"puffin": 0}, river=RIVER)
    assert _uses(st, "swap puffin-moose-3") == [Power.PUFFIN_SWAP]


# Power actions by their notation's first word (the Walrus's "extra" is whichever Walrus side is in play).
VERBS = {
    "under": ["fox-under"],
    "facedown": ["fox-facedown"],
    "extra": ["walrus-main", "walrus-companion"],
    "deck": ["orca-deck"],
    "swap": ["puffin-swap"],
    "take-back": ["puffin-take-back"],
    "penalty": ["bear-draw-penalty"],
    "give": ["bear-give"],
}


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_whole_games_facts_agree_with_the_record(seed: int) -> None:
    game = make_game("arctic", 4, {})
    _, final = play_game(game, ["random"] * 4, seed)
    assert isinstance(final, ArcticState)
    got = facts(game, final)
    actions = Record.of(game, seed, final).actions
    # Chance outcomes in the record: the sides in play, the totems dealt seat by seat, the first player.
    sides = {a.split()[1] for a in actions if a.startswith("side ")}
    totems = [a.split()[1] for a in actions if a.startswith("totem ")]
    first = next(int(a.split()[1][1:]) - 1 for a in actions if a.startswith("first "))
    assert len(sides) == 6 and len(totems) == 4
    for q, seat in enumerate(got.seats):
        assert seat["totem"] == totems[q] == ANIMALS[final.totems[q]]
        assert seat["totem_value"] == LANDSCAPE[final.tokens[final.totems[q]]]
        assert seat["turn_order"] == (q - first) % 4 + 1
        held = [POWER_SLUGS[final.powers[a]] for a in range(6) if final.holder[a] == q]
        assert seat["powers_held"] == (held or ["none"]) and seat["power_count"] == len(held)
        assert set(seat["powers_held"]) <= sides | {"none"}
        assert seat["triggered_end"] == (final.trigger_player == q)
    # Uses of the powers that are actions of their own: counted from the notation.
    verbs = Counter(a.split()[0] for a in actions)
    for verb, slugs in VERBS.items():
        for slug in slugs:
            expected = verbs[verb] if slug in sides else None
            assert got.game[f"uses:{slug}"] == expected, (verb, slug)
    assert got.game["rounds"] == final.round
    assert sum(seat["triggered_end"] for seat in got.seats) == 1  # someone's draw ended the main deck

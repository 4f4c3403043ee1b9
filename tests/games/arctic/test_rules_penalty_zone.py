"""The penalty zone as the rulebook has it (docs/arctic-rules.md §9, §D20; option ``penalties``), checked by
hand.

The rulebook's words: penalty cards go face down into the zone ("lege sie verdeckt in deine Strafzone",
German rules, step A and the hand limit); the Polar bear powers look at it and choose ("Guardate le carte
della vostra zona Penalità, sceglietene una e collocatela nella zona Penalità di un altro giocatore";
"potete guardare anche le carte dalla vostra zona Penalità e scegliere se pescare da lì o dal Fiume",
Italian rules). So under ``penalties=hidden_look`` (the rules preset's default) a player does not know
the cards drawn into their zone or given to them until a Polar bear power's look (``look``) shows the
zone; a card they discarded themselves they know. ``seen`` (BGA) and ``hidden_blind`` are kept as they were.
"""

from __future__ import annotations

import pytest

from floe.games.arctic import actions as act
from floe.games.arctic.log import log_line

from .positions import arrange, card, deal, legal, new_game, play, resolve, step_name

RIVER = ["fox-walrus-5", "moose-orca-5", "walrus-puffin-5", "orca-bear-5", "puffin-fox-5", "bear-moose-5"]
ZONE = ["walrus-fox-2", "orca-moose-2"]


def to_draw(st) -> None:  # type: ignore[no-untyped-def]
    """Go through step B with fixed choices until step C."""
    while step_name(st) in ("move", "extra"):
        play(st, "main right" if step_name(st) == "move" else "pass")


def before_placing(players: int = 2, *, unseen: list[str], **options: object):  # type: ignore[no-untyped-def]
    """P1 to place puffin-moose-3 on fox-bear-1 (P = 1), holding the Polar bear's penalty draw, with ``ZONE``
    as penalty cards (``unseen`` not seen by P1)."""
    _, st = new_game(players, powers=["bear-draw-penalty"], **options)
    arrange(
        st,
        player=0,
        piles={0: ["fox-bear-1"]},
        hands={0: ["puffin-moose-3"]},
        penalties={0: ZONE},
        unseen=unseen,
        river=RIVER,
        holder={"bear": 0},
    )
    return st


def at_draw(players: int = 2, *, unseen: list[str], **options: object):  # type: ignore[no-untyped-def]
    """``before_placing``, then the placement and step B: P1 arrives in step C."""
    st = before_placing(players, unseen=unseen, **options)
    play(st, "place puffin-moose-3")
    to_draw(st)
    return st


def test_the_rules_preset_keeps_penalty_cards_face_down_and_bga_shows_them() -> None:
    assert new_game(2)[0].config.penalties == "hidden_look"
    assert new_game(2, preset="bga")[0].config.penalties == "seen"


def test_bear_draw_from_a_face_down_zone_offers_a_look_and_then_the_zone_cards() -> None:
    st = at_draw(unseen=ZONE)
    assert step_name(st) == "draw" and st.drawn == 0
    # Before the look: the zone's cards are not offered (their names would tell P1 what it holds).
    assert legal(st) == ["look", *(f"river {c}" for c in RIVER)]
    before = st.observation(0)
    assert before.penalties == [] and before.penalty_unseen[0] == 2 and before.penalty_counts[0] == 2
    assert st.observation_dict(0)["players_view"][0]["penalties"] == []
    play(st, "look")
    # The look is no draw: P1 now sees the zone and chooses among its cards, or still the river.
    assert step_name(st) == "draw" and st.drawn == 0
    assert legal(st) == [*(f"river {c}" for c in RIVER), "penalty walrus-fox-2", "penalty orca-moose-2"]
    after = st.observation(0)
    assert after.penalties == sorted(card(c) for c in ZONE) and after.penalty_unseen[0] == 0
    # The other player learns that P1 looked, not what is there.
    assert st.observation(1).penalties == [] and st.observation(1).penalty_unseen[0] == 0
    play(st, "penalty orca-moose-2")
    assert card("orca-moose-2") in st.hands[0] and st.penalties[0] == [card("walrus-fox-2")]
    assert st.observation(0).penalties == [card("walrus-fox-2")]  # what was seen stays known


def test_a_card_the_owner_discarded_is_known_without_a_look() -> None:
    st = at_draw(unseen=["orca-moose-2"])
    assert legal(st) == ["look", *(f"river {c}" for c in RIVER), "penalty walrus-fox-2"]
    assert st.observation(0).penalties == [card("walrus-fox-2")]


def test_discarding_puts_a_known_card_face_down() -> None:
    _, st = new_game(2)
    hand = ["puffin-moose-3", "walrus-fox-2", "orca-moose-2", "walrus-bear-3", "moose-bear-2"]
    hand += ["bear-walrus-3", "fox-bear-2"]
    arrange(st, player=0, piles={0: ["fox-bear-1"]}, hands={0: hand}, river=RIVER)
    play(st, "place puffin-moose-3")
    to_draw(st)
    play(st, *(f"river {c}" for c in RIVER[:3]))
    resolve(st)
    assert step_name(st) == "discard"
    play(st, "discard walrus-fox-2")
    assert st.observation(0).penalties == [card("walrus-fox-2")] and st.unseen_penalties == []
    assert st.observation_dict(1)["players_view"][0]["penalty_count"] == 1


def test_a_shortfall_draws_face_down_cards_the_owner_does_not_see() -> None:
    _, st = new_game(2)
    # fox-walrus-4's placement value is 4; one card in hand: 3 penalty cards from the deck.
    arrange(st, player=0, piles={0: ["fox-walrus-4"]}, hands={0: ["puffin-moose-3"]}, river=RIVER)
    assert st.placement_value == 4
    play(st, "place puffin-moose-3")
    drawn = 0
    while st.is_chance_node() and st.pending[0][0] == 6:  # Job.PENALTY
        outcome = st.legal_actions()[0]
        assert st.observe_action(outcome, 0) is None  # the owner is not told the card
        before, after_state = st.observation(0), st.clone()
        after_state.apply(outcome)
        line = log_line(before, after_state.observation(0), None, None, 0)
        assert line is not None and line.startswith("You take a penalty card from the deck (face-down).")
        st.apply(outcome)
        drawn += 1
    assert drawn == 3
    assert len(st.penalties[0]) == drawn and st.unseen_penalties == st.penalties[0]
    assert st.observation(0).penalties == [] and st.observation(0).penalty_unseen[0] == drawn


def test_bear_give_from_a_face_down_zone_looks_first_and_the_card_arrives_unseen() -> None:
    _, st = new_game(3, powers=["bear-give"])
    arrange(
        st,
        player=0,
        piles={0: ["fox-bear-1"]},
        hands={0: ["puffin-moose-3"]},
        penalties={0: ["walrus-fox-2"], 2: ["orca-moose-2"]},
        unseen=["walrus-fox-2", "orca-moose-2"],
        holder={"bear": 0},
    )
    play(st, "place puffin-moose-3")
    to_draw(st)
    while step_name(st) == "draw":
        st.apply(st.legal_actions()[0])
    resolve(st)
    assert step_name(st) == "give"
    assert legal(st) == ["pass", "look"]
    play(st, "look")
    assert legal(st) == ["pass", "give walrus-fox-2 to P2", "give walrus-fox-2 to P3"]
    assert st.observation(0).penalties == [card("walrus-fox-2")]
    gift = act.string_to_action("give walrus-fox-2 to P3")
    assert st.observe_action(gift, 2) == "give ? to P3"  # face down: the receiver is not told the card
    before = st.observation(2)
    play(st, "give walrus-fox-2 to P3")
    after = st.observation(2)
    assert st.penalties[2] == sorted(card(c) for c in ["walrus-fox-2", "orca-moose-2"])
    assert after.penalties == [] and after.penalty_unseen[2] == 2
    line = log_line(before, after, "give ? to P3", 0, 2)
    assert line == "P1 gives a penalty card to you (Polar bear)."  # the card is not named


def test_under_the_bga_preset_the_owner_sees_every_card_and_nothing_needs_a_look() -> None:
    st = at_draw(unseen=[], preset="bga")
    assert "look" not in legal(st) and "penalty walrus-fox-2" in legal(st)
    assert st.observation(0).penalties == sorted(card(c) for c in ZONE)


def test_an_old_record_flag_reads_as_the_mode_it_meant() -> None:
    assert new_game(2, owner_sees_penalties=True)[0].config.penalties == "seen"
    assert new_game(2, owner_sees_penalties=False)[0].config.penalties == "hidden_blind"


def test_a_look_cannot_be_undone_but_the_placement_before_it_could() -> None:
    """Undo within a turn (issue 13, item 9) may not take back a look: its user has seen the zone and an undo
    cannot make them forget it. The placement before it revealed nothing and stays undoable."""
    st = before_placing(unseen=ZONE)
    assert st.undoable(st.string_to_action("place puffin-moose-3"))
    st = at_draw(unseen=ZONE)
    assert "look" in legal(st)
    assert not st.undoable(act.LOOK)


def giver_at_a(players: int = 3, *, hand: list[str], zone: list[str], **options: object):  # type: ignore[no-untyped-def]
    """P1 to place on fox-bear-1, holding the Polar bear's give since the start of the turn, with it used in
    step A (``bear_give_step=A``) and ``zone`` as P1's penalty cards."""
    _, st = new_game(players, powers=["bear-give"], bear_give_step="A", **options)
    return arrange(
        st, player=0, piles={0: ["fox-bear-1"]}, hands={0: hand}, penalties={0: zone}, holder={"bear": 0}
    )


def test_a_blind_give_in_step_a_is_offered_once_and_the_turn_goes_on() -> None:
    """Under hidden_blind the giver does not choose the card: one give per other seat, once per turn, before
    placing; the placement follows."""
    st = giver_at_a(hand=["puffin-moose-3"], zone=ZONE, penalties="hidden_blind")
    assert legal(st) == ["give ? to P2", "give ? to P3", "place puffin-moose-3"]
    play(st, "give ? to P3")
    deal(st, "orca-moose-2")  # the card drawn blind from the zone
    assert st.penalties == [[card("walrus-fox-2")], [], [card("orca-moose-2")]]
    assert step_name(st) == "place" and legal(st) == ["place puffin-moose-3"], "one give per turn"


def test_a_give_in_step_a_names_the_card_when_the_zone_is_seen() -> None:
    st = giver_at_a(hand=["puffin-moose-3"], zone=ZONE, penalties="seen")
    gives = [f"give {c} to P{q}" for c in ZONE for q in (2, 3)]
    assert legal(st) == ["place puffin-moose-3", *gives]
    play(st, "give walrus-fox-2 to P2")
    assert st.penalties == [[card("orca-moose-2")], [card("walrus-fox-2")], []]
    assert step_name(st) == "place" and legal(st) == ["place puffin-moose-3"], "one give per turn"


@pytest.mark.parametrize(
    ("step", "zone", "held", "asked"),
    [
        ("A", True, True, True),  # the give is still possible before placing: P1 decides
        ("C", True, True, False),  # the give belongs to step C
        ("A", False, True, False),  # nothing to give
        ("A", True, False, False),  # the power is another seat's
    ],
)
@pytest.mark.parametrize("penalties", ["seen", "hidden_blind"])
def test_an_empty_hand_waits_in_step_a_only_for_a_possible_give(
    step: str, zone: bool, held: bool, asked: bool, penalties: str
) -> None:
    """With no hand card the placement can only be a shortfall; P1 is asked first only if a step-A give is
    possible (the power held, a penalty card to give)."""
    _, st = new_game(3, powers=["bear-give"], bear_give_step=step, penalties=penalties)
    arrange(
        st,
        player=0,
        piles={0: ["fox-bear-1"]},
        hands={0: []},
        penalties={0: ["walrus-fox-2"] if zone else []},
        holder={"bear": 0 if held else 1},
    )
    if asked:
        card_word = "?" if penalties == "hidden_blind" else "walrus-fox-2"
        assert legal(st) == ["stop", f"give {card_word} to P2", f"give {card_word} to P3"]
    else:
        assert st.is_chance_node() and step_name(st) == "take-power", "the shortfall is drawn at once"


def test_a_blind_give_in_step_c_offers_each_other_seat_once() -> None:
    _, st = new_game(3, powers=["bear-give"], penalties="hidden_blind")
    arrange(
        st,
        player=0,
        piles={0: ["fox-bear-1"]},
        hands={0: ["puffin-moose-3"]},
        penalties={0: ["walrus-fox-2"]},
        holder={"bear": 0},
    )
    play(st, "place puffin-moose-3")
    to_draw(st)
    while step_name(st) == "draw":
        st.apply(st.legal_actions()[-1])
    resolve(st)
    assert step_name(st) == "give" and legal(st) == ["pass", "give ? to P2", "give ? to P3"]


def test_a_blind_penalty_draw_counts_as_one_card_drawn() -> None:
    st = at_draw(unseen=[], penalties="hidden_blind")
    assert (st.draw_min, st.draw_max, st.drawn) == (3, 3, 0)
    play(st, "penalty ?")
    resolve(st)
    assert st.drawn == 1 and step_name(st) == "draw"
    assert len(st.hands[0]) == 1  # one of the two zone cards, now in hand


def test_a_given_card_may_be_any_card_the_giver_hid_but_no_other_seats() -> None:
    """Public knowledge (``known``): a card that might have been hidden by the giver might now be in the
    receiver's zone too; a card only another seat might hide is not touched by the gift."""
    st = giver_at_a(hand=["puffin-moose-3"], zone=["walrus-fox-2"], penalties="seen")
    mine, theirs = card("orca-moose-2"), card("bear-fox-5")
    st.known[mine], st.known[theirs] = 1 << 0, 1 << 2
    play(st, "give walrus-fox-2 to P2")
    assert st.known[mine] == (1 << 0) | (1 << 1) and st.known[theirs] == 1 << 2

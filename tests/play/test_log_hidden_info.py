"""The game log never tells a seat a card it may not know (spec section 9: hidden information is sacred).

Over many random games, with every power and the information flags varied, each log line shown to each
viewer (every seat and a spectator) may name only cards that viewer could see just before or just after
the action: its hand, the penalty cards it has seen (all with ``penalties=seen``; with ``hidden_look``, the
default, those it discarded or looked at with a Polar bear power), the river, face-up pile cards, its own
face-down cards, the card announced for a Puffin swap. A line about a card drawn face-down names no card.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from floe.core import present
from floe.games.arctic import actions as act
from floe.games.arctic.actions import ActionKind
from floe.games.arctic.cards import N_CARDS, card_words
from floe.games.arctic.game import ArcticGame, ArcticState
from floe.games.arctic.observation import ArcticObservation
from floe.games.arctic.state import FACE_DOWN_FLAG, Job

PRESENTER = present.presenter_for("arctic")


def log_line(before: ArcticState, action: int, viewer: int | None) -> str | None:
    """The log line ``viewer`` gets, through the presenter (observations and the observed action only)."""
    return present.log_line(PRESENTER, before, action, viewer)


# The log names a card in words (``Fox/Walrus (place 4, draw 2)``, English here): one name per card.
CARD_NAMES = tuple(card_words(c) for c in range(N_CARDS))
CARD_RE = re.compile(r"[A-Z][a-z]+(?: bear)?/[A-Z][a-z]+(?: bear)? \(place \d+, draw \d+\)")
CONFIGS: list[dict[str, Any]] = [
    {"powers": "fox-facedown,moose-draw,walrus-main,orca-deck,puffin-swap,bear-draw-penalty"},
    {"powers": "fox-under,moose-place,walrus-companion,orca-refill,puffin-take-back,bear-give"},
    {"powers": "fox-facedown,orca-deck,bear-give,puffin-take-back", "bear_give_step": "A"},
    {"powers": "fox-facedown,orca-deck,bear-draw-penalty,puffin-swap", "penalties": "hidden_blind"},
    {"powers": "fox-facedown,bear-give,orca-refill", "penalties": "hidden_blind", "piles_public": False},
    {"powers": "bear-draw-penalty,orca-deck", "preset": "bga"},
    {"preset": "bga"},
]


def visible(obs: ArcticObservation) -> set[str]:
    """Card names the observing seat can see right now."""
    cards = set(obs.river) | set(obs.hand) | set(obs.penalties or ())
    for pile in obs.piles:
        for entry in pile:
            if 0 <= entry < FACE_DOWN_FLAG:
                cards.add(entry)
            elif entry >= FACE_DOWN_FLAG:  # only one's own face-down cards carry their identity
                cards.add(entry - FACE_DOWN_FLAG)
    if obs.scalars["swap_card"] >= 0:
        cards.add(obs.scalars["swap_card"])  # a Puffin swap is announced (public)
    return {CARD_NAMES[c] for c in cards}


def play_and_check(options: dict[str, Any], players: int, seed: int) -> dict[str, int]:
    """Play one random game from the empty table, checking every line for every viewer."""
    rng = random.Random(seed)
    state: ArcticState = ArcticGame(players, options).new_initial_state()
    viewers: list[int | None] = [None, *range(players)]
    seen = {v: visible(state.observation(v)) for v in viewers}
    stats = {"lines": 0, "own_hidden_named": 0}
    while not state.is_terminal():
        action = state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions())
        before = state.clone()
        lines = {v: log_line(before, action, v) for v in viewers}
        state.apply(action)
        now = {v: visible(state.observation(v)) for v in viewers}
        for v in viewers:
            line = lines[v]
            if line is None:
                continue
            stats["lines"] += 1
            named = set(CARD_RE.findall(line))
            assert named <= set(CARD_NAMES), line
            leaked = named - seen[v] - now[v]
            assert not leaked, f"viewer {v} was told {leaked}: {line!r} ({act.action_to_string(action)})"
            if before.is_chance_node() and "face-down" in line:
                assert not named, f"a card drawn face-down is named: {line!r}"
            if before.is_chance_node() and before.pending[0][0] == Job.TOTEM and before.pending[0][1] != v:
                raise AssertionError(f"viewer {v} heard about another seat's totem: {line!r}")
            if (
                named
                and not before.is_chance_node()
                and before.turn_player == v
                and not any(n in seen[None] or n in now[None] for n in named)
            ):
                stats["own_hidden_named"] += 1  # the owner was told their own hidden card
        seen = now
    return stats


@pytest.mark.parametrize("options", CONFIGS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items())[:60])
def test_no_log_line_names_a_card_the_viewer_may_not_know(options: dict[str, Any]) -> None:
    totals = {"lines": 0, "own_hidden_named": 0}
    for seed in range(6):
        stats = play_and_check(options, players=2 + seed % 3, seed=seed)
        for key in totals:
            totals[key] += stats[key]
    assert totals["lines"] > 500
    # Not vacuous: owners do hear about their own hidden cards (discards, face-down placements, draws).
    assert totals["own_hidden_named"] > 0


def _first(
    options: dict[str, Any], players: int, wanted: ActionKind, seeds: range = range(40)
) -> tuple[ArcticState, int]:
    """The state before the first decision of the kind ``wanted``, and that action."""
    for seed in seeds:
        rng = random.Random(seed)
        state = ArcticGame(players, options).new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            hits = [a for a in legal if act.decode(a).kind is wanted]
            action = hits[0] if hits else rng.choice(legal)
            if hits:
                return state.clone(), action
            state.apply(action)
    raise AssertionError("no such action in the games tried")


def test_face_down_card_is_named_to_its_owner_only() -> None:
    state, action = _first({"powers": "fox-facedown"}, 3, ActionKind.FACEDOWN)
    card = CARD_NAMES[act.decode(action).card]
    owner = state.turn_player
    assert card in (log_line(state, action, owner) or "")
    for viewer in [None, *(q for q in range(3) if q != owner)]:
        line = log_line(state, action, viewer) or ""
        assert card not in line and "face-down" in line


def test_discard_is_named_to_its_owner_only() -> None:
    state, action = _first({}, 2, ActionKind.DISCARD)
    card = CARD_NAMES[act.decode(action).card]
    assert card in (log_line(state, action, state.turn_player) or "")
    assert card not in (log_line(state, action, 1 - state.turn_player) or "")


def test_orca_deck_draw_is_named_to_the_drawer_only() -> None:
    state, action = _first({"powers": "orca-deck"}, 2, ActionKind.DECK)
    drawer = state.turn_player
    state.apply(action)
    assert state.is_chance_node()
    outcome = state.legal_actions()[0]
    card = CARD_NAMES[act.decode(outcome).card]
    assert card in (log_line(state, outcome, drawer) or "")
    assert log_line(state, outcome, 1 - drawer) is None
    assert log_line(state, outcome, None) is None


def test_setup_totems_and_deals_stay_secret() -> None:
    state = ArcticGame(3, {}).new_initial_state()
    rng = random.Random(0)
    told: dict[int, list[str]] = {0: [], 1: [], 2: []}
    while state.is_chance_node():
        outcome = state.sample_chance(rng)
        for viewer in told:
            line = log_line(state, outcome, viewer)
            if line:
                told[viewer].append(line)
        state.apply(outcome)
    for viewer, lines in told.items():
        text = " ".join(lines)
        assert text.count("Your totem is") == 1
        assert text.count("You are dealt") == 3
        hand = {CARD_NAMES[c] for c in state.hands[viewer]}
        assert {n for n in CARD_RE.findall(text) if n not in {CARD_NAMES[c] for c in state.river}} == hand


def test_an_orca_deck_draw_is_told_to_the_drawer_in_one_line() -> None:
    """Not "You draw the top card of the deck (Orca)." then "You draw fox-orca-1 from the deck."."""
    state, action = _first({"powers": "orca-deck"}, 2, ActionKind.DECK)
    drawer, other = state.turn_player, 1 - state.turn_player
    assert log_line(state, action, drawer) is None  # the card drawn comes with the chance line
    assert log_line(state, action, other) == f"P{drawer + 1} draws the top card of the deck (Orca)."
    state.apply(action)
    outcome = state.legal_actions()[0]
    card = CARD_NAMES[act.decode(outcome).card]
    assert log_line(state, outcome, drawer) == f"You draw {card} from the top of the deck (Orca)."
    assert log_line(state, outcome, other) is None


def test_a_penalty_card_shown_to_its_owner_is_not_called_face_down() -> None:
    """With penalties=seen the owner sees the card: named, not "face-down"; the others: face-down, unnamed."""
    for seed in range(40):
        rng = random.Random(seed)
        state = ArcticGame(2, {"preset": "bga"}).new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node() and state.pending[0][0] == Job.PENALTY:
                outcome = state.legal_actions()[0]
                owner = state.pending[0][1]
                card = CARD_NAMES[act.decode(outcome).card]
                mine = log_line(state, outcome, owner) or ""
                assert mine.startswith(f"You take {card} from the deck into your penalty zone")
                theirs = log_line(state, outcome, 1 - owner) or ""
                assert theirs.startswith(f"P{owner + 1} takes a penalty card from the deck (face-down)")
                assert card not in theirs
                return
            chance = state.is_chance_node()
            state.apply(state.sample_chance(rng) if chance else rng.choice(state.legal_actions()))
    raise AssertionError("no penalty draw in the games tried")


def test_a_discard_is_face_down_only_to_the_others() -> None:
    state, action = _first({}, 2, ActionKind.DISCARD)
    card = CARD_NAMES[act.decode(action).card]
    owner = state.turn_player
    assert log_line(state, action, owner) == f"You discard {card} into your penalty zone."
    theirs = f"P{owner + 1} discards a card face-down into their penalty zone."
    assert log_line(state, action, 1 - owner) == theirs

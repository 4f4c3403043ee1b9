"""Arctic's game log: one line in words per action, as one seat may know it (spec section 9).

``log_line(before, action, viewer)`` words what ``action`` did to ``before`` for ``viewer`` (a seat, or
None for a spectator). Hidden information is never named to a seat that may not know it: a card dealt to
another hand, a penalty card, another player's face-down placement or discard, an Orca deck draw, a Polar
bear penalty-zone draw or gift. The owner of such a card is told its name (they chose or received it);
everyone else learns only that a card moved. Public events (placements, river draws and refills, swaps,
take-backs, token moves, power cards changing hands) are told to all.

The automatic consequences of an action (a power card taken, a forced token move, a shortfall turned into
penalty cards, the end being triggered) are all public; they are found by applying the action to a copy
of ``before`` and comparing, so the log never has to re-implement the rules.
"""

from __future__ import annotations

from floe.games.arctic import actions as act
from floe.games.arctic.cards import ANIMALS, CARD_NAMES, COMPANION, LANDSCAPE, MAIN, N_ANIMALS, N_CARDS
from floe.games.arctic.game import ArcticState
from floe.games.arctic.powers import POWER_SLUGS, POWER_WORDS
from floe.games.arctic.state import (
    EXTRA,
    J_BLIND_DRAW,
    J_BLIND_GIVE,
    J_DECKS,
    J_FIRST,
    J_HAND,
    J_PENALTY,
    J_RIVER,
    J_SIDE,
    J_TOTEM,
    OVER,
    PLACE,
    SETUP,
    SWAP_RIVER,
)

CHANCE = -1

__all__ = ["log_line"]

# Verbs whose third person is irregular; the rest take "s" (or "es" after s/x/ch/sh/o).
_IRREGULAR = {"have": "has", "do": "does", "don't": "doesn't", "be": "is"}


class _Who:
    """A seat as the subject or object of a sentence, relative to the viewer ("you" or "P2")."""

    def __init__(self, seat: int, viewer: int | None) -> None:
        self.you = seat == viewer
        self.name = "You" if self.you else f"P{seat + 1}"
        self.obj = "you" if self.you else f"P{seat + 1}"
        self.their = "your" if self.you else "their"

    def verb(self, verb: str) -> str:
        """The verb agreeing with this subject: ``place`` for you, ``places`` for P2."""
        if self.you:
            return "are" if verb == "be" else verb
        if verb in _IRREGULAR:
            return _IRREGULAR[verb]
        return verb + ("es" if verb.endswith(("s", "x", "ch", "sh", "o")) else "s")

    def does(self, verb: str) -> str:
        """Subject and verb: ``You place`` / ``P2 places``."""
        return f"{self.name} {self.verb(verb)}"


def _pos(position: int) -> str:
    """A token position as its landscape value."""
    return str(LANDSCAPE[position])


def log_line(before: ArcticState, action: int, viewer: int | None) -> str | None:
    """One line in words on what ``action`` did to ``before``, told as ``viewer`` may know it.

    ``before`` is the state just before the action (clone it before applying); it is not modified.
    ``viewer`` is a seat or None for a spectator. Returns None when there is nothing the viewer may
    learn (another player's hidden card arriving, most setup events).
    """
    after = before.clone()
    after.apply_unchecked(action)
    if before.to_act == CHANCE:
        head = _chance_line(before, action, viewer)
    else:
        head = _decision_line(before, action, viewer)
    parts = [head] if head else []
    parts += _consequences(before, after, action, viewer)
    if not parts:
        return None
    return ". ".join(parts) + "."


def _decision_line(st: ArcticState, action: int, viewer: int | None) -> str:
    """A player's decision in words; hidden cards are named only to their owner."""
    p = _Who(st.player, viewer)
    step = st.step
    if action == act.STOP:
        if step == PLACE:
            return f"{p.does('stop')} placing cards ({st.placed} placed)"
        return f"{p.does('stop')} drawing ({st.drawn} drawn)"
    if action == act.PASS:
        if step == EXTRA:
            return p.does("don't") + " use the Walrus power"
        return f"{p.does('give')} no penalty card away"
    if action == act.TAKE_BACK:
        # The visible card is face-up and public, and it is announced as it goes back (spec 9).
        card = st.piles[st.player][-1]
        return f"{p.does('take')} {CARD_NAMES[card]} back into {p.their} hand (Puffin)"
    if action == act.DRAW_DECK:
        return f"{p.does('draw')} the top card of the deck (Orca)"
    if action in (act.MOVE_RIGHT, act.MOVE_LEFT):
        top = st.piles[st.player][-1]
        main, comp = MAIN[top], COMPANION[top]
        d = 1 if action == act.MOVE_RIGHT else -1
        m, c = st.tokens[main], st.tokens[comp]
        return (
            f"{p.does('move')} the {ANIMALS[main]} token {'forward' if d > 0 else 'back'} "
            f"({_pos(m)} → {_pos(m + d)}) and the {ANIMALS[comp]} token {'back' if d > 0 else 'forward'} "
            f"({_pos(c)} → {_pos(c - d)})"
        )
    if action in (act.EXTRA_RIGHT, act.EXTRA_LEFT):
        a = st.walrus_token
        d = 1 if action == act.EXTRA_RIGHT else -1
        t = st.tokens[a]
        return (
            f"{p.does('use')} the Walrus power: the {ANIMALS[a]} token moves one more step "
            f"{'forward' if d > 0 else 'back'} ({_pos(t)} → {_pos(t + d)})"
        )
    if action == act.PENALTY_BLIND:
        return f"{p.does('draw')} an unseen card from {p.their} penalty zone (Polar bear)"
    if act.GIVE_BLIND <= action < act.GIVE_BLIND + 4:
        q = _Who(action - act.GIVE_BLIND, viewer)
        return f"{p.does('give')} an unseen penalty card to {q.obj} (Polar bear)"
    if act.GIVE <= action < act.N_PLAYER_ACTIONS:
        card, to = divmod(action - act.GIVE, 4)
        q = _Who(to, viewer)
        if p.you:
            return f"{p.does('give')} {CARD_NAMES[card]} from {p.their} penalty zone to {q.obj} (Polar bear)"
        if q.you and st.config.owner_sees_penalties:
            return f"{p.does('give')} you {CARD_NAMES[card]} from {p.their} penalty zone (Polar bear)"
        return f"{p.does('give')} a penalty card to {q.obj} (Polar bear)"
    if not act.PLACE <= action < act.GIVE:
        return f"{p.does('play')} {act.action_to_string(action)}"
    card = (action - act.PLACE) % N_CARDS
    name = CARD_NAMES[card]
    if action < act.UNDER:
        return f"{p.does('place')} {name} on {p.their} pile"
    if action < act.FACEDOWN:
        return f"{p.does('place')} {name} at the bottom of {p.their} pile (Fox)"
    if action < act.SWAP:
        what = name if p.you else "a card"
        return f"{p.does('place')} {what} face-down under {p.their} visible card (Fox)"
    if action < act.RIVER:
        return f"{p.does('offer')} {name} from {p.their} hand for a river card (Puffin swap)"
    if action < act.PENALTY:
        if step == SWAP_RIVER:
            return f"{p.does('swap')} {CARD_NAMES[st.swap_card]} for {name} from the river (Puffin)"
        return f"{p.does('draw')} {name} from the river"
    if action < act.DISCARD:
        what = name if p.you else "a card"
        return f"{p.does('take')} {what} from {p.their} penalty zone into {p.their} hand (Polar bear)"
    what = name if p.you else "a card"
    return f"{p.does('discard')} {what} face-down into {p.their} penalty zone"


def _chance_line(st: ArcticState, action: int, viewer: int | None) -> str | None:
    """A chance outcome in words; a card reaching a hidden place is named only to its owner."""
    kind, a, _ = st.pending[0]
    if kind == J_RIVER:
        return f"{CARD_NAMES[action - act.CARD]} is added to the river"
    if kind == J_HAND:
        if a != viewer:
            return None  # the decision that asked for it (an Orca deck draw) was already told
        verb = "are dealt" if st.step == SETUP else "draw"
        return f"You {verb} {CARD_NAMES[action - act.CARD]}" + ("" if st.step == SETUP else " from the deck")
    if kind == J_PENALTY:
        who = _Who(a, viewer)
        if who.you and st.config.owner_sees_penalties:
            return f"You take a penalty card from the deck: {CARD_NAMES[action - act.CARD]} (face-down)"
        return f"{who.does('take')} a penalty card from the deck (face-down)"
    if kind == J_BLIND_DRAW:
        return f"You get {CARD_NAMES[action - act.CARD]}" if a == viewer else None
    if kind == J_BLIND_GIVE:
        return None  # nobody may look at the card (owner_sees_penalties is off when this happens)
    if kind == J_DECKS:
        return f"Decks {act.decks_mask_text(action - act.DECKS)} are in play"
    if kind == J_SIDE:
        pid = act.POWER_IDS[action - act.SIDE]
        return f"The {ANIMALS[a]} power in play is {POWER_SLUGS[pid]}: {POWER_WORDS[pid]}"
    if kind == J_TOTEM:
        return f"Your totem is the {ANIMALS[action - act.TOTEM]}" if a == viewer else None
    if kind == J_FIRST:
        return f"{_Who(action - act.FIRST, viewer).does('play')} first"
    return None


def _consequences(before: ArcticState, after: ArcticState, action: int, viewer: int | None) -> list[str]:
    """The public, automatic effects of an action: all read off the difference of the two states."""
    out: list[str] = []
    decision = before.to_act != CHANCE
    if decision:
        short = sum(1 for job in after.pending if job[0] == J_PENALTY)
        if short and not any(job[0] == J_PENALTY for job in before.pending):
            who = _Who(before.player, viewer)
            cards = f"{short} card{'s' if short > 1 else ''}"
            out.append(f"{who.does('be')} {cards} short and {who.verb('take')} {cards} as penalties")
    for a in range(N_ANIMALS):
        if after.holder[a] != before.holder[a] and after.holder[a] >= 0:
            who = _Who(after.holder[a], viewer)
            slug = POWER_SLUGS.get(after.powers[a], ANIMALS[a])
            source = "" if before.holder[a] < 0 else f" from {_Who(before.holder[a], viewer).obj}"
            out.append(f"{who.does('take')} the {ANIMALS[a]} power card ({slug}){source}")
    if action not in (act.MOVE_RIGHT, act.MOVE_LEFT, act.EXTRA_RIGHT, act.EXTRA_LEFT):
        moved = [
            f"{ANIMALS[a]} {_pos(before.tokens[a])} → {_pos(after.tokens[a])}"
            for a in range(N_ANIMALS)
            if after.tokens[a] != before.tokens[a]
        ]
        if moved:
            out.append("Forced token move: " + ", ".join(moved))
    if after.end_triggered and not before.end_triggered and before.step != SETUP:
        out.append("The main deck is empty: the reserve becomes the deck and this is the last normal round")
    if after.final_round and not before.final_round:
        out.append("Final round: every player plays steps A and B only")
    if after.step == OVER and before.step != OVER:
        out.append("The game is over")
    return out

"""Arctic's game log: one line in words per action, told from what one viewer may know (spec section 9).

``log_line(before, after, seen, actor, viewer)`` reads only the viewer's observations just before and
just after the action and the action as the viewer may know it (``seen``, from ``observe_action``, where a
hidden card is written ``?`` and a hidden chance outcome is None; read with ``actions.parse``). So the log
cannot name a card the viewer may not know: it never sees one.

The automatic consequences of an action (a power card taken, a forced token move, a shortfall turned into
penalty cards, the end being triggered) are public; they are read off the difference of the two
observations, so the log never re-implements the rules.
"""

from __future__ import annotations

from floe.games.arctic import actions as act
from floe.games.arctic.actions import ActionKind
from floe.games.arctic.cards import ANIMALS, CARD_NAMES, COMPANION, LANDSCAPE, MAIN, N_ANIMALS
from floe.games.arctic.observation import ArcticObservation
from floe.games.arctic.powers import POWER_SLUGS, POWER_WORDS
from floe.games.arctic.state import EXTRA, OVER, PLACE, SETUP, SWAP_RIVER, Job
from floe.games.arctic.text import visible_top

__all__ = ["log_line"]

# Verbs whose third person is irregular; the rest take "s" (or "es" after s/x/ch/sh/o).
_IRREGULAR = {"have": "has", "do": "does", "don't": "doesn't", "be": "is"}
# Decisions that move a token by choice (other token moves are forced, and told as consequences).
_TOKEN_KINDS = frozenset((ActionKind.MOVE, ActionKind.EXTRA))


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


def log_line(
    before: ArcticObservation,
    after: ArcticObservation,
    seen: str | None,
    actor: int | None,
    viewer: int | None,
) -> str | None:
    """One line in words on an action, told as ``viewer`` (a seat, or None for a spectator) may know it.

    ``before``/``after`` are the viewer's observations around the action, ``seen`` the action as the viewer
    may know it, ``actor`` the seat that chose it (None for a chance outcome). None when there is nothing
    the viewer may learn (another player's hidden card arriving, most setup events).
    """
    if actor is None:
        head = _chance_line(before, seen, viewer)
    else:
        head = _decision_line(before, seen or "", actor, viewer)
    parts = [head] if head else []
    parts += _consequences(before, after, seen, actor, viewer)
    if not parts:
        return None
    return ". ".join(parts) + "."


def _decision_line(obs: ArcticObservation, seen: str, actor: int, viewer: int | None) -> str | None:
    """A player's decision in words; a hidden card is named only where ``seen`` names it."""
    s = obs.scalars
    p = _Who(actor, viewer)
    step = s["step"]
    d = act.parse(seen)
    k = ActionKind
    kind = d.kind
    card = CARD_NAMES[d.card] if d.card >= 0 else None
    blind = obs.config.penalties == "hidden_blind"  # nobody looks: Polar bear cards are taken unseen
    if kind is k.STOP:
        if step == PLACE:
            return f"{p.does('stop')} placing cards ({s['placed']} placed)"
        return f"{p.does('stop')} drawing ({s['drawn']} drawn)"
    if kind is k.PASS:
        if step == EXTRA:
            return p.does("don't") + " use the Walrus power"
        return f"{p.does('give')} no penalty card away"
    if kind is k.TAKE_BACK:
        # The visible card is face-up and public, and it is announced as it goes back (spec 9).
        top = visible_top(obs.piles[actor])
        return f"{p.does('take')} {CARD_NAMES[top]} back into {p.their} hand (Puffin)"
    if kind is k.DECK:
        if p.you:
            return None  # the card drawn is told next, in one line (the chance line)
        return f"{p.does('draw')} the top card of the deck (Orca)"
    if kind is k.LOOK:
        return f"{p.does('look')} at {p.their} face-down penalty cards (Polar bear)"
    if kind is k.MOVE:
        top = visible_top(obs.piles[actor])
        main, comp = MAIN[top], COMPANION[top]
        forward = d.direction == act.RIGHT
        m, c = obs.tokens[main], obs.tokens[comp]
        return (
            f"{p.does('move')} the {ANIMALS[main]} token {'forward' if forward else 'back'} "
            f"({_pos(m)} → {_pos(m + d.direction)}) and the {ANIMALS[comp]} token "
            f"{'back' if forward else 'forward'} ({_pos(c)} → {_pos(c - d.direction)})"
        )
    if kind is k.EXTRA:
        a = s["walrus_token"]
        t = obs.tokens[a]
        return (
            f"{p.does('use')} the Walrus power: the {ANIMALS[a]} token moves one more step "
            f"{'forward' if d.direction == act.RIGHT else 'back'} ({_pos(t)} → {_pos(t + d.direction)})"
        )
    if kind is k.GIVE or kind is k.GIVE_BLIND:
        q = _Who(d.seat, viewer)
        if card is not None and p.you:
            return f"{p.does('give')} {card} from {p.their} penalty zone to {q.obj} (Polar bear)"
        if card is not None:
            return f"{p.does('give')} you {card} from {p.their} penalty zone (Polar bear)"
        if blind:
            return f"{p.does('give')} an unseen penalty card to {q.obj} (Polar bear)"
        return f"{p.does('give')} a penalty card to {q.obj} (Polar bear)"
    if (kind is k.PENALTY or kind is k.PENALTY_BLIND) and blind:
        return f"{p.does('draw')} an unseen card from {p.their} penalty zone (Polar bear)"
    what = card or "a card"
    if kind is k.PLACE:
        return f"{p.does('place')} {what} on {p.their} pile"
    if kind is k.UNDER:
        return f"{p.does('place')} {what} at the bottom of {p.their} pile (Fox)"
    if kind is k.FACEDOWN:
        return f"{p.does('place')} {what} face-down under {p.their} visible card (Fox)"
    if kind is k.SWAP:
        return f"{p.does('offer')} {what} from {p.their} hand for a river card (Puffin swap)"
    if kind is k.RIVER:
        if step == SWAP_RIVER:
            return f"{p.does('swap')} {CARD_NAMES[s['swap_card']]} for {what} from the river (Puffin)"
        return f"{p.does('draw')} {what} from the river"
    if kind is k.PENALTY or kind is k.PENALTY_BLIND:
        # Seen by another seat, the owner's look at its own penalty zone reads "penalty ?".
        return f"{p.does('take')} {what} from {p.their} penalty zone into {p.their} hand (Polar bear)"
    if kind is k.DISCARD:
        if card is not None:  # the card is named only to its owner, who knows it
            return f"{p.does('discard')} {card} into {p.their} penalty zone"
        return f"{p.does('discard')} a card face-down into {p.their} penalty zone"
    return f"{p.does('play')} {seen}"


def _chance_line(obs: ArcticObservation, seen: str | None, viewer: int | None) -> str | None:
    """A chance outcome in words; None where the viewer learns nothing of it."""
    kind, a, _ = obs.pending[0]
    if seen is None:
        if kind == Job.PENALTY:
            return f"{_Who(a, viewer).does('take')} a penalty card from the deck (face-down)"
        return None  # a card dealt to another hand, an unseen penalty card, another totem
    d = act.parse(seen)
    card = CARD_NAMES[d.card] if d.card >= 0 else "?"
    if kind == Job.RIVER:
        return f"{card} is added to the river"
    if kind == Job.HAND:
        if obs.scalars["step"] == SETUP:
            return f"You are dealt {card}"
        return f"You draw {card} from the top of the deck (Orca)"
    if kind == Job.PENALTY:
        return f"You take {card} from the deck into your penalty zone"
    if kind == Job.BLIND_DRAW:
        return f"You get {card}"
    if kind == Job.DECKS:
        return f"Decks {act.decks_mask_text(d.decks)} are in play"
    if kind == Job.SIDE and d.power is not None:
        return f"The {ANIMALS[a]} power in play is {d.power.slug}: {POWER_WORDS[d.power]}"
    if kind == Job.TOTEM:
        return f"Your totem is the {ANIMALS[d.animal]}"
    if kind == Job.FIRST:
        return f"{_Who(d.seat, viewer).does('play')} first"
    return None  # Job.BLIND_GIVE: nobody may look at the card


def _consequences(
    before: ArcticObservation,
    after: ArcticObservation,
    seen: str | None,
    actor: int | None,
    viewer: int | None,
) -> list[str]:
    """The public, automatic effects of an action: all read off the difference of the two observations."""
    out: list[str] = []
    b, a_ = before.scalars, after.scalars
    if actor is not None:
        short = sum(1 for job in after.pending if job[0] == Job.PENALTY)
        if short and not any(job[0] == Job.PENALTY for job in before.pending):
            who = _Who(b["turn_player"], viewer)
            cards = f"{short} card{'s' if short > 1 else ''}"
            out.append(f"{who.does('be')} {cards} short and {who.verb('take')} {cards} as penalties")
    for a in range(N_ANIMALS):
        if after.holder[a] != before.holder[a] and after.holder[a] >= 0:
            who = _Who(after.holder[a], viewer)
            slug = POWER_SLUGS.get(after.powers[a], ANIMALS[a])
            source = "" if before.holder[a] < 0 else f" from {_Who(before.holder[a], viewer).obj}"
            out.append(f"{who.does('take')} the {ANIMALS[a]} power card ({slug}){source}")
    token_move = seen is not None and actor is not None and act.parse(seen).kind in _TOKEN_KINDS
    if not token_move:
        moved = [
            f"{ANIMALS[a]} {_pos(before.tokens[a])} → {_pos(after.tokens[a])}"
            for a in range(N_ANIMALS)
            if after.tokens[a] != before.tokens[a]
        ]
        if moved:
            out.append("Forced token move: " + ", ".join(moved))
    if a_["end_triggered"] and not b["end_triggered"] and b["step"] != SETUP:
        out.append("The main deck is empty: the reserve becomes the deck and this is the last normal round")
    if a_["final_round"] and not b["final_round"]:
        out.append("Final round: every player plays steps A and B only")
    if a_["step"] == OVER and b["step"] != OVER:
        out.append("The game is over")
    return out

"""Arctic as text, from one seat's observation: a plain rendering of the table (the Rich table is
``terminal.py``), what is being decided, and what an action does in words."""

from __future__ import annotations

from floe.core.errors import InvalidActionError
from floe.core.i18n import N_
from floe.games.arctic import actions as act
from floe.games.arctic.actions import ActionKind
from floe.games.arctic.cards import (
    ANIMALS,
    CARD_NAMES,
    COMPANION,
    LANDSCAPE,
    MAIN,
    N_ANIMALS,
    describe_card,
    token_word,
)
from floe.games.arctic.i18n import _, counted
from floe.games.arctic.observation import FACE_DOWN_UNKNOWN, HIDDEN, ArcticObservation
from floe.games.arctic.powers import POWER_SLUGS
from floe.games.arctic.state import EXTRA, FACE_DOWN_FLAG, PLACE, STEP_NAMES, SWAP_RIVER


def visible_top(pile: list[int]) -> int:
    """The visible card of a pile as an observation shows it, or -1 (empty pile, face-down or hidden top)."""
    return pile[-1] if pile and 0 <= pile[-1] < FACE_DOWN_FLAG else -1


def pile_entry_text(entry: int) -> str:
    """A pile entry as text: the card, ``[face-down]`` or ``[face-down: card]`` for one's own."""
    if entry == FACE_DOWN_UNKNOWN:
        return "[face-down]"
    if entry == HIDDEN:
        return "[covered]"
    if entry >= FACE_DOWN_FLAG:
        return f"[face-down: {CARD_NAMES[entry - FACE_DOWN_FLAG]}]"
    return CARD_NAMES[entry]


def render_plain(obs: ArcticObservation) -> str:
    """Everything ``obs.seat`` sees, as plain lines (used by ``State.render`` and golden transcripts)."""
    s = obs.scalars
    lines = [
        f"round {s['round']}  step {STEP_NAMES[s['step']]}  turn of "
        f"{'P' + str(s['turn_player'] + 1) if s['turn_player'] >= 0 else '-'}"
        f"{'  [end triggered]' if s['end_triggered'] else ''}{'  [final round]' if s['final_round'] else ''}",
        "landscape: "
        + "  ".join(
            f"{LANDSCAPE[pos]}:" + ",".join(ANIMALS[a] for a in range(N_ANIMALS) if obs.tokens[a] == pos)
            for pos in range(6)
        ),
        "river: " + (", ".join(CARD_NAMES[c] for c in obs.river) or "(empty)"),
        f"deck {obs.deck_count}  reserve {s['reserve_count']}",
        "powers: "
        + ", ".join(
            f"{POWER_SLUGS.get(obs.powers[a], ANIMALS[a] + '-?')}"
            f"{'@P' + str(obs.holder[a] + 1) if obs.holder[a] >= 0 else ''}"
            for a in range(N_ANIMALS)
        ),
    ]
    for q in range(s["players"]):
        own = q == obs.seat
        head = f"P{q + 1}{' (you)' if own else ''}{' first' if q == s['first_player'] else ''}:"
        hand = (
            ", ".join(CARD_NAMES[c] for c in obs.hand)
            if own
            else counted(obs.hand_counts[q], "card", "cards")
        )
        totem = ANIMALS[obs.totems[q]] if obs.totems[q] >= 0 else "?"
        pens = f"{obs.penalty_counts[q]}"
        if own and obs.penalties is not None and obs.penalty_counts[q]:
            unseen = obs.penalty_counts[q] - len(obs.penalties)
            pens += " (" + ", ".join([*(CARD_NAMES[c] for c in obs.penalties), *["face-down"] * unseen]) + ")"
        lines.append(f"{head} hand {hand}; totem {totem}; penalties {pens}")
        lines.append("   pile: " + (" | ".join(pile_entry_text(e) for e in obs.piles[q]) or "(empty)"))
    if obs.scores:
        lines.append("scores: " + ", ".join(f"P{q + 1} {b['total']}" for q, b in enumerate(obs.scores)))
    return "\n".join(lines)


def _range_words(low: int, high: int) -> str:
    return str(low) if low == high else _("%(low)s to %(high)s") % {"low": low, "high": high}


def step_words(obs: ArcticObservation) -> str:
    """What is being decided now, in words (``place cards (...)``, ``move tokens``, ...)."""
    s = obs.scalars
    step = STEP_NAMES[s["step"]]
    if step == "place":
        return _("place cards: placement value %(value)s, place %(range)s (%(placed)s placed so far)") % {
            "value": s["placement_value"],
            "range": _range_words(s["place_min"], s["place_max"]),
            "placed": s["placed"],
        }
    if step == "swap":
        if s["swap_card"] >= 0:
            return _("Puffin swap: choose a river card to swap for %(card)s") % {
                "card": describe_card(s["swap_card"])
            }
        return _("Puffin swap: choose a river card to swap for a hand card")
    if step == "move":
        return _("move tokens: main animal one way, companion the other")
    if step == "extra":
        return _("Walrus: move the %(animal)s token one more step, or not") % {
            "animal": token_word(s["walrus_token"])
        }
    if step == "draw":
        return _("draw cards: draw %(range)s (%(drawn)s drawn so far)") % {
            "range": _range_words(s["draw_min"], s["draw_max"]),
            "drawn": s["drawn"],
        }
    if step == "discard":
        player = s["turn_player"]
        held = obs.hand_counts[player] if player >= 0 else 0
        return _("discard down to 7 cards (%(n)s in hand)") % {"n": held}
    if step == "give":
        return _("Polar bear: give one of your penalty cards to another player, or not")
    words = _STEP_WORDS.get(step)
    return _(words) if words else step


# The steps that need no numbers, in words (message ids).
_STEP_WORDS = {
    "setup": N_("setting up"),
    "take-power": N_("take a power card"),
    "refilled": N_("refill the river"),
    "over": N_("the game is over"),
}


def describe(obs: ArcticObservation, action: int) -> str:
    """What an action does, in the game's words (for prompts, logs and the UI), read from any seat's
    observation (only public facts are used: the step, the turn player's visible card, the Walrus token)."""
    s = obs.scalars
    try:
        d = act.decode(action)
    except InvalidActionError:
        return _("action %(n)s") % {"n": action}
    k = ActionKind
    kind = d.kind
    words = describe_card(d.card) if d.card >= 0 else ""
    if kind is k.STOP:
        return _stop_words(obs) if s["step"] == PLACE else _("Stop drawing cards")
    if kind is k.PASS:
        return _("Don't use the Walrus power") if s["step"] == EXTRA else _("Don't give a penalty card")
    if kind is k.MOVE:
        player = s["turn_player"]
        top = visible_top(obs.piles[player]) if player >= 0 else -1
        if top < 0:  # not a step-B position: no tokens to name
            return str(d)
        tokens = {"main": token_word(MAIN[top]), "companion": token_word(COMPANION[top])}
        if d.direction == act.RIGHT:
            return _("Move the %(main)s token forward and the %(companion)s token back") % tokens
        return _("Move the %(main)s token back and the %(companion)s token forward") % tokens
    if kind is k.EXTRA:
        walrus = {"animal": token_word(s["walrus_token"])}
        if d.direction == act.RIGHT:
            return _("Walrus: move the %(animal)s token one more step forward") % walrus
        return _("Walrus: move the %(animal)s token one more step back") % walrus
    if kind is k.RIVER:
        if s["step"] == SWAP_RIVER:
            return _("Take %(card)s from the river in exchange") % {"card": words}
        return _("Draw %(card)s from the river") % {"card": words}
    if kind is k.GIVE_BLIND:
        return _("Polar bear: give an unseen penalty card to %(seat)s") % {"seat": act.seat_name(d.seat)}
    if kind is k.GIVE:
        return _("Polar bear: give %(card)s from your penalty zone to %(seat)s") % {
            "card": describe_card(d.card),
            "seat": act.seat_name(d.seat),
        }
    if kind is k.SIDE:
        assert d.power is not None
        return _("Chance: the power %(power)s is in play") % {"power": d.power.slug}
    if kind in _PHRASES:
        return _(_PHRASES[kind]) % {"card": words}
    text = str(d)  # the other chance outcomes: decks, totem, first player
    return text[0].upper() + text[1:]


def _stop_words(obs: ArcticObservation) -> str:
    """``stop`` while placing, in words that say what it leads to (docs/arctic-rules.md §A4, §A5, §D25)."""
    s = obs.scalars
    player = s["turn_player"]
    if player >= 0 and obs.hand_counts[player] == 0:
        short = s["place_min"] - s["placed"]
        if short > 0:
            return _("Stop placing: your hand is empty (%(n)s short: penalty cards from the deck)") % {
                "n": short
            }
        return _("Stop placing: your hand is empty")
    if s["placed"] == 0:
        # Moose "place ±1" on a placement value of 1 (§D25): a trap when read as "stop" before anything.
        return _("Moose: place no card this turn (your visible card stays; step B still moves its tokens)")
    return _("Stop placing cards (%(n)s placed)") % {"n": s["placed"]}


# What an action does when that does not depend on the step or the table (message ids; %(card)s: the
# card in words).
_PHRASES: dict[ActionKind, str] = {
    ActionKind.TAKE_BACK: N_("Puffin: take your visible card back into your hand"),
    ActionKind.DECK: N_("Orca: draw the top card of the deck"),
    ActionKind.PENALTY_BLIND: N_("Polar bear: draw an unseen card from your penalty zone"),
    ActionKind.LOOK: N_("Polar bear: look at your face-down penalty cards (then choose)"),
    ActionKind.PLACE: N_("Place %(card)s on your pile"),
    ActionKind.UNDER: N_("Fox: place %(card)s at the bottom of your pile (last card)"),
    ActionKind.FACEDOWN: N_("Fox: place %(card)s face-down under your visible card (last card)"),
    ActionKind.SWAP: N_("Puffin: put %(card)s into the river (then pick a river card)"),
    ActionKind.PENALTY: N_("Polar bear: draw %(card)s from your penalty zone"),
    ActionKind.DISCARD: N_("Discard %(card)s into your penalty zone"),
    ActionKind.CARD: N_("Chance: %(card)s"),
}

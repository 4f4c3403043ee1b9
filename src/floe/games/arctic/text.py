"""Arctic as text, from one seat's observation: a plain rendering of the table (the Rich table is
``terminal.py``), what is being decided, and what an action does in words."""

from __future__ import annotations

from floe.core.errors import InvalidActionError
from floe.games.arctic import actions as act
from floe.games.arctic.actions import ActionKind
from floe.games.arctic.cards import (
    ANIMALS,
    CARD_NAMES,
    COMPANION,
    LANDSCAPE,
    MAIN,
    N_ANIMALS,
    card_name,
    describe_card,
)
from floe.games.arctic.i18n import counted
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
    return str(low) if low == high else f"{low} to {high}"


def step_words(obs: ArcticObservation) -> str:
    """What is being decided now, in words (``place cards (...)``, ``move tokens``, ...)."""
    s = obs.scalars
    step = STEP_NAMES[s["step"]]
    if step == "place":
        return (
            f"place cards: placement value {s['placement_value']}, "
            f"place {_range_words(s['place_min'], s['place_max'])} ({s['placed']} placed so far)"
        )
    if step == "swap":
        offered = CARD_NAMES[s["swap_card"]] if s["swap_card"] >= 0 else "a hand card"
        return f"Puffin swap: choose a river card to swap for {offered}"
    if step == "move":
        return "move tokens: main animal one way, companion the other"
    if step == "extra":
        return f"Walrus: move the {ANIMALS[s['walrus_token']]} token one more step, or not"
    if step == "draw":
        return f"draw cards: draw {_range_words(s['draw_min'], s['draw_max'])} ({s['drawn']} drawn so far)"
    if step == "discard":
        player = s["turn_player"]
        held = obs.hand_counts[player] if player >= 0 else 0
        return f"discard down to 7 cards ({held} in hand)"
    if step == "give":
        return "Polar bear: give one of your penalty cards to another player, or not"
    return {
        "setup": "setting up",
        "take-power": "take a power card",
        "refilled": "refill the river",
        "over": "the game is over",
    }.get(step, step)


def describe(obs: ArcticObservation, action: int) -> str:
    """What an action does, in the game's words (for prompts, logs and the UI), read from any seat's
    observation (only public facts are used: the step, the turn player's visible card, the Walrus token)."""
    s = obs.scalars
    try:
        d = act.decode(action)
    except InvalidActionError:
        return f"action {action}"
    k = ActionKind
    kind = d.kind
    words = describe_card(d.card) if d.card >= 0 else ""
    if kind is k.STOP:
        return _stop_words(obs) if s["step"] == PLACE else "Stop drawing cards"
    if kind is k.PASS:
        return "Don't use the Walrus power" if s["step"] == EXTRA else "Don't give a penalty card"
    if kind is k.MOVE:
        player = s["turn_player"]
        top = visible_top(obs.piles[player]) if player >= 0 else -1
        if top < 0:  # not a step-B position: no tokens to name
            return str(d)
        main, comp = ANIMALS[MAIN[top]], ANIMALS[COMPANION[top]]
        if d.direction == act.RIGHT:
            return f"Move the {main} token forward and the {comp} token back"
        return f"Move the {main} token back and the {comp} token forward"
    if kind is k.EXTRA:
        way = "forward" if d.direction == act.RIGHT else "back"
        return f"Walrus: move the {ANIMALS[s['walrus_token']]} token one more step {way}"
    if kind is k.RIVER:
        if s["step"] == SWAP_RIVER:
            return f"Take {words} from the river in exchange"
        return f"Draw {words} from the river"
    if kind is k.GIVE_BLIND:
        return f"Polar bear: give an unseen penalty card to {act.seat_name(d.seat)}"
    if kind is k.GIVE:
        return f"Polar bear: give {card_name(d.card)} from your penalty zone to {act.seat_name(d.seat)}"
    if kind is k.SIDE:
        assert d.power is not None
        return f"Chance: the power {d.power.slug} is in play"
    if kind in _PHRASES:
        return _PHRASES[kind].format(card=words)
    text = str(d)  # the other chance outcomes: decks, totem, first player
    return text[0].upper() + text[1:]


def _stop_words(obs: ArcticObservation) -> str:
    """``stop`` while placing, in words that say what it leads to (spec A4, A5, D25)."""
    s = obs.scalars
    player = s["turn_player"]
    if player >= 0 and obs.hand_counts[player] == 0:
        short = s["place_min"] - s["placed"]
        return "Stop placing: your hand is empty" + (
            f" ({short} short: penalty cards from the deck)" if short > 0 else ""
        )
    if s["placed"] == 0:
        # Moose "place ±1" on a placement value of 1 (D25): a trap when read as "stop" before anything.
        return "Moose: place no card this turn (your visible card stays; step B still moves its tokens)"
    return f"Stop placing cards ({s['placed']} placed)"


# What an action does when that does not depend on the step or the table ({card}: the card in words).
_PHRASES: dict[ActionKind, str] = {
    ActionKind.TAKE_BACK: "Puffin: take your visible card back into your hand",
    ActionKind.DECK: "Orca: draw the top card of the deck",
    ActionKind.PENALTY_BLIND: "Polar bear: draw an unseen card from your penalty zone",
    ActionKind.LOOK: "Polar bear: look at your face-down penalty cards (then choose)",
    ActionKind.PLACE: "Place {card} on your pile",
    ActionKind.UNDER: "Fox: place {card} at the bottom of your pile (last card)",
    ActionKind.FACEDOWN: "Fox: place {card} face-down under your visible card (last card)",
    ActionKind.SWAP: "Puffin: put {card} into the river (then pick a river card)",
    ActionKind.PENALTY: "Polar bear: draw {card} from your penalty zone",
    ActionKind.DISCARD: "Discard {card} into your penalty zone",
    ActionKind.CARD: "Chance: {card}",
}

"""Arctic as text: a plain rendering of one seat's observation (the Rich table lives in ``floe.play``)."""

from __future__ import annotations

from floe.games.arctic.cards import ANIMALS, CARD_NAMES, LANDSCAPE, N_ANIMALS
from floe.games.arctic.powers import POWER_SLUGS
from floe.games.arctic.state import FACE_DOWN_FLAG, STEP_NAMES
from floe.games.arctic.view import FACE_DOWN_UNKNOWN, HIDDEN, ArcticObservation


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
        f"{'P' + str(s['player'] + 1) if s['player'] >= 0 else '-'}"
        f"{'  [end triggered]' if s['end_triggered'] else ''}{'  [final round]' if s['final_round'] else ''}",
        "landscape: "
        + "  ".join(
            f"{LANDSCAPE[pos]}:" + ",".join(ANIMALS[a] for a in range(N_ANIMALS) if obs.tokens[a] == pos)
            for pos in range(6)
        ),
        "river: " + (", ".join(CARD_NAMES[c] for c in obs.river) or "(empty)"),
        f"deck {obs.deck_count - s['reserve_left']}  reserve {s['reserve_left']}",
        "powers: "
        + ", ".join(
            f"{POWER_SLUGS.get(obs.powers[a], ANIMALS[a] + '-?')}"
            f"{'@P' + str(obs.holder[a] + 1) if obs.holder[a] >= 0 else ''}"
            for a in range(N_ANIMALS)
        ),
    ]
    for q in range(s["n"]):
        own = q == obs.seat
        head = f"P{q + 1}{' (you)' if own else ''}{' first' if q == s['first'] else ''}:"
        hand = ", ".join(CARD_NAMES[c] for c in obs.hand) if own else f"{obs.hand_counts[q]} cards"
        totem = ANIMALS[obs.totems[q]] if obs.totems[q] >= 0 else "?"
        pens = f"{obs.penalty_counts[q]}"
        if own and obs.penalties is not None and obs.penalties:
            pens += " (" + ", ".join(CARD_NAMES[c] for c in obs.penalties) + ")"
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
            f"place cards: placement value {s['p_value']}, place {_range_words(s['t_min'], s['t_max'])} "
            f"({s['placed']} placed so far)"
        )
    if step == "swap":
        offered = CARD_NAMES[s["swap_card"]] if s["swap_card"] >= 0 else "a hand card"
        return f"Puffin swap: choose a river card to swap for {offered}"
    if step == "move":
        return "move tokens: main animal one way, companion the other"
    if step == "extra":
        return f"Walrus: move the {ANIMALS[s['walrus_token']]} token one more step, or not"
    if step == "draw":
        return f"draw cards: draw {_range_words(s['n_min'], s['n_max'])} ({s['drawn']} drawn so far)"
    if step == "discard":
        player = s["player"]
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

"""Arche's game log: one line in words per action, told from what one viewer may know.

``log_line(before, after, seen, actor, viewer)`` reads only the viewer's observations just before and just
after the action and the action as the viewer may know it (``seen``, from ``observe_action``: a card dealt
to another hand or another seat's pet is written ``?``). The automatic consequences (figures placed, chips
moving, the scale, a rain, the end-game beginning, the pets shown at the end) are read off the difference
of the two observations, so the log never re-implements the rules and never names a hidden card.
"""

from __future__ import annotations

from floe.games.arche.actions import parse_slot
from floe.games.arche.cards import CATEGORIES, N_SCORING
from floe.games.arche.config import MAX_ROW
from floe.games.arche.observation import ArcheObservation
from floe.games.arche.state import ENDGAME, J_DEAL, J_DRAW, J_OPEN, bits
from floe.games.arche.text import cabin_label, card_short, tilt_text

__all__ = ["log_line"]


def _who(seat: int, viewer: int | None) -> str:
    return "You" if seat == viewer else f"P{seat + 1}"


def _verb(seat: int, viewer: int | None, verb: str) -> str:
    """``You play`` / ``P2 plays``."""
    if seat == viewer:
        return f"You {verb}"
    ending = "es" if verb.endswith(("s", "sh", "ch", "x")) else "s"
    return f"P{seat + 1} {verb}{ending}"


def _name(obs: ArcheObservation, slug: str) -> str:
    return obs.config.deck.names[obs.config.deck.card_id(slug)]


def log_line(
    before: ArcheObservation,
    after: ArcheObservation,
    seen: str | None,
    actor: int | None,
    viewer: int | None,
) -> str | None:
    """One line in words on an action as ``viewer`` may know it (None: nothing the viewer may learn)."""
    head = (
        _chance_line(before, after, seen, viewer)
        if actor is None
        else _decision_line(before, seen, actor, viewer)
    )
    parts = [head] if head else []
    parts += _consequences(before, after, actor, viewer)
    if not parts:
        return None
    return ". ".join(parts) + "."


def _chance_line(
    before: ArcheObservation, after: ArcheObservation, seen: str | None, viewer: int | None
) -> str | None:
    if not seen:
        return None
    words = seen.split()
    if words[0] == "first":
        return f"P{int(words[1][1:])} begins" if viewer != int(words[1][1:]) - 1 else "You begin"
    if words[0] == "rain":
        return None  # told as a consequence (the count of rains out)
    kind, owner, _ = before.pending[0]
    if kind in (J_DEAL, J_DRAW):
        if words[1] == "?":
            return f"P{owner + 1} draws a card" if kind == J_DRAW else None
        return f"You draw {card_short(before.config, before.config.deck.card_id(words[1]))}"
    if kind == J_OPEN:
        card = before.config.deck.card_id(words[1])
        for side, (was, now) in enumerate(((before.left, after.left), (before.right, after.right))):
            if len(now) > len(was):
                return f"{card_short(before.config, card)} opens cabin {cabin_label(side, len(now) - 1)}"
        return f"{_name(before, words[1])} leaves the game (it cannot open the ark)"
    return f"{_name(before, words[1])} is turned up in the display"


def _decision_line(before: ArcheObservation, seen: str | None, actor: int, viewer: int | None) -> str | None:
    if not seen:
        return None
    words = seen.split()
    verb = words[0]
    cfg = before.config
    if verb == "draw":
        return (
            _verb(actor, viewer, "take")
            + f" {_name(before, words[1])} from the display and the deck's top card"
        )
    if verb == "draw-top":
        return _verb(actor, viewer, "draw") + " the deck's top card"
    if verb == "take":
        return _verb(actor, viewer, "take") + f" {_name(before, words[1])} from the display"
    if verb == "pet":
        if words[1] == "?":
            return _verb(actor, viewer, "put") + " a pet face down"
        return _verb(actor, viewer, "put") + f" {_name(before, words[1])} face down as the pet"
    if verb == "no-pet":
        return _verb(actor, viewer, "put") + " down no pet"
    if verb in ("chip", "figure"):
        return None  # told as a consequence
    if verb == "done":
        return _verb(actor, viewer, "end") + " the turn"
    if verb == "pass":
        return _verb(actor, viewer, "pass") + " for good"
    if verb == "no-evict":
        return _verb(actor, viewer, "evict") + " nobody"
    if verb == "discard":
        return _verb(actor, viewer, "discard") + f" {_name(before, words[1])}"
    if verb == "evict":
        return _verb(actor, viewer, "evict") + f" {_name(before, words[1])}"
    if verb == "play":
        card = card_short(cfg, cfg.deck.card_id(words[1]))
        if words[2] == "evict":
            return (
                _verb(actor, viewer, "play")
                + f" {card} in the place of {_name(before, words[3])}, evicting it"
            )
        slot = parse_slot(words[2])
        if words[2].startswith("new-"):
            side = 0 if words[2] == "new-l" else 1
            index = len(before.left if side == 0 else before.right)
            return _verb(actor, viewer, "play") + f" {card} into a new cabin {cabin_label(side, index)}"
        return _verb(actor, viewer, "play") + f" {card} into {cabin_label(slot // MAX_ROW, slot % MAX_ROW)}"
    return f"{_who(actor, viewer)}: {seen}"


def _consequences(
    before: ArcheObservation, after: ArcheObservation, actor: int | None, viewer: int | None
) -> list[str]:
    out = []
    n = after.players
    for q in range(n):
        base = N_SCORING * q
        placed = [
            CATEGORIES[k] for k in range(N_SCORING) if after.figures[base + k] > before.figures[base + k]
        ]
        marked = [CATEGORIES[k] for k in range(N_SCORING) if after.halves[base + k] > before.halves[base + k]]
        who = "your" if q == viewer else f"P{q + 1}'s"
        if placed:
            whose = "yours" if q == viewer else who  # "a figure of yours", "a figure of P2's"
            out.append(
                f"{'a figure' if len(placed) == 1 else 'figures'} of {whose} on {' and '.join(placed)}"
            )
        if marked:
            out.append(f"a chip under {who} figure on {' and '.join(marked)} (1.5)")
    gained = [q for q in range(n) if after.chips[q] != before.chips[q]]
    if gained:
        out.append(
            "chips "
            + ", ".join(
                f"{'you' if q == viewer else f'P{q + 1}'} {after.chips[q] - before.chips[q]:+d}"
                for q in gained
            )
        )
    ark_before = 0
    for cab in (*before.left, *before.right):
        ark_before |= cab
    evicted = after.scalars["out"] & ~before.scalars["out"] & ark_before
    if evicted:
        out.append("out of the game: " + ", ".join(after.config.deck.names[c] for c in bits(evicted)))
    if after.scalars["tilt"] != before.scalars["tilt"] and before.scalars["phase"] != 0:
        out.append(f"scale {tilt_text(after.scalars['tilt'])}")
    if after.scalars["rain_out"] > before.scalars["rain_out"]:
        rains = after.scalars["rain_out"]
        text = f"Rain! ({rains} of 5)"
        if rains == 2:
            text += ": the pet round"
        out.append(text)
    if after.scalars["phase"] == ENDGAME and before.scalars["phase"] != ENDGAME:
        first = after.scalars["turn_player"]
        out.append(
            f"The end-game begins: {_who(first, viewer)} first (pass for good, or pay a chip and play)"
        )
    if after.over and not before.over:
        pets = [f"{_who(q, viewer)} {after.config.deck.names[p]}" for q, p in enumerate(after.pets) if p >= 0]
        out.append("The game is over; pets: " + (", ".join(pets) if pets else "none"))
    return out

"""Arche in plain words: cards, cabins, the decision at hand and each action, from observations only.

>>> from floe.games.arche.game import ArcheGame
>>> st = ArcheGame(3, {"first_player": 0}).new_initial_state()
>>> "placeholder cards" in render_plain(st.observation(0))
True
"""

from __future__ import annotations

from floe.games.arche import actions as act
from floe.games.arche.cards import (
    CATEGORIES,
    CLIMATES,
    DIETS,
    N_SCORING,
    NO_SPECIAL,
    NONE,
    PLACEHOLDER_NOTICE,
    SPECIALS,
)
from floe.games.arche.config import MAX_ROW, NEW_LEFT, RulesConfig
from floe.games.arche.i18n import counted
from floe.games.arche.observation import ArcheObservation
from floe.games.arche.scoring import strength
from floe.games.arche.state import ENDGAME, OVER, bits

CLIMATE_SHORT = ("hot", "cold", "any")
CATEGORY_SHORT = ("heavy", "useful", "shy", "slow", "prov", "-")


def card_short(cfg: RulesConfig, c: int) -> str:
    """``Hare 1 cold H shy`` (weight, climate, diet, category, ``!skunk``): the five features at a glance."""
    d = cfg.deck
    parts = [d.names[c], str(d.weight[c]), CLIMATE_SHORT[d.climate[c]], DIETS[d.diet[c]]]
    parts.append(CATEGORY_SHORT[d.category[c]])
    if d.special[c] != NO_SPECIAL:
        parts.append("!" + SPECIALS[d.special[c]])
    return " ".join(parts)


def card_words(cfg: RulesConfig, c: int) -> str:
    """``Hare (1, cold, herbivore, shy)``."""
    return cfg.deck.describe(c)


def cabin_label(side: int, index: int) -> str:
    """``L1`` (left row, at the bow) .. ``R24``."""
    return ("L" if side == 0 else "R") + str(index + 1)


def slot_words(slot: int) -> str:
    """A play's destination in words: ``cabin L2``, ``a new cabin on the left``."""
    if slot >= NEW_LEFT:
        return "a new cabin on the " + ("left" if slot == NEW_LEFT else "right")
    return "cabin " + cabin_label(0 if slot < MAX_ROW else 1, slot % MAX_ROW)


def tilt_text(tilt: int) -> str:
    """The scale as five places, the marker on one: ``-2 -1 [0] +1 +2`` (positive: heavier on the left)."""
    labels = {v: "0" if v == 0 else f"{v:+d}" for v in range(-2, 3)}
    return " ".join(f"[{labels[v]}]" if v == tilt else labels[v] for v in range(-2, 3))


def step_words(obs: ArcheObservation) -> str:
    """What is being decided, in words."""
    sc = obs.scalars
    step = obs.step
    if obs.over:
        return "the game is over"
    if step == "chance":
        return "cards are being dealt"
    seat = sc["to_act"]
    who = f"P{seat + 1}"
    if step == "pet":
        return f"{who}: the pet round — put an animal of weight < 3 without ! face down as your pet"
    if step == "take":
        return f"{who}: take one of the display's cards (for the new cabin)"
    if step == "chimp":
        return f"{who}: the Chimpanzee — put a chip under one of your figures (it counts 1.5)"
    if step == "figure":
        return f"{who}: the card has no category — choose the scoring card for its figure"
    if step == "evict":
        return f"{who}: choose an animal to evict from the ark, or none"
    if step == "discard":
        return f"{who}: discard down to the hand limit"
    if sc["phase"] == ENDGAME:
        return f"{who}: end-game — pass for good, or pay a chip and play one animal (not slow, no provisions)"
    if step == "second":
        return f"{who}: play a second card into another cabin (no slow animal, no provisions), or done"
    return f"{who}: draw (a display card and the deck's top card) or play 1–2 cards into the ark"


def describe(obs: ArcheObservation, action: int) -> str:
    """An action in words (for people), in the context of ``obs``."""
    cfg = obs.config
    d = act.decode(cfg, action)
    name = cfg.deck.names
    if d.kind == "done":
        return "end the turn"
    if d.kind == "pass":
        return "pass for the rest of the game"
    if d.kind == "no-pet":
        return "put down no pet"
    if d.kind == "no-evict":
        return "evict nobody"
    if d.kind == "draw-top":
        return "draw the deck's top card"
    if d.kind == "chip":
        return f"a chip under your figure on {CATEGORIES[d.category]}"
    if d.kind == "figure":
        return f"the figure on {CATEGORIES[d.category]}"
    if d.kind == "draw":
        return f"take {name[d.card]} from the display and the deck's top card"
    if d.kind == "take":
        return f"take {name[d.card]} from the display"
    if d.kind == "pet":
        return f"{name[d.card]} as your pet"
    if d.kind == "discard":
        return f"discard {name[d.card]}"
    if d.kind == "evict":
        return f"evict {name[d.card]}"
    if d.kind == "play":
        if d.target >= 0:
            return f"play {card_short(cfg, d.card)} in the place of {name[d.target]} (evicting it)"
        return f"play {card_short(cfg, d.card)} into {slot_words(d.slot)}"
    if d.kind == "card":
        return f"the card {name[d.card]}"
    if d.kind == "rain":
        return "a rain card"
    return f"P{d.seat + 1} begins"


def figures_text(figures: int, halves: int) -> str:
    """``3`` or ``3½`` (a chip under a figure)."""
    value = strength(figures, halves)
    whole = int(value)
    return f"{whole}½" if value != whole else str(whole)


def render_plain(obs: ArcheObservation) -> str:
    """The table as plain text for ``seat`` (``State.render``)."""
    cfg = obs.config
    sc = obs.scalars
    n = obs.players
    lines = []
    if cfg.deck.placeholder:
        lines.append(f"Arche Opti Mix ({PLACEHOLDER_NOTICE})")
    else:
        lines.append(f"Arche Opti Mix (a loaded deck of {counted(cfg.deck.n, 'card', 'cards')})")
    lines.append(
        f"turn {sc['turn']} · rain {sc['rain_out']}/5 · deck {counted(obs.stock_count, 'card', 'cards')}"
        f" + {obs.rain_in_deck} rain"
        f" · bank {sc['bank']} · scale {tilt_text(sc['tilt'])}"
    )
    lines.append("now: " + step_words(obs))
    for side, row in ((0, obs.left), (1, obs.right)):
        for i, cab in enumerate(row):
            cards = ", ".join(card_short(cfg, c) for c in bits(cab)) or "empty"
            lines.append(f"  {cabin_label(side, i)}: {cards}")
    lines.append("display: " + (", ".join(card_short(cfg, c) for c in bits(sc["display"])) or "empty"))
    if sc["out"]:
        lines.append("out of the game: " + ", ".join(cfg.deck.names[c] for c in bits(sc["out"])))
    for q in range(n):
        base = N_SCORING * q
        figs = " ".join(
            f"{CATEGORY_SHORT[k]} {figures_text(obs.figures[base + k], obs.halves[base + k])}"
            for k in range(N_SCORING)
        )
        you = " (you)" if q == obs.seat else ""
        parts = [
            f"P{q + 1}{you}: {counted(obs.chips[q], 'chip', 'chips')}",
            counted(obs.hand_counts[q], "card", "cards"),
            f"figures {figs} ({obs.figures_left[q]} left)",
        ]
        if obs.has_pet[q]:
            pet = obs.pets[q]
            parts.append("pet " + (cfg.deck.names[pet] if pet >= 0 else "?"))
        if sc["passed"] >> q & 1:
            parts.append("passed")
        lines.append(" · ".join(parts))
        if obs.hands[q] and (q == obs.seat or obs.over):
            lines.append("  hand: " + ", ".join(card_short(cfg, c) for c in bits(obs.hands[q])))
        elif obs.known[q]:
            lines.append("  known in hand: " + ", ".join(cfg.deck.names[c] for c in bits(obs.known[q])))
    if obs.over and obs.scores:
        lines.append("scores: " + ", ".join(f"P{s['seat'] + 1} {s['total']}" for s in obs.scores))
    return "\n".join(lines)


__all__ = [
    "CATEGORY_SHORT",
    "CLIMATES",
    "NONE",
    "OVER",
    "card_short",
    "card_words",
    "describe",
    "render_plain",
    "slot_words",
    "step_words",
    "tilt_text",
]

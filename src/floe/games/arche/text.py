"""Arche in plain words: cards, cabins, the decision at hand and each action, from observations only.

>>> from floe.games.arche.game import ArcheGame
>>> st = ArcheGame(3, {"first_player": 0}).new_initial_state()
>>> "placeholder cards" in render_plain(st.observation(0))
True
"""

from __future__ import annotations

from floe.core.i18n import N_, NC_
from floe.games.arche import actions as act
from floe.games.arche.cards import (
    CLIMATES,
    DIET_WORDS,
    N_SCORING,
    NO_DIET,
    NO_SPECIAL,
    NONE,
    PLACEHOLDER_NOTICE,
    SPECIALS,
)
from floe.games.arche.config import MAX_ROW, NEW_LEFT, RulesConfig
from floe.games.arche.i18n import CATALOG, _, counted
from floe.games.arche.observation import ArcheObservation
from floe.games.arche.scoring import strength
from floe.games.arche.state import ENDGAME, OVER, bits

# The short words of a card and the scoring cards' names, translated where shown (``CATEGORIES`` and
# ``CLIMATES`` stay the English identifiers of records, scores and choices).
CLIMATE_SHORT = (N_("hot"), N_("cold"), N_("any"))
CATEGORY_SHORT = (N_("heavy"), N_("useful"), N_("shy"), N_("slow"), N_("prov"), "-")
CATEGORY_NAMES = (N_("heavy"), N_("useful"), N_("shy"), N_("slow"), N_("provisions"), "-")
CLIMATE_WORDS = (N_("hot"), N_("cold"), N_("any climate"))
# The diet's letter at a glance, in the reader's language (German P/F/M: Pflanzen-, Fleisch-, Mischfresser).
DIET_LETTERS = ("-", NC_("diet", "H"), NC_("diet", "C"), NC_("diet", "O"))


def diet_letter(diet: int) -> str:
    """``H``/``C``/``O`` (``-``: none) in the reader's language."""
    return CATALOG.pgettext("diet", DIET_LETTERS[diet]) if diet else "-"


def category_name(k: int) -> str:
    """The scoring card ``k``'s name in the reader's language (``heavy``, ``schwer``)."""
    return _(CATEGORY_NAMES[k]) if CATEGORY_NAMES[k] != "-" else "-"


def category_title(k: int) -> str:
    """The scoring card ``k``'s name as a name in a sentence (``Heavy``, ``Schwer``)."""
    return sentence(category_name(k))


def category_short(k: int) -> str:
    """The short name of category ``k`` for a card at a glance (``prov``)."""
    return _(CATEGORY_SHORT[k]) if CATEGORY_SHORT[k] != "-" else "-"


def card_short(cfg: RulesConfig, c: int) -> str:
    """``Hare 1 cold H shy`` (weight, climate, diet, category, ``!skunk``): the five features at a glance."""
    d = cfg.deck
    parts = [d.name(c), str(d.weight[c]), _(CLIMATE_SHORT[d.climate[c]]), diet_letter(d.diet[c])]
    parts.append(category_short(d.category[c]))
    if d.special[c] != NO_SPECIAL:
        parts.append("!" + SPECIALS[d.special[c]])
    return " ".join(parts)


def card_words(cfg: RulesConfig, c: int) -> str:
    """A card in words for a sentence: ``Hare (weight 1, cold, herbivore, shy)`` (its name, weight, climate,
    diet and scoring card, each in the reader's language; the ability is the card's, shown with it)."""
    d = cfg.deck
    parts = [_("weight %(n)s") % {"n": d.weight[c]}, _(CLIMATE_WORDS[d.climate[c]])]
    if d.diet[c] != NO_DIET:
        parts.append(_(DIET_WORDS[d.diet[c]]))
    if d.category[c] != NONE:
        parts.append(category_name(d.category[c]))
    return f"{d.name(c)} ({', '.join(parts)})"


def sentence(text: str) -> str:
    """``text`` with a capital first letter (a log line's parts are sentences)."""
    return text[:1].upper() + text[1:]


def cabin_label(side: int, index: int) -> str:
    """``L1`` (left row, at the bow) .. ``R24``."""
    return ("L" if side == 0 else "R") + str(index + 1)


def slot_words(slot: int) -> str:
    """A play's destination in words: ``cabin L2``, ``a new cabin on the left``."""
    if slot >= NEW_LEFT:
        return _("a new cabin on the left") if slot == NEW_LEFT else _("a new cabin on the right")
    return _("cabin %(cabin)s") % {"cabin": cabin_label(0 if slot < MAX_ROW else 1, slot % MAX_ROW)}


def tilt_text(tilt: int) -> str:
    """The scale as five places, the marker on one: ``-2 -1 [0] +1 +2`` (positive: heavier on the left)."""
    labels = {v: "0" if v == 0 else f"{v:+d}" for v in range(-2, 3)}
    return " ".join(f"[{labels[v]}]" if v == tilt else labels[v] for v in range(-2, 3))


def step_words(obs: ArcheObservation) -> str:
    """What is being decided, in words (the seat to act is shown beside it: "You decide: …")."""
    sc = obs.scalars
    step = obs.step
    if obs.over:
        return _("the game is over")
    if step == "chance":
        return _("cards are being dealt")
    if step == "pet":
        return _("the pet round: put an animal of weight 0–2 without an ability face down as the pet")
    if step == "take":
        return _("take one of the display's cards (for the new cabin)")
    if step == "chimp":
        return _("the Chimpanzee: put a chip under one of the figures (it counts 1.5)")
    if step == "figure":
        return _("the card has no scoring card: choose the one its figure goes on")
    if step == "evict":
        return _("choose an animal to evict from the ark, or nobody")
    if step == "discard":
        return _("discard down to the hand limit")
    if sc["phase"] == ENDGAME:
        return _("end-game: pass for good, or pay a chip and play one animal (not slow, no provisions)")
    if step == "second":
        return _("play a second card into another cabin (no slow animal, no provisions), or end the turn")
    return _("draw (a display card and the deck's top card) or play 1–2 cards into the ark")


def describe(obs: ArcheObservation, action: int) -> str:
    """An action in words (for people), in the context of ``obs``: a sentence, the cards and cabins named in
    words (``Play Hare (weight 1, cold, herbivore, shy) into a new cabin on the right``)."""
    cfg = obs.config
    d = act.decode(cfg, action)
    name = cfg.deck.name
    fixed = {
        "done": N_("End the turn"),
        "pass": N_("Pass for the rest of the game"),
        "no-pet": N_("Put down no pet"),
        "no-evict": N_("Evict nobody"),
        "draw-top": N_("Draw the deck's top card"),
        "no-chip": N_("Put no chip under a figure"),
        "rain": N_("A rain card"),
    }
    if d.kind in fixed:
        return _(fixed[d.kind])
    if d.kind == "chip":
        return _("Put a chip under your figure on %(category)s") % {"category": category_title(d.category)}
    if d.kind == "figure":
        return _("Put the figure on %(category)s") % {"category": category_title(d.category)}
    card = {"card": name(d.card)} if d.card >= 0 else {}
    if d.kind == "draw":
        return _("Take %(card)s from the display and the deck's top card") % card
    if d.kind == "take":
        return _("Take %(card)s from the display") % card
    if d.kind == "pet":
        return _("Put %(card)s face down as your pet") % card
    if d.kind == "discard":
        return _("Discard %(card)s") % card
    if d.kind == "evict":
        return _("Evict %(card)s") % card
    if d.kind == "play":
        if d.target >= 0:
            return _("Play %(card)s in the place of %(target)s, evicting it") % {
                "card": card_words(cfg, d.card),
                "target": name(d.target),
            }
        return _("Play %(card)s into %(place)s") % {
            "card": card_words(cfg, d.card),
            "place": slot_words(d.slot),
        }
    if d.kind == "card":
        return _("The card %(card)s") % card
    return _("%(who)s begins") % {"who": f"P{d.seat + 1}"}


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
        lines.append(f"Arche Opti Mix ({_(PLACEHOLDER_NOTICE)})")
    else:
        loaded = _("a loaded deck of %(cards)s") % {"cards": counted(cfg.deck.n, "card", "cards")}
        lines.append(f"Arche Opti Mix ({loaded})")
    lines.append(
        _(
            "turn %(turn)s · rain %(rain)s/5 · deck %(cards)s + %(rains)s rain"
            " · bank %(bank)s · scale %(scale)s"
        )
        % {
            "turn": sc["turn"],
            "rain": sc["rain_out"],
            "cards": counted(obs.stock_count, "card", "cards"),
            "rains": obs.rain_in_deck,
            "bank": sc["bank"],
            "scale": tilt_text(sc["tilt"]),
        }
    )
    step = step_words(obs)
    if not obs.over and obs.step != "chance":
        step = f"P{sc['to_act'] + 1}: {step}"  # the table as text says whose decision it is
    lines.append(_("now: %(step)s") % {"step": step})
    for side, row in ((0, obs.left), (1, obs.right)):
        for i, cab in enumerate(row):
            cards = ", ".join(card_short(cfg, c) for c in bits(cab)) or _("empty")
            lines.append(f"  {cabin_label(side, i)}: {cards}")
    display = ", ".join(card_short(cfg, c) for c in bits(sc["display"])) or _("empty")
    lines.append(_("display: %(cards)s") % {"cards": display})
    if sc["out"]:
        out = ", ".join(cfg.deck.name(c) for c in bits(sc["out"]))
        lines.append(_("out of the game: %(cards)s") % {"cards": out})
    for q in range(n):
        base = N_SCORING * q
        figs = " ".join(
            f"{category_short(k)} {figures_text(obs.figures[base + k], obs.halves[base + k])}"
            for k in range(N_SCORING)
        )
        who = _("P%(n)s (you)") % {"n": q + 1} if q == obs.seat else f"P{q + 1}"
        parts = [
            who + ": " + counted(obs.chips[q], "chip", "chips"),
            counted(obs.hand_counts[q], "card", "cards"),
            _("figures %(figures)s (%(left)s left)") % {"figures": figs, "left": obs.figures_left[q]},
        ]
        if obs.has_pet[q]:
            pet = obs.pets[q]
            parts.append(_("pet %(card)s") % {"card": cfg.deck.name(pet) if pet >= 0 else "?"})
        if sc["passed"] >> q & 1:
            parts.append(_("passed"))
        lines.append(" · ".join(parts))
        if obs.hands[q] and (q == obs.seat or obs.over):
            hand = ", ".join(card_short(cfg, c) for c in bits(obs.hands[q]))
            lines.append("  " + _("hand: %(cards)s") % {"cards": hand})
        elif obs.known[q]:
            known = ", ".join(cfg.deck.name(c) for c in bits(obs.known[q]))
            lines.append("  " + _("known in hand: %(cards)s") % {"cards": known})
    if obs.over and obs.scores:
        scores = ", ".join(f"P{s['seat'] + 1} {s['total']}" for s in obs.scores)
        lines.append(_("scores: %(scores)s") % {"scores": scores})
    return "\n".join(lines)


__all__ = [
    "CATEGORY_NAMES",
    "CATEGORY_SHORT",
    "CLIMATES",
    "NONE",
    "OVER",
    "card_short",
    "card_words",
    "category_name",
    "category_short",
    "category_title",
    "describe",
    "diet_letter",
    "render_plain",
    "sentence",
    "slot_words",
    "step_words",
    "tilt_text",
]

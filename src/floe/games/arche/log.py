"""Arche's game log: one line in words per action, told from what one viewer may know.

``log_line(before, after, seen, actor, viewer)`` reads only the viewer's observations just before and just
after the action and the action as the viewer may know it (``seen``, from ``observe_action``: a card dealt
to another hand or another seat's pet is written ``?``). The automatic consequences (figures placed, chips
moving, the scale, a rain, the end-game beginning, the pets shown at the end) are read off the difference
of the two observations, so the log never re-implements the rules and never names a hidden card.
"""

from __future__ import annotations

from floe.core.i18n import N_
from floe.games.arche.actions import parse_slot
from floe.games.arche.cards import N_SCORING
from floe.games.arche.config import MAX_ROW
from floe.games.arche.i18n import _, ngettext
from floe.games.arche.observation import ArcheObservation
from floe.games.arche.state import ENDGAME, J_DEAL, J_DRAW, J_OPEN, bits
from floe.games.arche.text import cabin_label, card_words, category_title, sentence

__all__ = ["log_line"]


def _who(seat: int, viewer: int | None) -> str:
    return _("You") if seat == viewer else f"P{seat + 1}"


def _say(seat: int, viewer: int | None, you: str, other: str, **values: str) -> str:
    """A sentence about the viewer (``you``) or about another seat (``other``, with ``%(who)s``), both
    marked ``N_`` where they are written so each language words both."""
    text = _(you) if seat == viewer else _(other)
    return text % {"who": f"P{seat + 1}", **values}


def _name(obs: ArcheObservation, slug: str) -> str:
    return obs.config.deck.name(obs.config.deck.card_id(slug))


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
        return _say(int(words[1][1:]) - 1, viewer, N_("You begin"), N_("%(who)s begins"))
    if words[0] == "rain":
        return None  # told as a consequence (the count of rains out)
    kind, owner, _index = before.pending[0]
    if kind in (J_DEAL, J_DRAW):
        if words[1] == "?":
            return _("%(who)s draws a card") % {"who": f"P{owner + 1}"} if kind == J_DRAW else None
        return _("You draw %(card)s") % {
            "card": card_words(before.config, before.config.deck.card_id(words[1]))
        }
    if kind == J_OPEN:
        card = before.config.deck.card_id(words[1])
        for side, (was, now) in enumerate(((before.left, after.left), (before.right, after.right))):
            if len(now) > len(was):
                return _("%(card)s opens cabin %(cabin)s") % {
                    "card": card_words(before.config, card),
                    "cabin": cabin_label(side, len(now) - 1),
                }
        return _("%(card)s leaves the game (it cannot open the ark)") % {"card": _name(before, words[1])}
    return _("%(card)s is turned up in the display") % {"card": _name(before, words[1])}


def _decision_line(before: ArcheObservation, seen: str | None, actor: int, viewer: int | None) -> str | None:
    if not seen:
        return None
    words = seen.split()
    verb = words[0]
    cfg = before.config
    if verb == "draw":
        return _say(
            actor,
            viewer,
            N_("You take %(card)s from the display and the deck's top card"),
            N_("%(who)s takes %(card)s from the display and the deck's top card"),
            card=_name(before, words[1]),
        )
    if verb == "draw-top":
        return _say(
            actor, viewer, N_("You draw the deck's top card"), N_("%(who)s draws the deck's top card")
        )
    if verb == "take":
        return _say(
            actor,
            viewer,
            N_("You take %(card)s from the display"),
            N_("%(who)s takes %(card)s from the display"),
            card=_name(before, words[1]),
        )
    if verb == "pet":
        if words[1] == "?":
            return _say(actor, viewer, N_("You put a pet face down"), N_("%(who)s puts a pet face down"))
        return _say(
            actor,
            viewer,
            N_("You put %(card)s face down as the pet"),
            N_("%(who)s puts %(card)s face down as the pet"),
            card=_name(before, words[1]),
        )
    if verb == "no-pet":
        return _say(actor, viewer, N_("You put down no pet"), N_("%(who)s puts down no pet"))
    if verb in ("chip", "figure"):
        return None  # told as a consequence
    if verb == "no-chip":
        return _say(
            actor, viewer, N_("You put no chip under a figure"), N_("%(who)s puts no chip under a figure")
        )
    if verb == "done":
        return _say(actor, viewer, N_("You end the turn"), N_("%(who)s ends the turn"))
    if verb == "pass":
        return _say(actor, viewer, N_("You pass for good"), N_("%(who)s passes for good"))
    if verb == "no-evict":
        return _say(actor, viewer, N_("You evict nobody"), N_("%(who)s evicts nobody"))
    if verb == "discard":
        return _say(
            actor,
            viewer,
            N_("You discard %(card)s"),
            N_("%(who)s discards %(card)s"),
            card=_name(before, words[1]),
        )
    if verb == "evict":
        return _say(
            actor,
            viewer,
            N_("You evict %(card)s"),
            N_("%(who)s evicts %(card)s"),
            card=_name(before, words[1]),
        )
    if verb == "play":
        card = card_words(cfg, cfg.deck.card_id(words[1]))
        if words[2] == "evict":
            return _say(
                actor,
                viewer,
                N_("You play %(card)s in the place of %(target)s, evicting it"),
                N_("%(who)s plays %(card)s in the place of %(target)s, evicting it"),
                card=card,
                target=_name(before, words[3]),
            )
        slot = parse_slot(words[2])
        if words[2].startswith("new-"):
            side = 0 if words[2] == "new-l" else 1
            index = len(before.left if side == 0 else before.right)
            return _say(
                actor,
                viewer,
                N_("You play %(card)s into a new cabin %(cabin)s"),
                N_("%(who)s plays %(card)s into a new cabin %(cabin)s"),
                card=card,
                cabin=cabin_label(side, index),
            )
        return _say(
            actor,
            viewer,
            N_("You play %(card)s into %(cabin)s"),
            N_("%(who)s plays %(card)s into %(cabin)s"),
            card=card,
            cabin=cabin_label(slot // MAX_ROW, slot % MAX_ROW),
        )
    return f"{_who(actor, viewer)}: {seen}"


def _chips(before: ArcheObservation, after: ArcheObservation, viewer: int | None) -> list[str]:
    """The chips that changed hands, in sentences: ``P3 gets a chip from P4``, ``You pay 2 chips``."""
    change = {
        q: after.chips[q] - before.chips[q] for q in range(after.players) if after.chips[q] != before.chips[q]
    }
    gain = [q for q, d in change.items() if d > 0]
    loss = [q for q, d in change.items() if d < 0]
    if len(gain) == len(loss) == 1 and change[gain[0]] == -change[loss[0]]:
        to, giver, n = gain[0], loss[0], change[gain[0]]
        values = {"who": f"P{to + 1}", "from": f"P{giver + 1}", "n": n}
        if to == viewer:
            text = ngettext("You get a chip from %(from)s", "You get %(n)s chips from %(from)s", n)
        elif giver == viewer:
            text = ngettext("%(who)s gets a chip from you", "%(who)s gets %(n)s chips from you", n)
        else:
            text = ngettext("%(who)s gets a chip from %(from)s", "%(who)s gets %(n)s chips from %(from)s", n)
        return [text % values]
    out = []
    for q, d in change.items():
        k = abs(d)
        if q == viewer:
            if d > 0:
                text = ngettext("You get a chip", "You get %(n)s chips", k)
            else:
                text = ngettext("You pay a chip", "You pay %(n)s chips", k)
        elif d > 0:
            text = ngettext("%(who)s gets a chip", "%(who)s gets %(n)s chips", k)
        else:
            text = ngettext("%(who)s pays a chip", "%(who)s pays %(n)s chips", k)
        out.append(text % {"who": f"P{q + 1}", "n": k})
    return out


def _scale(tilt: int) -> str:
    """Where the scale stands, in the words of the web table's scale."""
    if tilt == 0:
        words = _("balanced")
    elif tilt > 0:
        words = _("left side heavier by %(n)s") % {"n": tilt}
    else:
        words = _("right side heavier by %(n)s") % {"n": -tilt}
    return sentence(_("the scale: %(words)s") % {"words": words})


def _consequences(
    before: ArcheObservation, after: ArcheObservation, actor: int | None, viewer: int | None
) -> list[str]:
    out = []
    n = after.players
    for q in range(n):
        base = N_SCORING * q
        placed = [k for k in range(N_SCORING) if after.figures[base + k] > before.figures[base + k]]
        marked = [k for k in range(N_SCORING) if after.halves[base + k] > before.halves[base + k]]
        if placed:
            if q == viewer:
                text = ngettext(
                    "You put a figure on %(categories)s", "You put figures on %(categories)s", len(placed)
                )
            else:
                text = ngettext(
                    "%(who)s puts a figure on %(categories)s",
                    "%(who)s puts figures on %(categories)s",
                    len(placed),
                )
            out.append(
                text % {"who": f"P{q + 1}", "categories": ", ".join(category_title(k) for k in placed)}
            )
        if marked:
            out.append(
                _say(
                    q,
                    viewer,
                    N_("You put a chip under your figure on %(categories)s (it counts 1.5)"),
                    N_("%(who)s puts a chip under their figure on %(categories)s (it counts 1.5)"),
                    categories=", ".join(category_title(k) for k in marked),
                )
            )
    out += _chips(before, after, viewer)
    ark_before = 0
    for cab in (*before.left, *before.right):
        ark_before |= cab
    evicted = list(bits(after.scalars["out"] & ~before.scalars["out"] & ark_before))
    if evicted:
        names = ", ".join(after.config.deck.name(c) for c in evicted)
        text = ngettext(
            "%(cards)s leaves the ark and the game", "%(cards)s leave the ark and the game", len(evicted)
        )
        out.append(text % {"cards": names})
    if after.scalars["tilt"] != before.scalars["tilt"] and before.scalars["phase"] != 0:
        out.append(_scale(after.scalars["tilt"]))
    if after.scalars["rain_out"] > before.scalars["rain_out"]:
        rains = after.scalars["rain_out"]
        text = _("Rain! (%(rains)s of 5): the pet round") if rains == 2 else _("Rain! (%(rains)s of 5)")
        out.append(text % {"rains": rains})
    if after.scalars["phase"] == ENDGAME and before.scalars["phase"] != ENDGAME:
        first = after.scalars["turn_player"]
        out.append(
            _("The end-game begins: %(who)s first (pass for good, or pay a chip and play)")
            % {"who": _who(first, viewer)}
        )
    if after.over and not before.over:
        out.append(_("The game is over"))
        for q, p in enumerate(after.pets):
            if p >= 0:
                name = after.config.deck.name(p)
                out.append(
                    _say(q, viewer, N_("Your pet is %(card)s"), N_("%(who)s's pet is %(card)s"), card=name)
                )
    return out

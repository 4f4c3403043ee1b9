"""Arche's action space: every decision and every chance outcome is one small integer with a notation.

The layout depends on the deck (``n`` cards, ``e`` of them evicters; ``config.ActionSpace``); the ids are
stable for a given deck and option set (bump ``VERSION`` in ``game.py`` if the layout ever changes).
Notation is lower-case, one card named by its English name as a slug (``polar-bear``), a cabin by its row
and its place from the bow (``l1`` is the left row's cabin at the bow, ``r3`` the right row's third):

==========================  ==================================================  ==========================
ids                         action                                              notation
==========================  ==================================================  ==========================
0                           end the turn after one card                         ``done``
1                           end-game: pass for good                             ``pass``
2                           pet round: put down no pet (``pet=voluntary``)      ``no-pet``
3                           keep everyone (``evict_from=any_cabin``)            ``no-evict``
4                           draw with an empty display: the deck's card only    ``draw-top``
5..8                        Chimpanzee: a chip under a figure on card k         ``chip heavy``
9                           Chimpanzee: no chip (``chimp_chip=may``)            ``no-chip``
10..14                      a figure for an uncategorised card on card k        ``figure shy``
draw + c                    take display card c, then the deck's top card       ``draw hare``
take + c                    take display card c after opening a cabin           ``take hare``
pet + c                     put hand card c down as the pet                     ``pet hare``
discard + c                 discard c (``hand_limit``)                          ``discard hare``
evict_any + c               evict c from its cabin (``evict_from=any_cabin``)   ``evict hare``
play + slot * n + c         play c into a cabin, or open one at a row's end     ``play hare l2``,
                                                                                ``play hare new-r``
evict + i * n + t           play evicter i (its index among the deck's          ``play skunk evict hare``
                            evicters) in t's place, evicting t
card + c                    chance: the card drawn is c                         ``card hare``
rain                        chance: the card drawn is a rain card               ``rain``
first + p                   chance: the first player is seat p                  ``first p2``
==========================  ==================================================  ==========================

>>> from floe.games.arche.config import RulesConfig
>>> cfg = RulesConfig.from_options({})
>>> a = string_to_action(cfg, "play hare new-l"); action_to_string(cfg, a)
'play hare new-l'
>>> action_to_string(cfg, string_to_action(cfg, "play skunk evict hare"))
'play skunk evict hare'
"""

from __future__ import annotations

from typing import NamedTuple

from floe.core.errors import InvalidActionError
from floe.games.arche.cards import CATEGORIES, N_SCORING
from floe.games.arche.config import MAX_ROW, NEW_LEFT, NEW_RIGHT, SLOTS, RulesConfig
from floe.games.arche.i18n import _

DONE, PASS, NO_PET, NO_EVICT, DRAW_TOP = 0, 1, 2, 3, 4
CHIP = 5  # + category 0..3
NO_CHIP = 9  # the Chimpanzee's chip declined
FIGURE = 10  # + category 0..4

HIDDEN = "?"


class Decoded(NamedTuple):
    """An action id read back: its ``kind`` (the notation's verb, or ``card``/``rain``/``first`` for
    chance), the card it moves (-1: none), the destination ``slot`` of a play (-1: none), the evicted card
    (-1: none), a scoring ``category`` (-1: none) and a ``seat`` (-1: none)."""

    kind: str
    card: int = -1
    slot: int = -1
    target: int = -1
    category: int = -1
    seat: int = -1


def slot_name(slot: int) -> str:
    """``l1``..``l24``, ``r1``..``r24``, ``new-l``, ``new-r``."""
    if slot == NEW_LEFT:
        return "new-l"
    if slot == NEW_RIGHT:
        return "new-r"
    return ("l" if slot < MAX_ROW else "r") + str(slot % MAX_ROW + 1)


def parse_slot(text: str) -> int:
    """Inverse of ``slot_name``; ``InvalidActionError`` for anything else."""
    if text == "new-l":
        return NEW_LEFT
    if text == "new-r":
        return NEW_RIGHT
    if len(text) >= 2 and text[0] in "lr" and text[1:].isdigit() and 1 <= int(text[1:]) <= MAX_ROW:
        return int(text[1:]) - 1 + (0 if text[0] == "l" else MAX_ROW)
    raise InvalidActionError(_("%(text)r is not a cabin (l1, r2, …) nor new-l / new-r") % {"text": text[:20]})


def decode(cfg: RulesConfig, action: int) -> Decoded:
    """The parts of an action id; ``InvalidActionError`` for an id outside the space."""
    sp = cfg.space
    n = sp.n
    if type(action) is not int or action < 0 or action >= sp.size:
        raise InvalidActionError(f"no Arche action has id {action!r}")
    simple = {
        DONE: "done",
        PASS: "pass",
        NO_PET: "no-pet",
        NO_EVICT: "no-evict",
        DRAW_TOP: "draw-top",
        NO_CHIP: "no-chip",
    }
    if action in simple:
        return Decoded(simple[action])
    if CHIP <= action < CHIP + 4:
        return Decoded("chip", category=action - CHIP)
    if FIGURE <= action < FIGURE + N_SCORING:
        return Decoded("figure", category=action - FIGURE)
    for kind, base in (
        ("draw", sp.draw),
        ("take", sp.take),
        ("pet", sp.pet),
        ("discard", sp.discard),
        ("evict", sp.evict_any),
    ):
        if base <= action < base + n:
            return Decoded(kind, card=action - base)
    if sp.play <= action < sp.evict:
        slot, card = divmod(action - sp.play, n)
        return Decoded("play", card=card, slot=slot)
    if sp.evict <= action < sp.player_actions:
        i, target = divmod(action - sp.evict, n)
        return Decoded("play", card=cfg.deck.evicters[i], target=target)
    if sp.card <= action < sp.card + n:
        return Decoded("card", card=action - sp.card)
    if action == sp.rain:
        return Decoded("rain")
    if sp.first <= action < sp.first + 5:
        return Decoded("first", seat=action - sp.first)
    raise InvalidActionError(f"no Arche action has id {action}")


def notation(cfg: RulesConfig, d: Decoded, *, hide_card: bool = False) -> str:
    """The notation of a decoded action (``hide_card``: the card written ``?``)."""
    slugs = cfg.deck.slugs
    card = HIDDEN if hide_card else (slugs[d.card] if d.card >= 0 else "")
    if d.kind in ("chip", "figure"):
        return f"{d.kind} {CATEGORIES[d.category]}"
    if d.kind == "first":
        return f"first p{d.seat + 1}"
    if d.kind == "play":
        if d.target >= 0:
            return f"play {card} evict {slugs[d.target]}"
        return f"play {card} {slot_name(d.slot)}"
    if d.card >= 0 or hide_card:
        return f"{d.kind} {card}"
    return d.kind


def action_to_string(cfg: RulesConfig, action: int) -> str:
    """The canonical notation of ``action``."""
    return notation(cfg, decode(cfg, action))


def _card(cfg: RulesConfig, slug: str) -> int:
    try:
        return cfg.deck.card_id(slug)
    except KeyError:
        raise InvalidActionError(_("no card is called %(slug)r") % {"slug": slug[:30]}) from None


def string_to_action(cfg: RulesConfig, text: str) -> int:
    """Parse notation (any case, any spacing) to an id; ``InvalidActionError`` if it names no action."""
    words = text.strip().lower().split()
    if not words:
        raise InvalidActionError(_("empty input"))
    sp = cfg.space
    verb, args = words[0], words[1:]
    simple = {
        "done": DONE,
        "pass": PASS,
        "no-pet": NO_PET,
        "no-evict": NO_EVICT,
        "draw-top": DRAW_TOP,
        "no-chip": NO_CHIP,
    }
    if verb in simple and not args:
        return simple[verb]
    if verb in ("chip", "figure") and len(args) == 1:
        if args[0] not in CATEGORIES[:N_SCORING] or (verb == "chip" and args[0] == "provisions"):
            raise InvalidActionError(
                _("%(word)r is not a scoring card for %(verb)s") % {"word": args[0][:20], "verb": verb}
            )
        return (CHIP if verb == "chip" else FIGURE) + CATEGORIES.index(args[0])
    bases = {
        "draw": sp.draw,
        "take": sp.take,
        "pet": sp.pet,
        "discard": sp.discard,
        "evict": sp.evict_any,
        "card": sp.card,
    }
    if verb in bases and len(args) == 1:
        return bases[verb] + _card(cfg, args[0])
    if verb == "rain" and not args:
        return sp.rain
    if verb == "first" and len(args) == 1 and args[0][:1] == "p" and args[0][1:].isdigit():
        seat = int(args[0][1:]) - 1
        if 0 <= seat < 5:
            return sp.first + seat
    if verb == "play" and len(args) == 2:
        c = _card(cfg, args[0])
        return sp.play + parse_slot(args[1]) * sp.n + c
    if verb == "play" and len(args) == 3 and args[1] == "evict":
        c, t = _card(cfg, args[0]), _card(cfg, args[2])
        if c not in cfg.deck.evicters:
            raise InvalidActionError(_("%(card)r cannot evict") % {"card": args[0]})
        return sp.evict + cfg.deck.evicters.index(c) * sp.n + t
    raise InvalidActionError(
        _("cannot read %(text)r: write e.g. draw hare, play hare l2, play hare new-r, done, pass")
        % {"text": text.strip()[:40]}
    )


__all__ = [
    "CHIP",
    "DONE",
    "DRAW_TOP",
    "FIGURE",
    "HIDDEN",
    "NO_CHIP",
    "NO_EVICT",
    "NO_PET",
    "PASS",
    "SLOTS",
    "Decoded",
    "action_to_string",
    "decode",
    "notation",
    "parse_slot",
    "slot_name",
    "string_to_action",
]

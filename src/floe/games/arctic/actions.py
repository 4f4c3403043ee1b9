"""Arctic's fixed action space: every decision and every chance outcome is one small integer.

Layout (ids are stable; bump ``VERSION`` in ``game.py`` if it ever changes):

==============  =====================================  ================================
ids             action                                 notation
==============  =====================================  ================================
0               stop placing / stop drawing            ``stop``
1               decline an optional power              ``pass``
2               Puffin take-back                       ``take-back``
3               Orca: draw the top card of the deck    ``deck``
4, 5            base token move: main right / left     ``main right``, ``main left``
6, 7            Walrus extra step right / left         ``extra right``, ``extra left``
8               Bear: draw a penalty card unseen       ``penalty ?``
9..12           Bear: give a penalty card unseen to P  ``give ? to P2``
PLACE+c         place hand card c face-up              ``place fox-walrus-4``
UNDER+c         Fox: place c under the pile            ``under fox-walrus-4``
FACEDOWN+c      Fox: place c face-down                 ``facedown fox-walrus-4``
SWAP+c          Puffin: put hand card c in the river   ``swap fox-walrus-4``
RIVER+c         take river card c into the hand        ``river fox-walrus-4``
PENALTY+c       Bear: take c from own penalty zone     ``penalty fox-walrus-4``
DISCARD+c       discard c into the penalty zone        ``discard fox-walrus-4``
GIVE+4c+p       Bear: give penalty card c to seat p    ``give fox-walrus-4 to P2``
CARD+c          chance: the card drawn is c            ``card fox-walrus-4``
DECKS+m         chance: decks in play (bit mask m)     ``decks 1+3``
SIDE+i          chance: a power side (index of id)     ``side fox-under``
TOTEM+a         chance: next totem dealt is animal a   ``totem fox``
FIRST+p         chance: first player is seat p         ``first P2``
==============  =====================================  ================================

Seats are 0-based in ids and 1-based (``P1``..``P4``) in notation.

>>> s = action_to_string(PLACE + 1); s
'place fox-walrus-4'
>>> string_to_action(s) == PLACE + 1
True
"""

from __future__ import annotations

from floe.core.errors import InvalidActionError
from floe.games.arctic.cards import ANIMALS, N_CARDS, card_name, parse_card
from floe.games.arctic.powers import POWER_BY_SLUG, POWER_SLUGS

STOP, PASS, TAKE_BACK, DRAW_DECK = 0, 1, 2, 3
MOVE_RIGHT, MOVE_LEFT, EXTRA_RIGHT, EXTRA_LEFT = 4, 5, 6, 7
PENALTY_BLIND = 8
GIVE_BLIND = 9  # + seat
PLACE = 16
UNDER = PLACE + N_CARDS
FACEDOWN = UNDER + N_CARDS
SWAP = FACEDOWN + N_CARDS
RIVER = SWAP + N_CARDS
PENALTY = RIVER + N_CARDS
DISCARD = PENALTY + N_CARDS
GIVE = DISCARD + N_CARDS  # + 4 * card + seat
N_PLAYER_ACTIONS = GIVE + 4 * N_CARDS
CARD = N_PLAYER_ACTIONS
DECKS = CARD + N_CARDS  # + bit mask of the decks in play
SIDE = DECKS + 16  # + index into POWER_IDS
TOTEM = SIDE + 12
FIRST = TOTEM + 6
N_ACTIONS = FIRST + 4

POWER_IDS: tuple[int, ...] = tuple(sorted(POWER_SLUGS))

_SIMPLE = {
    STOP: "stop",
    PASS: "pass",
    TAKE_BACK: "take-back",
    DRAW_DECK: "deck",
    MOVE_RIGHT: "main right",
    MOVE_LEFT: "main left",
    EXTRA_RIGHT: "extra right",
    EXTRA_LEFT: "extra left",
    PENALTY_BLIND: "penalty ?",
}
_SIMPLE_BY_TEXT = {text: a for a, text in _SIMPLE.items()}
_SIMPLE_BY_TEXT["take back"] = TAKE_BACK
_CARD_VERBS = ("place", "under", "facedown", "swap", "river", "penalty", "discard")
_CARD_BASES = dict(zip(_CARD_VERBS, (PLACE, UNDER, FACEDOWN, SWAP, RIVER, PENALTY, DISCARD), strict=True))


def seat_name(seat: int) -> str:
    """``P1`` for seat 0."""
    return f"P{seat + 1}"


def parse_seat(text: str) -> int:
    """Seat index for ``P2``/``p2``/``2`` (1-based text)."""
    key = text.strip().lower().removeprefix("p")
    if not key.isdigit() or not 1 <= int(key) <= 4:
        raise InvalidActionError(f"no seat {text!r}: write P1..P4")
    return int(key) - 1


def decks_mask_text(mask: int) -> str:
    """``1+3`` for the mask of decks 1 and 3."""
    return "+".join(str(k + 1) for k in range(4) if mask >> k & 1)


def action_to_string(action: int) -> str:
    """Canonical notation of an action id; ``InvalidActionError`` if the id is outside the space."""
    if action in _SIMPLE:
        return _SIMPLE[action]
    if GIVE_BLIND <= action < GIVE_BLIND + 4:
        return f"give ? to {seat_name(action - GIVE_BLIND)}"
    if PLACE <= action < GIVE:
        verb = _CARD_VERBS[(action - PLACE) // N_CARDS]
        return f"{verb} {card_name((action - PLACE) % N_CARDS)}"
    if GIVE <= action < N_PLAYER_ACTIONS:
        card, seat = divmod(action - GIVE, 4)
        return f"give {card_name(card)} to {seat_name(seat)}"
    if CARD <= action < DECKS:
        return f"card {card_name(action - CARD)}"
    if DECKS < action < SIDE:
        return f"decks {decks_mask_text(action - DECKS)}"
    if SIDE <= action < TOTEM:
        return f"side {POWER_SLUGS[POWER_IDS[action - SIDE]]}"
    if TOTEM <= action < FIRST:
        return f"totem {ANIMALS[action - TOTEM]}"
    if FIRST <= action < N_ACTIONS:
        return f"first {seat_name(action - FIRST)}"
    raise InvalidActionError(f"no Arctic action has id {action}")


def string_to_action(text: str) -> int:
    """Parse notation (case and extra spaces ignored) to an action id; ``InvalidActionError`` if none."""
    key = " ".join(text.strip().lower().split())
    if key in _SIMPLE_BY_TEXT:
        return _SIMPLE_BY_TEXT[key]
    verb, _, rest = key.partition(" ")
    try:
        if verb in _CARD_BASES and rest:
            return _CARD_BASES[verb] + parse_card(rest)
        if verb == "give" and " to " in f" {rest}":
            what, _, who = rest.rpartition(" to ")
            seat = parse_seat(who)
            if what.strip() == "?":
                return GIVE_BLIND + seat
            return GIVE + 4 * parse_card(what) + seat
        if verb == "card" and rest:
            return CARD + parse_card(rest)
        if verb == "decks" and rest:
            mask = 0
            for part in rest.replace(" ", "").split("+"):
                if part not in ("1", "2", "3", "4"):
                    raise InvalidActionError(f"no deck {part!r}: decks are 1..4")
                mask |= 1 << (int(part) - 1)
            return DECKS + mask
        if verb == "side" and rest in POWER_BY_SLUG:
            return SIDE + POWER_IDS.index(POWER_BY_SLUG[rest])
        if verb == "totem" and rest in ANIMALS:
            return TOTEM + ANIMALS.index(rest)
        if verb == "first" and rest:
            return FIRST + parse_seat(rest)
    except ValueError as exc:
        raise InvalidActionError(str(exc)) from None
    raise InvalidActionError(f"cannot read {text.strip()!r} as an Arctic action")


def all_action_ids() -> list[int]:
    """Every id that has a notation (the gaps in the layout are left out)."""
    out = []
    for a in range(N_ACTIONS):
        try:
            action_to_string(a)
        except InvalidActionError:
            continue
        out.append(a)
    return out

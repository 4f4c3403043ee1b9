"""Arctic's fixed action space: every decision and every chance outcome is one small integer.

Layout (ids are stable; bump ``VERSION`` in ``game.py`` if it ever changes):

==============  =====================================  ================================  ===============
ids             action                                 notation                          ``ActionKind``
==============  =====================================  ================================  ===============
0               stop placing / stop drawing            ``stop``                          ``STOP``
1               decline an optional power              ``pass``                          ``PASS``
2               Puffin take-back                       ``take-back``                     ``TAKE_BACK``
3               Orca: draw the top card of the deck    ``deck``                          ``DECK``
4, 5            base token move: main right / left     ``main right``, ``main left``     ``MOVE``
6, 7            Walrus extra step right / left         ``extra right``, ``extra left``   ``EXTRA``
8               Bear: draw a penalty card unseen       ``penalty ?``                     ``PENALTY_BLIND``
9..12           Bear: give a penalty card unseen to P  ``give ? to P2``                  ``GIVE_BLIND``
13              Bear: look at own penalty zone         ``look``                          ``LOOK``
PLACE+c         place hand card c face-up              ``place fox-walrus-4``            ``PLACE``
UNDER+c         Fox: place c under the pile            ``under fox-walrus-4``            ``UNDER``
FACEDOWN+c      Fox: place c face-down                 ``facedown fox-walrus-4``         ``FACEDOWN``
SWAP+c          Puffin: put hand card c in the river   ``swap fox-walrus-4``             ``SWAP``
RIVER+c         take river card c into the hand        ``river fox-walrus-4``            ``RIVER``
PENALTY+c       Bear: take c from own penalty zone     ``penalty fox-walrus-4``          ``PENALTY``
DISCARD+c       discard c into the penalty zone        ``discard fox-walrus-4``          ``DISCARD``
GIVE+4c+p       Bear: give penalty card c to seat p    ``give fox-walrus-4 to P2``       ``GIVE``
CARD+c          chance: the card drawn is c            ``card fox-walrus-4``             ``CARD``
DECKS+m         chance: decks in play (bit mask m)     ``decks 1+3``                     ``DECKS``
SIDE+i          chance: a power side (index of id)     ``side fox-under``                ``SIDE``
TOTEM+a         chance: next totem dealt is animal a   ``totem fox``                     ``TOTEM``
FIRST+p         chance: first player is seat p         ``first P2``                      ``FIRST``
==============  =====================================  ================================  ===============

Seats are 0-based in ids and 1-based (``P1``..``P4``) in notation.

The id arithmetic lives here and in the engine's hot paths (``rules.py``, the rollout policy). Everything
else reads an action decoded into an ``ArcticAction``: ``decode(id)``, ``parse(notation)`` (which also reads
an action as another seat may know it, with its card written ``?``) and ``encode(action)`` back to the id.

>>> s = action_to_string(PLACE + 1); s
'place fox-walrus-4'
>>> string_to_action(s) == PLACE + 1
True
>>> decode(GIVE + 4 * 1 + 2)
ArcticAction.parse('give fox-walrus-4 to P3')
>>> parse("facedown ?").card, parse("give fox-walrus-4 to P3").seat
(-1, 2)
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final, NamedTuple

from floe.core.errors import InvalidActionError
from floe.games.arctic.cards import ANIMALS, N_CARDS, card_name, parse_card
from floe.games.arctic.i18n import _
from floe.games.arctic.powers import POWER_BY_SLUG, Power

# Final: the compiled engine (docs/performance.md) reads these as C constants.
STOP: Final = 0
PASS: Final = 1
TAKE_BACK: Final = 2
DRAW_DECK: Final = 3
MOVE_RIGHT: Final = 4
MOVE_LEFT: Final = 5
EXTRA_RIGHT: Final = 6
EXTRA_LEFT: Final = 7
PENALTY_BLIND: Final = 8
GIVE_BLIND: Final = 9  # + seat
LOOK: Final = 13  # a Polar bear power's look at the own face-down penalty zone (penalties=hidden_look)
PLACE: Final = 16
UNDER: Final = PLACE + N_CARDS
FACEDOWN: Final = UNDER + N_CARDS
SWAP: Final = FACEDOWN + N_CARDS
RIVER: Final = SWAP + N_CARDS
PENALTY: Final = RIVER + N_CARDS
DISCARD: Final = PENALTY + N_CARDS
GIVE: Final = DISCARD + N_CARDS  # + 4 * card + seat
N_PLAYER_ACTIONS: Final = GIVE + 4 * N_CARDS
CARD: Final = N_PLAYER_ACTIONS
DECKS: Final = CARD + N_CARDS  # + bit mask of the decks in play
SIDE: Final = DECKS + 16  # + index into POWER_IDS
TOTEM: Final = SIDE + 12
FIRST: Final = TOTEM + 6
N_ACTIONS: Final = FIRST + 4

POWER_IDS: Final[tuple[int, ...]] = tuple(sorted(int(p) for p in Power))  # plain ints: the state stores them

RIGHT, LEFT = 1, -1  # a token move's direction: towards the landscape's 15, or towards its 0


class ActionKind(StrEnum):
    """What an action does (the value is its name in words, not always the notation's verb)."""

    STOP = "stop"
    PASS = "pass"
    TAKE_BACK = "take-back"
    DECK = "deck"
    MOVE = "move"
    EXTRA = "extra"
    PENALTY_BLIND = "penalty-blind"
    GIVE_BLIND = "give-blind"
    LOOK = "look"
    PLACE = "place"
    UNDER = "under"
    FACEDOWN = "facedown"
    SWAP = "swap"
    RIVER = "river"
    PENALTY = "penalty"
    DISCARD = "discard"
    GIVE = "give"
    # chance outcomes
    CARD = "card"
    DECKS = "decks"
    SIDE = "side"
    TOTEM = "totem"
    FIRST = "first"


# Kinds whose action names one card; the card may be hidden from a viewer (``?``).
CARD_KINDS = frozenset(
    (
        ActionKind.PLACE,
        ActionKind.UNDER,
        ActionKind.FACEDOWN,
        ActionKind.SWAP,
        ActionKind.RIVER,
        ActionKind.PENALTY,
        ActionKind.DISCARD,
        ActionKind.GIVE,
        ActionKind.CARD,
    )
)
CHANCE_KINDS = frozenset(
    (ActionKind.CARD, ActionKind.DECKS, ActionKind.SIDE, ActionKind.TOTEM, ActionKind.FIRST)
)
_WORDS: dict[ActionKind, str] = {  # the notation of kinds that carry nothing else
    ActionKind.STOP: "stop",
    ActionKind.PASS: "pass",
    ActionKind.TAKE_BACK: "take-back",
    ActionKind.DECK: "deck",
    ActionKind.PENALTY_BLIND: "penalty ?",
    ActionKind.LOOK: "look",
}
_BY_WORDS = {text: kind for kind, text in _WORDS.items()} | {"take back": ActionKind.TAKE_BACK}
_DIRECTION_WORDS = {RIGHT: "right", LEFT: "left"}


class ArcticAction(NamedTuple):
    """An action decoded: what it does (``kind``) and to what. Fields a kind does not use keep their
    default (-1, 0 or None).

    - ``card``: the card placed, swapped, taken, discarded, given or drawn (chance); -1 where the card is
      hidden from the viewer (notation ``?``);
    - ``seat``: who receives a Bear gift (``give``, ``give-blind``) or plays first (chance ``first``);
    - ``direction``: ``RIGHT`` (+1) or ``LEFT`` (-1) for the main token (``move``) or the Walrus token
      (``extra``);
    - ``decks``: the bit mask of the decks in play (chance ``decks``); ``power``: the side in play (chance
      ``side``); ``animal``: the totem dealt (chance ``totem``).
    """

    kind: ActionKind
    card: int = -1
    seat: int = -1
    direction: int = 0
    decks: int = 0
    power: Power | None = None
    animal: int = -1

    @property
    def is_chance(self) -> bool:
        """A chance outcome rather than a player's decision."""
        return self.kind in CHANCE_KINDS

    @property
    def hidden(self) -> bool:
        """The action names a card but the viewer does not know which (``?`` in notation)."""
        return self.kind in CARD_KINDS and self.card < 0

    @property
    def id(self) -> int:
        """The action id (``encode``)."""
        return encode(self)

    @classmethod
    def parse(cls, text: str) -> ArcticAction:
        """The action written ``text`` (``parse``)."""
        return parse(text)

    def __str__(self) -> str:
        """The notation, with ``?`` for a hidden card."""
        kind = ActionKind(self.kind)  # also for a kind given as its text
        if kind in _WORDS:
            return _WORDS[kind]
        card = "?" if self.card < 0 else card_name(self.card)
        if kind is ActionKind.GIVE or kind is ActionKind.GIVE_BLIND:
            shown = "?" if kind is ActionKind.GIVE_BLIND else card
            return f"give {shown} to {seat_name(self.seat)}"
        if kind in CARD_KINDS:
            return f"{kind.value} {card}"
        if kind is ActionKind.MOVE or kind is ActionKind.EXTRA:
            return f"{'main' if kind is ActionKind.MOVE else 'extra'} {_DIRECTION_WORDS[self.direction]}"
        if kind is ActionKind.DECKS:
            return f"decks {decks_mask_text(self.decks)}"
        if kind is ActionKind.SIDE:
            assert self.power is not None
            return f"side {self.power.slug}"
        if kind is ActionKind.TOTEM:
            return f"totem {ANIMALS[self.animal]}"
        return f"first {seat_name(self.seat)}"

    def __repr__(self) -> str:
        return f"ArcticAction.parse({str(self)!r})"


def seat_name(seat: int) -> str:
    """``P1`` for seat 0."""
    return f"P{seat + 1}"


def parse_seat(text: str) -> int:
    """Seat index for ``P2``/``p2``/``2`` (1-based text)."""
    key = text.strip().lower().removeprefix("p")
    if not key.isdigit() or not 1 <= int(key) <= 4:
        raise InvalidActionError(_("no seat %(text)r: write P1..P4") % {"text": text})
    return int(key) - 1


def decks_mask_text(mask: int) -> str:
    """``1+3`` for the mask of decks 1 and 3."""
    return "+".join(str(k + 1) for k in range(4) if mask >> k & 1)


def _decode_id(action: int) -> ArcticAction | None:
    """The layout read backwards; None for the ids it leaves unused. Run once per id, at import."""
    k = ActionKind
    if action < GIVE_BLIND:
        simple = (k.STOP, k.PASS, k.TAKE_BACK, k.DECK, k.MOVE, k.MOVE, k.EXTRA, k.EXTRA, k.PENALTY_BLIND)
        direction = (RIGHT if action % 2 == 0 else LEFT) if MOVE_RIGHT <= action <= EXTRA_LEFT else 0
        return ArcticAction(simple[action], direction=direction)
    if action < GIVE_BLIND + 4:
        return ArcticAction(k.GIVE_BLIND, seat=action - GIVE_BLIND)
    if action == LOOK:
        return ArcticAction(k.LOOK)
    if PLACE <= action < GIVE:
        verb = (k.PLACE, k.UNDER, k.FACEDOWN, k.SWAP, k.RIVER, k.PENALTY, k.DISCARD)[
            (action - PLACE) // N_CARDS
        ]
        return ArcticAction(verb, card=(action - PLACE) % N_CARDS)
    if GIVE <= action < N_PLAYER_ACTIONS:
        card, seat = divmod(action - GIVE, 4)
        return ArcticAction(k.GIVE, card=card, seat=seat)
    if CARD <= action < DECKS:
        return ArcticAction(k.CARD, card=action - CARD)
    if DECKS < action < SIDE:
        return ArcticAction(k.DECKS, decks=action - DECKS)
    if SIDE <= action < TOTEM:
        return ArcticAction(k.SIDE, power=Power(POWER_IDS[action - SIDE]))
    if TOTEM <= action < FIRST:
        return ArcticAction(k.TOTEM, animal=action - TOTEM)
    if FIRST <= action < N_ACTIONS:
        return ArcticAction(k.FIRST, seat=action - FIRST)
    return None


# The codec is two tables built once: id -> decoded action (None in the layout's gaps) and back.
_DECODED: tuple[ArcticAction | None, ...] = tuple(_decode_id(a) for a in range(N_ACTIONS))
_IDS: dict[ArcticAction, int] = {d: a for a, d in enumerate(_DECODED) if d is not None}
_TEXTS: tuple[str | None, ...] = tuple(None if d is None else str(d) for d in _DECODED)


def decode(action: int) -> ArcticAction:
    """What the action id does; ``InvalidActionError`` if the id is outside the space."""
    decoded = _DECODED[action] if 0 <= action < N_ACTIONS else None
    if decoded is None:
        raise InvalidActionError(f"no Arctic action has id {action}")
    return decoded


def encode(action: ArcticAction) -> int:
    """The id of a decoded action; ``InvalidActionError`` for a hidden card or fields outside the space."""
    try:
        return _IDS[action]
    except KeyError:
        raise InvalidActionError(f"{action} is not one action of the space") from None


def action_to_string(action: int) -> str:
    """Canonical notation of an action id; ``InvalidActionError`` if the id is outside the space."""
    text = _TEXTS[action] if 0 <= action < N_ACTIONS else None
    if text is None:
        raise InvalidActionError(f"no Arctic action has id {action}")
    return text


def string_to_action(text: str) -> int:
    """Parse notation (case and extra spaces ignored) to an action id; ``InvalidActionError`` if none."""
    return encode(parse(text))


def _card_or_hidden(text: str) -> int:
    return -1 if text.strip() == "?" else parse_card(text)


def parse(text: str) -> ArcticAction:
    """Read notation (case and extra spaces ignored) as a decoded action; ``InvalidActionError`` if none.

    A card may be written ``?`` (the action as a seat that may not see the card knows it, from
    ``observe_action``): the card is then -1. ``penalty ?`` and ``give ? to P2`` are the Bear's blind
    actions, whose card nobody chooses.
    """
    key = " ".join(text.strip().lower().split())
    if key in _BY_WORDS:
        return ArcticAction(_BY_WORDS[key])
    verb, _sep, rest = key.partition(" ")
    k = ActionKind
    try:
        if verb in ("main", "extra") and rest in ("right", "left"):
            return ArcticAction(
                k.MOVE if verb == "main" else k.EXTRA, direction=RIGHT if rest == "right" else LEFT
            )
        if verb in CARD_KINDS and verb != "give" and rest:
            return ArcticAction(k(verb), card=_card_or_hidden(rest))
        if verb == "give" and " to " in f" {rest}":
            what, _sep, who = rest.rpartition(" to ")
            seat = parse_seat(who)
            if what.strip() == "?":
                return ArcticAction(k.GIVE_BLIND, seat=seat)
            return ArcticAction(k.GIVE, card=parse_card(what), seat=seat)
        if verb == "decks" and rest:
            mask = 0
            for part in rest.replace(" ", "").split("+"):
                if part not in ("1", "2", "3", "4"):
                    raise InvalidActionError(_("no deck %(part)r: decks are 1..4") % {"part": part})
                mask |= 1 << (int(part) - 1)
            return ArcticAction(k.DECKS, decks=mask)
        if verb == "side" and rest in POWER_BY_SLUG:
            return ArcticAction(k.SIDE, power=Power(POWER_BY_SLUG[rest]))
        if verb == "totem" and rest in ANIMALS:
            return ArcticAction(k.TOTEM, animal=ANIMALS.index(rest))
        if verb == "first" and rest:
            return ArcticAction(k.FIRST, seat=parse_seat(rest))
    except ValueError as exc:
        raise InvalidActionError(str(exc)) from None
    raise InvalidActionError(_("cannot read %(text)r as an Arctic action") % {"text": text.strip()})


def all_action_ids() -> list[int]:
    """Every id that has a notation (the gaps in the layout are left out)."""
    return [a for a, decoded in enumerate(_DECODED) if decoded is not None]

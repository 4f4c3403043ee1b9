"""What one seat may know (docs/arctic-rules.md §9), decided here and nowhere else.

``observe(state, seat)`` turns the full state into an ``ArcticObservation``; the server, the bots, the
terminal and the learning adapters all start from it. ``observe_action`` says what a seat learns of an
action. From the observation come the JSON-ready dict (``codec.py``), the fixed-length vector
(``vector.py``, layout in ``docs/observation.md``) and full states consistent with it for search
(``determinize.py``); each of them imports this module, never the other way.

What a seat sees of the others: hand and penalty counts, the public knowledge gathered from public events
(cards seen entering a hand and not seen leaving it), every face-up pile card (flag ``piles_public``; only
the visible card otherwise), the place of each face-down card but not its animal, and the totems only once
the game is over. Its own hand, totem and face-down cards always. Of its own penalty zone (option
``penalties``, docs/arctic-rules.md §D20): every card (``seen``); the cards it has seen, i.e. discarded itself
or looked at with a Polar bear power, and how many it has not (``hidden_look``); only the count
(``hidden_blind``). How many cards of each zone their owner has not seen is public: every arrival and every
look is a public event. Nobody sees the deck or the reserve, which have no order to read anyway.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from floe.core.compiled import mypyc_attr
from floe.games.arctic import actions as act
from floe.games.arctic.actions import ActionKind
from floe.games.arctic.config import RulesConfig
from floe.games.arctic.state import (
    FACE_DOWN_FLAG,
    OVER,
    SCALAR_FIELDS,
    STEP_NAMES,
    ArcticStateData,
    Job,
)

CHANCE = -1
HIDDEN = -1  # a pile entry, hand or penalty card whose identity the seat does not know
FACE_DOWN_UNKNOWN = -1 - FACE_DOWN_FLAG  # distinct from HIDDEN so the place of a face-down card shows

# Every scalar of the state (step, turn counters, whose turn...) is public information
# (docs/arctic-rules.md §9).
PUBLIC_SCALARS = SCALAR_FIELDS


@mypyc_attr(native_class=False)  # compiled (native.py): a plain Python class, as callers and pickle expect
@dataclass(eq=True)
class ArcticObservation:
    """Everything one seat may know. ``seat`` is None for a spectator. Cards are ids; unknown ones -1.

    ``scalars`` holds the state's public scalar fields under the state's names (``placement_value``,
    ``turn_player``, ...). ``deck_count`` is the main deck (the unseen stock less the reserve's
    ``scalars["reserve_count"]`` cards).
    """

    seat: int | None
    config: RulesConfig
    scalars: dict[str, Any]
    tokens: list[int]
    river: list[int]
    deck_count: int  # the main deck; the reserve is scalars["reserve_count"]
    holder: list[int]
    powers: list[int]
    totems: list[int]  # own totem, every totem at the end, -1 otherwise
    turns: list[int]
    known: list[int]
    pushes: list[int]  # net token steps each seat chose per animal (public)
    pending: list[tuple[int, int, int]]
    hand_counts: list[int]
    penalty_counts: list[int]
    piles: list[list[int]]  # see the note on pile entries below
    hand: list[int] = field(default_factory=list)  # own hand (empty for a spectator)
    penalties: list[int] | None = None  # the own penalty cards the seat has seen; None: it sees none
    penalty_unseen: list[int] = field(default_factory=list)  # per seat: penalty cards its owner has not seen
    scores: list[dict[str, Any]] | None = None  # breakdowns once the game is over

    # Pile entries: a face-up card id; a face-down card known to this seat as card + 128; an unknown
    # face-down card as FACE_DOWN_UNKNOWN; a covered face-up card hidden by piles_public=False as HIDDEN.

    @property
    def step_name(self) -> str:
        """The step's name, e.g. ``place``."""
        return STEP_NAMES[self.scalars["step"]]

    @property
    def stock_count(self) -> int:
        """The unseen stock: main deck and reserve."""
        return self.deck_count + int(self.scalars["reserve_count"])


def observe(
    st: ArcticStateData, seat: int | None, scores: list[dict[str, Any]] | None = None
) -> ArcticObservation:
    """The observation of ``seat`` (None: a spectator) — the single place that redacts the state."""
    n = st.players
    over = st.step == OVER
    piles = []
    for q in range(n):
        pile = st.piles[q]
        if q == seat:
            piles.append(pile[:])
            continue
        view = [FACE_DOWN_UNKNOWN if e >= FACE_DOWN_FLAG else e for e in pile]
        if not st.config.piles_public and not over:
            view = [e if e == FACE_DOWN_UNKNOWN else HIDDEN for e in view[:-1]] + view[-1:]
        piles.append(view)
    totems = [t if over or q == seat else -1 for q, t in enumerate(st.totems)]
    own_penalties = None
    unseen = st.unseen_penalties
    if seat is not None and st.config.penalties != "hidden_blind":
        own_penalties = [c for c in st.penalties[seat] if c not in unseen]
    return ArcticObservation(
        seat=seat,
        config=st.config,
        scalars={name: getattr(st, name) for name in PUBLIC_SCALARS},
        tokens=st.tokens[:],
        river=st.river[:],
        deck_count=len(st.deck) - st.reserve_count,
        holder=st.holder[:],
        powers=st.powers[:],
        totems=totems,
        turns=st.turns[:],
        known=st.known[:],
        pushes=st.pushes[:],
        pending=st.pending[:],
        hand_counts=[len(h) for h in st.hands],
        penalty_counts=[len(p) for p in st.penalties],
        piles=piles,
        hand=st.hands[seat][:] if seat is not None else [],
        penalties=own_penalties,
        penalty_unseen=[sum(1 for c in zone if c in unseen) for zone in st.penalties] if unseen else [0] * n,
        scores=scores if over else None,
    )


# --- actions as a seat may know them ------------------------------------------------------------------------

# Chance jobs whose card only the job's seat sees (dealt or drawn into a hand, a totem dealt).
_OWNER_ONLY_JOBS = frozenset((Job.HAND, Job.BLIND_DRAW, Job.TOTEM))
# Decisions whose card only the player sees: face-down placements, cards taken from or put into the
# player's own penalty zone.
_PRIVATE_CARD_KINDS = frozenset((ActionKind.FACEDOWN, ActionKind.PENALTY, ActionKind.DISCARD))


def observe_action(st: ArcticStateData, action: int, seat: int | None) -> str | None:
    """``action`` (about to be applied to ``st``) as ``seat`` may know it (docs/arctic-rules.md §9): its
    notation, the notation with the card written ``?`` (another player's face-down card, discard or
    penalty-zone card), or None for a chance outcome the seat learns nothing of (a card reaching another hand,
    a penalty card it may not look at, another totem)."""
    text = act.action_to_string(action)
    if st.to_act == CHANCE:
        kind, owner, _ = st.pending[0]
        if kind in _OWNER_ONLY_JOBS:
            return text if seat == owner else None
        if kind == Job.PENALTY:
            return text if seat == owner and st.config.owner_sees_penalties else None  # else face down
        if kind == Job.BLIND_GIVE:
            return None  # nobody may look at it (owners do not see their penalty zones then)
        return text  # river refills, decks, power sides, the first player: public
    if seat == st.turn_player:
        return text
    decoded = act.decode(action)
    if decoded.kind in _PRIVATE_CARD_KINDS:
        return str(decoded._replace(card=HIDDEN))
    if decoded.kind is ActionKind.GIVE:
        if seat == decoded.seat and st.config.owner_sees_penalties:
            return text  # the receiver sees the card arrive in its penalty zone (face down otherwise)
        return str(decoded._replace(card=HIDDEN))
    return text

"""What one seat may know, decided here and nowhere else (spec: hands, pets and the deck are hidden).

``observe(state, seat)`` turns the full state into an ``ArcheObservation``; the server, the bots, the
terminal, the presenter and the learning adapters all start from it. ``observe_action`` says what a seat
learns of an action. From the observation come the JSON-ready dict (``codec.py``), the fixed-length vector
(``vector.py``) and full states consistent with it for search (``determinize.py``); each of them imports
this module, never the other way.

Public: the ark and the scale, the display, the cards out of the game, every figure and chip under it,
the seats' chips, the bank, the rain cards out, how many cards and rains the deck holds (its structure
follows from the set-up: ``top_left``, ``middle_rain``, ``lower_rain``), hand sizes, who has put down a
pet, and the cards publicly known to be in a seat's hand or pet (taken from the display, ``known``).
Hidden: the other hands, the other pets (until the end), the deck's content and order (it has none).
At the end every hand and pet is shown.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from floe.games.arche import actions as act
from floe.games.arche.config import RulesConfig
from floe.games.arche.state import (
    DECISION_JOBS,
    J_DEAL,
    J_DRAW,
    J_PET,
    OVER,
    PHASE_NAMES,
    SCALAR_FIELDS,
    STEP_OF_JOB,
    ArcheStateData,
)

CHANCE = -1
TERMINAL = -2


@dataclass(eq=True)
class ArcheObservation:
    """Everything one seat may know. ``seat`` is None for a spectator. Sets of cards are bit masks.

    ``scalars`` holds the state's public scalar fields under the state's names (``tilt``, ``display``,
    ``rain_out``...). ``pets[q]`` is q's pet when this seat may see it (its own, every one at the end),
    else -1; ``has_pet[q]`` whether q put one down. ``hands[q]`` is q's hand when this seat may see it
    (its own, every one at the end), else 0.
    """

    seat: int | None
    config: RulesConfig
    scalars: dict[str, Any]
    left: list[int]
    right: list[int]
    stock_count: int
    hand_counts: list[int]
    hands: list[int]
    has_pet: list[bool]
    pets: list[int]
    known: list[int]
    chips: list[int]
    figures: list[int]
    halves: list[int]
    figures_left: list[int]
    pending: list[tuple[int, int, int]]
    scores: list[dict[str, Any]] | None = None

    @property
    def players(self) -> int:
        return int(self.scalars["players"])

    @property
    def hand(self) -> int:
        """This seat's hand (0 for a spectator)."""
        return self.hands[self.seat] if self.seat is not None else 0

    @property
    def over(self) -> bool:
        return bool(self.scalars["phase"] == OVER)

    @property
    def step(self) -> str:
        """What is being decided: a decision job's step (``pet``, ``take``...), ``chance``, or the phase."""
        if self.pending and self.pending[0][0] in DECISION_JOBS and self.scalars["to_act"] >= 0:
            return STEP_OF_JOB[self.pending[0][0]]
        if self.scalars["to_act"] == CHANCE:
            return "chance"
        return PHASE_NAMES[self.scalars["phase"]]

    @property
    def rain_in_deck(self) -> int:
        return int(self.scalars["middle_rain"] + self.scalars["lower_rain"])


def observe(
    st: ArcheStateData, seat: int | None, scores: list[dict[str, Any]] | None = None
) -> ArcheObservation:
    """The observation of ``seat`` (None: a spectator) — the single place that redacts the state."""
    n = st.players
    over = st.phase == OVER
    hands = [h if over or q == seat else 0 for q, h in enumerate(st.hands)]
    pets = [p if over or q == seat else -1 for q, p in enumerate(st.pets)]
    return ArcheObservation(
        seat=seat,
        config=st.config,
        scalars={name: getattr(st, name) for name in SCALAR_FIELDS},
        left=st.left[:],
        right=st.right[:],
        stock_count=len(st.stock),
        hand_counts=[h.bit_count() for h in st.hands],
        hands=hands,
        has_pet=[p >= 0 for p in st.pets],
        pets=pets,
        known=st.known[:] if not over else [0] * n,
        chips=st.chips[:],
        figures=st.figures[:],
        halves=st.halves[:],
        figures_left=st.figures_left[:],
        pending=st.pending[:],
        scores=scores if over else None,
    )


def observe_action(st: ArcheStateData, action: int, seat: int | None) -> str | None:
    """``action`` (about to be applied to ``st``) as ``seat`` may know it: its notation, or the notation
    with the card written ``?`` (a card dealt or drawn into another hand, another seat's pet)."""
    cfg = st.config
    decoded = act.decode(cfg, action)
    if st.pending:
        kind, owner, _ = st.pending[0]
        if st.to_act == CHANCE and kind in (J_DEAL, J_DRAW) and decoded.kind == "card" and seat != owner:
            return act.notation(cfg, decoded, hide_card=True)
        if kind == J_PET and decoded.kind == "pet" and seat != owner:
            return act.notation(cfg, decoded, hide_card=True)
    return act.notation(cfg, decoded)

"""What one seat may know, decided here and nowhere else (spec: hands, pets and the deck are hidden).

``observe(state, seat)`` turns the full state into an ``ArcheObservation``; the server, the bots, the
terminal, the presenter and the learning adapters all start from it. ``observe_action`` says what a seat
learns of an action. From the observation come the JSON-ready dict (``to_dict``, ``from_dict``), the
fixed-length vector (``vector.py``) and full states consistent with it for search (``determinize.py``).

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
from floe.games.arche.cards import CATEGORIES, CLIMATES, DIETS, N_SCORING, SPECIALS
from floe.games.arche.config import RulesConfig
from floe.games.arche.state import (
    DECISION_JOBS,
    J_DEAL,
    J_DRAW,
    J_PET,
    JOB_NAMES,
    OVER,
    PHASE_NAMES,
    SCALAR_FIELDS,
    STEP_OF_JOB,
    ArcheStateData,
    bits,
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

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data with the game's words (card slugs, scoring cards, step names)."""
        return observation_to_dict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ArcheObservation:
        """Rebuild an observation from ``to_dict`` output (for clients that hold only the JSON)."""
        return observation_from_dict(data)


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


# --- JSON ---------------------------------------------------------------------------------------------------

_SEAT_SCALARS = ("first_player", "turn_player", "endgame_from")
_MASK_SCALARS = ("display", "out")


def _cards(cfg: RulesConfig, mask: int) -> list[str]:
    slugs = cfg.deck.slugs
    return [slugs[c] for c in bits(mask)]


def _mask(cfg: RulesConfig, names: list[str]) -> int:
    out = 0
    for name in names:
        out |= 1 << cfg.deck.card_id(name)
    return out


def card_table(cfg: RulesConfig) -> dict[str, dict[str, Any]]:
    """Every card's five features by its slug (the board shows them at a glance)."""
    d = cfg.deck
    return {
        d.slugs[c]: {
            "name": d.names[c],
            "name_de": d.names_de[c],
            "weight": d.weight[c],
            "climate": CLIMATES[d.climate[c]],
            "diet": DIETS[d.diet[c]],
            "category": CATEGORIES[d.category[c]],
            "special": SPECIALS[d.special[c]],
        }
        for c in range(d.n)
    }


def observation_to_dict(obs: ArcheObservation) -> dict[str, Any]:
    """JSON-ready data: cards by slug, scoring cards by name, seats as numbers (None: nobody)."""
    cfg = obs.config
    sc = obs.scalars
    top: dict[str, Any] = {
        "game": "arche",
        "seat": obs.seat,
        "options": cfg.to_options(),
        "placeholder_cards": cfg.deck.placeholder,
        "step": obs.step,
    }
    for name in SCALAR_FIELDS:
        value = sc[name]
        if name in _SEAT_SCALARS:
            value = value if value >= 0 else None
        elif name == "to_act":
            name, value = "current_player", (value if value >= 0 else ("chance" if value == CHANCE else None))
        elif name == "phase":
            value = PHASE_NAMES[value]
        elif name in _MASK_SCALARS:
            value = _cards(cfg, value)
        elif name == "passed":
            value = [q for q in range(obs.players) if value >> q & 1]
        top[name] = value
    views = []
    for q in range(obs.players):
        base = N_SCORING * q
        views.append(
            {
                "seat": q,
                "hand_count": obs.hand_counts[q],
                "hand": _cards(cfg, obs.hands[q]) if obs.hands[q] or q == obs.seat or obs.over else None,
                "known_hand": _cards(cfg, obs.known[q]),
                "has_pet": obs.has_pet[q],
                "pet": cfg.deck.slugs[obs.pets[q]] if obs.pets[q] >= 0 else None,
                "chips": obs.chips[q],
                "figures": {CATEGORIES[k]: obs.figures[base + k] for k in range(N_SCORING)},
                "halves": {CATEGORIES[k]: obs.halves[base + k] for k in range(N_SCORING)},
                "figures_left": obs.figures_left[q],
            }
        )
    return top | {
        "ark": {
            "left": [_cards(cfg, cab) for cab in obs.left],
            "right": [_cards(cfg, cab) for cab in obs.right],
        },
        "stock_count": obs.stock_count,
        "pending": [{"job": JOB_NAMES[k], "seat": a, "arg": b} for k, a, b in obs.pending],
        "players_view": views,
        "cards": card_table(cfg),
        "scores": obs.scores,
    }


def observation_from_dict(data: dict[str, Any]) -> ArcheObservation:
    """Rebuild an observation from ``observation_to_dict`` output."""
    n = data["players"]
    cfg = RulesConfig.from_options(data["options"], players=n)
    scalars: dict[str, Any] = {}
    for name in SCALAR_FIELDS:
        if name == "to_act":
            value = data["current_player"]
            scalars[name] = CHANCE if value == "chance" else (TERMINAL if value is None else value)
            continue
        value = data[name]
        if name in _SEAT_SCALARS:
            value = -1 if value is None else value
        elif name == "phase":
            value = PHASE_NAMES.index(value)
        elif name in _MASK_SCALARS:
            value = _mask(cfg, value)
        elif name == "passed":
            value = sum(1 << q for q in value)
        scalars[name] = value
    views = data["players_view"]
    return ArcheObservation(
        seat=data["seat"],
        config=cfg,
        scalars=scalars,
        left=[_mask(cfg, cab) for cab in data["ark"]["left"]],
        right=[_mask(cfg, cab) for cab in data["ark"]["right"]],
        stock_count=data["stock_count"],
        hand_counts=[v["hand_count"] for v in views],
        hands=[_mask(cfg, v["hand"]) if v["hand"] else 0 for v in views],
        has_pet=[v["has_pet"] for v in views],
        pets=[cfg.deck.card_id(v["pet"]) if v["pet"] else -1 for v in views],
        known=[_mask(cfg, v["known_hand"]) for v in views],
        chips=[v["chips"] for v in views],
        figures=[v["figures"][CATEGORIES[k]] for v in views for k in range(N_SCORING)],
        halves=[v["halves"][CATEGORIES[k]] for v in views for k in range(N_SCORING)],
        figures_left=[v["figures_left"] for v in views],
        pending=[(JOB_NAMES.index(j["job"]), j["seat"], j["arg"]) for j in data["pending"]],
        scores=data.get("scores"),
    )

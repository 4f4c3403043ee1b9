"""An Arche observation as JSON-ready data with the game's words (card slugs, scoring cards, step names),
and back (for clients that hold only the JSON)."""

from __future__ import annotations

from typing import Any

from floe.games.arche.cards import CATEGORIES, CLIMATES, DIETS, N_SCORING, SPECIALS
from floe.games.arche.config import RulesConfig
from floe.games.arche.observation import CHANCE, TERMINAL, ArcheObservation
from floe.games.arche.state import JOB_NAMES, PHASE_NAMES, SCALAR_FIELDS, bits

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

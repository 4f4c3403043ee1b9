"""The observation as JSON (what the browser, the server and saved views see), and back.

The state's public scalars carry their wire names, so one loop writes them all: each goes to the top level
or to ``turn`` (the current turn's counters), spelled in the game's words where it is an id (a seat or
None, a card notation, an animal name, a step name). Only ``to_act`` is renamed, to ``current_player``,
since ``current_player()`` is the core API's name for it. The per-seat pieces (piles, public knowledge,
totems...) are grouped under ``players_view``.

>>> from floe.games.arctic.game import ArcticGame
>>> obs = ArcticGame(4).new_initial_state().observation(0)
>>> data = observation_to_dict(obs)
>>> data["turn"]["placement_value"], data["current_player"], data["decks_in_play"]
(0, 'chance', [1, 2, 3, 4])
>>> observation_from_dict(data) == obs
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from floe.games.arctic.cards import ANIMALS, CARD_NAMES, LANDSCAPE, N_ANIMALS, N_CARDS, parse_card
from floe.games.arctic.config import RulesConfig
from floe.games.arctic.observation import FACE_DOWN_UNKNOWN, HIDDEN, ArcticObservation
from floe.games.arctic.powers import POWER_BY_SLUG, POWER_SLUGS
from floe.games.arctic.state import FACE_DOWN_FLAG, IN_HAND, JOB_NAMES, SCALAR_FIELDS, STEP_NAMES, TURN_FIELDS

__all__ = ["TURN_SCALARS", "WIRE_NAMES", "observation_from_dict", "observation_to_dict"]

Spelling = tuple[Callable[[Any], Any], Callable[[Any], Any]]  # (to the wire, from the wire)

# The scalars of the turn in progress, written under "turn"; the others are at the top level.
TURN_SCALARS = frozenset(TURN_FIELDS)
WIRE_NAMES: dict[str, str] = {name: name for name in SCALAR_FIELDS} | {"to_act": "current_player"}


def _bits(mask: int) -> list[int]:
    return [k for k in range(8) if mask >> k & 1]


_SEAT: Spelling = (lambda q: q if q >= 0 else None, lambda w: -1 if w is None else w)
# Scalars that are ids or bit masks in the state and words or lists on the wire; the rest are as they are.
_SPELLING: dict[str, Spelling] = {
    "step": (STEP_NAMES.__getitem__, STEP_NAMES.index),
    "to_act": (  # -1 chance, -2 nobody (the game is over)
        lambda q: q if q >= 0 else ("chance" if q == -1 else None),
        lambda w: -1 if w == "chance" else (-2 if w is None else w),
    ),
    "turn_player": _SEAT,
    "first_player": _SEAT,
    "trigger_player": _SEAT,
    "decks_in_play": (  # deck numbers 1..4
        lambda mask: [k + 1 for k in _bits(mask)],
        lambda decks: sum(1 << (k - 1) for k in decks),
    ),
    "powers_held_at_start": (
        lambda mask: [ANIMALS[a] for a in _bits(mask)],
        lambda names: sum(1 << ANIMALS.index(a) for a in names),
    ),
    "swap_card": (lambda c: CARD_NAMES[c] if c >= 0 else None, lambda w: -1 if w is None else parse_card(w)),
    "walrus_token": (ANIMALS.__getitem__, ANIMALS.index),
}


def _pile_entry(entry: int) -> dict[str, Any]:
    if entry == FACE_DOWN_UNKNOWN:
        return {"face_down": True}
    if entry == HIDDEN:
        return {"hidden": True}
    if entry >= FACE_DOWN_FLAG:
        return {"face_down": True, "card": CARD_NAMES[entry - FACE_DOWN_FLAG]}
    return {"card": CARD_NAMES[entry]}


def _pile_entry_from(entry: dict[str, Any]) -> int:
    if entry.get("hidden"):
        return HIDDEN
    if entry.get("face_down"):
        return parse_card(entry["card"]) + FACE_DOWN_FLAG if "card" in entry else FACE_DOWN_UNKNOWN
    return parse_card(entry["card"])


def observation_to_dict(obs: ArcticObservation) -> dict[str, Any]:
    """JSON-ready data with the game's words: card notations, animal names, power slugs."""
    n: int = obs.scalars["players"]
    cards = CARD_NAMES
    top: dict[str, Any] = {"game": "arctic", "seat": obs.seat, "options": obs.config.to_options()}
    turn: dict[str, Any] = {}
    for name, value in obs.scalars.items():
        to_wire = _SPELLING[name][0] if name in _SPELLING else None
        (turn if name in TURN_SCALARS else top)[WIRE_NAMES[name]] = to_wire(value) if to_wire else value
    # One pass over the public knowledge of every card, bucketed per seat (not 2 × n passes).
    known_hand: list[list[str]] = [[] for _ in range(n)]
    maybe_hidden: list[list[str]] = [[] for _ in range(n)]
    for c, where in enumerate(obs.known):
        if where >= IN_HAND:
            if where - IN_HAND < n:
                known_hand[where - IN_HAND].append(cards[c])
        elif where > 0:
            for q in range(n):
                if where >> q & 1:
                    maybe_hidden[q].append(cards[c])
    views = []
    for q in range(n):
        pile = obs.piles[q]
        shown = pile[-1] if pile else HIDDEN
        view: dict[str, Any] = {
            "seat": q,
            "hand_count": obs.hand_counts[q],
            "penalty_count": obs.penalty_counts[q],
            "penalty_unseen": obs.penalty_unseen[q],
            "pile": [_pile_entry(e) for e in pile],
            "visible_card": cards[shown] if 0 <= shown < FACE_DOWN_FLAG else None,
            "powers": [POWER_SLUGS[obs.powers[a]] for a in range(N_ANIMALS) if obs.holder[a] == q],
            "turns": obs.turns[q],
            "known_hand": known_hand[q],
            "maybe_hidden": maybe_hidden[q],
            "totem": ANIMALS[obs.totems[q]] if obs.totems[q] >= 0 else None,
            "pushes": {ANIMALS[a]: obs.pushes[N_ANIMALS * q + a] for a in range(N_ANIMALS)},
        }
        if q == obs.seat:
            view["hand"] = [cards[c] for c in obs.hand]
            view["penalties"] = None if obs.penalties is None else [cards[c] for c in obs.penalties]
        views.append(view)
    return top | {
        "landscape": list(LANDSCAPE),
        "tokens": dict(zip(ANIMALS, obs.tokens, strict=True)),
        "river": [cards[c] for c in obs.river],
        "deck_count": obs.deck_count,
        "powers": {
            ANIMALS[a]: {"power": POWER_SLUGS.get(obs.powers[a]), "holder": _SEAT[0](obs.holder[a])}
            for a in range(N_ANIMALS)
        },
        "turn": turn,
        "pending": [{"job": JOB_NAMES[k], "a": a, "b": b} for k, a, b in obs.pending],
        "players_view": views,
        "scores": obs.scores,
    }


def observation_from_dict(data: dict[str, Any]) -> ArcticObservation:
    """Rebuild an observation from ``observation_to_dict`` output (for clients that hold only the JSON)."""
    n = data["players"]
    turn = data["turn"]
    scalars = {}
    for name in SCALAR_FIELDS:
        value = (turn if name in TURN_SCALARS else data)[WIRE_NAMES[name]]
        scalars[name] = _SPELLING[name][1](value) if name in _SPELLING else value
    views = data["players_view"]
    known = [0] * N_CARDS
    for q, view in enumerate(views):
        for name in view["known_hand"]:
            known[parse_card(name)] = IN_HAND + q
        for name in view["maybe_hidden"]:
            known[parse_card(name)] |= 1 << q
    seat = data["seat"]
    own = views[seat] if seat is not None else {}
    powers = [data["powers"][a] for a in ANIMALS]
    return ArcticObservation(
        seat=seat,
        config=RulesConfig.from_options(data["options"], players=n),
        scalars=scalars,
        tokens=[data["tokens"][a] for a in ANIMALS],
        river=[parse_card(c) for c in data["river"]],
        deck_count=data["deck_count"],
        holder=[_SEAT[1](p["holder"]) for p in powers],
        powers=[POWER_BY_SLUG[p["power"]] if p["power"] else 0 for p in powers],
        totems=[-1 if v["totem"] is None else ANIMALS.index(v["totem"]) for v in views],
        turns=[v["turns"] for v in views],
        known=known,
        pushes=[v["pushes"][a] for v in views for a in ANIMALS],
        pending=[(JOB_NAMES.index(j["job"]), j["a"], j["b"]) for j in data["pending"]],
        hand_counts=[v["hand_count"] for v in views],
        penalty_counts=[v["penalty_count"] for v in views],
        penalty_unseen=[v.get("penalty_unseen", 0) for v in views],
        piles=[[_pile_entry_from(e) for e in v["pile"]] for v in views],
        hand=[parse_card(c) for c in own.get("hand", [])],
        penalties=None if own.get("penalties") is None else [parse_card(c) for c in own["penalties"]],
        scores=data.get("scores"),
    )

"""What one seat may know (spec section 9), decided here and nowhere else.

``observe(state, seat)`` turns the full state into an ``ArcticObservation``; the server, the bots, the
terminal and the learning adapters all start from it. From the observation come the JSON-ready dict
(``to_dict``), the fixed-length vector (``vector``, layout in ``docs/observation.md``) and
``determinize``, which samples a full state consistent with it for search.

What a seat sees of the others: hand and penalty counts, the public knowledge gathered from public events
(cards seen entering a hand and not seen leaving it), every face-up pile card (flag ``piles_public``; only
the visible card otherwise), the place of each face-down card but not its animal, and the totems only once
the game is over. Its own hand, totem and face-down cards always; its own penalty zone if
``owner_sees_penalties``. Nobody sees the deck or the reserve, which have no order to read anyway.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from itertools import compress
from typing import Any

import numpy as np

from floe.games.arctic import actions as act
from floe.games.arctic.cards import (
    ANIMALS,
    CARD_NAMES,
    COMPANION,
    DECK_CARDS,
    DRAW,
    LANDSCAPE,
    MAIN,
    N_ANIMALS,
    N_CARDS,
    PLACEMENT,
    parse_card,
)
from floe.games.arctic.config import RulesConfig
from floe.games.arctic.powers import POWER_SLUGS
from floe.games.arctic.state import (
    FACE_DOWN_FLAG,
    IN_HAND,
    J_BLIND_DRAW,
    J_BLIND_GIVE,
    J_HAND,
    J_PENALTY,
    J_TOTEM,
    JOB_NAMES,
    OVER,
    SCALAR_FIELDS,
    STEP_NAMES,
    ArcticStateData,
)

CHANCE = -1
HIDDEN = -1  # a pile entry, hand or penalty card whose identity the seat does not know

# Every scalar of the state (step, turn counters, whose turn...) is public information (spec section 9).
PUBLIC_SCALARS = SCALAR_FIELDS


@dataclass(eq=True)
class ArcticObservation:
    """Everything one seat may know. ``seat`` is None for a spectator. Cards are ids; unknown ones -1."""

    seat: int | None
    config: RulesConfig
    scalars: dict[str, Any]
    tokens: list[int]
    river: list[int]
    deck_count: int  # unseen stock: main deck + reserve
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
    penalties: list[int] | None = None  # own penalty zone if its owner may look, else None
    scores: list[dict[str, Any]] | None = None  # breakdowns once the game is over

    # Pile entries: a face-up card id; a face-down card known to this seat as card + 128; an unknown
    # face-down card as FACE_DOWN_UNKNOWN; a covered face-up card hidden by piles_public=False as HIDDEN.

    @property
    def step_name(self) -> str:
        """The step's name, e.g. ``place``."""
        return STEP_NAMES[self.scalars["step"]]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data with the game's words: card notations, animal names, power slugs."""
        s = self.scalars
        n = s["n"]

        def cards(ids: list[int]) -> list[str]:
            return [CARD_NAMES[c] for c in ids]

        # One pass over the public knowledge of every card, bucketed per seat (not 2 × n passes).
        known_hand: list[list[int]] = [[] for _ in range(n)]
        maybe_hidden: list[list[int]] = [[] for _ in range(n)]
        for c, where in enumerate(self.known):
            if where >= IN_HAND:
                if where - IN_HAND < n:
                    known_hand[where - IN_HAND].append(c)
            elif where > 0:
                for q in range(n):
                    if where >> q & 1:
                        maybe_hidden[q].append(c)
        players = []
        for q in range(n):
            pile: list[dict[str, Any]] = []
            for entry in self.piles[q]:
                if entry == FACE_DOWN_UNKNOWN:
                    pile.append({"face_down": True})
                elif entry == HIDDEN:
                    pile.append({"hidden": True})
                elif entry >= FACE_DOWN_FLAG:
                    pile.append({"face_down": True, "card": CARD_NAMES[entry - FACE_DOWN_FLAG]})
                else:
                    pile.append({"card": CARD_NAMES[entry]})
            top = self.piles[q][-1] if self.piles[q] else HIDDEN
            entry_dict: dict[str, Any] = {
                "seat": q,
                "hand_count": self.hand_counts[q],
                "penalty_count": self.penalty_counts[q],
                "pile": pile,
                "visible_card": CARD_NAMES[top] if 0 <= top < FACE_DOWN_FLAG else None,
                "powers": [POWER_SLUGS[self.powers[a]] for a in range(N_ANIMALS) if self.holder[a] == q],
                "turns": self.turns[q],
                "known_hand": cards(known_hand[q]),
                "maybe_hidden": cards(maybe_hidden[q]),
                "totem": ANIMALS[self.totems[q]] if self.totems[q] >= 0 else None,
                "pushes": {ANIMALS[a]: self.pushes[N_ANIMALS * q + a] for a in range(N_ANIMALS)},
            }
            if q == self.seat:
                entry_dict["hand"] = cards(self.hand)
                entry_dict["penalties"] = None if self.penalties is None else cards(self.penalties)
            players.append(entry_dict)
        return {
            "game": "arctic",
            "seat": self.seat,
            "players": n,
            "options": self.config.to_options(),
            "step": STEP_NAMES[s["step"]],
            "current_player": s["to_act"] if s["to_act"] >= 0 else ("chance" if s["to_act"] == -1 else None),
            "turn_player": s["player"] if s["player"] >= 0 else None,
            "first_player": s["first"] if s["first"] >= 0 else None,
            "round": s["round"],
            "end_triggered": s["end_triggered"],
            "trigger_player": s["trigger_player"] if s["trigger_player"] >= 0 else None,
            "final_round": s["final_round"],
            "landscape": list(LANDSCAPE),
            "tokens": {ANIMALS[a]: self.tokens[a] for a in range(N_ANIMALS)},
            "river": cards(self.river),
            "deck_count": self.deck_count - s["reserve_left"],
            "reserve_count": s["reserve_left"],
            "decks_in_play": [k + 1 for k in range(4) if s["decks_mask"] >> k & 1],
            "powers": {
                ANIMALS[a]: {
                    "power": POWER_SLUGS.get(self.powers[a]),
                    "holder": self.holder[a] if self.holder[a] >= 0 else None,
                }
                for a in range(N_ANIMALS)
            },
            "turn": {
                "placement_value": s["p_value"],
                "place_min": s["t_min"],
                "place_max": s["t_max"],
                "placed": s["placed"],
                "placing_closed": s["closed"],
                "puffin_used": s["puffin_used"],
                "give_used": s["give_used"],
                "swap_card": CARD_NAMES[s["swap_card"]] if s["swap_card"] >= 0 else None,
                "draw_min": s["n_min"],
                "draw_max": s["n_max"],
                "drawn": s["drawn"],
                "walrus_token": ANIMALS[s["walrus_token"]],
                "walrus_dir": s["walrus_dir"],
                "powers_held_at_start": [ANIMALS[a] for a in range(N_ANIMALS) if s["held_at_start"] >> a & 1],
            },
            "pending": [{"job": JOB_NAMES[k], "a": a, "b": b} for k, a, b in self.pending],
            "players_view": players,
            "scores": self.scores,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ArcticObservation:
        """Rebuild an observation from ``to_dict`` output (for clients that hold only the JSON)."""
        config = RulesConfig.from_options(data["options"], players=data["players"])
        n = data["players"]
        views = data["players_view"]
        turn = data["turn"]
        cur = data["current_player"]
        scalars = {
            "n": n,
            "first": -1 if data["first_player"] is None else data["first_player"],
            "reserve_left": data["reserve_count"],
            "decks_mask": sum(1 << (k - 1) for k in data["decks_in_play"]),
            "round": data["round"],
            "end_triggered": data["end_triggered"],
            "trigger_player": -1 if data.get("trigger_player") is None else data["trigger_player"],
            "final_round": data["final_round"],
            "player": -1 if data["turn_player"] is None else data["turn_player"],
            "step": STEP_NAMES.index(data["step"]),
            "to_act": -1 if cur == "chance" else (-2 if cur is None else cur),
            "held_at_start": sum(1 << ANIMALS.index(a) for a in turn["powers_held_at_start"]),
            "p_value": turn["placement_value"],
            "t_min": turn["place_min"],
            "t_max": turn["place_max"],
            "placed": turn["placed"],
            "closed": turn["placing_closed"],
            "puffin_used": turn["puffin_used"],
            "give_used": turn["give_used"],
            "swap_card": -1 if turn["swap_card"] is None else parse_card(turn["swap_card"]),
            "n_min": turn["draw_min"],
            "n_max": turn["draw_max"],
            "drawn": turn["drawn"],
            "walrus_token": ANIMALS.index(turn["walrus_token"]),
            "walrus_dir": turn["walrus_dir"],
        }
        from floe.games.arctic.powers import POWER_BY_SLUG

        known = [0] * N_CARDS
        piles: list[list[int]] = []
        for q, view in enumerate(views):
            for name in view["known_hand"]:
                known[parse_card(name)] = IN_HAND + q
            for name in view["maybe_hidden"]:
                known[parse_card(name)] |= 1 << q
            pile = []
            for entry in view["pile"]:
                if entry.get("hidden"):
                    pile.append(HIDDEN)
                elif entry.get("face_down"):
                    pile.append(
                        parse_card(entry["card"]) + FACE_DOWN_FLAG if "card" in entry else FACE_DOWN_UNKNOWN
                    )
                else:
                    pile.append(parse_card(entry["card"]))
            piles.append(pile)
        seat = data["seat"]
        own = views[seat] if seat is not None else {}
        powers_map = data["powers"]
        return cls(
            seat=seat,
            config=config,
            scalars=scalars,
            tokens=[data["tokens"][a] for a in ANIMALS],
            river=[parse_card(c) for c in data["river"]],
            deck_count=data["deck_count"] + data["reserve_count"],
            holder=[-1 if powers_map[a]["holder"] is None else powers_map[a]["holder"] for a in ANIMALS],
            powers=[POWER_BY_SLUG[powers_map[a]["power"]] if powers_map[a]["power"] else 0 for a in ANIMALS],
            totems=[-1 if v["totem"] is None else ANIMALS.index(v["totem"]) for v in views],
            turns=[v["turns"] for v in views],
            known=known,
            pushes=[v["pushes"][a] for v in views for a in ANIMALS],
            pending=[(JOB_NAMES.index(j["job"]), j["a"], j["b"]) for j in data["pending"]],
            hand_counts=[v["hand_count"] for v in views],
            penalty_counts=[v["penalty_count"] for v in views],
            piles=piles,
            hand=[parse_card(c) for c in own.get("hand", [])],
            penalties=None if own.get("penalties") is None else [parse_card(c) for c in own["penalties"]],
            scores=data.get("scores"),
        )


FACE_DOWN_UNKNOWN = -1 - FACE_DOWN_FLAG  # distinct from HIDDEN so the place of a face-down card shows


def observe(
    st: ArcticStateData, seat: int | None, scores: list[dict[str, Any]] | None = None
) -> ArcticObservation:
    """The observation of ``seat`` (None: a spectator) — the single place that redacts the state."""
    n = st.n
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
    if seat is not None and st.config.owner_sees_penalties:
        own_penalties = st.penalties[seat][:]
    return ArcticObservation(
        seat=seat,
        config=st.config,
        scalars={name: getattr(st, name) for name in PUBLIC_SCALARS},
        tokens=st.tokens[:],
        river=st.river[:],
        deck_count=len(st.deck),
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
        scores=scores if over else None,
    )


# --- actions as a seat may know them ------------------------------------------------------------------------

# Chance jobs whose card only the job's seat sees (dealt or drawn into a hand, a totem dealt).
_OWNER_ONLY_JOBS = frozenset((J_HAND, J_BLIND_DRAW, J_TOTEM))
# Decisions whose card only the player sees: face-down placements, cards taken from or put into the
# player's own penalty zone.
_PRIVATE_CARD_DECISIONS = ((act.FACEDOWN, act.SWAP), (act.PENALTY, act.GIVE))


def observe_action(st: ArcticStateData, action: int, seat: int | None) -> str | None:
    """``action`` (about to be applied to ``st``) as ``seat`` may know it (spec section 9): its notation,
    the notation with the card written ``?`` (another player's face-down card, discard or penalty-zone
    card), or None for a chance outcome the seat learns nothing of (a card reaching another hand, a penalty
    card it may not look at, another totem)."""
    text = act.action_to_string(action)
    if st.to_act == CHANCE:
        kind, owner, _ = st.pending[0]
        if kind in _OWNER_ONLY_JOBS:
            return text if seat == owner else None
        if kind == J_PENALTY:
            return text if seat == owner and st.config.owner_sees_penalties else None
        if kind == J_BLIND_GIVE:
            return None  # nobody may look at it (owners do not see their penalty zones then)
        return text  # river refills, decks, power sides, the first player: public
    if seat == st.player:
        return text
    for low, high in _PRIVATE_CARD_DECISIONS:
        if low <= action < high:
            return text.partition(" ")[0] + " ?"
    if act.GIVE <= action < act.N_PLAYER_ACTIONS:
        _, to = divmod(action - act.GIVE, 4)
        if seat == to and st.config.owner_sees_penalties:
            return text
        return f"give ? to {act.seat_name(to)}"
    return text


# --- the numeric vector --------------------------------------------------------------------------------

# Card location classes, relative to the observing seat (opponent i = i seats after it).
LOC_OWN_HAND, LOC_OWN_PILE, LOC_OWN_FACE_DOWN, LOC_OWN_PENALTY, LOC_RIVER = range(5)
LOC_OPP_PILE = 5  # + i - 1
LOC_OPP_KNOWN_HAND = 8  # + i - 1
LOC_OPP_MAYBE = 11  # + i - 1
LOC_OUT_OF_PLAY = 14
LOC_UNSEEN = 15
N_LOC = 16
CARD_BLOCK = N_CARDS * N_LOC
TOKEN_BLOCK = N_ANIMALS * 6
POWER_BLOCK = N_ANIMALS * 7  # side one-hot (2) + holder one-hot (none, self, opp 1..3)
TOTEM_BLOCK = 4 * N_ANIMALS  # relative seat x animal
SEAT_FEATURES = 6 + 6 + 6 + 2 + 6 + 1 + 6
SEAT_BLOCK = 4 * SEAT_FEATURES
GLOBAL_BLOCK = 12 + len(STEP_NAMES) + 6 + 6 + 8
VECTOR_SIZE = CARD_BLOCK + TOKEN_BLOCK + POWER_BLOCK + TOTEM_BLOCK + SEAT_BLOCK + GLOBAL_BLOCK


def _runs(pile: list[int]) -> tuple[list[int], int]:
    """Longest face-up run per animal and the length of the run at the top (face-down cards break runs)."""
    best = [0] * N_ANIMALS
    last, length = -1, 0
    for e in pile:
        animal = MAIN[e] if 0 <= e < FACE_DOWN_FLAG else -1
        length = length + 1 if animal == last and animal >= 0 else 1
        last = animal
        if animal >= 0 and length > best[animal]:
            best[animal] = length
    return best, (length if last >= 0 else 0)


_TOKEN_BASE = CARD_BLOCK
_POWER_BASE = _TOKEN_BASE + TOKEN_BLOCK
_TOTEM_BASE = _POWER_BASE + POWER_BLOCK
_SEAT_BASE = _TOTEM_BASE + TOTEM_BLOCK
_GLOBAL_BASE = _SEAT_BASE + SEAT_BLOCK
_STEP_BASE = _GLOBAL_BASE + 12
_HELD_BASE = _STEP_BASE + len(STEP_NAMES)
_WALRUS_BASE = _HELD_BASE + N_ANIMALS
_FLAGS_BASE = _WALRUS_BASE + N_ANIMALS
_CARD_OFFSETS = np.arange(N_CARDS) * N_LOC
_CARD_IDS = range(N_CARDS)
_BASE_LOC: dict[int, bytes] = {}
_VALUE_INDEX: dict[tuple[int, int], np.ndarray] = {}


def _base_loc(decks_mask: int) -> bytes:
    """Every card's location class before anything is known: unseen if its deck is in play (cached)."""
    loc = _BASE_LOC.get(decks_mask)
    if loc is None:
        cells = bytearray([LOC_OUT_OF_PLAY] * N_CARDS)
        for k in range(4):
            if decks_mask >> k & 1:
                for c in DECK_CARDS[k]:
                    cells[c] = LOC_UNSEEN
        loc = _BASE_LOC[decks_mask] = bytes(cells)
    return loc


def _value_index(n: int, seat: int) -> np.ndarray:
    """Where the scalar features go, in the order ``vector`` lists them (cached per seat)."""
    index = _VALUE_INDEX.get((n, seat))
    if index is None:
        order: list[int] = []
        for q in range(n):
            b = _SEAT_BASE + (q - seat) % n * SEAT_FEATURES
            order += [b + 18, b + 19, b + 12, b + 13, b + 14, b + 15, b + 26]
            order += range(b + 20, b + 26)
            order += range(b + 27, b + 33)
        order += range(_GLOBAL_BASE, _GLOBAL_BASE + 12)
        order += range(_FLAGS_BASE, _FLAGS_BASE + 8)
        index = _VALUE_INDEX[(n, seat)] = np.array(order, dtype=np.intp)
    return index


def vector(obs: ArcticObservation) -> np.ndarray:
    """The fixed-length float32 observation of ``obs.seat`` (layout: ``docs/observation.md``).

    This is the learning adapters' hot path, so the one-hots are set in a byte buffer and the card
    locations and scalars are written with one fancy-index assignment each.
    """
    seat = obs.seat if obs.seat is not None else 0
    s = obs.scalars
    n: int = s["n"]
    rel = [(q - seat) % n for q in range(n)]

    # Card locations; later writes win, in this order: public knowledge, river, piles, own hand/penalties.
    loc = bytearray(_base_loc(s["decks_mask"]))
    known = obs.known
    for c in compress(_CARD_IDS, known):  # only the few cards with public knowledge
        v = known[c]
        if v >= IN_HAND:
            if v - IN_HAND != seat:
                loc[c] = LOC_OPP_KNOWN_HAND - 1 + rel[v - IN_HAND]
        else:
            for q in range(n):
                if v >> q & 1 and q != seat:
                    loc[c] = LOC_OPP_MAYBE - 1 + rel[q]
                    break
    for c in obs.river:
        loc[c] = LOC_RIVER
    for q in range(n):
        if q == seat:
            for e in obs.piles[q]:
                if e >= FACE_DOWN_FLAG:
                    loc[e - FACE_DOWN_FLAG] = LOC_OWN_FACE_DOWN
                elif e >= 0:
                    loc[e] = LOC_OWN_PILE
        else:
            where = LOC_OPP_PILE - 1 + rel[q]
            for e in obs.piles[q]:
                if 0 <= e < FACE_DOWN_FLAG:
                    loc[e] = where
    for c in obs.hand:
        loc[c] = LOC_OWN_HAND
    for c in obs.penalties or ():
        loc[c] = LOC_OWN_PENALTY

    ones = bytearray(VECTOR_SIZE)
    val: list[float] = []
    b = _TOKEN_BASE
    for pos in obs.tokens:
        ones[b + pos] = 1
        b += 6
    for a, power in enumerate(obs.powers):
        b = _POWER_BASE + a * 7
        if power:
            ones[b + power % 10 - 1] = 1
        h = obs.holder[a]
        ones[b + 2 if h < 0 else b + 3 + rel[h]] = 1
    for q, totem in enumerate(obs.totems):
        if totem >= 0:
            ones[_TOTEM_BASE + rel[q] * N_ANIMALS + totem] = 1

    first, to_act = s["first"], s["to_act"]
    for q in range(n):
        b = _SEAT_BASE + rel[q] * SEAT_FEATURES
        pile = obs.piles[q]
        best, top_run = _runs(pile)
        top = pile[-1] if pile else HIDDEN
        if 0 <= top < FACE_DOWN_FLAG:
            ones[b + MAIN[top]] = 1
            ones[b + 6 + COMPANION[top]] = 1
            val += (PLACEMENT[top] / 5, DRAW[top] / 5)
        else:
            val += (0.0, 0.0)
        if q == first:
            ones[b + 16] = 1
        if q == to_act:
            ones[b + 17] = 1
        val += (obs.hand_counts[q] / 10, obs.penalty_counts[q] / 10, len(pile) / 30, obs.turns[q] / 30)
        val.append(top_run / 6)
        val += [x / 6 for x in best]
        val += [x / 5 for x in obs.pushes[N_ANIMALS * q : N_ANIMALS * q + N_ANIMALS]]
    val += (
        (obs.deck_count - s["reserve_left"]) / 100,
        s["reserve_left"] / 15,
        s["round"] / 30,
        float(s["end_triggered"]),
        float(s["final_round"]),
        s["placed"] / 6,
        s["t_min"] / 6,
        s["t_max"] / 6,
        s["drawn"] / 6,
        s["n_min"] / 6,
        s["n_max"] / 6,
        float(s["puffin_used"]),
        float(s["give_used"]),
        float(s["closed"]),
        s["walrus_dir"],
        float(s["swap_card"] >= 0),
        float(obs.seat is not None and to_act == obs.seat),
        s["p_value"] / 5,
        float(bool(obs.pending)),
        n / 4,
    )
    ones[_STEP_BASE + s["step"]] = 1
    held = s["held_at_start"]
    for a in range(N_ANIMALS):
        if held >> a & 1:
            ones[_HELD_BASE + a] = 1
    ones[_WALRUS_BASE + s["walrus_token"]] = 1

    out = np.frombuffer(ones, dtype=np.uint8).astype(np.float32)
    out[_CARD_OFFSETS + np.frombuffer(loc, dtype=np.uint8)] = 1.0
    out[_value_index(n, seat)] = val
    return out


# --- determinization -----------------------------------------------------------------------------------


class DeterminizationError(RuntimeError):
    """No consistent world could be sampled (a bug: the real state is always one)."""


def determinize(obs: ArcticObservation, rng: random.Random, state: ArcticStateData) -> None:
    """Fill ``state`` (a blank ``ArcticStateData``) with a full world consistent with ``obs``.

    Public fields are copied; hidden cards are sampled: cards certainly in a hand go there, cards known
    to be hidden by some seats go into those seats' hidden areas, every other unseen card is spread
    uniformly over the remaining hidden places and the stock. Opponents' totems are drawn uniformly from
    the animals not known to be taken. ``observe(state, obs.seat) == obs`` holds for the result.
    """
    seat = obs.seat
    n = obs.scalars["n"]
    state.config = obs.config
    for name, value in obs.scalars.items():
        setattr(state, name, value)
    state.n = n
    state.tokens = obs.tokens[:]
    state.river = obs.river[:]
    state.holder = obs.holder[:]
    state.powers = obs.powers[:]
    state.turns = obs.turns[:]
    state.known = obs.known[:]
    state.pushes = obs.pushes[:]
    state.pending = obs.pending[:]
    state.history = []
    state._legal = None
    state._scores = None

    located: set[int] = set(obs.river)
    located.update(obs.hand)
    if obs.penalties is not None:
        located.update(obs.penalties)
    for q in range(n):
        for e in obs.piles[q]:
            if 0 <= e < FACE_DOWN_FLAG:
                located.add(e)
            elif e >= FACE_DOWN_FLAG:
                located.add(e - FACE_DOWN_FLAG)
    in_play = [c for k in range(4) if obs.scalars["decks_mask"] >> k & 1 for c in DECK_CARDS[k]]
    unknown = [c for c in in_play if c not in located]

    # Hidden places: ("hand", q), ("penalty", q), ("pile", q, index).
    free: dict[tuple[int, ...], int] = {}
    for q in range(n):
        if q != seat:
            free[(0, q)] = obs.hand_counts[q]
        if q != seat or obs.penalties is None:
            free[(1, q)] = obs.penalty_counts[q]
        for i, e in enumerate(obs.piles[q]):
            if e == FACE_DOWN_UNKNOWN:
                free[(2, q, i)] = 1
            elif e == HIDDEN:
                free[(3, q, i)] = 1
    hidden_slots = sum(free.values())
    if hidden_slots + obs.deck_count != len(unknown):
        raise DeterminizationError(
            f"{len(unknown)} unseen cards for {hidden_slots} hidden places and a stock of {obs.deck_count}"
        )

    placed: dict[tuple[int, ...], list[int]] = {key: [] for key in free}
    rest: list[int] = []
    constrained: list[tuple[int, list[tuple[int, ...]]]] = []
    for c in unknown:
        v = obs.known[c]
        if v >= IN_HAND and v - IN_HAND != seat:
            placed[(0, v - IN_HAND)].append(c)
            free[(0, v - IN_HAND)] -= 1
        elif 0 < v < IN_HAND:
            # Such a card may be in a hand, a penalty zone or a face-down pile slot of a masked seat.
            areas = [key for key in free if key[0] != 3 and v >> key[1] & 1]
            constrained.append((c, areas))
        else:
            rest.append(c)
    rng.shuffle(constrained)
    options = dict(constrained)
    owner: dict[tuple[int, ...], list[int]] = {key: [] for key in free}

    def place(c: int, seen: set[tuple[int, ...]]) -> bool:
        # Kuhn's augmenting path: the real state is a witness, so a full assignment always exists;
        # a greedy pass alone can get stuck when masks overlap.
        keys = options[c][:]
        rng.shuffle(keys)
        for key in keys:
            if key in seen:
                continue
            seen.add(key)
            if free[key] > 0:
                free[key] -= 1
                owner[key].append(c)
                return True
            for d in owner[key]:
                if place(d, seen):
                    owner[key].remove(d)
                    owner[key].append(c)
                    return True
        return False

    for c, _ in constrained:
        if not place(c, set()):
            raise DeterminizationError(f"no hidden place left for {CARD_NAMES[c]}")
    for key, cards in owner.items():
        placed[key] += cards
    rng.shuffle(rest)
    i = 0
    for key, count in free.items():
        placed[key] += rest[i : i + count]
        i += count
    state.deck = sorted(rest[i:])

    state.hands = []
    state.penalties = []
    state.piles = []
    for q in range(n):
        state.hands.append(obs.hand[:] if q == seat else sorted(placed[(0, q)]))
        if q == seat and obs.penalties is not None:
            state.penalties.append(obs.penalties[:])
        else:
            state.penalties.append(sorted(placed[(1, q)]))
        pile = []
        for j, e in enumerate(obs.piles[q]):
            if e == FACE_DOWN_UNKNOWN:
                pile.append(placed[(2, q, j)][0] + FACE_DOWN_FLAG)
            elif e == HIDDEN:
                pile.append(placed[(3, q, j)][0])
            else:
                pile.append(e)
        state.piles.append(pile)
    totems = obs.totems[:]
    free_totems = [a for a in range(N_ANIMALS) if a not in totems]
    rng.shuffle(free_totems)
    for q in range(n):
        if totems[q] < 0 and not any(job[0] == 2 and job[1] == q for job in obs.pending):
            totems[q] = free_totems.pop()
    state.totems = totems

"""Arche's rules with their options fixed: one frozen ``RulesConfig`` per game, with the tables the engine
reads in its hot paths (built once per option set and deck, shared by every state of the game).

The cabin predicate of docs/arche-rules.md §7.3 is pairwise (every rule is about two cards in one cabin, or a
shy card and a neighbouring cabin), so it is tabulated here: ``compat[c]`` is the bit mask of the cards that
may share a cabin with card ``c``. A card may join a cabin when every card there is in its mask
(``cabin_ok``), which ``rules.py`` reads from a memo keyed by the cabin's mask.

>>> cfg = RulesConfig.from_options({})
>>> deck = cfg.deck
>>> hare, fox = deck.card_id("hare"), deck.card_id("fox")
>>> bool(cfg.compat[hare] >> fox & 1)  # a shy hare never shares a cabin with a carnivore
False
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from floe.core.errors import OptionError
from floe.games.arche.cards import (
    ANY,
    CARNIVORE,
    CHIMP,
    HERBIVORE,
    IMMUNE,
    MOSQUITO,
    NO_SPECIAL,
    NONE,
    OMNIVORE,
    PROVISIONS,
    SHY,
    SKUNK,
    SLOW,
    SPIDER,
    UNEVICTABLE,
    Deck,
    deck_of,
)
from floe.games.arche.i18n import L_
from floe.games.arche.options import DEFAULTS, OPTIONS

TOTAL_DISCS = 22  # the orange discs: action chips and half-point markers together (docs/arche-rules.md §2)
MAX_TILT = 2  # the scale's five positions -2..+2
CABIN_SIZE = 3
MAX_ROW = 24  # cabins per row: an engine limit (the action space is fixed), far beyond real play
DISPLAY_SIZE = 3
HAND_START = 2
OPENING_CABINS = 4


@dataclass(frozen=True)
class ActionSpace:
    """The id layout for a deck of ``n`` cards with ``e`` evicters (see ``actions.py``)."""

    n: int
    e: int
    draw: int = field(init=False)
    take: int = field(init=False)
    pet: int = field(init=False)
    discard: int = field(init=False)
    evict_any: int = field(init=False)
    play: int = field(init=False)
    evict: int = field(init=False)
    player_actions: int = field(init=False)
    card: int = field(init=False)
    rain: int = field(init=False)
    first: int = field(init=False)
    size: int = field(init=False)

    def __post_init__(self) -> None:
        n = self.n
        values = {"draw": 16}
        values["take"] = values["draw"] + n
        values["pet"] = values["take"] + n
        values["discard"] = values["pet"] + n
        values["evict_any"] = values["discard"] + n
        values["play"] = values["evict_any"] + n
        values["evict"] = values["play"] + SLOTS * n
        values["player_actions"] = values["evict"] + self.e * n
        values["card"] = values["player_actions"]
        values["rain"] = values["card"] + n
        values["first"] = values["rain"] + 1
        values["size"] = values["first"] + 5
        for key, value in values.items():
            object.__setattr__(self, key, value)


# A play's destination slot: left cabin i is i, right cabin i is MAX_ROW + i, then the two new cabins.
NEW_LEFT = 2 * MAX_ROW
NEW_RIGHT = NEW_LEFT + 1
SLOTS = NEW_RIGHT + 1


def pair_ok(deck: Deck, x: int, y: int, options: Mapping[str, Any]) -> bool:
    """Whether cards ``x`` and ``y`` may share a cabin (docs/arche-rules.md §7.3, the consolidated predicate).

    Climate: never hot with cold. Provisions: never with a herbivore or an omnivore (a shy herbivore may,
    ``shy_with_provisions``). Between two animals:
    a shy animal never with a carnivore or omnivore (an immune shy animal may, ``immune_shy``); two
    carnivores/omnivores never (unless one is immune); a carnivore/omnivore only with animals heavier than
    itself (``predator_weight``), a check skipped when the other animal is immune, or when the predator
    itself is immune and ``immune_predator=exempt`` (docs/arche-rules.md §12 #7).
    """
    cx, cy = deck.climate[x], deck.climate[y]
    if cx != cy and ANY not in (cx, cy):
        return False
    px, py = deck.category[x] == PROVISIONS, deck.category[y] == PROVISIONS
    if px or py:
        if px and py:
            return True
        other = y if px else x
        if deck.diet[other] == HERBIVORE and deck.category[other] == SHY and options["shy_with_provisions"]:
            return True  # the rulebook's table: shy animals yes, herbivores no; this reading lets shy win
        return deck.diet[other] not in (HERBIVORE, OMNIVORE)
    pred_x = deck.diet[x] in (CARNIVORE, OMNIVORE)
    pred_y = deck.diet[y] in (CARNIVORE, OMNIVORE)
    imm_x, imm_y = deck.special[x] == IMMUNE, deck.special[y] == IMMUNE
    shy_exempt = bool(options["immune_shy"])
    if deck.category[x] == SHY and pred_y and not (imm_x and shy_exempt):
        return False
    if deck.category[y] == SHY and pred_x and not (imm_y and shy_exempt):
        return False
    if pred_x and pred_y:
        return imm_x or imm_y
    if pred_x or pred_y:
        p, h = (x, y) if pred_x else (y, x)
        if deck.special[h] == IMMUNE:
            return True
        if deck.special[p] == IMMUNE and options["immune_predator"] == "exempt":
            return True
        if options["predator_weight"] == "heavier":
            return deck.weight[h] > deck.weight[p]
        return deck.weight[h] >= deck.weight[p]
    return True


@dataclass(frozen=True, eq=False)
class RulesConfig:
    """The options (every one filled in) and the deck, with the engine's tables (module docstring)."""

    options: dict[str, Any]
    deck: Deck
    space: ActionSpace
    compat: tuple[int, ...]  # per card: the cards that may share a cabin with it
    scare_mask: int  # cards that keep shy animals out of the neighbouring cabins (carnivores)
    shy_mask: int
    solo_mask: int  # slow animals and provisions: played alone, as the first card, never in the end-game
    animal_mask: int
    pet_mask: int  # cards that may be pets (animal, weight < 3, no !)
    fit: tuple[int, ...]  # fit[m]: the cards of weight <= m (m = 0..4)
    weight: tuple[int, ...]
    category: tuple[int, ...]
    special: tuple[int, ...]
    targets: tuple[int, ...]  # per card: the cards it may evict (0 for a card without the ability)
    evict_index: tuple[int, ...]  # per card: its index among the evicters, or -1
    evicter_mask: int
    opening_mask: int  # cards of weight 1 or 2 (docs/arche-rules.md §4.2)
    category_mask: tuple[int, ...]  # per category (NONE last)
    opposite: bool  # the cabin opposite is a neighbour (shy_neighbours)
    own_cabin: bool  # evict_from=own_cabin
    ok_cache: dict[int, int] = field(default_factory=dict, repr=False)
    ids_cache: dict[int, tuple[int, ...]] = field(default_factory=dict, repr=False)
    # per cabin mask: ``cabin_ok`` while the cabin has room, 0 once it is full (the plays' fast path)
    join_cache: dict[int, int] = field(default_factory=dict, repr=False)
    # per display mask: the ids of its draw actions
    draw_cache: dict[int, tuple[int, ...]] = field(default_factory=dict, repr=False)

    # the options the engine reads often, as attributes
    @property
    def n(self) -> int:
        return self.deck.n

    @classmethod
    def from_options(cls, options: Mapping[str, Any] | None, players: int = 4) -> RulesConfig:
        """Build from user options (text or JSON values), checked by the option schema first."""
        return cls.from_parsed(OPTIONS.parse(options, players), players)

    @classmethod
    def from_parsed(cls, options: Mapping[str, Any], players: int) -> RulesConfig:
        """Build from options the schema has checked (defaults filled in here)."""
        full = dict(DEFAULTS)
        full.update(options)
        full["deck"] = [list(row) for row in full["deck"]]
        chips = full["start_chips"] * players + (players - 1 if full["seat_chips"] == "later_plus_one" else 0)
        if full["bank"] == "finite" and chips > TOTAL_DISCS:
            said = L_(
                "%(chips)s starting chips for %(players)s players, more than the %(discs)s discs "
                "(lower start_chips or use bank=unlimited)",
                chips=chips,
                players=players,
                discs=TOTAL_DISCS,
            )
            raise OptionError(said)
        return _build(_freeze(full))

    def to_options(self) -> dict[str, Any]:
        """The full option mapping as it is stored in a record (a fresh copy)."""
        data = dict(self.options)
        data["deck"] = [list(row) for row in self.options["deck"]]
        return data

    def joinable(self, cabin: int) -> int:
        """The cards that may be played into the cabin with card mask ``cabin``: ``cabin_ok`` while it has
        fewer than ``CABIN_SIZE`` cards, none once it is full (memoised)."""
        ok = self.join_cache.get(cabin)
        if ok is None:
            ok = self.join_cache[cabin] = self.cabin_ok(cabin) if cabin.bit_count() < CABIN_SIZE else 0
        return ok

    def cabin_ok(self, cabin: int) -> int:
        """The cards that may join the cabin with card mask ``cabin`` as far as its cards go (memoised)."""
        ok = self.ok_cache.get(cabin)
        if ok is None:
            ok = self.deck.all_mask
            m = cabin
            compat = self.compat
            while m:
                low = m & -m
                ok &= compat[low.bit_length() - 1]
                m ^= low
            self.ok_cache[cabin] = ok
        return ok


def _freeze(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return tuple(_freeze(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, _freeze(v)) for k, v in value.items()))
    return value


def _thaw_options(key: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, value in key:
        out[name] = [list(row) for row in value] if name == "deck" else value
    return out


@lru_cache(maxsize=64)
def _compat(
    deck: Deck, immune_shy: bool, immune_predator: str, predator_weight: str, shy_with_provisions: bool
) -> tuple[int, ...]:
    """Per card, the mask of the cards it may share a cabin with (the options ``pair_ok`` reads)."""
    options = {
        "immune_shy": immune_shy,
        "immune_predator": immune_predator,
        "predator_weight": predator_weight,
        "shy_with_provisions": shy_with_provisions,
    }
    n = deck.n
    return tuple(sum(1 << y for y in range(n) if y != x and pair_ok(deck, x, y, options)) for x in range(n))


@lru_cache(maxsize=64)
def _build(key: Any) -> RulesConfig:
    options = _thaw_options(key)
    deck = deck_of(options["deck"])
    n = deck.n
    compat = _compat(
        deck,
        options["immune_shy"],
        options["immune_predator"],
        options["predator_weight"],
        options["shy_with_provisions"],
    )
    animal = [deck.category[c] != PROVISIONS for c in range(n)]
    scare = 0
    for c in range(n):
        if deck.diet[c] == CARNIVORE and (animal[c] or options["provisions_scare_shy"]):
            scare |= 1 << c
    pets = 0
    for c in range(n):
        if (
            animal[c]
            and deck.weight[c] < 3
            and deck.special[c] == NO_SPECIAL
            and (deck.category[c] != NONE or options["uncategorised_pets"])
        ):
            pets |= 1 << c
    targets = []
    for c in range(n):
        kind = deck.special[c]
        mask = 0
        if kind in (MOSQUITO, SKUNK, SPIDER):
            for t in range(n):
                if t == c or deck.special[t] in UNEVICTABLE:
                    continue
                if not animal[t] and not (kind == SKUNK and options["evict_provisions"]):
                    continue
                if kind == MOSQUITO and deck.weight[t] != 2:
                    continue
                if kind == SPIDER and deck.category[t] != SHY:
                    continue
                mask |= 1 << t
        targets.append(mask)
    evict_index = [-1] * n
    for i, c in enumerate(deck.evicters):
        evict_index[c] = i

    def mask_of(pred: Any) -> int:
        return sum(1 << c for c in range(n) if pred(c))

    return RulesConfig(
        options=options,
        deck=deck,
        space=ActionSpace(n, len(deck.evicters)),
        compat=compat,
        scare_mask=scare,
        shy_mask=mask_of(lambda c: deck.category[c] == SHY),
        solo_mask=mask_of(lambda c: deck.category[c] in (SLOW, PROVISIONS)),
        animal_mask=mask_of(lambda c: animal[c]),
        pet_mask=pets,
        fit=tuple(mask_of(lambda c, m=m: deck.weight[c] <= m) for m in range(5)),
        weight=deck.weight,
        category=deck.category,
        special=deck.special,
        targets=tuple(targets),
        evict_index=tuple(evict_index),
        evicter_mask=mask_of(lambda c: c in deck.evicters),
        opening_mask=mask_of(lambda c: deck.weight[c] in (1, 2)),
        category_mask=tuple(mask_of(lambda c, k=k: deck.category[c] == k) for k in range(NONE + 1)),
        opposite=options["shy_neighbours"] == "row_and_opposite",
        own_cabin=options["evict_from"] == "own_cabin",
    )


__all__ = [
    "CABIN_SIZE",
    "CHIMP",
    "DISPLAY_SIZE",
    "HAND_START",
    "MAX_ROW",
    "MAX_TILT",
    "NEW_LEFT",
    "NEW_RIGHT",
    "OPENING_CABINS",
    "SLOTS",
    "TOTAL_DISCS",
    "ActionSpace",
    "RulesConfig",
    "pair_ok",
]

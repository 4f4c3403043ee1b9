"""Arctic's rule flags (spec section 10) and power sides, as one frozen record that is part of the record.

Defaults are the rules-faithful choices; ``preset="bga"`` gives the Board Game Arena compatible set.
Options arrive as a mapping (from the CLI, a record or the server) and are checked here, once: an unknown
key or value gives an ``OptionError`` naming it and the allowed values.

>>> RulesConfig.from_options({"preset": "bga"}).end_trigger
'bga'
>>> RulesConfig.from_options({"powers": "fox-under,moose-draw"}).power_sides[:2]
(2, 1)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from functools import lru_cache
from typing import Any

from floe.core.errors import OptionError
from floe.games.arctic.cards import ANIMALS

# Power ids follow BGA: animal index a (0..5) and side s (1 or 2) give id 10*(a+1)+s.
POWER_SLUGS: dict[int, str] = {
    11: "fox-facedown",
    12: "fox-under",
    21: "moose-draw",
    22: "moose-place",
    31: "walrus-main",
    32: "walrus-companion",
    41: "orca-refill",
    42: "orca-deck",
    51: "puffin-swap",
    52: "puffin-take-back",
    61: "bear-draw-penalty",
    62: "bear-give",
}
POWER_BY_SLUG = {slug: pid for pid, slug in POWER_SLUGS.items()}
POWER_WORDS: dict[int, str] = {
    11: "the last card placed may go face-down under your visible card (a wildcard at scoring)",
    12: "the last card placed may go to the bottom of your pile",
    21: "draw one card more or one fewer",
    22: "place one card more or one fewer",
    31: "move the main animal's token one extra step",
    32: "move the companion's token one extra step",
    41: "the river refills after each card you take from it",
    42: "any draw may be the top card of the deck",
    51: "before placing, swap a hand card with a river card",
    52: "before placing, take your visible card back into your hand",
    61: "any draw may be a card from your own penalty zone",
    62: "give one of your penalty cards to another player",
}


def power_id(animal: int, side: int) -> int:
    """The power id of ``animal``'s ``side`` (1 or 2)."""
    return 10 * (animal + 1) + side


_CHOICES: dict[str, tuple[str, ...]] = {
    "end_trigger": ("deck_emptied", "refill_fails", "bga"),
    "deck_selection": ("random", "first_n"),
    "walrus_mode": ("extra_step", "double_move"),
    "bear_give_step": ("C", "A"),
    "wildcard_scoring": ("free_max", "bga_adjacent"),
    "moose_no_visible": ("one_or_two", "bga_exactly_one"),
}
_BOOLS = ("fox_first_card_bga_limit", "owner_sees_penalties", "piles_public")


@dataclass(frozen=True, slots=True)
class RulesConfig:
    """Every Arctic rule flag. ``power_sides[a]`` is 0 (random at setup), 1 or 2 for animal ``a``."""

    end_trigger: str = "deck_emptied"
    deck_selection: str = "random"
    first_player: int | None = None  # None: chosen at random during setup
    walrus_mode: str = "extra_step"
    bear_give_step: str = "C"
    wildcard_scoring: str = "free_max"
    fox_first_card_bga_limit: bool = False
    moose_no_visible: str = "one_or_two"
    owner_sees_penalties: bool = True
    piles_public: bool = True
    power_sides: tuple[int, ...] = (0, 0, 0, 0, 0, 0)

    @classmethod
    def bga(cls) -> RulesConfig:
        """The Board Game Arena compatible preset (spec section 10, flag summary)."""
        return cls(
            end_trigger="bga",
            deck_selection="first_n",
            first_player=0,
            wildcard_scoring="bga_adjacent",
            fox_first_card_bga_limit=True,
            moose_no_visible="bga_exactly_one",
        )

    @classmethod
    def from_options(cls, options: Mapping[str, Any] | None, players: int = 4) -> RulesConfig:
        """Build from user options: ``preset`` ("rules" or "bga"), any flag, and ``powers``.

        ``powers`` is a list or comma-separated text of power slugs (``fox-under``) or ``animal=side``
        (``fox=2``, ``fox=random``); animals not named stay as the preset has them.
        """
        opts = dict(options or {})
        preset = str(opts.pop("preset", "rules")).lower()
        if preset == "rules":
            config = cls()
        elif preset == "bga":
            config = cls.bga()
        else:
            raise OptionError(f"unknown preset {preset!r}; choose rules or bga")
        changes: dict[str, Any] = {}
        for key, value in opts.items():
            if key in _CHOICES:
                text = str(value)
                if text not in _CHOICES[key]:
                    raise OptionError(f"{key} must be one of {', '.join(_CHOICES[key])}, not {text!r}")
                changes[key] = text
            elif key in _BOOLS:
                changes[key] = _parse_bool(key, value)
            elif key == "first_player":
                changes[key] = _parse_first_player(value, players)
            elif key == "powers":
                changes["power_sides"] = _parse_powers(value, config.power_sides)
            elif key == "power_sides":
                changes["power_sides"] = _parse_sides(value)
            else:
                known = sorted([*_CHOICES, *_BOOLS, "first_player", "powers", "preset"])
                raise OptionError(f"unknown option {key!r}; known options: {', '.join(known)}")
        return replace(config, **changes)

    def to_options(self) -> dict[str, Any]:
        """The full option mapping (every flag spelled out), as it is stored in a record (a fresh dict)."""
        data = dict(_options_of(self))
        data["power_sides"] = list(self.power_sides)
        return data

    def power_id(self, animal: int) -> int | None:
        """The fixed power of ``animal``, or None when its side is drawn at setup."""
        side = self.power_sides[animal]
        return power_id(animal, side) if side else None


@lru_cache(maxsize=256)
def _options_of(config: RulesConfig) -> dict[str, Any]:
    # dataclasses.asdict walks the fields recursively and costs tens of µs; every observation dict
    # carries the options, so the walk is done once per configuration (callers get a copy).
    return asdict(config)


def _parse_bool(key: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("0", "false", "no", "off"):
        return False
    raise OptionError(f"{key} must be true or false, not {value!r}")


def _parse_first_player(value: Any, players: int) -> int | None:
    if value is None or str(value).lower() in ("random", "none", ""):
        return None
    try:
        seat = int(value)
    except (TypeError, ValueError):
        raise OptionError(f"first_player must be a seat number or random, not {value!r}") from None
    if not 0 <= seat < players:
        raise OptionError(f"first_player must be a seat 0..{players - 1}, not {seat}")
    return seat


def _parse_sides(value: Any) -> tuple[int, ...]:
    if not isinstance(value, list | tuple) or len(value) != 6 or any(v not in (0, 1, 2) for v in value):
        raise OptionError("power_sides must be six values, each 0 (random), 1 or 2")
    return tuple(int(v) for v in value)


def _parse_powers(value: Any, sides: tuple[int, ...]) -> tuple[int, ...]:
    items = value if isinstance(value, list | tuple) else str(value).split(",")
    out = list(sides)
    for raw in items:
        item = str(raw).strip().lower()
        if not item:
            continue
        if "=" in item:
            name, _, side_text = item.partition("=")
            name = name.strip().replace("polar-bear", "bear")
            if name not in ANIMALS:
                raise OptionError(f"unknown animal {name!r} in powers; animals: {', '.join(ANIMALS)}")
            side_key = side_text.strip().lower()
            side_map = {"random": 0, "1": 1, "2": 2, "a": 1, "b": 2}
            if side_key not in side_map:
                raise OptionError(f"side for {name} must be 1, 2, A, B or random, not {side_text!r}")
            out[ANIMALS.index(name)] = side_map[side_key]
        elif item in POWER_BY_SLUG:
            pid = POWER_BY_SLUG[item]
            out[pid // 10 - 1] = pid % 10
        else:
            raise OptionError(f"unknown power {item!r}; powers: {', '.join(POWER_BY_SLUG)}")
    return tuple(out)


FLAG_NAMES: tuple[str, ...] = tuple(f.name for f in fields(RulesConfig))

"""Arctic's rule flags (docs/arctic-rules.md §10) and power sides, as one frozen record that is part of the
record.

Defaults are the rules-faithful choices; ``preset="bga"`` gives the Board Game Arena compatible set.
``penalties`` says what an owner sees of their own penalty zone (docs/arctic-rules.md §D20): ``hidden_look``
(the rulebook: face down, a Polar bear power's look shows the zone and its user chooses), ``seen`` (BGA: every
card shows to its owner) or ``hidden_blind`` (face down, the Polar bear powers take an unseen card by chance).
Options arrive as a mapping (from the CLI, a record or the server) and are checked by the game's option
schema (``options.OPTIONS``) before a config is built from them.

>>> RulesConfig.from_options({"preset": "bga"}).end_trigger
'bga'
>>> RulesConfig.from_options({"powers": "fox-under,moose-draw"}).power_sides[:2]
(2, 1)
>>> RulesConfig().penalties, RulesConfig.bga().penalties
('hidden_look', 'seen')
>>> RulesConfig.from_options({"owner_sees_penalties": False}).penalties  # an old record's flag
'hidden_blind'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from functools import lru_cache
from typing import Any

from floe.core.errors import OptionError
from floe.games.arctic.i18n import L_
from floe.games.arctic.powers import power_id


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
    penalties: str = "hidden_look"  # or "seen", "hidden_blind" (options.py)
    piles_public: bool = True
    power_sides: tuple[int, ...] = (0, 0, 0, 0, 0, 0)

    @classmethod
    def bga(cls) -> RulesConfig:
        """The Board Game Arena compatible preset (docs/arctic-rules.md §10, flag summary)."""
        return cls(
            end_trigger="bga",
            deck_selection="first_n",
            first_player=0,
            wildcard_scoring="bga_adjacent",
            fox_first_card_bga_limit=True,
            moose_no_visible="bga_exactly_one",
            penalties="seen",
        )

    @property
    def owner_sees_penalties(self) -> bool:
        """Whether every penalty card shows to its owner as it arrives (``penalties=seen``, BGA)."""
        return self.penalties == "seen"

    @property
    def bear_looks(self) -> bool:
        """Whether penalty cards arrive face down and a Polar bear power's look shows the zone to its owner
        (``penalties=hidden_look``, the rulebook)."""
        return self.penalties == "hidden_look"

    @classmethod
    def from_options(cls, options: Mapping[str, Any] | None, players: int = 4) -> RulesConfig:
        """Build from user options (text or JSON values), checked by the option schema first."""
        from floe.games.arctic.options import OPTIONS

        return cls.from_parsed(OPTIONS.parse(options, players))

    @classmethod
    def from_parsed(cls, options: Mapping[str, Any]) -> RulesConfig:
        """Build from options the schema has checked: the preset, then each flag given, then ``powers``
        (animals it does not name keep their side from ``power_sides`` or the preset)."""
        config = cls.bga() if options.get("preset") == "bga" else cls()
        changes = {k: v for k, v in options.items() if k in _FLAGS}
        if "owner_sees_penalties" in options:
            # The flag ``penalties`` replaced (records made before 2026-11-24 store it): true was "seen",
            # false the blind Polar bear draws and gifts.
            if "penalties" in options:
                raise OptionError(L_("give penalties or its old name owner_sees_penalties, not both"))
            changes["penalties"] = "seen" if options["owner_sees_penalties"] else "hidden_blind"
        sides = list(options.get("power_sides", config.power_sides))
        for animal, side in options.get("powers", {}).items():
            sides[animal] = side
        return replace(config, **changes, power_sides=tuple(sides))

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


FLAG_NAMES: tuple[str, ...] = tuple(f.name for f in fields(RulesConfig))
_FLAGS = frozenset(FLAG_NAMES) - {"power_sides"}

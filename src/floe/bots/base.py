"""The bot protocol: a bot sees one seat's observation and the legal actions, never the full state.

Bots are named by a spec string ``name[:key=value,...]`` (``random``, ``ismcts:ms=500``). A game's own bots
come from its entry (``GameEntry.bots``); the generic ones (``random``, ``ismcts``, and ``mcts`` for games of
perfect information) serve every game that they can play. Every bot gets its own seeded generator so a
seeded game with bots is reproducible.
"""

from __future__ import annotations

import math
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from floe.core.entry import resolve
from floe.core.errors import OptionError
from floe.core.game import Game
from floe.core.registry import entry


class Bot(ABC):
    """A player program for one seat.

    ``remembers``: the bot keeps memory between its decisions (a search tree, the positions it has met),
    so a table keeps one bot per seat for the whole game instead of building one per decision; a bot
    rebuilt mid-game (a restarted server) is told its seat's earlier decisions through ``recall``.
    """

    name = "bot"
    remembers: ClassVar[bool] = False

    def __init__(self, game: Game, seat: int, seed: int, **params: str) -> None:
        if params:
            raise OptionError(f"bot {self.name!r} takes no parameter {next(iter(params))!r}")
        self.game = game
        self.seat = seat
        self.rng = random.Random(seed)

    @classmethod
    def plays(cls, game: type[Game]) -> bool:
        """Whether this bot can play ``game`` at all (a generic bot may need, say, perfect information)."""
        return True

    @abstractmethod
    def choose(self, observation: Any, legal_actions: list[int]) -> int:
        """Pick one of ``legal_actions`` knowing only ``observation`` (this seat's view)."""

    def recall(self, observation: Any, action: int) -> None:  # noqa: B027 (optional hook, no-op default)
        """Learn of a decision this seat made earlier, before this bot existed (``observation`` is the seat's
        view then). Bots that remember nothing ignore it."""


class RandomBot(Bot):
    """Uniformly random among the legal actions."""

    name = "random"

    def choose(self, observation: Any, legal_actions: list[int]) -> int:
        return self.rng.choice(legal_actions)


def visit_rows(children: Mapping[int, Any], legal_actions: list[int]) -> list[tuple[int, int, float]]:
    """A search's view of the root for ``hint``: (action, visits, mean value) for each legal action, most
    visited first (``children`` maps actions to nodes with ``visits`` and a summed ``reward``)."""
    rows = []
    for a in legal_actions:
        child = children.get(a)
        visits = child.visits if child else 0
        rows.append((a, visits, child.reward / child.visits if child and child.visits else 0.0))
    rows.sort(key=lambda row: (-row[1], -row[2]))
    return rows


def positive_number(bot: str, name: str, value: str, kind: type[int] | type[float]) -> float:
    """A bot parameter as a positive finite number of ``kind``; a one-line ``OptionError`` otherwise
    (NaN or infinity would make a search that never stops)."""
    try:
        number = kind(value)
    except ValueError:
        raise OptionError(f"{bot}: {name} must be a positive number, not {value!r}") from None
    if not (number > 0 and math.isfinite(number)):
        raise OptionError(f"{bot}: {name} must be a positive number, not {value!r}")
    return number


BotFactory = Callable[..., Bot]
# The bots every game may use (if the bot ``plays`` it): a class, or a "module:Class" reference.
_GENERIC: dict[str, BotFactory | str] = {
    "random": RandomBot,
    "ismcts": "floe.bots.ismcts:ISMCTSBot",
    "mcts": "floe.bots.mcts:MCTSBot",
}


def register_bot(name: str, factory: BotFactory | str) -> None:
    """Make a generic bot available under ``name`` for every game it ``plays`` (a game's own bots are
    declared in its entry instead)."""
    _GENERIC[name] = factory


def _load(factory: BotFactory | str) -> BotFactory:
    loaded = resolve(factory) if isinstance(factory, str) else factory
    if not callable(loaded):
        raise TypeError(f"{factory!r} is not a bot")
    return loaded


def _bots(game_name: str) -> dict[str, BotFactory]:
    """Every bot that can play ``game_name``: its own, then the generic ones that play it."""
    game_entry = entry(game_name)
    out = {name: _load(ref) for name, ref in game_entry.bots.items()}
    for name, ref in _GENERIC.items():
        if name not in out:
            factory = _load(ref)
            plays = getattr(factory, "plays", None)
            if plays is None or plays(game_entry.game):
                out[name] = factory
    return out


def bot_names(game: str) -> list[str]:
    """The bots available for ``game``."""
    return sorted(_bots(game))


def first_available(specs: tuple[str, ...] | list[str], game: str) -> str | None:
    """The first of ``specs`` whose bot exists for ``game`` (None if none does)."""
    known = set(bot_names(game))
    return next((spec for spec in specs if parse_bot_spec(spec)[0] in known), None)


def parse_bot_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``ismcts:ms=200,c=0.7`` into the name and its parameters."""
    name, _, rest = spec.strip().partition(":")
    params: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in rest.split(";" if ";" in rest else ","))):
        key, eq, value = part.partition("=")
        if not eq or not key.strip():
            raise OptionError(f"bot parameter {part!r} in {spec!r} must look like key=value")
        params[key.strip()] = value.strip()
    return name.strip().lower(), params


def parse_bot_list(text: str) -> list[str]:
    """Split ``ismcts:ms=200,c=0.7,baseline`` into specs, each in canonical form.

    Commas separate bots, but a spec's own parameters are comma-separated too: a piece that is a bare
    ``key=value`` (an ``=`` and no ``name:`` before it) continues the previous spec's parameters. Spaces
    are dropped and names lower-cased, so ``ISMCTS: it=20`` and ``ismcts:it=20`` are the same bot.
    ``OptionError`` for an empty list, a parameter with no bot before it, or a malformed parameter.
    """
    raw: list[str] = []
    # A stray comma at either end is forgiven; an empty name between two bots is not.
    for piece in (p.strip() for p in text.strip().strip(",").split(",")):
        if not piece:
            raise OptionError(f"bot list {text!r} has an empty bot name; write e.g. random,baseline")
        head = piece.partition("=")[0]
        if "=" in piece and ":" not in head:
            if not raw:
                raise OptionError(f"bot parameter {piece!r} must follow a bot name (name:key=value)")
            raw[-1] += ("," if ":" in raw[-1] else ":") + piece
        else:
            raw.append(piece)
    if not raw:
        raise OptionError("name at least one bot, e.g. --bots ismcts,random")
    return [canonical_spec(spec) for spec in raw]


def canonical_spec(spec: str) -> str:
    """``name`` or ``name:k=v,k=v`` with the parameters in the order given; ``OptionError`` if malformed."""
    name, params = parse_bot_spec(spec)
    if not name:
        raise OptionError(f"bot spec {spec!r} has no bot name")
    if not params:
        return name
    return name + ":" + ",".join(f"{key}={value}" for key, value in params.items())


def make_bot(spec: str, game: Game, seat: int, seed: int) -> Bot:
    """Build the bot named by ``spec`` for ``seat``; ``OptionError`` for an unknown name or parameter."""
    name, params = parse_bot_spec(spec)
    bots = _bots(game.name)
    factory = bots.get(name)
    if factory is None:
        shown = name if len(name) <= 40 else name[:37] + "…"
        raise OptionError(f"unknown bot {shown!r} for {game.name}; bots: {', '.join(sorted(bots))}")
    reserved = sorted({"game", "seat", "seed"} & set(params))
    if reserved:  # these are the factory's own arguments, never parameters of a spec
        raise OptionError(f"bot {name!r} takes no parameter {reserved[0]!r}")
    return factory(game, seat, seed, **params)

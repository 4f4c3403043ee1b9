"""The bot protocol: a bot sees one seat's observation and the legal actions, never the full state.

Bots are named by a spec string ``name[:key=value,...]`` (``random``, ``ismcts:ms=500``). A game's own bots
come from its entry (``GameEntry.bots``); the generic ones (``random``, ``ismcts``, ``net`` (a learned
policy: it needs a trained model), and ``mcts`` for games of perfect information) serve every game that they
can play. Every bot gets its own seeded generator so a
seeded game with bots is reproducible.
"""

from __future__ import annotations

import math
import random
import re
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, ClassVar

from floe.core.entry import resolve
from floe.core.errors import OptionError
from floe.core.game import Game
from floe.core.i18n import L_, Msg
from floe.core.registry import entry


class Bot(ABC):
    """A player program for one seat.

    ``remembers``: the bot keeps memory between its decisions (a search tree, the positions it has met),
    so a table keeps one bot per seat for the whole game instead of building one per decision; a bot
    rebuilt mid-game (a restarted server) is told its seat's earlier decisions through ``recall``.
    """

    name = "bot"
    remembers: ClassVar[bool] = False
    # The longest one decision may take, in seconds (None: no cap). Whoever runs the bot sets it (the server
    # does, for every decision); bots whose decision time depends on a budget (the searches) stop when it is
    # up, whatever their parameters. Bots whose parameters bound their work by themselves may ignore it.
    time_cap: float | None = None
    # The visits of the root's actions (action id -> visits) in the search behind the last ``choose``, for a
    # learner that imitates the bot (``floe train --imitate``: the visits say more than the one action
    # chosen); None when that decision was not searched. Search bots set it in ``choose``.
    last_visits: Mapping[int, int] | None = None

    def __init__(self, game: Game, seat: int, seed: int, **params: str) -> None:
        if params:
            said = L_(
                "bot %(bot)s takes no parameter %(name)s", bot=repr(self.name), name=repr(next(iter(params)))
            )
            raise OptionError(said)
        self.game = game
        self.seat = seat
        self.rng = random.Random(seed)

    @classmethod
    def plays(cls, game: type[Game]) -> bool:
        """Whether this bot can play ``game`` at all (a generic bot may need, say, perfect information)."""
        return True

    @classmethod
    def cost(cls, params: Mapping[str, str]) -> float | None:
        """An upper estimate, in seconds, of one decision of this bot with ``params`` (already checked by the
        constructor), for a scheduler that keeps quick decisions apart from long searches; None if unknown
        (it is then treated as a long one)."""
        return None

    @abstractmethod
    def choose(self, observation: Any, legal_actions: list[int]) -> int:
        """Pick one of ``legal_actions`` knowing only ``observation`` (this seat's view)."""

    def recall(self, observation: Any, action: int) -> None:  # noqa: B027 (optional hook, no-op default)
        """Learn of a decision this seat made earlier, before this bot existed (``observation`` is the seat's
        view then). Bots that remember nothing ignore it."""


class RandomBot(Bot):
    """Uniformly random among the legal actions."""

    name = "random"

    @classmethod
    def cost(cls, params: Mapping[str, str]) -> float | None:
        return 1e-5  # measured ~20 µs with the bot built (docs/server.md, "Bot lanes")

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


# Bounds every bot shares for its common parameters (``ms``, ``it``/``iterations``, ``c``), checked when a
# spec is parsed, before anything is built. They are generous (an hour, ten million iterations: a lab run may
# want long searches); a server grants less (its own caps) and bounds every decision's wall time as well.
MAX_MS = 3_600_000
MAX_ITERATIONS = 10_000_000
MAX_C = 100.0
# A parameter's text is read only up to this length (a longer one is refused without being converted).
MAX_NUMBER_TEXT = 24
# Plain ASCII numbers only: Python's int() and float() also take other scripts' digits ("١٢"), underscores
# ("1_000") and spaces, which a spec should not.
# The budget parameters every search bot takes by convention: time per decision and iterations per decision.
BUDGET_MS = ("ms",)
BUDGET_ITERATIONS = ("it", "iterations")
_WHOLE = re.compile(r"[0-9]+")
_DECIMAL = re.compile(r"(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]{1,3})?")


def _plain(number: float) -> str:
    return str(int(number)) if float(number).is_integer() else str(number)


def _shown(text: str) -> str:
    return repr(text if len(text) <= MAX_NUMBER_TEXT else text[: MAX_NUMBER_TEXT - 1] + "…")


def whole_number(text: str, low: int, high: int) -> int | None:
    """``text`` as a whole number in [``low``, ``high``] written in ASCII digits; None if it is not one."""
    if len(text) > MAX_NUMBER_TEXT or not _WHOLE.fullmatch(text):
        return None
    number = int(text)
    return number if low <= number <= high else None


def bounded_int(bot: str, name: str, text: str, low: int, high: int) -> int:
    """A bot parameter as a whole number from ``low`` to ``high`` (ASCII digits only); a one-line
    ``OptionError`` otherwise."""
    number = whole_number(text, low, high)
    if number is None:
        wanted = L_("a whole number from %(low)s to %(high)s", low=low, high=high)
        if low == 1:
            wanted = L_("a positive whole number up to %(high)s", high=high)
        said = L_(
            "%(bot)s: %(name)s must be %(what)s, not %(value)s",
            bot=bot,
            name=name,
            what=wanted,
            value=_shown(text),
        )
        raise OptionError(said)
    return number


def positive_number(
    bot: str, name: str, value: str, kind: type[int] | type[float], high: float | None = None
) -> float:
    """A bot parameter as a positive finite number of ``kind``, at most ``high``; a one-line ``OptionError``
    otherwise (NaN or infinity would make a search that never stops, and a huge budget one that never
    ends in practice). Only plain ASCII numbers are read (``1e3`` is a float, not an int)."""
    what = _positive(kind is float, None if high is None else _plain(high))
    error = OptionError(
        L_(
            "%(bot)s: %(name)s must be %(what)s, not %(value)s",
            bot=bot,
            name=name,
            what=what,
            value=_shown(value),
        )
    )
    pattern = _WHOLE if kind is int else _DECIMAL
    if len(value) > MAX_NUMBER_TEXT or not pattern.fullmatch(value):
        raise error
    number = kind(value)
    if not (number > 0 and math.isfinite(number)) or (high is not None and number > high):
        raise error
    return number


def search_budget(
    bot: str, params: Mapping[str, str], default_iterations: int = 1000
) -> tuple[float | None, int | None]:
    """A search bot's budget from its parameters: (``ms`` per decision or None, iterations or None), each
    checked against ``MAX_MS`` and ``MAX_ITERATIONS`` (both ``it`` and ``iterations`` if both are given;
    ``it`` wins). Neither given: ``default_iterations``."""
    ms = positive_number(bot, "ms", params["ms"], float, MAX_MS) if "ms" in params else None
    counts = {
        key: int(positive_number(bot, key, params[key], int, MAX_ITERATIONS))
        for key in BUDGET_ITERATIONS
        if key in params
    }
    iterations = next(iter(counts.values()), None)
    if ms is None and iterations is None:
        iterations = default_iterations
    return ms, iterations


def search_cost(params: Mapping[str, str]) -> float | None:
    """``Bot.cost`` of a search bot: its time budget if it has one (it stops then), else unknown (an iteration
    budget's time depends on the game and the position)."""
    try:
        return float(params["ms"]) / 1000 if "ms" in params else None
    except ValueError:
        return None


def deadline(ms: float | None, time_cap: float | None) -> float:
    """The ``time.perf_counter()`` reading at which a search that starts now stops: its ``ms`` budget or the
    ``time_cap`` (seconds), whichever comes first; infinity for neither."""
    limits = [x for x in (None if ms is None else ms / 1000, time_cap) if x is not None]
    return time.perf_counter() + min(limits) if limits else math.inf


BotFactory = Callable[..., Bot]
# The bots every game may use (if the bot ``plays`` it): a class, or a "module:Class" reference.
_GENERIC: dict[str, BotFactory | str] = {
    "random": RandomBot,
    "ismcts": "floe.bots.ismcts:ISMCTSBot",
    "mcts": "floe.bots.mcts:MCTSBot",
    "net": "floe.bots.net:NetBot",
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


def _positive(decimal: bool, high: str | None) -> Msg:
    """ "a positive number" (whole, up to ``high``), as an error names what a bot parameter must be."""
    if decimal:
        return L_("a positive number up to %(high)s", high=high) if high else L_("a positive number")
    if high:
        return L_("a positive number (a whole number up to %(high)s)", high=high)
    return L_("a positive number (a whole number)")


def no_parameter(bot: str, key: str, known: Iterable[str]) -> OptionError:
    """The error for a parameter ``key`` that ``bot`` does not take (``known``: those it takes)."""
    said = L_(
        "%(bot)s has no parameter %(name)s; parameters: %(known)s",
        bot=bot,
        name=repr(key),
        known=", ".join(known),
    )
    return OptionError(said)


def not_one_of(bot: str, key: str, allowed: Sequence[str], value: str) -> OptionError:
    """The error for a parameter ``key`` of ``bot`` whose ``value`` is not one of ``allowed``."""
    if len(allowed) == 2:
        said = L_(
            "%(bot)s: %(name)s must be %(a)s or %(b)s, not %(value)s",
            bot=bot,
            name=key,
            a=allowed[0],
            b=allowed[1],
            value=repr(value),
        )
    elif len(allowed) == 3:
        said = L_(
            "%(bot)s: %(name)s must be %(a)s or %(b)s or %(c)s, not %(value)s",
            bot=bot,
            name=key,
            a=allowed[0],
            b=allowed[1],
            c=allowed[2],
            value=repr(value),
        )
    else:
        said = L_(
            "%(bot)s: %(name)s must be one of %(allowed)s, not %(value)s",
            bot=bot,
            name=key,
            allowed=", ".join(allowed),
            value=repr(value),
        )
    return OptionError(said)


def parse_bot_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``ismcts:ms=200,c=0.7`` into the name and its parameters."""
    name, _, rest = spec.strip().partition(":")
    params: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in rest.split(";" if ";" in rest else ","))):
        key, eq, value = part.partition("=")
        if not eq or not key.strip():
            said = L_(
                "bot parameter %(part)s in %(spec)s must look like key=value",
                part=repr(part),
                spec=repr(spec),
            )
            raise OptionError(said)
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
            said = L_("bot list %(list)s has an empty bot name; write e.g. random,baseline", list=repr(text))
            raise OptionError(said)
        head = piece.partition("=")[0]
        if "=" in piece and ":" not in head:
            if not raw:
                said = L_("bot parameter %(part)s must follow a bot name (name:key=value)", part=repr(piece))
                raise OptionError(said)
            raw[-1] += ("," if ":" in raw[-1] else ":") + piece
        else:
            raw.append(piece)
    if not raw:
        raise OptionError(L_("name at least one bot, e.g. --bots ismcts,random"))
    return [canonical_spec(spec) for spec in raw]


def canonical_spec(spec: str) -> str:
    """``name`` or ``name:k=v,k=v`` with the parameters in the order given; ``OptionError`` if malformed."""
    name, params = parse_bot_spec(spec)
    if not name:
        raise OptionError(L_("bot spec %(spec)s has no bot name", spec=repr(spec)))
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
        said = L_(
            "unknown bot %(bot)s for %(game)s; bots: %(bots)s",
            bot=repr(shown),
            game=game.name,
            bots=", ".join(sorted(bots)),
        )
        raise OptionError(said)
    reserved = sorted({"game", "seat", "seed"} & set(params))
    if reserved:  # these are the factory's own arguments, never parameters of a spec
        raise OptionError(
            L_("bot %(bot)s takes no parameter %(name)s", bot=repr(name), name=repr(reserved[0]))
        )
    return factory(game, seat, seed, **params)


def bot_cost(spec: str, game: str) -> float | None:
    """What the bot ``spec`` says one decision costs in ``game`` (``Bot.cost``; None if it does not say or
    is not a bot of that game)."""
    name, params = parse_bot_spec(spec)
    factory = _bots(game).get(name)
    cost = getattr(factory, "cost", None)
    if cost is None:
        return None
    estimate = cost(params)
    return None if estimate is None else float(estimate)


def capped_spec(spec: str, max_ms: float, max_iterations: int) -> tuple[str, list[str]]:
    """``spec`` with its budget parameters (``ms``, ``it``/``iterations``) lowered to at most ``max_ms`` and
    ``max_iterations``, and what was lowered (``["ms=10000"]``); the spec unchanged if nothing was. The
    values must already be valid numbers (the bot was built from ``spec``)."""
    name, params = parse_bot_spec(spec)
    lowered: list[str] = []
    for key, value in params.items():
        if key in BUDGET_MS and float(value) > max_ms:
            params[key] = _plain(max_ms)
        elif key in BUDGET_ITERATIONS and int(value) > max_iterations:
            params[key] = str(max_iterations)
        else:
            continue
        lowered.append(f"{key}={params[key]}")
    if not lowered:
        return spec, []
    return name + ":" + ",".join(f"{key}={value}" for key, value in params.items()), lowered

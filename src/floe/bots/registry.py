"""Which bots a game may use: its own (``GameEntry.bots``), then the generic bots that can play it.

Generic bots are published under the ``floe.bots`` entry-point group, as games are under ``floe.games``::

    [project.entry-points."floe.bots"]
    mybot = "mybots.bot:MyBot"

Floe's own (``random``, ``ismcts``, ``mcts``, ``net``: a learned policy, it needs a trained model) are
registered the same way; ``register_bot`` adds one in-process (a script or a test). A game's own bots are
declared in its entry, where no other game sees them.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib.metadata import entry_points

from floe.bots.base import Bot
from floe.bots.specs import parse_bot_spec
from floe.core.entry import resolve
from floe.core.errors import OptionError
from floe.core.game import Game
from floe.core.i18n import L_
from floe.core.options import OptionSchema
from floe.core.registry import entry

GROUP = "floe.bots"

BotFactory = Callable[..., Bot]
# The bots every game may use (if the bot ``plays`` it): a class, or a "module:Class" reference.
_GENERIC: dict[str, BotFactory | str] = {}
_discovered = False


def _discover() -> None:
    """Read the installed entry points of the group (once; a bot is imported when first asked for). One
    already registered in-process keeps its name."""
    global _discovered
    if _discovered:
        return
    _discovered = True
    for point in entry_points(group=GROUP):
        _GENERIC.setdefault(point.name, point.value)


def register_bot(name: str, factory: BotFactory | str) -> None:
    """Make a generic bot available under ``name`` for every game it ``plays`` (a game's own bots are
    declared in its entry instead)."""
    _GENERIC[name] = factory


def unregister_bot(name: str) -> None:
    """Forget the in-process bot ``name`` (a test that registered one cleans up after itself)."""
    _GENERIC.pop(name, None)


def _load(factory: BotFactory | str) -> BotFactory:
    loaded = resolve(factory) if isinstance(factory, str) else factory
    if not callable(loaded):
        raise TypeError(f"{factory!r} is not a bot")
    return loaded


def _bots(game_name: str) -> dict[str, BotFactory]:
    """Every bot that can play ``game_name``: its own, then the generic ones that play it."""
    _discover()
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


def _factory(name: str, game: str) -> BotFactory:
    """The bot ``name`` of ``game``; ``OptionError`` naming the game's bots if it has none so called."""
    bots = _bots(game)
    factory = bots.get(name)
    if factory is None:
        shown = name if len(name) <= 40 else name[:37] + "…"
        said = L_(
            "unknown bot %(bot)s for %(game)s; bots: %(bots)s",
            bot=repr(shown),
            game=game,
            bots=", ".join(sorted(bots)),
        )
        raise OptionError(said)
    return factory


def make_bot(spec: str, game: Game, seat: int, seed: int) -> Bot:
    """Build the bot named by ``spec`` for ``seat``; ``OptionError`` for an unknown name or parameter."""
    name, params = parse_bot_spec(spec)
    factory = _factory(name, game.name)
    reserved = sorted({"game", "seat", "seed"} & set(params))
    if reserved:  # these are the factory's own arguments, never parameters of a spec
        raise OptionError(
            L_("bot %(bot)s takes no parameter %(name)s", bot=repr(name), name=repr(reserved[0]))
        )
    return factory(game, seat, seed, **params)


def bot_parameters(name: str, game: str) -> OptionSchema:
    """The parameters the bot ``name`` takes in ``game`` (``Bot.parameters``; none for a factory that does
    not say); ``OptionError`` for a bot the game does not have."""
    parameters = getattr(_factory(name, game), "parameters", None)
    schema = OptionSchema() if parameters is None else parameters(entry(game).game)
    assert isinstance(schema, OptionSchema)
    return schema


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

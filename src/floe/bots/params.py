"""A bot's parameters: declared with the ``OptionSchema`` the game options use (``floe.core.options``: one
validator, one wording of its errors), read from a spec's ``key=value`` text by ``read_params``.

A bot says what it takes with ``Bot.parameters(game)``; ``read_params`` refuses a parameter the bot does not
take, checks every value against its bounds (each value's text is bounded too, before it is converted) and
fills in the defaults. What depends on other things (the player count, a network, the game's own world
parameters) the bot settles after that, in one place. The budget every search bot shares (``ms``, ``it``,
``iterations``) and the exploration constant ``c`` are declared here once.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from floe.core.errors import OptionError
from floe.core.i18n import L_
from floe.core.options import Choice, Option, OptionSchema

# Bounds every bot shares for its common parameters (``ms``, ``it``/``iterations``, ``c``), checked when a
# spec is parsed, before anything is built. They are generous (an hour, ten million iterations: a lab run may
# want long searches); a server grants less (its own caps) and bounds every decision's wall time as well.
MAX_MS = 3_600_000
MAX_ITERATIONS = 10_000_000
MAX_C = 100
# A parameter's text is read only up to this length (a longer one is refused without being converted).
MAX_NUMBER_TEXT = 24
# The budget parameters every search bot takes by convention: time per decision and iterations per decision.
BUDGET_MS = ("ms",)
BUDGET_ITERATIONS = ("it", "iterations")
DEFAULT_ITERATIONS = 1000

# A search's budget: time or iterations per decision (``it`` wins over ``iterations`` if both are given;
# both are checked). Neither given: ``DEFAULT_ITERATIONS``.
BUDGET: tuple[Option, ...] = (
    Option(
        "ms",
        "number",
        None,
        "time per decision, in milliseconds",
        low=0,
        above_low=True,
        high=MAX_MS,
        max_length=MAX_NUMBER_TEXT,
        default_text=f"none ({DEFAULT_ITERATIONS} iterations)",
    ),
    Option(
        "it",
        "int",
        None,
        "iterations per decision",
        low=1,
        high=MAX_ITERATIONS,
        max_length=MAX_NUMBER_TEXT,
        default_text=f"none ({DEFAULT_ITERATIONS} iterations)",
    ),
    Option(
        "iterations",
        "int",
        None,
        "the same as it",
        low=1,
        high=MAX_ITERATIONS,
        max_length=MAX_NUMBER_TEXT,
        default_text=f"none ({DEFAULT_ITERATIONS} iterations)",
    ),
)


# A search's rollout moves (``SearchHooks.rollout``, or uniform).
ROLLOUT = Option(
    "rollout",
    "choice",
    "heuristic",
    "rollout moves: the game's policy, or uniformly random",
    choices=(Choice("heuristic"), Choice("random")),
)


def number_option(
    name: str, default: float | None, help: str, high: int, *, positive: bool = False
) -> Option:
    """A bot's decimal parameter from 0 (or above 0: ``positive``) to ``high``, its text bounded."""
    return Option(
        name, "number", default, help, low=0, above_low=positive, high=high, max_length=MAX_NUMBER_TEXT
    )


def whole_option(name: str, default: int | None, help: str, low: int, high: int) -> Option:
    """A bot's whole-number parameter from ``low`` to ``high``, its text bounded."""
    return Option(name, "int", default, help, low=low, high=high, max_length=MAX_NUMBER_TEXT)


def exploration(default: float) -> Option:
    """The exploration constant ``c`` of a tree search, above 0 and up to ``MAX_C``."""
    return number_option("c", default, "exploration constant", MAX_C, positive=True)


def plain_number(number: float) -> str:
    """``number`` as a spec writes it: ``500`` for a whole number, ``0.5`` otherwise."""
    return str(int(number)) if float(number).is_integer() else str(number)


def read_params(
    bot: str, schema: OptionSchema, params: Mapping[str, str], players: int, *, mode: str = ""
) -> dict[str, Any]:
    """``params`` (a spec's text values) read by ``schema``, with every default filled in: a one-line
    ``OptionError`` naming the bot (and ``mode``, as in ``ismcts with net``) for a parameter it does not take,
    and the bot then the schema's words for a bad value (``ismcts: c must be …``)."""
    for key in params:
        if key not in schema.by_name:
            raise no_parameter(f"{bot} {mode}".strip(), key, schema.names())
    try:
        values = schema.parse(params, players)
    except OptionError as exc:
        error = exc.args[0] if exc.args else str(exc)  # a Msg stays translatable
        raise OptionError(L_("%(bot)s: %(error)s", bot=bot, error=error)) from None
    return {**{o.name: o.default for o in schema.options}, **values}


def search_budget(values: Mapping[str, Any]) -> tuple[float | None, int | None]:
    """A search's budget from its read parameters (``BUDGET``): (``ms`` per decision or None, iterations or
    None); neither given: ``DEFAULT_ITERATIONS``."""
    ms = values.get("ms")
    iterations = values.get("it") or values.get("iterations")
    if ms is None and iterations is None:
        iterations = DEFAULT_ITERATIONS
    return ms, iterations


def search_cost(params: Mapping[str, str]) -> float | None:
    """``Bot.cost`` of a search bot: its time budget if it has one (it stops then), else unknown (an iteration
    budget's time depends on the game and the position)."""
    try:
        return float(params["ms"]) / 1000 if "ms" in params else None
    except ValueError:
        return None


def no_parameter(bot: str, key: str, known: Iterable[str]) -> OptionError:
    """The error for a parameter ``key`` that ``bot`` does not take (``known``: those it takes)."""
    said = L_(
        "%(bot)s has no parameter %(name)s; parameters: %(known)s",
        bot=bot,
        name=repr(key if len(key) <= 40 else key[:39] + "…"),
        known=", ".join(sorted(known)),
    )
    return OptionError(said)

"""A bot's parameters: the text of a spec's ``key=value`` read as bounded numbers, and the errors a bad
one gets (one line, naming the bot, the parameter and what it must be).

Only plain ASCII numbers are read, each up to a bound checked before anything is built from it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence

from floe.core.errors import OptionError
from floe.core.i18n import L_, Msg

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


def plain_number(number: float) -> str:
    """``number`` as a spec writes it: ``500`` for a whole number, ``0.5`` otherwise."""
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
    what = _positive(kind is float, None if high is None else plain_number(high))
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

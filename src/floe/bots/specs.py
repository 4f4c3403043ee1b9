"""Bot specs: a bot named by the text ``name[:key=value,...]`` (``random``, ``ismcts:ms=500``).

Reading one (``parse_bot_spec``), a comma-separated list of them (``parse_bot_list``), its canonical
spelling, and a spec with its budget lowered to a server's caps (``capped_spec``).
"""

from __future__ import annotations

from floe.bots.params import BUDGET_ITERATIONS, BUDGET_MS, plain_number
from floe.core.errors import OptionError
from floe.core.i18n import L_


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


def capped_spec(spec: str, max_ms: float, max_iterations: int) -> tuple[str, list[str]]:
    """``spec`` with its budget parameters (``ms``, ``it``/``iterations``) lowered to at most ``max_ms`` and
    ``max_iterations``, and what was lowered (``["ms=10000"]``); the spec unchanged if nothing was. The
    values must already be valid numbers (the bot was built from ``spec``)."""
    name, params = parse_bot_spec(spec)
    lowered: list[str] = []
    for key, value in params.items():
        if key in BUDGET_MS and float(value) > max_ms:
            params[key] = plain_number(max_ms)
        elif key in BUDGET_ITERATIONS and int(value) > max_iterations:
            params[key] = str(max_iterations)
        else:
            continue
        lowered.append(f"{key}={params[key]}")
    if not lowered:
        return spec, []
    return name + ":" + ",".join(f"{key}={value}" for key, value in params.items()), lowered

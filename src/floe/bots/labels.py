"""How people see a bot: a friendly name with its budget (``Baseline (BGA's automatic player)``, ``ISMCTS ·
0.5 s``) instead of its spec, and the lobby's bots in order of measured strength.

The names and the strength ranks come from the game's entry (``GameEntry.bot_labels``, ``bot_strength``);
the generic bots have their labels here. Nothing here names a game.
"""

from __future__ import annotations

from floe.bots.params import BUDGET_ITERATIONS, BUDGET_MS
from floe.bots.specs import parse_bot_spec
from floe.core.entry import GameEntry
from floe.core.errors import OptionError
from floe.core.i18n import FLOE, N_

_ = FLOE.gettext

# The generic bots' names for people (a game's entry may say otherwise for its own table).
GENERIC_LABELS = {"random": N_("Random"), "ismcts": "ISMCTS", "mcts": "MCTS", "net": N_("Learned policy")}


def bot_label(game: GameEntry, spec: str) -> str:
    """``spec`` for people: the bot's label (the entry's, else the generic one, else its name capitalised),
    then its budget and any other parameter: ``ismcts:ms=500`` → ``ISMCTS · 0.5 s``, ``ismcts:it=200`` →
    ``ISMCTS · 200 iterations``, ``greedy:worlds=4`` → ``Greedy · worlds=4``. A spec that does not parse
    is shown as it is."""
    try:
        name, params = parse_bot_spec(spec)
    except OptionError:
        return spec
    label = game.bot_labels.get(name) or GENERIC_LABELS.get(name) or name.capitalize()
    # In the language in force: the entry's own labels through the game's catalog, the rest Floe's (the
    # server words them in English; the browser translates them piece by piece, words.js botWords).
    parts = [(game.catalog() or FLOE).gettext(label) if label in game.bot_labels.values() else _(label)]
    for key, value in params.items():
        ms = _number(value) if key in BUDGET_MS else None
        if ms is not None:
            parts.append(f"{_plain(ms / 1000)} s")
        elif key in BUDGET_ITERATIONS and value.isdecimal():
            n = int(value)
            parts.append(FLOE.ngettext("%(n)s iteration", "%(n)s iterations", n) % {"n": n})
        else:
            parts.append(f"{key}={value}")
    return " · ".join(parts)


def lobby_bots(game: GameEntry, available: set[str] | None = None) -> list[str]:
    """The entry's ``lobby_bots`` (those whose bot is in ``available``, if given), weakest first: by the
    entry's ``bot_strength`` of each bot, then in the order the entry lists them (budgets within a bot)."""
    specs = [s for s in game.lobby_bots if available is None or parse_bot_spec(s)[0] in available]
    listed = {spec: k for k, spec in enumerate(specs)}
    return sorted(specs, key=lambda spec: (game.bot_strength.get(parse_bot_spec(spec)[0], 0), listed[spec]))


def _number(value: str) -> float | None:
    try:
        number = float(value)
    except ValueError:
        return None
    return number if number >= 0 and number != float("inf") else None


def _plain(x: float) -> str:
    """``0.5``, ``1``, ``1.25``: no trailing zeros."""
    return f"{x:.3f}".rstrip("0").rstrip(".")

"""Arktia in words for the terminal and the web table: the log, the decision at hand and the legal choices.

Arktia has perfect information: every observation is the whole position (``ArktiaObservation.raw``), so
the presenter rebuilds the position from the observation it is given (``position``) and words what it
sees; the same line serves every viewer. Its standings are each seat's points so far, as the scoring counts
them.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from floe.core.i18n import N_
from floe.core.present import GamePresenter
from floe.games.arktia.actions import ArktiaAction
from floe.games.arktia.costs import costs
from floe.games.arktia.game import ArktiaGame, ArktiaState
from floe.games.arktia.i18n import SIZE_WORDS, _, ngettext
from floe.games.arktia.observation import ArktiaObservation


@lru_cache(maxsize=64)
def _game(players: int, config: str) -> ArktiaGame:
    return ArktiaGame(players, json.loads(config))


def position(observation: Any) -> ArktiaState:
    """The position an observation shows (exactly: nothing is hidden in Arktia)."""
    assert isinstance(observation, ArktiaObservation)
    raw = observation.raw
    return _game(raw["n"], json.dumps(raw["config"], sort_keys=True)).state_from_json(raw)


# Why a seat's game ended (docs/arktia-rules.md §10), as the log says it (reason -> sentence about the seat
# ``who``).
_OUT_WORDS = {
    1: N_("%(who)s can neither place nor move: their game ends."),
    2: N_("%(who)s cannot melt a field: their game ends."),
    3: N_("%(who)s has one Muglu left: their game ends."),
    4: N_("%(who)s stops: their game ends."),
}
_OUT_OTHER = N_("%(who)s is out: their game ends.")


def _size(size: int) -> str:
    return _(SIZE_WORDS[size])


def _owner(colour: int) -> str:
    """``P2``, or ``neutral`` in the reader's language."""
    from floe.games.arktia.towers import NEUTRAL

    return _("neutral") if colour == NEUTRAL else f"P{colour + 1}"


def _part_words(mask: int) -> str:
    """A mover in words: ``Globus``, ``Diskus+Globus``, ``Torus with the Globus inside``."""
    from floe.games.arktia.towers import ORDER

    if mask == 5:
        return _("Torus with the Globus inside")
    return "+".join(_size(s) for s in ORDER[mask])


def _stack_words(code: int) -> str:
    """What stands on a field, bottom to top: ``Torus+Diskus (P2)``, ``Torus (P1), Diskus (neutral)``."""
    from floe.games.arktia.towers import MASK, pieces_bottom_up

    pieces = pieces_bottom_up(code)
    owners = {k for _s, k in pieces}
    if len(owners) == 1:
        (k,) = owners
        return f"{_part_words(MASK[code])} ({_owner(k)})"
    return ", ".join(f"{_size(s)} ({_owner(k)})" for s, k in pieces)


def _cells_words(names: list[str]) -> str:
    if len(names) == 1:
        return names[0]
    return _("%(cells)s and %(last)s") % {"cells": ", ".join(names[:-1]), "last": names[-1]}


# What a choice that ends the chooser's game costs, in words (costs.py; the table shows it when every
# choice has one).
_COST_WORDS = {"out": N_("ends your game"), "limit": N_("ends the game: the turn limit is reached")}


class ArktiaPresenter(GamePresenter):
    """Arktia (perfect information): every line and choice is public, read from the position shown."""

    # --- log ---------------------------------------------------------------------------------------------
    def log_line(
        self, before: Any, after: Any, seen: str | None, actor: int | None, viewer: int | None
    ) -> str | None:
        """The same line for every viewer (nothing is hidden): the decision, then what it set off."""
        if actor is None or seen is None:
            return None  # Arktia has no chance
        start, end = position(before), position(after)
        d = start.space.decode(start.space.string_to_action(seen))
        return " ".join([self._decision_words(start, d), *self._consequences(start, end, d)])

    def _decision_words(self, st: ArktiaState, d: ArktiaAction) -> str:
        names = st.space.layout.names
        who = f"P{st.player + 1}"
        cell = names[d.cell] if d.cell >= 0 else ""
        if d.kind == "neutral":
            return _("%(who)s places a neutral %(piece)s on %(cell)s.") % {
                "who": who,
                "piece": _size(d.size),
                "cell": cell,
            }
        if d.kind == "keep":
            return _("%(who)s keeps the group on %(cell)s (%(owner)s).") % {
                "who": who,
                "cell": cell,
                "owner": _owner(d.colour),
            }
        if d.kind == "melt":
            return _("%(who)s melts %(cell)s.") % {"who": who, "cell": cell}
        if d.kind == "stop":
            return _("%(who)s stops: their game ends.") % {"who": who}
        if d.kind == "place":
            return _("%(who)s places a %(piece)s on %(cell)s.") % {
                "who": who,
                "piece": _size(d.size),
                "cell": cell,
            }
        values = {"who": who, "what": _part_words(d.mover), "from": names[d.src], "to": cell}
        stack = d.mover in (3, 6, 7)
        if st.fields[d.cell] > 0:
            values["onto"] = _stack_words(st.fields[d.cell])
            if stack:
                return _("%(who)s moves a %(what)s stack from %(from)s to %(to)s onto %(onto)s.") % values
            return _("%(who)s moves a %(what)s from %(from)s to %(to)s onto %(onto)s.") % values
        if stack:
            return _("%(who)s moves a %(what)s stack from %(from)s to %(to)s.") % values
        return _("%(who)s moves a %(what)s from %(from)s to %(to)s.") % values

    def _consequences(self, before: ArktiaState, after: ArktiaState, d: ArktiaAction) -> list[str]:
        from floe.games.arktia.state import ACTIVE, OUT_LIMIT, OUT_STOPPED, OVER
        from floe.games.arktia.towers import COUNT, N_COLOURS, SLOT_BITS

        names = before.space.layout.names
        mover = f"P{before.player + 1}"
        # The board once the pieces have moved, before anything is removed: removals are what differs.
        moved = list(before.fields)
        if d.kind == "move":
            src, dst, mask = d.src, d.cell, d.mover
            lifted = moved[src] & SLOT_BITS[mask]
            moved[src] &= ~SLOT_BITS[mask]
            moved[dst] |= lifted
        out: list[str] = []
        taken = 0
        for colour in range(N_COLOURS):
            lost = after.lost_by(colour) - before.lost_by(colour)
            if lost <= 0:
                continue
            taken += lost
            cells = [
                names[c]
                for c, code in enumerate(moved)
                if code > 0 and after.fields[c] >= 0 and COUNT[code][colour] > COUNT[after.fields[c]][colour]
            ]
            out.append(
                ngettext(
                    "%(count)d Muglu (%(owner)s) on %(cells)s is cut off and removed.",
                    "%(count)d Muglus (%(owner)s) on %(cells)s are cut off and removed.",
                    lost,
                )
                % {"count": lost, "owner": _owner(colour), "cells": _cells_words(cells)}
            )
        if taken:
            out.append(
                ngettext("%(who)s takes %(count)d Muglu.", "%(who)s takes %(count)d Muglus.", taken)
                % {"who": mover, "count": taken}
            )
        for colour in after.pending_keep:
            if colour not in before.pending_keep:
                out.append(
                    _("The Muglus (%(owner)s) fall apart into tied groups: %(who)s chooses which stays.")
                    % {"owner": _owner(colour), "who": mover}
                )
        limit = False
        for q in range(before.n):
            reason = after.out[q]
            if before.out[q] != ACTIVE or reason in (ACTIVE, OUT_STOPPED):
                continue
            if reason == OUT_LIMIT:
                limit = True
                continue
            out.append(_(_OUT_WORDS.get(reason, _OUT_OTHER)) % {"who": f"P{q + 1}"})
            if before.config.out_pieces == "remove":
                out.append(_("Their Muglus leave the board."))
        if limit:
            out.append(_("The turn limit is reached: every game ends."))
        if after.step == OVER and before.step != OVER:
            scores = ", ".join(f"P{q + 1} {s}" for q, s in enumerate(after.scores()))
            out.append(_("The game is over: %(scores)s.") % {"scores": scores})
        return out

    # --- the decision at hand ------------------------------------------------------------------------------
    def deciding(self, observation: Any, actor: int) -> str:
        from floe.games.arktia.state import KEEP, MELT, NEUTRAL_SETUP

        st = position(observation)
        if st.is_terminal():
            return _("the game is over")
        if st.step == NEUTRAL_SETUP:
            if not any(code > 0 for code in st.fields):
                return _("place a neutral Muglu anywhere")
            return _("place a neutral Muglu next to the neutral ones")
        if st.step == KEEP:
            return _("choose which tied group (%(owner)s) stays (the others are removed)") % {
                "owner": _owner(st.pending_keep[0])
            }
        if st.step == MELT:
            return _("melt an empty field at the edge of the ice")
        p = st.player
        if st.turns[p] == 0:
            if not any(code > 0 for code in st.fields):
                return _("opening round 1: place a Muglu anywhere")
            return _("opening round 1: place a Muglu next to any Muglu")
        if st.turns[p] == 1:
            return _("opening round 2: place a Muglu next to your own")
        supply = any(st.supply[3 * p : 3 * p + 3])
        text = (
            _(
                "place a Muglu next to your own, or move a piece or the "
                "top of a stack in a straight line, or stop"
            )
            if supply
            else _("move a piece or the top of a stack in a straight line, or stop")
        )
        if st.melt_due:
            text += _("; then melt a field (the supply is empty)")
        return text

    # --- standings ------------------------------------------------------------------------------------------
    def standings(self, observation: Any) -> dict[str, Any]:
        """Each seat's points so far (``scoring.breakdowns``: captured, controlled, melted, lost, total), the
        final score once the game is over."""
        return {"seats": [b.to_dict() for b in position(observation).breakdowns()]}

    # --- legal choices -------------------------------------------------------------------------------------
    def legal_choices(self, observation: Any, legal: list[int], notations: list[str]) -> list[dict[str, Any]]:
        from floe.games.arktia.actions import colour_name, mover_letters
        from floe.games.arktia.board import bits
        from floe.games.arktia.rules import groups
        from floe.games.arktia.towers import COUNT, SIZE_LETTERS

        st = position(observation)
        seat = observation.seat
        names = st.space.layout.names
        ending = costs(st)
        every = len(ending) == len(legal)
        out = []
        for action, notation in zip(legal, notations, strict=True):
            d = st.space.decode(action)
            item: dict[str, Any] = {
                "id": action,
                "notation": notation,
                "text": "",
                "verb": d.kind,
                "from": None,
                "to": names[d.cell] if d.cell >= 0 else None,
                "part": None,
                "colour": None,
                "group": None,
            }
            if d.kind == "stop":
                if st.config.out_pieces == "remove":
                    item.update(
                        text=_("Stop: end your game here (your Muglus leave the board)"),
                        confirm=_(
                            "Stop and end your game here? You take no more turns; "
                            "your Muglus leave the board."
                        ),
                    )
                else:
                    item.update(
                        text=_("Stop: end your game here (your Muglus stay and score)"),
                        confirm=_(
                            "Stop and end your game here? You take no more turns; your Muglus stay and score."
                        ),
                    )
            elif d.kind == "place":
                item.update(
                    part=SIZE_LETTERS[d.size],
                    colour=colour_name(seat),
                    text=_("Place a %(piece)s on %(cell)s") % {"piece": _size(d.size), "cell": names[d.cell]},
                )
            elif d.kind == "neutral":
                item.update(
                    part=SIZE_LETTERS[d.size],
                    colour="n",
                    text=_("Place a neutral %(piece)s on %(cell)s")
                    % {"piece": _size(d.size), "cell": names[d.cell]},
                )
            elif d.kind == "keep":
                comp = next(c for c, _ in groups(st, d.colour) if c >> d.cell & 1)
                cells = [names[c] for c in bits(comp)]
                count = sum(COUNT[st.fields[c]][d.colour] for c in bits(comp))
                item.update(
                    colour=colour_name(d.colour),
                    group=cells,
                    text=ngettext(
                        "Keep the group (%(owner)s) on %(cells)s (%(count)d Muglu); "
                        "the other tied groups are removed",
                        "Keep the group (%(owner)s) on %(cells)s (%(count)d Muglus); "
                        "the other tied groups are removed",
                        count,
                    )
                    % {"owner": _owner(d.colour), "cells": _cells_words(cells), "count": count},
                )
            elif d.kind == "melt":
                item.update(text=_("Melt %(cell)s") % {"cell": names[d.cell]})
            else:
                values = {"what": _part_words(d.mover), "from": names[d.src], "to": names[d.cell]}
                if st.fields[d.cell] > 0:
                    values["onto"] = _stack_words(st.fields[d.cell])
                    text = _("Move the %(what)s from %(from)s to %(to)s onto %(onto)s") % values
                else:
                    text = _("Move the %(what)s from %(from)s to %(to)s") % values
                item.update(
                    **{"from": names[d.src]},
                    part=mover_letters(d.mover),
                    colour=colour_name(seat),
                    text=text,
                )
            cost = ending.get(action)
            if cost is not None:
                item["warning"] = _(_COST_WORDS[cost])
                if cost == "out" and not every and "confirm" not in item:
                    item["confirm"] = _(
                        "%(choice)s: this ends your game (you take no more turns). Play it?"
                    ) % {"choice": item["text"]}
            out.append(item)
        return out


PRESENTER = ArktiaPresenter()

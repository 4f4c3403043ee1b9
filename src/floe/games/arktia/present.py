"""Arktia in words for the terminal and the web table: the log, the decision at hand and the legal choices.

Arktia has perfect information: every observation is the whole position (``ArktiaObservation.raw``), so
the presenter rebuilds the position from the observation it is given (``position``) and words what it
sees; the same line serves every viewer.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from floe.core.present import GamePresenter
from floe.games.arktia.actions import ArktiaAction
from floe.games.arktia.costs import costs
from floe.games.arktia.game import ArktiaGame, ArktiaState
from floe.games.arktia.view import ArktiaObservation


@lru_cache(maxsize=64)
def _game(players: int, config: str) -> ArktiaGame:
    return ArktiaGame(players, json.loads(config))


def position(observation: Any) -> ArktiaState:
    """The position an observation shows (exactly: nothing is hidden in Arktia)."""
    assert isinstance(observation, ArktiaObservation)
    raw = observation.raw
    return _game(raw["n"], json.dumps(raw["config"], sort_keys=True)).state_from_json(raw)


_OUT_WORDS = {
    1: "can neither place nor move",
    2: "cannot melt a field",
    3: "has one Muglu left",
    4: "stops",
}


def _owner(colour: int) -> str:
    """``P2's`` or ``the neutral``."""
    from floe.games.arktia.towers import NEUTRAL

    return "the neutral" if colour == NEUTRAL else f"P{colour + 1}'s"


def _part_words(mask: int) -> str:
    """A mover in words: ``Globus``, ``Diskus+Globus``, ``Torus with the Globus inside``."""
    from floe.games.arktia.towers import ORDER, SIZE_NAMES

    if mask == 5:
        return "Torus with the Globus inside"
    return "+".join(SIZE_NAMES[s] for s in ORDER[mask])


def _stack_words(code: int) -> str:
    """What stands on a field, bottom to top: ``P2's Torus+Diskus``, ``P1's Torus, the neutral Diskus``."""
    from floe.games.arktia.towers import MASK, SIZE_NAMES, pieces_bottom_up

    pieces = pieces_bottom_up(code)
    owners = {k for _, k in pieces}
    if len(owners) == 1:
        (k,) = owners
        return f"{_owner(k)} {_part_words(MASK[code])}"
    return ", ".join(f"{_owner(k)} {SIZE_NAMES[s]}" for s, k in pieces)


def _cells_words(names: list[str]) -> str:
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " and " + names[-1]


# What a choice that ends the chooser's game costs, in words (costs.py; the table shows it when every
# choice has one).
_COST_WORDS = {"out": "ends your game", "limit": "ends the game: the turn limit is reached"}


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
        from floe.games.arktia.towers import SIZE_NAMES

        names = st.space.layout.names
        who = f"P{st.player + 1}"
        if d.kind == "neutral":
            return f"{who} places a neutral {SIZE_NAMES[d.size]} on {names[d.cell]}."
        if d.kind == "keep":
            return f"{who} keeps {_owner(d.colour)} group at {names[d.cell]}."
        if d.kind == "melt":
            return f"{who} melts {names[d.cell]}."
        if d.kind == "stop":
            return f"{who} stops: their game ends."
        if d.kind == "place":
            return f"{who} places a {SIZE_NAMES[d.size]} on {names[d.cell]}."
        what = _part_words(d.mover)
        stack = " stack" if d.mover in (3, 6, 7) else ""
        onto = f" onto {_stack_words(st.fields[d.cell])}" if st.fields[d.cell] > 0 else ""
        return f"{who} moves a {what}{stack} from {names[d.src]} to {names[d.cell]}{onto}."

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
            whose = _owner(colour).capitalize()
            muglus = "Muglu on {} is" if lost == 1 else "Muglus on {} are"
            out.append(f"{whose} {muglus.format(_cells_words(cells))} cut off and removed.")
        if taken:
            out.append(f"{mover} takes {taken}.")
        for colour in after.pending_keep:
            if colour not in before.pending_keep:
                whose = _owner(colour).capitalize()
                out.append(f"{whose} Muglus fall apart into tied groups: {mover} chooses which stays.")
        limit = False
        for q in range(before.n):
            reason = after.out[q]
            if before.out[q] != ACTIVE or reason in (ACTIVE, OUT_STOPPED):
                continue
            if reason == OUT_LIMIT:
                limit = True
                continue
            gone = " (their Muglus leave the board)" if before.config.out_pieces == "remove" else ""
            out.append(f"P{q + 1} {_OUT_WORDS.get(reason, 'is out')}: their game ends{gone}.")
        if limit:
            out.append("The turn limit is reached: every game ends.")
        if after.step == OVER and before.step != OVER:
            scores = ", ".join(f"P{q + 1} {s}" for q, s in enumerate(after.scores()))
            out.append(f"The game is over: {scores}.")
        return out

    # --- the decision at hand ------------------------------------------------------------------------------
    def deciding(self, observation: Any, actor: int) -> str:
        from floe.games.arktia.state import KEEP, MELT, NEUTRAL_SETUP

        st = position(observation)
        if st.is_terminal():
            return "the game is over"
        if st.step == NEUTRAL_SETUP:
            first = not any(code > 0 for code in st.fields)
            return "place a neutral Muglu" + (" anywhere" if first else " next to the neutral ones")
        if st.step == KEEP:
            return f"choose which of {_owner(st.pending_keep[0])} tied groups stays (the others are removed)"
        if st.step == MELT:
            return "melt an empty field at the edge of the ice"
        p = st.player
        if st.turns[p] == 0:
            anywhere = not any(code > 0 for code in st.fields)
            where = "anywhere" if anywhere else "next to any Muglu"
            return f"opening round 1: place a Muglu {where}"
        if st.turns[p] == 1:
            return "opening round 2: place a Muglu next to your own"
        supply = any(st.supply[3 * p : 3 * p + 3])
        text = "place a Muglu next to your own, or move" if supply else "move"
        text += " a piece or the top of a stack in a straight line, or stop"
        if st.melt_due:
            text += "; then melt a field (the supply is empty)"
        return text

    # --- legal choices -------------------------------------------------------------------------------------
    def legal_choices(self, observation: Any, legal: list[int], notations: list[str]) -> list[dict[str, Any]]:
        from floe.games.arktia.actions import colour_name, mover_letters
        from floe.games.arktia.board import bits
        from floe.games.arktia.rules import groups
        from floe.games.arktia.towers import COUNT, SIZE_LETTERS, SIZE_NAMES

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
                gone = "leave the board" if st.config.out_pieces == "remove" else "stay and score"
                item.update(
                    text=f"Stop: end your game here (your Muglus {gone})",
                    confirm=f"Stop and end your game here? You take no more turns; your Muglus {gone}.",
                )
            elif d.kind == "place":
                item.update(
                    part=SIZE_LETTERS[d.size],
                    colour=colour_name(seat),
                    text=f"Place a {SIZE_NAMES[d.size]} on {names[d.cell]}",
                )
            elif d.kind == "neutral":
                item.update(
                    part=SIZE_LETTERS[d.size],
                    colour="n",
                    text=f"Place a neutral {SIZE_NAMES[d.size]} on {names[d.cell]}",
                )
            elif d.kind == "keep":
                comp = next(c for c, _ in groups(st, d.colour) if c >> d.cell & 1)
                cells = [names[c] for c in bits(comp)]
                count = sum(COUNT[st.fields[c]][d.colour] for c in bits(comp))
                muglus = "Muglu" if count == 1 else "Muglus"
                item.update(
                    colour=colour_name(d.colour),
                    group=cells,
                    text=f"Keep {_owner(d.colour)} group on {_cells_words(cells)} ({count} {muglus}); "
                    "the other tied groups are removed",
                )
            elif d.kind == "melt":
                item.update(text=f"Melt {names[d.cell]}")
            else:
                onto = f" onto {_stack_words(st.fields[d.cell])}" if st.fields[d.cell] > 0 else ""
                item.update(
                    **{"from": names[d.src]},
                    part=mover_letters(d.mover),
                    colour=colour_name(seat),
                    text=f"Move the {_part_words(d.mover)} from {names[d.src]} to {names[d.cell]}{onto}",
                )
            cost = ending.get(action)
            if cost is not None:
                item["warning"] = _COST_WORDS[cost]
                if cost == "out" and not every and "confirm" not in item:
                    ends = "this ends your game (you take no more turns)"
                    item["confirm"] = f"{item['text']}: {ends}. Play it?"
            out.append(item)
        return out


PRESENTER = ArktiaPresenter()

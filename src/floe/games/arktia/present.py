"""Arktia at the web table: every line and choice is public, written from the state and the action."""

from __future__ import annotations

from typing import Any

from floe.core.game import State
from floe.games.arktia.game import ArktiaState
from floe.server.present import GamePresenter

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


class ArktiaPresenter(GamePresenter):
    """Arktia (perfect information): every line and choice is public, written from the state and action."""

    # --- log ---------------------------------------------------------------------------------------------
    def log_line(self, before: State, action: int, viewer: int | None) -> str | None:
        """The same line for every viewer (nothing is hidden): the decision, then what it set off."""
        from floe.games.arktia.game import ArktiaState

        assert isinstance(before, ArktiaState)
        after = before.clone()
        after.apply_unchecked(action)
        return " ".join([self._decision_words(before, action), *self._consequences(before, after)])

    def _decision_words(self, st: ArktiaState, action: int) -> str:
        from floe.games.arktia.actions import STOP
        from floe.games.arktia.state import KEEP, MELT, NEUTRAL_SETUP
        from floe.games.arktia.towers import SIZE_NAMES

        sp = st.space
        names = sp.layout.names
        who = f"P{st.player + 1}"
        if st.step == NEUTRAL_SETUP:
            cell, size = divmod(action - sp.NEUTRAL, 3)
            return f"{who} places a neutral {SIZE_NAMES[size]} on {names[cell]}."
        if st.step == KEEP:
            colour, cell = divmod(action - sp.KEEP, sp.size)
            return f"{who} keeps {_owner(colour)} group at {names[cell]}."
        if st.step == MELT:
            return f"{who} melts {names[action - sp.MELT]}."
        if action == STOP:
            return f"{who} stops: their game ends."
        if action < sp.NEUTRAL:
            cell, size = divmod(action - 1, 3)
            return f"{who} places a {SIZE_NAMES[size]} on {names[cell]}."
        src, dst, mover = sp.decode_move(action)
        what = _part_words(mover)
        stack = " stack" if mover in (3, 6, 7) else ""
        onto = f" onto {_stack_words(st.fields[dst])}" if st.fields[dst] > 0 else ""
        return f"{who} moves a {what}{stack} from {names[src]} to {names[dst]}{onto}."

    def _consequences(self, before: ArktiaState, after: ArktiaState) -> list[str]:
        from floe.games.arktia.state import ACTIVE, OUT_LIMIT, OUT_STOPPED, OVER, TURN
        from floe.games.arktia.towers import COUNT, N_COLOURS, SLOT_BITS

        sp = before.space
        names = sp.layout.names
        mover = f"P{before.player + 1}"
        # The board once the pieces have moved, before anything is removed: removals are what differs.
        moved = list(before.fields)
        action = after.history[-1]
        if before.step == TURN and action >= sp.MOVE:
            src, dst, mask = sp.decode_move(action)
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
    def deciding(self, state: State) -> str:
        from floe.games.arktia.game import ArktiaState
        from floe.games.arktia.state import KEEP, MELT, NEUTRAL_SETUP

        assert isinstance(state, ArktiaState)
        st = state
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
    def legal_choices(self, state: State, seat: int) -> list[dict[str, Any]]:
        from floe.games.arktia.actions import STOP, colour_name, mover_letters
        from floe.games.arktia.board import bits
        from floe.games.arktia.game import ArktiaState
        from floe.games.arktia.rules import groups
        from floe.games.arktia.towers import COUNT, SIZE_LETTERS, SIZE_NAMES

        assert isinstance(state, ArktiaState)
        st = state
        sp = st.space
        names = sp.layout.names
        out = []
        for action in st.legal_actions():
            item: dict[str, Any] = {
                "id": action,
                "notation": sp.action_to_string(action),
                "text": "",
                "verb": "",
                "from": None,
                "to": None,
                "part": None,
                "colour": None,
                "group": None,
            }
            if action == STOP:
                gone = "leave the board" if st.config.out_pieces == "remove" else "stay and score"
                item.update(verb="stop", text=f"Stop: end your game here (your Muglus {gone})")
            elif action < sp.NEUTRAL:
                cell, size = divmod(action - 1, 3)
                item.update(
                    verb="place",
                    to=names[cell],
                    part=SIZE_LETTERS[size],
                    colour=colour_name(seat),
                    text=f"Place a {SIZE_NAMES[size]} on {names[cell]}",
                )
            elif action < sp.KEEP:
                cell, size = divmod(action - sp.NEUTRAL, 3)
                item.update(
                    verb="neutral",
                    to=names[cell],
                    part=SIZE_LETTERS[size],
                    colour="n",
                    text=f"Place a neutral {SIZE_NAMES[size]} on {names[cell]}",
                )
            elif action < sp.MELT:
                colour, cell = divmod(action - sp.KEEP, sp.size)
                comp = next(c for c, _ in groups(st, colour) if c >> cell & 1)
                cells = [names[c] for c in bits(comp)]
                count = sum(COUNT[st.fields[c]][colour] for c in bits(comp))
                muglus = "Muglu" if count == 1 else "Muglus"
                item.update(
                    verb="keep",
                    to=names[cell],
                    colour=colour_name(colour),
                    group=cells,
                    text=f"Keep {_owner(colour)} group on {_cells_words(cells)} ({count} {muglus}); "
                    "the other tied groups are removed",
                )
            elif action < sp.MOVE:
                cell = action - sp.MELT
                item.update(verb="melt", to=names[cell], text=f"Melt {names[cell]}")
            else:
                src, dst, mover = sp.decode_move(action)
                onto = f" onto {_stack_words(st.fields[dst])}" if st.fields[dst] > 0 else ""
                item.update(
                    verb="move",
                    **{"from": names[src]},
                    to=names[dst],
                    part=mover_letters(mover),
                    colour=colour_name(seat),
                    text=f"Move the {_part_words(mover)} from {names[src]} to {names[dst]}{onto}",
                )
            out.append(item)
        return out


PRESENTER = ArktiaPresenter()

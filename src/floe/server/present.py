"""What the web table says about a game in words: per-viewer log lines, the decision at hand, the legal
choices, and what the lobby offers. One small adapter per game (``GamePresenter``); the server itself stays
game-agnostic and reaches the adapter through ``GAMES`` (by name) or the module functions (by state).

Everything here starts from what a viewer may know: log lines come from the game's own per-viewer log (or,
for a perfect-information game, from the action and the public state before it), the decision text from
public facts, the legal choices only for the seat that holds them.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any

from floe.bots.base import bot_names
from floe.core.game import State

if TYPE_CHECKING:
    from floe.games.arktia.game import ArktiaState

_CARD = re.compile(r"\b([a-z]+-[a-z]+-[1-5])\b")
_SEAT = re.compile(r"\bto P([1-4])\b")


class GamePresenter(ABC):
    """One game as the web table shows it: lobby choices, log lines, the decision at hand, legal choices."""

    name: str
    min_players: int
    max_players: int

    @abstractmethod
    def handles(self, state: State) -> bool:
        """Whether ``state`` is a position of this game."""

    @abstractmethod
    def info(self) -> dict[str, Any]:
        """JSON for ``GET /api/games`` (computed at request time: the bots may change while running)."""

    def to_dict(self) -> dict[str, Any]:
        """Same as ``info`` (the name the routes use)."""
        return self.info()

    @property
    @abstractmethod
    def away_bot(self) -> str:
        """The bot spec that plays for a person who is away."""

    @abstractmethod
    def log_line(self, before: State, action: int, viewer: int | None) -> str | None:
        """``action`` applied to ``before`` in words, as ``viewer`` may know it (None: nothing to say)."""

    @abstractmethod
    def deciding(self, state: State) -> str:
        """What the seat to act is deciding, in words (public)."""

    @abstractmethod
    def legal_choices(self, state: State, seat: int) -> list[dict[str, Any]]:
        """The legal choices of ``seat`` (which is to act): id, notation, words and what they touch."""


# --- Arctic ------------------------------------------------------------------------------------------------
class ArcticPresenter(GamePresenter):
    """Arctic: presets, power sides, the engine's per-viewer log and step words."""

    name = "arctic"
    min_players = 2
    max_players = 4
    suggested_bots = ("random", "baseline", "greedy", "ismcts:ms=200", "ismcts:ms=500", "ismcts:ms=1000")

    def handles(self, state: State) -> bool:
        from floe.games.arctic.game import ArcticState

        return isinstance(state, ArcticState)

    def info(self) -> dict[str, Any]:
        from floe.games.arctic.cards import ANIMALS
        from floe.games.arctic.config import POWER_SLUGS, POWER_WORDS

        powers = {
            animal: [
                {
                    "side": str(side),
                    "slug": POWER_SLUGS[10 * (a + 1) + side],
                    "text": POWER_WORDS[10 * (a + 1) + side],
                }
                for side in (1, 2)
            ]
            for a, animal in enumerate(ANIMALS)
        }
        return {
            "name": self.name,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "presets": ["rules", "bga"],
            "powers": powers,
            "bots": list(self.suggested_bots),
            "bot_names": bot_names(self.name),
        }

    @property
    def away_bot(self) -> str:
        return "baseline"

    def log_line(self, before: State, action: int, viewer: int | None) -> str | None:
        from floe.games.arctic.log import log_line as arctic_line

        return arctic_line(before, action, viewer)  # type: ignore[arg-type]

    def deciding(self, state: State) -> str:
        from floe.games.arctic.text import step_words

        return step_words(state.observation(None))

    def legal_choices(self, state: State, seat: int) -> list[dict[str, Any]]:
        out = []
        for action in state.legal_actions():
            notation = state.action_to_string(action)
            card = _CARD.search(notation)
            target = _SEAT.search(notation)
            out.append(
                {
                    "id": action,
                    "notation": notation,
                    "text": state.describe_action(action),
                    "verb": notation.split()[0],
                    "card": card.group(1) if card else None,
                    "seat": int(target.group(1)) - 1 if target else None,
                }
            )
        return out


# --- Arktia ------------------------------------------------------------------------------------------------
def _choice(key: str, label: str, default: str, *values: tuple[str, str]) -> dict[str, Any]:
    """A lobby option chosen from ``values`` (value, words)."""
    return {
        "key": key,
        "label": label,
        "type": "choice",
        "default": default,
        "values": [{"value": value, "text": text} for value, text in values],
    }


_ARKTIA_OPTIONS: list[dict[str, Any]] = [
    _choice(
        "layout",
        "Board",
        "default",
        ("default", "by player count (18 / 27 / 36 fields)"),
        ("placeholder-18", "18 fields"),
        ("placeholder-27", "27 fields"),
        ("placeholder-36", "36 fields"),
    ),
    _choice(
        "neutrals",
        "Neutral Muglus",
        "default",
        ("default", "with 2 players only"),
        ("true", "yes (not with 4 players)"),
        ("false", "no"),
    ),
    _choice(
        "melt_start",
        "First melt",
        "next_turn",
        ("next_turn", "the turn after the last placement"),
        ("same_turn", "in the turn of the last placement"),
    ),
    _choice(
        "bridge_melt_ends",
        "No melt possible without splitting the ice",
        "true",
        ("true", "that player's game ends"),
        ("false", "that player skips the melt"),
    ),
    _choice(
        "out_pieces",
        "A player's Muglus when their game ends",
        "stay",
        ("stay", "stay on the board and score"),
        ("remove", "leave the board"),
    ),
    _choice(
        "tie_break",
        "Equal totals",
        "shared",
        ("shared", "share the win"),
        ("fewer_lost", "fewer Muglus lost ranks higher"),
    ),
    {
        "key": "max_turns",
        "label": "Turn limit",
        "type": "int",
        "default": 1000,
        "min": 1,
        "max": 100_000,
    },
]

# Suggested bots for Arktia, weakest first; only those the server has are offered.
_ARKTIA_BOTS = ("random", "greedy", "mcts:ms=200", "mcts:ms=500")
_ARKTIA_FALLBACK_SEARCH = ("ismcts:ms=200", "ismcts:ms=500")

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

    name = "arktia"
    min_players = 2
    max_players = 4

    def handles(self, state: State) -> bool:
        from floe.games.arktia.game import ArktiaState

        return isinstance(state, ArktiaState)

    def bots(self) -> list[str]:
        """The suggested bot specs the server has now (the search bots only if registered)."""
        names = set(bot_names(self.name))
        out = [spec for spec in _ARKTIA_BOTS if spec.partition(":")[0] in names]
        if "mcts" not in names and "ismcts" in names:
            out += list(_ARKTIA_FALLBACK_SEARCH)
        return out

    def info(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "options": _ARKTIA_OPTIONS,
            "bots": self.bots(),
            "bot_names": bot_names(self.name),
        }

    @property
    def away_bot(self) -> str:
        return "greedy" if "greedy" in bot_names(self.name) else "random"

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


# --- the registry and the server's entry points ----------------------------------------------------------
GAMES: dict[str, GamePresenter] = {"arctic": ArcticPresenter(), "arktia": ArktiaPresenter()}


def for_state(state: State) -> GamePresenter:
    """The adapter of the game ``state`` belongs to."""
    for presenter in GAMES.values():
        if presenter.handles(state):
            return presenter
    raise KeyError(f"no web presentation for {type(state).__name__}")


def away_bot(game: str) -> str:
    """The bot that plays for an away person at a table of ``game``."""
    return GAMES[game].away_bot


def log_line(before: State, action: int, viewer: int | None) -> str | None:
    """``action`` applied to ``before`` in words, as ``viewer`` may know it (None: nothing to say)."""
    return for_state(before).log_line(before, action, viewer)


def deciding(state: State) -> str:
    """What the seat to act is deciding, in words (public)."""
    if state.is_terminal():
        return "the game is over"
    return for_state(state).deciding(state)


def legal_choices(state: State, seat: int) -> list[dict[str, Any]]:
    """The legal choices of ``seat`` (empty unless it is to act): id, notation, words and what it touches."""
    if state.is_terminal() or state.current_player() != seat:
        return []
    return for_state(state).legal_choices(state, seat)

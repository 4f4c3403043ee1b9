"""Arktia through the core API: ``ArktiaGame`` (options + spec) and ``ArktiaState`` (a position).

>>> game = ArktiaGame(2)
>>> st = game.new_initial_state()
>>> st.current_player(), st.action_to_string(st.legal_actions()[0])
(0, 'neutral g@b1')
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from typing import Any

import numpy as np

from floe.core.errors import AmbiguousActionError, IllegalActionError, InvalidActionError
from floe.core.game import TERMINAL, FieldsState, Game, GameSpec, State
from floe.games.arktia import native, rules
from floe.games.arktia.actions import ActionSpace, colour_name
from floe.games.arktia.codec import observation_to_dict
from floe.games.arktia.config import ArktiaConfig
from floe.games.arktia.i18n import SIZE_WORDS, _
from floe.games.arktia.observation import ArktiaObservation, observe
from floe.games.arktia.options import OPTIONS
from floe.games.arktia.scoring import ScoreBreakdown, breakdowns, rank, rank_returns, winners
from floe.games.arktia.state import NEUTRAL_SETUP, OVER, ArktiaStateData
from floe.games.arktia.vector import vector, vector_size

# Bump whenever rules behaviour or an encoding changes (it goes into every record).
VERSION = "arktia-1"

_BARE_MOVE = re.compile(r"^([a-z]\d+)-([a-z]\d+)$")


class ArktiaState(FieldsState, ArktiaStateData, State):
    """A position of Arktia. Mutable; ``clone`` is cheap and independent."""

    __slots__ = ()

    # --- who acts and what is legal -------------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self.step == OVER else self.player

    def is_terminal(self) -> bool:
        return self.step == OVER

    def legal_actions(self) -> list[int]:
        """Legal ids, ascending. The list is cached and shared: do not modify it."""
        legal = self._legal
        return legal if legal is not None else rules.legal_actions(self)

    def apply(self, action: int) -> None:
        """As ``State.apply`` (same checks, same errors), without two generic calls per action."""
        if self.step == OVER:
            raise IllegalActionError(_("the game is over: no more actions"))
        legal = self._legal
        if action not in (legal if legal is not None else rules.legal_actions(self)):
            raise IllegalActionError(
                _("%(action)s is not legal now") % {"action": self.describe_action(action)}
            )
        rules.apply_action(self, action)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return []  # Arktia has no chance

    def apply_unchecked(self, action: int) -> None:
        rules.apply_action(self, action)

    def undoable(self, action: int) -> bool:
        """Everything is public: any decision of a turn that leaves the same seat in the same turn (a
        neutral placement of the set-up is a turn of its own)."""
        if self.step in (NEUTRAL_SETUP, OVER):
            return False
        after = self.clone()
        rules.apply_action(after, action)
        return after.step != OVER and after.player == self.player and after.turn == self.turn

    def action_to_string(self, action: int) -> str:
        return self.space.action_to_string(action)

    def string_to_action(self, text: str) -> int:
        return self.space.string_to_action(text)

    def parse_legal(self, text: str) -> int:
        """As ``State.parse_legal``; also reads a bare ``c3-c5`` as whichever legal move goes c3 → c5."""
        try:
            return super().parse_legal(text)
        except InvalidActionError:
            found = _BARE_MOVE.match(" ".join(text.strip().lower().split()))
            if not found:
                raise
            suffix = " " + found.group(0)
            matches = [a for a in self.legal_actions() if self.action_to_string(a).endswith(suffix)]
            if len(matches) == 1:
                return matches[0]
            if matches:
                names = ", ".join(self.action_to_string(a) for a in matches)
                raise AmbiguousActionError(
                    _("%(text)r could be %(actions)s") % {"text": text.strip(), "actions": names}
                ) from None
            self.space.string_to_action("g" + suffix)  # InvalidActionError if not a straight line
            raise IllegalActionError(_("no legal move goes %(move)s") % {"move": found.group(0)}) from None

    def describe_action(self, action: int) -> str:
        """Words for a person."""
        try:
            text = self.action_to_string(action)
        except InvalidActionError:
            return f"action {action}"
        d = self.space.decode(action)
        names = self.space.layout.names
        if d.kind == "stop":
            return _("Stop: end your game here (your pieces stay and still score)")
        if d.kind in ("place", "neutral"):
            values = {"piece": _(SIZE_WORDS[d.size]), "cell": names[d.cell]}
            if d.kind == "place":
                return _("Place a %(piece)s on %(cell)s") % values
            return _("Place a neutral %(piece)s on %(cell)s") % values
        if d.kind == "keep":
            return _("Keep the group on %(cell)s (%(owner)s); the other tied groups are removed") % {
                "cell": names[d.cell],
                "owner": colour_name(d.colour),
            }
        if d.kind == "melt":
            return _("Melt %(cell)s") % {"cell": names[d.cell]}
        return _("Move %(move)s") % {"move": text}

    # --- information ----------------------------------------------------------------------------------
    def observation(self, seat: int | None) -> ArktiaObservation:
        return observe(self, seat, self.breakdowns() if self.step == OVER else None)

    def observation_dict(self, seat: int | None) -> dict[str, Any]:
        return observation_to_dict(self.observation(seat))

    def observation_vector(self, seat: int) -> np.ndarray:
        return vector(self, seat)

    # --- results --------------------------------------------------------------------------------------
    def breakdowns(self) -> list[ScoreBreakdown]:
        """Each seat's points (captured, controlled, melted); final once the game is over."""
        return breakdowns(self.fields, self.captured, self.melted, self.lost_per_seat())

    def lost_per_seat(self) -> list[int]:
        """How many Muglus each seat has lost to removals."""
        return [self.lost_by(q) for q in range(self.n)]

    def scores(self) -> list[int]:
        return [b.total for b in self.breakdowns()]

    def score_breakdowns(self) -> list[dict[str, Any]]:
        return [b.to_dict() for b in self.breakdowns()]

    def ranking(self) -> list[int]:
        return rank(self.scores(), self.lost_per_seat(), self.config.tie_break)

    def returns(self) -> list[float]:
        """Rank utilities in [-1, 1]; seats sharing a place share its utility (docs/arktia-rules.md §11
        [GUESS])."""
        return rank_returns(self.scores(), self.lost_per_seat(), self.config.tie_break)

    def winners(self) -> list[int]:
        """The seats sharing first place."""
        return winners(self.scores(), self.lost_per_seat(), self.config.tie_break)

    # --- pickling (copies, records, equality: FieldsState) --------------------------------------------
    def __getstate__(self) -> dict[str, Any]:
        return {"config": self.config, "fields": self.fields_json()}

    def __setstate__(self, data: dict[str, Any]) -> None:
        self.config = data["config"]
        self.space = ActionSpace(self.config.layout)
        self.load_fields(data["fields"])

    def render(self, seat: int | None) -> str:
        from floe.games.arktia.text import render_plain

        return render_plain(self, seat)


class ArktiaGame(Game):
    """Arktia for 2–4 players with an ``ArktiaConfig`` built from the options."""

    name = "arktia"
    title = "Arktia"
    min_players = 2
    max_players = 4
    information = "perfect"
    schema = OPTIONS

    def __init__(self, players: int, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(players, options)
        self.config = ArktiaConfig.from_parsed(self.options, players)
        self.options = self.config.to_options()
        self.space = ActionSpace(self.config.layout)

    @property
    def spec(self) -> GameSpec:
        return GameSpec(
            name=self.name,
            players=self.players,
            min_players=self.min_players,
            max_players=self.max_players,
            num_distinct_actions=self.space.N_ACTIONS,
            max_chance_outcomes=0,
            min_utility=-1.0,
            max_utility=1.0,
            # Neutral set-up, then per turn at most: one place/move, two keep choices (a mover carries at
            # most two other pieces), one melt.
            max_game_length=3 * self.players + 4 * self.config.max_turns,
            information=self.information,
            observation_size=vector_size(self.space.size),
            version=VERSION,
        )

    def engine(self) -> str:
        """``c`` when the C move generator is in use, else why not (``native.STATUS``)."""
        return native.STATUS

    def new_initial_state(self) -> ArktiaState:
        st = ArktiaState.__new__(ArktiaState)
        rules.setup(st, self.config, self.space)
        return st

    def determinize(self, observation: Any, rng: random.Random) -> ArktiaState:
        """Perfect information: the position the observation shows, exactly (``rng`` is not used)."""
        raw = observation["raw"] if isinstance(observation, dict) else observation.raw
        return self.state_from_json(raw)

    def state_from_json(self, data: Mapping[str, Any]) -> ArktiaState:
        st = ArktiaState.__new__(ArktiaState)
        config = ArktiaConfig.from_options(data["config"], self.players)
        st.config = config
        same = config.layout.cells == self.config.layout.cells
        st.space = self.space if same else ActionSpace(config.layout)
        st.load_fields(dict(data))
        return st


__all__ = ["VERSION", "ArktiaGame", "ArktiaState"]

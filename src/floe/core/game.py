"""The game-agnostic API every Floe game implements: ``Game`` (rules + options) and ``State`` (one position).

The shape follows OpenSpiel: a state has a current player, which is a seat (0..n-1), ``CHANCE`` while a
chance event (a shuffle outcome, a card drawn) is pending, or ``TERMINAL`` at the end. Actions are small
integers from a fixed space per game, each with a notation that parses back to the same id. Chance
outcomes are actions too, so the action history is a complete, replayable record.

``State.apply`` is the one validated path (template method): it refuses illegal actions without touching
the state, then calls the game's ``_apply``. Search code that already knows an action is legal may call
``apply_unchecked``.
"""

from __future__ import annotations

import json
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, TypeVar, cast

from floe.core.errors import AmbiguousActionError, IllegalActionError, InvalidActionError, OptionError
from floe.core.i18n import FLOE, L_
from floe.core.options import OptionSchema

_ = FLOE.gettext

CHANCE = -1
TERMINAL = -2


@dataclass(frozen=True, slots=True)
class GameSpec:
    """What a game is, derived from its parameters (OpenSpiel's GameType + GameInfo in one record)."""

    name: str
    players: int
    min_players: int
    max_players: int
    num_distinct_actions: int
    max_chance_outcomes: int
    min_utility: float
    max_utility: float
    max_game_length: int
    information: str  # "imperfect" or "perfect"
    observation_size: int
    version: str
    # Player action ids are 0 .. player_actions - 1; chance outcome ids, if any, follow them.
    player_actions: int = 0

    def __post_init__(self) -> None:
        if not self.player_actions:
            object.__setattr__(self, "player_actions", self.num_distinct_actions)


class State(ABC):
    """One position of a game. Mutable for speed; ``clone`` gives an independent copy."""

    __slots__ = ()

    # --- who acts -------------------------------------------------------------------------------------
    @abstractmethod
    def current_player(self) -> int:
        """The seat to act, ``CHANCE`` or ``TERMINAL``."""

    def is_terminal(self) -> bool:
        """True once the game is over."""
        return self.current_player() == TERMINAL

    def is_chance_node(self) -> bool:
        """True while a chance event is pending."""
        return self.current_player() == CHANCE

    # --- actions --------------------------------------------------------------------------------------
    @abstractmethod
    def legal_actions(self) -> list[int]:
        """The legal action ids for whoever acts now (chance outcomes at a chance node), ascending."""

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """(action, probability) pairs at a chance node; by default every legal outcome equally likely."""
        if not self.is_chance_node():
            return []
        legal = self.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]

    def sample_chance(self, rng: random.Random) -> int:
        """Draw one chance outcome with ``rng``. Games override this with a faster direct draw."""
        outcomes = self.chance_outcomes()
        return rng.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes])[0]

    def is_legal(self, action: int) -> bool:
        """Whether ``action`` is legal now; agrees with ``legal_actions`` by construction."""
        return action in self.legal_actions()

    def apply(self, action: int) -> None:
        """Apply a legal action. An illegal one raises ``IllegalActionError`` and changes nothing."""
        if self.is_terminal():
            raise IllegalActionError("the game is over: no more actions")
        if not self.is_legal(action):
            raise IllegalActionError(f"{self.describe_action(action)} is not legal now")
        self.apply_unchecked(action)

    @abstractmethod
    def apply_unchecked(self, action: int) -> None:
        """Apply an action known to be legal (the fast path for search and replay of verified records)."""

    @abstractmethod
    def action_to_string(self, action: int) -> str:
        """The canonical notation of an action id."""

    @abstractmethod
    def string_to_action(self, text: str) -> int:
        """Parse notation to an action id. ``InvalidActionError`` if the text names no action."""

    def observe_action(self, action: int, seat: int | None) -> str | None:
        """``action`` (about to be applied to this state) as ``seat`` may know it: its notation, a notation
        with the hidden part written ``?``, or None when the seat learns nothing of it. Logs are built from
        this and the seat's observations only. The default suits games whose actions are all public."""
        return self.action_to_string(action)

    def undoable(self, action: int) -> bool:
        """Whether the seat to act may take ``action`` (a legal decision, about to be applied here) back
        later in the same turn (core/undo.py). True only if the action draws no chance outcome, shows no
        seat anything hidden from it (the mover's own cards it chooses to show are its own business, a card
        from the deck or another seat's hand is not), and leaves the same seat to act in the same turn.
        The default, safe for any game: never."""
        return False

    def describe_action(self, action: int) -> str:
        """Words for a person; by default the notation."""
        try:
            return self.action_to_string(action)
        except InvalidActionError:
            return f"action {action}"

    def parse_legal(self, text: str) -> int:
        """Parse text to a legal action: exact notation, or a unique prefix of one legal action's notation.

        Raises ``InvalidActionError`` (names nothing), ``IllegalActionError`` (names an action that is not
        legal now) or ``AmbiguousActionError`` (prefix of several).
        """
        legal = self.legal_actions()
        key = " ".join(text.strip().lower().split())
        if not key:
            raise InvalidActionError(_("empty input"))
        try:
            action = self.string_to_action(key)
        except InvalidActionError:
            matches = [a for a in legal if self.action_to_string(a).startswith(key)]
            if len(matches) == 1:
                return matches[0]
            if len(matches) > 1:
                names = ", ".join(self.action_to_string(a) for a in matches[:6])
                raise AmbiguousActionError(
                    _("%(text)r could be %(names)s") % {"text": text.strip(), "names": names}
                ) from None
            raise
        if action not in legal:
            raise IllegalActionError(
                _("%(action)s is not legal now") % {"action": self.action_to_string(action)}
            )
        return action

    # --- information ----------------------------------------------------------------------------------
    @abstractmethod
    def observation(self, seat: int | None) -> Any:
        """What ``seat`` may know (``None`` for a spectator): the game's observation object."""

    def observation_dict(self, seat: int | None) -> dict[str, Any]:
        """The JSON-ready view of ``observation(seat)``: the observation itself if it is a dict, else its
        ``to_dict()``."""
        obs = self.observation(seat)
        if isinstance(obs, dict):
            return obs
        to_dict = getattr(obs, "to_dict", None)
        if to_dict is None:
            raise TypeError(
                f"{type(obs).__name__} is not a dict and has no to_dict(); override observation_dict"
            )
        result: dict[str, Any] = to_dict()
        return result

    @abstractmethod
    def observation_vector(self, seat: int) -> Any:
        """The fixed-length numeric observation (a numpy float32 array) of ``seat``."""

    # --- results --------------------------------------------------------------------------------------
    @abstractmethod
    def scores(self) -> list[int]:
        """Final scores per seat (only at terminal)."""

    def score_breakdowns(self) -> list[dict[str, Any]]:
        """Per-seat JSON-ready scoring details (only at terminal); by default just the total."""
        return [{"total": s} for s in self.scores()]

    def ranking(self) -> list[int]:
        """Seats best first, ties broken by the game's rule (only at terminal); by default by score, an
        earlier seat first among equal scores."""
        scores = self.scores()
        return sorted(range(len(scores)), key=lambda q: -scores[q])

    def returns(self) -> list[float]:
        """Rank-based utilities in [-1, 1]: first place 1, last place -1, linear between."""
        order = self.ranking()
        n = len(order)
        out = [0.0] * n
        for place, seat in enumerate(order):
            out[seat] = 1.0 - 2.0 * place / (n - 1)
        return out

    # --- copies and records ---------------------------------------------------------------------------
    @abstractmethod
    def clone(self) -> State:
        """An independent copy."""

    @property
    @abstractmethod
    def history(self) -> list[int]:
        """Every action applied since the empty table, chance outcomes included."""

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """The full state (hidden parts included) as JSON-ready data."""

    def render(self, seat: int | None) -> str:
        """A plain-text rendering of what ``seat`` sees; by default its observation dict as JSON."""
        return json.dumps(self.observation_dict(seat), sort_keys=True)


class _Fields(Protocol):
    """What ``FieldsState`` needs of a game's state data: copy its fields into a bare instance, write them."""

    def copy_into(self, other: Any) -> None: ...

    def fields_json(self) -> dict[str, Any]: ...


_F = TypeVar("_F", bound=_Fields)


class FieldsState:
    """What every game's ``State`` repeats when its data class keeps its own fields (``copy_into`` a bare
    instance, ``fields_json`` for records): ``clone``, ``to_json``, equality by the fields, no hash (a state
    changes). Listed before the data class and ``State`` among a game state's bases, so these come first.
    """

    def clone(self: _F) -> _F:
        """An independent copy: a bare instance of the same class given every field."""
        other = type(self).__new__(type(self))
        self.copy_into(other)
        return other

    def to_json(self: _Fields) -> dict[str, Any]:
        """The full state as JSON-ready data: its fields."""
        return self.fields_json()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, FieldsState):
            return NotImplemented
        return cast(_Fields, self).fields_json() == cast(_Fields, other).fields_json()

    __hash__ = None  # type: ignore[assignment]


class Game(ABC):
    """A game with its options fixed: builds states and knows its spec.

    The class says what the game is whatever its options: ``name`` (records, the command line, URLs),
    ``title`` (for people), the player range, ``information`` and its option ``schema``. The constructor
    checks the player count and every option against them before a subclass builds anything.
    """

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    information: ClassVar[str] = "imperfect"  # or "perfect"
    schema: ClassVar[OptionSchema] = OptionSchema()

    def __init__(self, players: int, options: Mapping[str, Any] | None = None) -> None:
        low, high = self.min_players, self.max_players
        if type(players) is not int or not low <= players <= high:
            shown = repr(players) if len(repr(players)) <= 20 else "that"
            said = L_(
                "%(game)s is for %(low)s to %(high)s players, not %(n)s",
                game=self.title or self.name,
                low=low,
                high=high,
                n=shown,
            )
            raise OptionError(said)
        self.players = players
        # The options as the schema read them (given keys only); a game replaces them with its full set.
        self.options: dict[str, Any] = self.schema.parse(options, players)

    @property
    @abstractmethod
    def spec(self) -> GameSpec:
        """The spec sheet for these parameters."""

    @abstractmethod
    def new_initial_state(self) -> State:
        """The empty table before setup; setup's chance events follow."""

    @abstractmethod
    def determinize(self, observation: Any, rng: random.Random) -> State:
        """A full state consistent with one seat's ``observation``, its hidden parts sampled with ``rng``."""

    @abstractmethod
    def state_from_json(self, data: Mapping[str, Any]) -> State:
        """Rebuild a state written by ``State.to_json``."""

    def engine(self) -> str:
        """Which implementation of the rules runs, for benchmarks (``floe bench engine`` prints it):
        ``python`` unless the game has a compiled part and says whether it is in use."""
        return "python"

    def options_dict(self) -> dict[str, Any]:
        """The options as they go into a record (defaults filled in)."""
        return dict(self.options)

    def notice(self) -> str | None:
        """The warning a player of this game with these options reads (an untranslated message id of the
        game's catalog), "" for none; None: the entry's ``notice`` (e.g. placeholder components) applies.
        A game whose options lift the notice (a deck file of the table's own) says "" here."""
        return None

    def parse_actions(self, state: State, texts: Sequence[str]) -> list[int]:
        """Parse and apply a sequence of notations to a clone of ``state``, returning the ids."""
        probe = state.clone()
        out = []
        for text in texts:
            action = probe.parse_legal(text)
            probe.apply(action)
            out.append(action)
        return out

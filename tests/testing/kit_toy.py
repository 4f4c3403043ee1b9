"""A tiny game with chance and hidden information, correct by construction, for testing ``floe.testing``.

Each seat is dealt one of six cards (chance, hidden from the others), then the seats in turn add 1, 2 or
3 to their own total, twice each. At the end the cards are shown; a seat scores its card plus its total.

Action ids: ``add 1``..``add 3`` are 0..2; the chance outcomes ``deal 0``..``deal 5`` are 3..8. The
tests in ``test_kit_catches_bugs`` subclass ``ToyState``/``ToyGame`` with one bug each.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from floe.core.errors import InvalidActionError
from floe.core.game import CHANCE, TERMINAL, Game, GameSpec, State

CARDS = 6
ADDS = 3  # add 1..3
DEAL = ADDS  # the first chance id
ROUNDS = 2


@dataclass(frozen=True)
class ToyObservation:
    seat: int | None
    own: int  # the seat's card, -1 if not dealt (or a spectator)
    dealt: int  # how many cards are dealt
    adds: tuple[int, ...]
    cards: tuple[int, ...] | None  # every card once the game is over


class ToyState(State):
    """A position of the toy game."""

    __slots__ = ("_history", "adds", "cards", "n")

    def __init__(self, n: int) -> None:
        self.n = n
        self.cards: list[int] = []
        self.adds: list[int] = []
        self._history: list[int] = []

    def current_player(self) -> int:
        if len(self.cards) < self.n:
            return CHANCE
        if len(self.adds) < ROUNDS * self.n:
            return len(self.adds) % self.n
        return TERMINAL

    def legal_actions(self) -> list[int]:
        player = self.current_player()
        if player == CHANCE:
            return [DEAL + c for c in range(CARDS) if c not in self.cards]
        if player == TERMINAL:
            return []
        return list(range(ADDS))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        legal = self.legal_actions() if self.is_chance_node() else []
        return [(a, 1.0 / len(legal)) for a in legal]

    def apply_unchecked(self, action: int) -> None:
        if action >= DEAL:
            self.cards.append(action - DEAL)
        else:
            self.adds.append(action + 1)
        self._history.append(action)

    def action_to_string(self, action: int) -> str:
        if 0 <= action < ADDS:
            return f"add {action + 1}"
        if DEAL <= action < DEAL + CARDS:
            return f"deal {action - DEAL}"
        raise InvalidActionError(f"no action {action}")

    def string_to_action(self, text: str) -> int:
        verb, _, number = text.strip().lower().partition(" ")
        if verb == "add" and number in ("1", "2", "3"):
            return int(number) - 1
        if verb == "deal" and number.isdigit() and int(number) < CARDS:
            return DEAL + int(number)
        raise InvalidActionError(f"not an action: {text!r}")

    def observe_action(self, action: int, seat: int | None) -> str | None:
        if action >= DEAL and seat != len(self.cards):  # a card dealt to another seat
            return "deal ?"
        return self.action_to_string(action)

    def observation(self, seat: int | None) -> ToyObservation:
        own = self.cards[seat] if seat is not None and seat < len(self.cards) else -1
        over = self.is_terminal()
        return ToyObservation(
            seat, own, len(self.cards), tuple(self.adds), tuple(self.cards) if over else None
        )

    def observation_dict(self, seat: int | None) -> dict[str, Any]:
        data = asdict(self.observation(seat))
        data["adds"] = list(data["adds"])
        data["cards"] = None if data["cards"] is None else list(data["cards"])
        return data

    def observation_vector(self, seat: int) -> np.ndarray:
        obs = self.observation(seat)
        vec = np.zeros(CARDS + ROUNDS * 3 + 1, dtype=np.float32)
        if obs.own >= 0:
            vec[obs.own] = 1.0
        for i, add in enumerate(obs.adds[: ROUNDS * 3]):
            vec[CARDS + i] = add / ADDS
        vec[-1] = float(self.is_terminal())
        return vec

    def scores(self) -> list[int]:
        return [self.cards[q] + sum(self.adds[q :: self.n]) for q in range(self.n)]

    def score_breakdowns(self) -> list[dict[str, Any]]:
        return [{"card": self.cards[q], "total": s} for q, s in enumerate(self.scores())]

    def ranking(self) -> list[int]:
        scores = self.scores()
        return sorted(range(self.n), key=lambda q: (-scores[q], q))

    def clone(self) -> ToyState:
        other = type(self)(self.n)
        other.cards, other.adds, other._history = self.cards[:], self.adds[:], self._history[:]
        return other

    @property
    def history(self) -> list[int]:
        return self._history

    def to_json(self) -> dict[str, Any]:
        return {"n": self.n, "cards": self.cards[:], "adds": self.adds[:], "history": self._history[:]}

    def render(self, seat: int | None) -> str:
        return repr(self.observation(seat))


class ToyGame(Game):
    """The toy game for 2 or 3 seats (registered under a unique name by each test)."""

    name = "kit-toy"
    min_players = 2
    max_players = 3
    information = "imperfect"
    state_class: type[ToyState] = ToyState

    @property
    def spec(self) -> GameSpec:
        return GameSpec(
            name=self.name,
            players=self.players,
            min_players=self.min_players,
            max_players=self.max_players,
            num_distinct_actions=ADDS + CARDS,
            max_chance_outcomes=CARDS,
            min_utility=-1.0,
            max_utility=1.0,
            max_game_length=self.players * (1 + ROUNDS),
            information=self.information,
            observation_size=CARDS + ROUNDS * 3 + 1,
            version="toy-1",
            player_actions=ADDS,
        )

    def new_initial_state(self) -> ToyState:
        return self.state_class(self.players)

    def determinize(self, observation: Any, rng: random.Random) -> ToyState:
        """Deal the others' cards at random from the cards the seat has not seen, then replay the adds."""
        obs: ToyObservation = observation
        if obs.cards is not None:
            cards = list(obs.cards)
        else:
            free = [c for c in range(CARDS) if c != obs.own]
            rng.shuffle(free)
            cards = [obs.own if q == obs.seat else free.pop() for q in range(obs.dealt)]
        st = self.new_initial_state()
        for c in cards:
            st.apply_unchecked(DEAL + c)
        for add in obs.adds:
            st.apply_unchecked(add - 1)
        return st

    def state_from_json(self, data: Mapping[str, Any]) -> ToyState:
        st = self.state_class(int(data["n"]))
        st.cards, st.adds, st._history = list(data["cards"]), list(data["adds"]), list(data["history"])
        return st

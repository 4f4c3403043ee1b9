"""Goofspiel's rules on Floe's game API (see this package's README for the rules).

Actions: ``bid k`` is id ``k - 1`` (a player's decision); ``prize k`` is id ``cards + k - 1`` (chance: the
prize turned up). A bid is hidden from the others until every player has bid; ``observe_action`` and
``observation`` are the one place that says so, and ``determinize`` samples the hidden bids.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import numpy as np

from floe.core.errors import InvalidActionError
from floe.core.game import CHANCE, TERMINAL, Game, GameSpec, State
from floe.core.options import Option, OptionSchema, choices

OPTIONS = OptionSchema(
    (
        Option("cards", "int", 5, "bid cards per player and prizes in the deck", "the rules", low=2, high=13),
        Option(
            "ties",
            "choice",
            "discard",
            "a prize whose highest bid is tied: discarded, or carried over to the next prize",
            "the rules",
            choices=choices(("discard", "nobody wins it"), ("carry", "it goes with the next prize")),
        ),
    )
)


class GoofspielState(State):
    """A position: public hands and prizes, the round's hidden bids, the scores."""

    def __init__(self, players: int, cards: int, ties: str) -> None:
        self.n, self.cards, self.ties = players, cards, ties
        self.hands = [list(range(1, cards + 1)) for _ in range(players)]  # without the round's bid
        self.deck = list(range(1, cards + 1))  # prizes still face down
        self.prize = 0  # the prize up for bids (0: none turned up yet)
        self.carry = 0  # prize points carried over from tied rounds
        self.bids = [0] * players  # this round's bids, hidden until all are in (0: not yet)
        self.points = [0] * players
        self._history: list[int] = []

    # --- who acts and what is legal ----------------------------------------------------------------
    def current_player(self) -> int:
        if self.prize == 0:
            return CHANCE if self.deck else TERMINAL
        return self.bids.index(0)

    def legal_actions(self) -> list[int]:
        if self.current_player() == CHANCE:
            return [self.cards + p - 1 for p in self.deck]
        if self.current_player() == TERMINAL:
            return []
        return [k - 1 for k in self.hands[self.current_player()]]

    def apply_unchecked(self, action: int) -> None:
        self._history.append(action)
        if self.prize == 0:  # chance: this prize is turned up
            self.prize = action - self.cards + 1
            self.deck.remove(self.prize)
            return
        seat = self.current_player()
        self.bids[seat] = action + 1
        self.hands[seat].remove(action + 1)
        if 0 not in self.bids:  # every bid is in: show them and give the prize
            best = max(self.bids)
            winners = [q for q in range(self.n) if self.bids[q] == best]
            value = self.prize + self.carry
            self.carry = value if len(winners) > 1 and self.ties == "carry" else 0
            if len(winners) == 1:
                self.points[winners[0]] += value
            self.prize, self.bids = 0, [0] * self.n

    def action_to_string(self, action: int) -> str:
        if 0 <= action < self.cards:
            return f"bid {action + 1}"
        if self.cards <= action < 2 * self.cards:
            return f"prize {action - self.cards + 1}"
        raise InvalidActionError(f"no Goofspiel action has id {action}")

    def string_to_action(self, text: str) -> int:
        verb, _, number = text.strip().lower().partition(" ")
        if verb in ("bid", "prize") and number.isdigit() and 1 <= int(number) <= self.cards:
            return int(number) - 1 + (self.cards if verb == "prize" else 0)
        raise InvalidActionError(f"cannot read {text.strip()[:40]!r}: write bid 3 or prize 3")

    # --- information: the one place that hides the round's bids --------------------------------------
    def observe_action(self, action: int, seat: int | None) -> str | None:
        mover = self.current_player()
        return self.action_to_string(action) if mover in (CHANCE, seat) else "bid ?"

    def observation(self, seat: int | None) -> dict[str, Any]:
        return {
            "seat": seat,
            "cards": self.cards,
            "ties": self.ties,
            "prize": self.prize,
            "carry": self.carry,
            "deck": sorted(self.deck),
            # Cards not yet shown: a hand with this round's bid still in it, except for the bidder.
            "hands": [sorted(h + ([self.bids[q]] if self.bids[q] and q != seat else [])) for q, h in
                      enumerate(self.hands)],
            "bid_made": [b > 0 for b in self.bids],
            "own_bid": self.bids[seat] if seat is not None else 0,
            "points": list(self.points),
        }  # fmt: skip

    def observation_vector(self, seat: int) -> np.ndarray:
        obs, c = self.observation(seat), self.cards
        out = np.zeros((2 * self.n + 2) * c + 2 + 2 * self.n, dtype=np.float32)
        for q in range(self.n):  # seats relative to the observer: its own first
            r = (q - seat) % self.n
            out[[r * c + k - 1 for k in obs["hands"][q]]] = 1.0
            out[self.n * c + r] = obs["bid_made"][q]
            out[self.n * c + self.n + r] = obs["points"][q] / (c * (c + 1) / 2)
        base = self.n * c + 2 * self.n
        out[[base + k - 1 for k in obs["deck"]]] = 1.0
        if obs["own_bid"]:
            out[base + c + obs["own_bid"] - 1] = 1.0
        out[base + 2 * c] = obs["prize"] / c
        out[base + 2 * c + 1] = obs["carry"] / c
        return out

    # --- results -------------------------------------------------------------------------------------
    def scores(self) -> list[int]:
        return list(self.points)

    # --- copies and records --------------------------------------------------------------------------
    def clone(self) -> GoofspielState:
        return copy.deepcopy(self)

    @property
    def history(self) -> list[int]:
        return self._history

    def to_json(self) -> dict[str, Any]:
        return {k: copy.deepcopy(v) for k, v in vars(self).items()}


class Goofspiel(Game):
    """Goofspiel for 2–4 players."""

    name, title, min_players, max_players, information = "goofspiel", "Goofspiel", 2, 4, "imperfect"
    schema = OPTIONS

    def __init__(self, players: int, options: dict[str, Any] | None = None) -> None:
        super().__init__(players, options)
        self.options = {"cards": self.options.get("cards", 5), "ties": self.options.get("ties", "discard")}

    @property
    def spec(self) -> GameSpec:
        c, n = self.options["cards"], self.players
        return GameSpec(self.name, n, 2, 4, 2 * c, c, -1.0, 1.0, c * (n + 1), self.information,
                        (2 * n + 2) * c + 2 + 2 * n, "goofspiel-1", player_actions=c)  # fmt: skip

    def new_initial_state(self) -> GoofspielState:
        return GoofspielState(self.players, self.options["cards"], self.options["ties"])

    def determinize(self, observation: Any, rng: random.Random) -> GoofspielState:
        st = self.new_initial_state()
        st.deck, st.prize, st.carry = list(observation["deck"]), observation["prize"], observation["carry"]
        st.points = list(observation["points"])
        for q, shown in enumerate(observation["hands"]):
            st.hands[q] = list(shown)
            if q == observation["seat"]:
                st.bids[q] = observation["own_bid"]
            elif observation["bid_made"][q]:  # a hidden bid: any card not yet shown
                st.bids[q] = rng.choice(shown)
                st.hands[q].remove(st.bids[q])
        return st

    def state_from_json(self, data: dict[str, Any]) -> GoofspielState:
        st = self.new_initial_state()
        vars(st).update(copy.deepcopy(data))
        return st


def last_bid(state: State, action: int, seat: int) -> bool:
    """Whether ``action`` may show ``seat`` something hidden (the entry's ``reveals``, for ``floe.testing``):
    the round's last bid shows every bid, so worlds that differed in them may differ after it."""
    assert isinstance(state, GoofspielState)
    return state.current_player() >= 0 and state.bids.count(0) == 1

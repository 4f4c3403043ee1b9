"""The terminal's ``hint`` runs the game's real hint bot and marks its choice on the right line.

A game where the best first decision is known: two players each pick a number from 1 to 4 (the first,
then the second); the higher number wins and a tie goes to the first player. Picking 4 wins for certain,
any other number can lose, so a search that sees the whole game prefers ``pick 4`` with a win rate of 100%.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from floe.core import registry
from floe.core.entry import GameEntry
from floe.core.errors import InvalidActionError
from floe.core.game import TERMINAL, Game, GameSpec, State
from floe.play.terminal import GameQuit, run_terminal_game

from .helpers import output_of, recording_console, scripted


class PickState(State):
    def __init__(self) -> None:
        self.picks: list[int] = []

    def current_player(self) -> int:
        return len(self.picks) if len(self.picks) < 2 else TERMINAL

    def legal_actions(self) -> list[int]:
        return [] if len(self.picks) >= 2 else [0, 1, 2, 3]

    def apply_unchecked(self, action: int) -> None:
        self.picks.append(action + 1)

    def action_to_string(self, action: int) -> str:
        if not 0 <= action < 4:
            raise InvalidActionError(f"no action {action}")
        return f"pick {action + 1}"

    def string_to_action(self, text: str) -> int:
        verb, _, number = text.strip().partition(" ")
        if verb != "pick" or number not in ("1", "2", "3", "4"):
            raise InvalidActionError(f"cannot read {text!r}")
        return int(number) - 1

    def observation(self, seat: int | None) -> dict[str, Any]:
        return {"picks": list(self.picks)}

    def observation_vector(self, seat: int) -> np.ndarray:
        return np.array(self.picks + [0] * (2 - len(self.picks)), dtype=np.float32)

    def scores(self) -> list[int]:
        return list(self.picks)

    def ranking(self) -> list[int]:
        return [0, 1] if self.picks[0] >= self.picks[1] else [1, 0]

    def clone(self) -> PickState:
        other = PickState()
        other.picks = self.picks[:]
        return other

    @property
    def history(self) -> list[int]:
        return [p - 1 for p in self.picks]

    def to_json(self) -> dict[str, Any]:
        return {"picks": list(self.picks)}


class PickGame(Game):
    name, title, min_players, max_players, information = "pick", "Pick", 2, 2, "perfect"

    @property
    def spec(self) -> GameSpec:
        return GameSpec(self.name, 2, 2, 2, 4, 0, -1.0, 1.0, 2, "perfect", 2, "pick-1")

    def new_initial_state(self) -> PickState:
        return PickState()

    def determinize(self, observation: Any, rng: random.Random) -> PickState:
        st = PickState()
        st.picks = list(observation["picks"])
        return st

    def state_from_json(self, data: Any) -> PickState:
        return self.determinize(data, random.Random())


@pytest.fixture(params=["mcts:it=400", "ismcts:it=400"])
def pick_game(request: pytest.FixtureRequest) -> Iterator[str]:
    registry.register(GameEntry(game=PickGame, hint_bots=(request.param,)))
    yield request.param.partition(":")[0]
    registry._ENTRIES.pop("pick", None)


def test_hint_marks_the_winning_choice(pick_game: str) -> None:
    console = recording_console()
    with pytest.raises(GameQuit):
        run_terminal_game(
            "pick", players=2, seat=0, bots="random", seed=1, options={}, save=None,
            console=console, input_fn=scripted(["hint", "quit"]),
        )  # fmt: skip
    out = output_of(console)
    assert f"{pick_game} hint (400 iterations)" in out
    marked = [line for line in out.splitlines() if "◀" in line]
    assert len(marked) == 1, out
    assert re.search(rf"│ 4 │ pick 4 ◀ {pick_game} +│ +100% │", marked[0]), marked[0]
    # Every other choice is listed below it, each with its (lower) estimate.
    for number in (1, 2, 3):
        assert re.search(rf"│ {number} │ pick {number} +│ +\d+% │", out)


def test_hint_shows_the_best_first_and_the_rest_on_request(
    pick_game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With more choices than ``HINT_ROWS``, ``hint`` lists the best ones (the bot's pick on top) and says
    how many more ``hint all`` shows."""
    import floe.play.terminal as terminal

    monkeypatch.setattr(terminal, "HINT_ROWS", 2)
    console = recording_console()
    with pytest.raises(GameQuit):
        run_terminal_game(
            "pick", players=2, seat=0, bots="random", seed=1, options={}, save=None,
            console=console, input_fn=scripted(["hint", "hint all", "quit"]),
        )  # fmt: skip
    out = output_of(console)
    first, _, second = out.partition("2 more choices: type hint all to see every one.")
    assert second, out
    assert len(re.findall(r"│ \d │ pick \d", first)) == 2 and "◀" in first
    assert len(re.findall(r"│ \d │ pick \d", second)) == 4

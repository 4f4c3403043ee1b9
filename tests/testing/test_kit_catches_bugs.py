"""The conformance kit's checks can fail: a toy game passes, and each planted bug is caught and named.

Every broken variant of ``kit_toy`` is registered in-process under its own name for the test and removed
afterwards; ``check_game`` must raise a ``ConformanceError`` naming the check (and the seed and action).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from floe.core import registry
from floe.core.entry import GameEntry
from floe.core.errors import IllegalActionError
from floe.core.game import State
from floe.testing import ConformanceError, cases, check_game, parametrize_games

from .kit_toy import DEAL, ToyGame, ToyObservation, ToyState

# --- one bug each ----------------------------------------------------------------------------------------


class NotationClash(ToyState):
    """``add 1`` and ``add 2`` are both written ``add 1``."""

    def action_to_string(self, action: int) -> str:
        return "add 1" if action == 1 else super().action_to_string(action)


class SharedClone(ToyState):
    """A clone shares the list of adds with the original."""

    def clone(self) -> ToyState:
        other = super().clone()
        other.adds = self.adds
        return other


class LeakyObservation(ToyState):
    """Every seat's observation shows the card of the seat after it."""

    def observation(self, seat: int | None) -> ToyObservation:
        obs = super().observation(seat)
        if seat is None or len(self.cards) < self.n:
            return obs
        return ToyObservation(
            seat, obs.own, obs.dealt, (*obs.adds, self.cards[(seat + 1) % self.n]), obs.cards
        )


class LoudDeal(ToyState):
    """The action as seen names the card dealt to another seat."""

    def observe_action(self, action: int, seat: int | None) -> str | None:
        return self.action_to_string(action)


class ApplyFirst(ToyState):
    """``apply`` records the action in the history before it refuses it."""

    def apply(self, action: int) -> None:
        self._history.append(action)
        if not self.is_legal(action):
            raise IllegalActionError("illegal")
        self._history.pop()
        self.apply_unchecked(action)


class LaxIsLegal(ToyState):
    """``is_legal`` accepts ids past the action space."""

    def is_legal(self, action: int) -> bool:
        return action >= 100 or super().is_legal(action)


class Unsorted(ToyState):
    """The legal actions come in descending order."""

    def legal_actions(self) -> list[int]:
        return sorted(super().legal_actions(), reverse=True)


class BadOdds(ToyState):
    """The chance probabilities sum to more than 1."""

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(a, 0.5) for a, _ in super().chance_outcomes()]


class ForgetsHistory(ToyState):
    """``to_json`` keeps the history but reading it back drops it (see ForgetfulGame)."""


class NoPickle(ToyState):
    """A state that refuses to be pickled."""

    def __reduce__(self) -> Any:
        raise TypeError("cannot pickle this state")


class Float64(ToyState):
    """The observation vector is float64."""

    def observation_vector(self, seat: int) -> np.ndarray:
        return super().observation_vector(seat).astype(np.float64)


class Windfall(ToyState):
    """Returns above the spec's maximum utility."""

    def returns(self) -> list[float]:
        return [2.0 * r for r in super().returns()]


class SetInDict(ToyState):
    """The observation dict holds a set (not JSON)."""

    def observation_dict(self, seat: int | None) -> dict[str, Any]:
        data = super().observation_dict(seat)
        data["adds"] = set(data["adds"])
        return data


class BlindSpectator(ToyState):
    """The spectator's observation fails."""

    def observation(self, seat: int | None) -> ToyObservation:
        if seat is None:
            raise KeyError("no spectator")
        return super().observation(seat)


class StaringSpectator(ToyState):
    """A spectator is shown every card dealt (the seats' views are right)."""

    def observation(self, seat: int | None) -> ToyObservation:
        obs = super().observation(seat)
        if seat is not None:
            return obs
        return ToyObservation(seat, obs.own, obs.dealt, (*obs.adds, *self.cards), obs.cards)


class ForgetfulGame(ToyGame):
    def state_from_json(self, data: Any) -> ToyState:
        st = super().state_from_json(data)
        st._history = []
        return st


class GuessingGame(ToyGame):
    """Declared perfect-information, but determinize samples the others' cards."""

    information = "perfect"


class ShortGame(ToyGame):
    """Declares a maximum length shorter than its games."""

    @property
    def spec(self) -> Any:
        from dataclasses import replace

        return replace(super().spec, max_game_length=3)


def game_with(state: type[ToyState], base: type[ToyGame] = ToyGame) -> type[ToyGame]:
    """A game class over ``state`` (with a name of its own)."""
    return type(
        f"{state.__name__}Game", (base,), {"name": f"kit-toy-{state.__name__.lower()}", "state_class": state}
    )


@pytest.fixture
def register() -> Iterator[Any]:
    """Register games for one test; remove them afterwards."""
    added: list[str] = []

    def add(game: type[ToyGame]) -> str:
        registry.register(GameEntry(game=game))
        added.append(game.name)
        return game.name

    yield add
    for name in added:
        registry._ENTRIES.pop(name, None)


# Each bug and the check that must name it (or any of several, when the first to run depends on sampling).
BUGS: list[tuple[type[ToyGame], str | tuple[str, ...]]] = [
    (game_with(NotationClash), "notation round trip"),
    (game_with(SharedClone), "clone independence"),
    # Caught by (a) or (b), whichever sampled position comes first: both compare the seat's views.
    (game_with(LeakyObservation), ("seen by the seat: observation_dict differs", "twin worlds of P")),
    (game_with(LoudDeal), "observe_action leaks"),
    (game_with(ApplyFirst), "illegal apply"),
    (game_with(LaxIsLegal), "is_legal"),
    (game_with(Unsorted), "legal_actions: not sorted"),
    (game_with(BadOdds), "chance_outcomes"),
    (game_with(ForgetsHistory, ForgetfulGame), "state_from_json"),
    (game_with(NoPickle), "pickle"),
    (game_with(Float64), "observation_vector(0): dtype float64"),
    (game_with(Windfall), "returns"),
    (game_with(SetInDict), "not JSON-serialisable"),
    (game_with(BlindSpectator), "observation_dict(None)"),
    (game_with(StaringSpectator), "seen by a spectator"),
    (game_with(ToyState, GuessingGame), "a perfect-information game must rebuild the state exactly"),
    (game_with(ToyState, ShortGame), "max_game_length"),
]


# --- the toy game passes; each bug fails -----------------------------------------------------------------


def test_the_toy_game_passes(register: Any) -> None:
    name = register(game_with(ToyState))
    report = check_game(name, games=30, sample=0.3, information=0.5)
    assert report.players == (2, 3) and report.games == 60 and report.finished == 60
    assert report.actions == 30 * 2 * 3 + 30 * 3 * 3
    assert report.distinct_actions == 9 and report.full_checks > 60 and report.information_checks > 60
    assert "60 games" in str(report)


@pytest.mark.parametrize(("game", "check"), BUGS, ids=[g.name.removeprefix("kit-toy-") for g, _ in BUGS])
def test_each_bug_is_caught(register: Any, game: type[ToyGame], check: str | tuple[str, ...]) -> None:
    name = register(game)
    with pytest.raises(ConformanceError) as caught:
        check_game(name, games=30, sample=0.3, information=0.5)
    message = str(caught.value)
    alternatives = (check,) if isinstance(check, str) else check
    assert any(c in message for c in alternatives), message
    error = caught.value
    assert error.game == name and f"seed {error.seed}" in message and f"check_game({name!r}" in message
    # The seed and the action number it names reproduce the failure on that game alone.
    with pytest.raises(ConformanceError) as again:
        check_game(name, error.players, games=1, seed=error.seed, sample=0.3, information=0.5)
    assert again.value.check == error.check and again.value.action == error.action


def test_the_game_s_own_invariants_run_on_every_state_and_world(register: Any) -> None:
    name = register(game_with(ToyState))
    checked: list[State] = []

    def invariants(state: State) -> None:
        assert isinstance(state, ToyState)
        checked.append(state)
        assert len(set(state.cards)) == len(state.cards), "a card dealt twice"
        assert sum(state.adds) < 9, f"adds {state.adds} reach 9"

    with pytest.raises(ConformanceError, match=r"invariants: adds \[.*\] reach 9") as caught:
        check_game(name, 2, games=30, invariants=invariants)
    assert caught.value.check == "invariants" and caught.value.action > 0
    assert checked


def test_a_watch_sees_every_transition_and_the_end(register: Any) -> None:
    name = register(game_with(ToyState))
    log: list[tuple[str, int]] = []

    class Count:
        def __init__(self, game: Any, state: State, rng: random.Random) -> None:
            log.append(("start", len(state.history)))

        def after(self, state: State, action: int) -> None:
            log.append(("after", action))

        def final(self, state: State) -> None:
            log.append(("final", len(state.history)))

    report = check_game(name, 2, games=3, watch=Count)
    assert [k for k, _ in log].count("final") == 3 == [k for k, _ in log].count("start")
    assert [k for k, _ in log].count("after") == report.actions


def test_a_policy_chooses_the_decisions_and_max_actions_stops_early(register: Any) -> None:
    name = register(game_with(ToyState))
    chosen: list[int] = []

    def always_add_three(state: State, rng: random.Random) -> int:
        chosen.append(2)
        return 2

    report = check_game(name, 2, games=2, policy=always_add_three)
    assert len(chosen) == 2 * 4
    short = check_game(name, 2, games=2, max_actions=3)
    assert short.finished == 0 and short.actions == 6

    def cheat(state: State, rng: random.Random) -> int:
        return DEAL  # a chance outcome offered as a decision

    with pytest.raises(ConformanceError, match="policy"):
        check_game(name, 2, games=1, policy=cheat)
    assert report.finished == 2


def test_options_per_game(register: Any) -> None:
    name = register(game_with(ToyState))
    seen: list[int] = []

    def draw(rng: random.Random, players: int) -> dict[str, Any]:
        seen.append(players)
        return {}

    check_game(name, [2, 3], games=2, options=draw)
    assert seen == [2, 2, 3, 3]
    with pytest.raises(ConformanceError, match="make_game"):
        check_game(name, 2, games=1, options={"no_such_option": 1})


def test_cases_list_every_player_count(register: Any) -> None:
    name = register(game_with(ToyState))
    assert cases([name]) == [(name, 2), (name, 3)]
    assert (name, 3) in cases()
    mark = parametrize_games([name])
    assert mark.args[0] == ("game", "players") and mark.kwargs["ids"] == [f"{name}-2p", f"{name}-3p"]


def test_the_command_line_runs_and_reports(register: Any, capsys: pytest.CaptureFixture[str]) -> None:
    from floe.testing.__main__ import main

    good = register(game_with(ToyState))
    assert main([good, "--players", "2", "--games", "3", "--seed", "5"]) == 0
    assert "3 games (3 to the end)" in capsys.readouterr().out
    bad = register(game_with(NotationClash))
    assert main([bad, "--games", "2"]) == 1
    err = capsys.readouterr().err
    assert "notation round trip" in err and "seed 0" in err
    assert main(["no-such-game"]) == 2

"""Play whole games with bots: the loop every lab command (simulate, bench, tournaments) stands on, and
the one rule that seats fewer bots than seats."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from floe.bots.base import Bot
from floe.bots.registry import make_bot
from floe.core.errors import OptionError
from floe.core.game import Game, State
from floe.core.match import Match


@dataclass(frozen=True)
class GameResult:
    """One finished game: who sat where, the scores and the ranking (seats best first)."""

    seed: int
    bots: tuple[str, ...]  # bot spec per seat
    scores: tuple[int, ...]
    ranking: tuple[int, ...]
    decisions: int

    def rank_of(self, seat: int) -> int:
        """1 for the winner."""
        return self.ranking.index(seat) + 1

    def fields(self) -> dict[str, Any]:
        """The game's fields in a results line (``floe.lab.results``); ``result_of`` reads them back."""
        return {
            "seed": self.seed,
            "seats": list(self.bots),
            "scores": list(self.scores),
            "ranking": list(self.ranking),
            "decisions": self.decisions,
        }


def result_of(line: Mapping[str, Any]) -> GameResult:
    """The ``GameResult`` of a results line; ``KeyError``, ``TypeError`` or ``ValueError`` if malformed."""
    return GameResult(
        seed=int(line["seed"]),
        bots=tuple(str(spec) for spec in line["seats"]),
        scores=tuple(int(s) for s in line["scores"]),
        ranking=tuple(int(s) for s in line["ranking"]),
        decisions=int(line["decisions"]),
    )


def fill_seats(specs: Sequence[str], players: int) -> list[str]:
    """One bot per seat from fewer specs, the rule of every lab command (simulate, tournament, balance,
    ``floe bench lab``): the specs as given, the seats left over filled with copies of the last one.

    So ``ismcts,baseline`` for 4 players is one ismcts against three baselines: the first bots named are
    the ones studied, the last is the field they are measured against (the rotations then seat every bot
    at every seat). ``OptionError`` if there are no specs or more specs than seats.
    """
    if not specs:
        raise OptionError("name at least one bot")
    if len(specs) > players:
        raise OptionError(f"{len(specs)} bots for {players} seats; name at most {players}")
    return [*specs, *[specs[-1]] * (players - len(specs))]


def rotated(seats: Sequence[str], shift: int) -> list[str]:
    """The lineup moved ``shift`` seats on (the bot listed j-th sits at seat (j + shift) mod N), so every
    bot plays every seat in turn."""
    n = len(seats)
    return [seats[(i - shift) % n] for i in range(n)]


def make_bots(game: Game, specs: Sequence[str], seed: int) -> list[Bot]:
    """One bot per seat from the spec strings; ``OptionError`` if the count does not match the seats."""
    if len(specs) != game.players:
        raise OptionError(f"{len(specs)} bots for {game.players} seats")
    return [make_bot(spec, game, seat, seed * 7919 + seat) for seat, spec in enumerate(specs)]


# Told of each decision before it is applied: the state, the seat, its legal actions, its bot and the action
# the bot chose (``floe train --imitate`` records the bots' decisions through it).
Watcher = Callable[[State, int, list[int], Bot, int], None]


def play_game(
    game: Game, specs: Sequence[str], seed: int, watch: Watcher | None = None
) -> tuple[GameResult, State]:
    """Play one game of bots from ``seed``; each bot sees only its own seat's observation. ``watch``, if
    given, is told of every decision before it is applied."""
    bots = make_bots(game, specs, seed)
    match = Match(game, seed)
    decisions = 0
    state = match.state
    while not state.is_terminal():
        seat = state.current_player()
        legal = state.legal_actions()
        action = bots[seat].choose(state.observation(seat), legal)
        if watch is not None:
            watch(state, seat, legal, bots[seat], action)
        match.apply(action)
        decisions += 1
    result = GameResult(
        seed=seed,
        bots=tuple(specs),
        scores=tuple(state.scores()),
        ranking=tuple(state.ranking()),
        decisions=decisions,
    )
    return result, state

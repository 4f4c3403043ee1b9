"""A conformance kit for Floe games: ``check_game`` plays seeded random games and checks the contract.

A game author runs it from the game's test suite, once per player count and option mix::

    import pytest
    from floe.testing import check_game

    @pytest.mark.parametrize("players", [2, 3, 4])
    def test_conformance(players: int) -> None:
        report = check_game("mygame", players, games=20, invariants=my_invariants)
        assert report.finished == 20

or over every installed game (``parametrize_games`` needs pytest; ``cases`` gives plain tuples)::

    from floe.testing import check_game, parametrize_games

    @parametrize_games()
    def test_every_game(game: str, players: int) -> None:
        check_game(game, players, games=3)

After every action it checks the seat to act, the legal actions (sorted, unique, in range, agreeing with
``is_legal``), chance outcomes (probabilities summing to 1), the notation of every action id that becomes
legal (``string_to_action`` and ``parse_legal`` give it back), the history, and the game's own
``invariants``. At sampled positions it also checks refused actions (an illegal ``apply`` raises and
changes nothing), clones, JSON and pickle copies that must play on in step with the game, records that
must replay to the same state, every seat's observation vector, dict (plain JSON) and rendering, the
spectator's view, and what each seat may know (``floe.testing.information``). At the end: scores,
ranking, returns within the spec's utilities, the game's length. A failure is a ``ConformanceError``
(an ``AssertionError``) naming the seed, the action number and the check, and how to replay that game.

Nothing here names a game: the kit reaches the game through the registry (``floe.core.registry``).
"""

from __future__ import annotations

from floe.testing.cases import cases, parametrize_games
from floe.testing.context import ConformanceError
from floe.testing.kit import KitReport, Options, Policy, Watch, WatchFactory, check_game
from floe.testing.reach import advance, midgame

__all__ = [
    "ConformanceError",
    "KitReport",
    "Options",
    "Policy",
    "Watch",
    "WatchFactory",
    "advance",
    "cases",
    "check_game",
    "midgame",
    "parametrize_games",
]

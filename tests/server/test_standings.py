"""The standings (``GamePresenter.standings``): the points the engine counts now, which the web table sends in
every view and replay frame so that no board computes the rules again. At the end of a game they are the
final scoring; mid-game Arche's are the majorities of the figures, Arktia's the points so far."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from floe.core import present
from floe.core.game import State
from floe.core.match import Match
from floe.core.registry import entries, make_game
from floe.games.arche.cards import CATEGORIES, N_SCORING
from floe.games.arche.game import ArcheState
from floe.games.arche.scoring import majority_points, strength
from floe.games.arktia.game import ArktiaState
from floe.server.store import TableRow
from floe.server.tables import Seat, Table


def arche_final(state: State, standings: dict[str, Any]) -> None:
    """Each scoring card's points and figures are the final breakdown's."""
    for q, b in enumerate(state.score_breakdowns()):
        for cat, part in b["cards"].items():
            row = standings["cards"][cat][q]
            assert (row["figures"], row["points"]) == (part["figures"], part["points"]), (cat, q)


def arktia_final(state: State, standings: dict[str, Any]) -> None:
    """Each seat's points are its final breakdown."""
    assert standings["seats"] == state.score_breakdowns()


# Every game with standings, and how its final standings match its final scoring.
FINAL: dict[str, Callable[[State, dict[str, Any]], None]] = {"arche": arche_final, "arktia": arktia_final}
SEEDS = (1, 2)


def standings(game: str, state: State) -> dict[str, Any] | None:
    """What the web table sends as the standings of ``state``."""
    return present.standings(present.presenter_for(game), state)


def play(game: str, players: int, seed: int, options: dict[str, Any] | None = None) -> list[State]:
    """A seeded game of uniform choices: the positions after each decision (the last one final)."""
    match = Match.new(game, players=players, options=options or {}, seed=seed)
    rng = random.Random(seed)
    positions = []
    while not match.is_over():
        match.apply(rng.choice(match.legal_actions()))
        positions.append(match.state.clone())
    return positions


def test_every_game_with_standings_has_its_final_check_here() -> None:
    with_standings = {
        found.name
        for found in entries()
        if standings(found.name, make_game(found.name, found.min_players).new_initial_state()) is not None
    }
    assert with_standings == set(FINAL), "a new game with standings: add its final check to FINAL"


@pytest.mark.parametrize("game", sorted(FINAL))
@pytest.mark.parametrize("seed", SEEDS)
def test_the_standings_at_the_end_are_the_final_scoring(game: str, seed: int) -> None:
    found = next(e for e in entries() if e.name == game)
    players = found.min_players + seed % (found.max_players - found.min_players + 1)
    final = play(game, players, seed)[-1]
    assert final.is_terminal()
    found_standings = standings(game, final)
    assert found_standings is not None
    FINAL[game](final, found_standings)


@pytest.mark.parametrize("mode", ["exact", "halves"])
def test_arche_standings_mid_game_are_the_majorities_of_the_figures(mode: str) -> None:
    positions = play("arche", 4, seed=3, options={"tie_points": mode})
    for state in positions[:: max(1, len(positions) // 12)]:
        assert isinstance(state, ArcheState)
        cards = standings("arche", state)["cards"]  # type: ignore[index]
        for k, cat in enumerate(CATEGORIES[:N_SCORING]):
            at = [N_SCORING * q + k for q in range(4)]
            strengths = [strength(state.figures[i], state.halves[i]) for i in at]
            assert [row["figures"] for row in cards[cat]] == strengths
            assert [row["points"] for row in cards[cat]] == majority_points(strengths, mode)
            for row in cards[cat]:
                if row["place"] is None:
                    assert row["figures"] == 0 and row["paid"] == []
                else:
                    first, last = row["place"]
                    assert len(row["paid"]) == last - first + 1
                    # Unrounded, a shared place's points are the mean of its places' values.
                    if mode == "exact":
                        assert row["points"] == pytest.approx(sum(row["paid"]) / len(row["paid"]))


def test_arche_standings_share_places_exactly_as_the_rules_say() -> None:
    """Three seats tied second share (6+2+2)/3 each, exactly or rounded to halves."""
    heavy = CATEGORIES.index("heavy")
    for mode, shared in (("exact", 10 / 3), ("halves", 3.5)):
        state = make_game("arche", 4, {"tie_points": mode}).new_initial_state()
        assert isinstance(state, ArcheState)
        for q, n in enumerate([3, 1, 1, 1]):
            state.figures[N_SCORING * q + heavy] = n
        rows = standings("arche", state)["cards"]["heavy"]  # type: ignore[index]
        assert [r["place"] for r in rows] == [[1, 1], [2, 4], [2, 4], [2, 4]]
        assert [r["paid"] for r in rows] == [[10], [6, 2, 2], [6, 2, 2], [6, 2, 2]]
        assert [r["points"] for r in rows] == [10, shared, shared, shared]


def test_arktia_standings_mid_game_are_the_points_so_far() -> None:
    for state in play("arktia", 3, seed=4)[::7]:
        assert isinstance(state, ArktiaState)
        seats = standings("arktia", state)["seats"]  # type: ignore[index]
        assert seats == [b.to_dict() for b in state.breakdowns()]
        assert all(s["total"] == s["captured"] + s["controlled"] + s["melted"] for s in seats)


def arktia_table() -> Table:
    row = TableRow(
        id="t1", game="arktia", players=2, options={}, seed=5, created=1.5, public=True, turn_timer=None,
        seats=[Seat("bot", "A", bot="random").stored(), Seat("bot", "B", bot="random").stored()], actions=[],
    )  # fmt: skip
    return Table.from_row(row)


def test_the_table_sends_the_standings_in_every_view_and_replay_frame() -> None:
    table = arktia_table()
    for _ in range(6):
        table.commit(table.after(table.state.legal_actions()[-1]))
    expected = standings("arktia", table.state)
    for viewer in (None, 0, 1):
        view = table.state_message(viewer, 0)["view"]
        assert view["standings"] == expected
        assert {k: v for k, v in view.items() if k != "standings"} == table.state.observation_dict(viewer)
    frames = table.replay_frames(0, reveal=False)
    assert frames[-1]["view"]["standings"] == expected
    assert all("standings" in frame["view"] for frame in frames)
    first = make_game("arktia", 2).new_initial_state()
    assert frames[0]["view"]["standings"] == standings("arktia", first)


def test_a_view_with_its_own_standings_key_is_refused() -> None:
    assert present.with_standings({"a": 1}, None) == {"a": 1}
    with pytest.raises(ValueError, match="standings"):
        present.with_standings({"standings": 1}, {"b": 2})

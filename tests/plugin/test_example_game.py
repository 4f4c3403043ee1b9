"""A game published as its own pip package (``examples/goofspiel``) is played through every interface of
Floe — the command line (play, simulate, tournament, games, options), the web table's API and the
learning adapters — with no Floe file naming it."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

from floe.bots.registry import bot_names
from floe.core import registry
from floe.core.match import Match
from server.serverproc import running_server

SRC = Path(__file__).resolve().parents[2] / "src"


def floe(*args: str, stdin: str = "", timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``python -m floe ARGS`` in a child process (which finds the game through its entry point)."""
    return subprocess.run(
        [sys.executable, "-m", "floe", *args], input=stdin, capture_output=True, text=True, timeout=timeout
    )


def test_no_floe_file_names_the_game() -> None:
    hits = [
        p for p in SRC.rglob("*") if p.is_file() and "goofspiel" in p.read_bytes().decode(errors="ignore")
    ]
    assert hits == []


def test_the_registry_finds_it_through_its_entry_point(goofspiel: Path) -> None:
    entry = registry.entry("goofspiel")
    assert entry.title == "Goofspiel" and (entry.min_players, entry.max_players) == (2, 4)
    assert registry.game_names()[:2] == ["arctic", "arktia"]  # Floe's own games still come first
    # The generic bots serve it; mcts does not (imperfect information).
    assert bot_names("goofspiel") == ["ismcts", "random"]
    listed = json.loads(floe("games", "--json").stdout)
    assert "goofspiel" in [g["name"] for g in listed]
    options = floe("options", "goofspiel", "--markdown").stdout
    assert "| `cards` | 2–13 | `5` |" in options and "`discard`, `carry`" in options


def test_floe_play_a_whole_game_in_the_terminal(goofspiel: Path) -> None:
    done = floe("play", "goofspiel", "--players", "3", "--seed", "4", "--bots", "random", stdin="1\n" * 40)
    assert done.returncode == 0, done.stderr
    assert "Final scores" in done.stdout and "Ranking: 1st" in done.stdout
    assert "P2: bid ?" in done.stdout  # the others' bids are secret in the log
    bad = floe("play", "goofspiel", "--players", "5")
    assert bad.returncode == 2 and "Goofspiel is for 2 to 4 players" in bad.stderr
    bad = floe("play", "goofspiel", "--option", "cards=99")
    assert bad.returncode == 2 and "cards must be between 2 and 13" in bad.stderr


def test_floe_simulate_and_tournament(goofspiel: Path, tmp_path: Path) -> None:
    sim = floe("simulate", "goofspiel", "--players", "3", "--games", "12", "--bots", "random", "--json")
    assert sim.returncode == 0, sim.stderr
    (row,) = json.loads(sim.stdout)
    assert row["seat_games"] == 36 and row["seat_games_won"] == 12
    out = tmp_path / "t.jsonl"
    args = ["--players", "2", "--bots", "ismcts:it=150,random", "--games", "40", "--seed", "1"]
    done = floe("tournament", "goofspiel", *args, "--option", "cards=5", "--json", "--out", str(out))
    assert done.returncode == 0, done.stderr
    rows = {r["bot"]: r for r in json.loads(done.stdout)}
    assert rows["ismcts:it=150"]["seat_games"] == rows["random"]["seat_games"] == 40
    # Search should beat random play at a game of bluffing bids (a real check on the whole path).
    assert rows["ismcts:it=150"]["seat_games_won"] > rows["random"]["seat_games_won"]


def test_a_web_table_over_the_api(goofspiel: Path, tmp_path: Path) -> None:
    with running_server(tmp_path / "data") as server:
        games = {g["name"]: g for g in server.get("/api/games").json()}
        assert games["goofspiel"]["options"][0]["name"] == "cards"
        created = server.create(
            [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "random"}],
            game="goofspiel",
            options={"cards": 4},
        )
        table, token = created["table"]["id"], created["seats"][0]["token"]
        rng = random.Random(0)
        for _ in range(400):
            state = server.get(f"/api/tables/{table}/state", token=token).json()
            if state["status"] == "finished":
                break
            if not state["legal"]:
                continue
            choice = rng.choice(state["legal"])
            answer = server.post(
                f"/api/tables/{table}/moves", {"action": choice["id"], "version": state["version"]}, token
            )
            assert answer.status_code == 200, answer.text
        assert state["status"] == "finished" and len(state["result"]["scores"]) == 2
        lines = [line["text"] for line in state["log"]]
        assert any(line.startswith("Chance: prize") for line in lines)
        assert "P2: bid ?" in lines and any(line.startswith("You: bid ") for line in lines)
        bad = server.post(
            "/api/tables", {"game": "goofspiel", "seats": [{"kind": "person"}] * 2, "options": {"ties": "x"}}
        )
        assert bad.status_code == 400 and "ties must be one of discard, carry" in bad.text


def test_the_api_plays_it_with_chance_resolved(goofspiel: Path) -> None:
    match = Match.new("goofspiel", players=3, seed=5, options={"ties": "carry"})
    rng = random.Random(1)
    while not match.is_over():
        match.apply(rng.choice(match.legal_actions()))
    assert sum(match.state.scores()) <= 15 and match.record().replay().scores() == match.state.scores()


def test_the_three_learning_adapters_pass_their_suites(goofspiel: Path) -> None:
    import warnings

    import gymnasium
    import pyspiel
    from gymnasium.utils.env_checker import check_env
    from pettingzoo.test import api_test, seed_test

    import floe.rl
    import floe.rl.openspiel

    api_test(floe.rl.env("goofspiel", players=3), num_cycles=500)
    seed_test(lambda: floe.rl.raw_env("goofspiel", players=2), num_cycles=200)
    assert "floe/Goofspiel-v0" in floe.rl.register_envs()
    env = gymnasium.make("floe/Goofspiel-v0", players=2, opponents=["random"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # check_env warns about anything doubtful: none is allowed
        check_env(env.unwrapped)
    assert "python_floe_goofspiel" in floe.rl.openspiel.register_games()
    game = pyspiel.load_game("python_floe_goofspiel", {"players": 3, "cards": 4})
    assert game.num_distinct_actions() == 4 and game.max_chance_outcomes() == 4
    pyspiel.random_sim_test(game, num_sims=20, serialize=True, verbose=False)


def test_it_passes_the_conformance_kit(goofspiel: Path) -> None:
    from floe.testing import check_game

    # The round's last bid shows every bid: the entry names that hook (reveals), which the kit uses.
    report = check_game("goofspiel", games=8, seed=3, options=[{}, {"cards": 7, "ties": "carry"}], sample=0.3)
    assert report.finished == report.games == 24  # 2, 3 and 4 players
    assert report.information_checks > 0


def test_python_m_floe_testing_runs_it_with_the_entrys_reveals(goofspiel: Path) -> None:
    """The command line takes no hook: the entry's ``reveals`` is what lets a game with a reveal pass."""
    args = ["--players", "3", "--games", "6", "--seed", "3", "--information", "0.5", "-o", "cards=4"]
    done = subprocess.run(
        [sys.executable, "-m", "floe.testing", "goofspiel", *args],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "goofspiel (3 players): 6 games (6 to the end)" in done.stdout


def test_a_spectator_leak_planted_in_it_fails_the_kit(goofspiel: Path) -> None:
    """The outside author's case: the example game with the round's secret bids shown to spectators (every
    seat's view right) fails ``check_game`` at the command line's settings, naming the spectator check."""
    import dataclasses

    import pytest
    from leaky_goofspiel import ENTRY, LeakyGame  # importable once the example game is

    from floe.testing import ConformanceError, check_game

    registry.register(dataclasses.replace(ENTRY, game=LeakyGame))
    try:
        with pytest.raises(ConformanceError) as caught:
            check_game(LeakyGame.name, games=20)  # python -m floe.testing's default
        assert "seen by a spectator" in str(caught.value) and "bids" in str(caught.value)
        check_game("goofspiel", games=20)  # the game itself passes the same run
    finally:
        registry._ENTRIES.pop(LeakyGame.name, None)

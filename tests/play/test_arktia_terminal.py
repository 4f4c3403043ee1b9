"""Arktia in the terminal: the hex board puts every piece at its cell, a scripted person plays whole games
(bad input gets a message and the prompt again), and ``floe replay`` prints an Arktia record's final board
and scores."""

from __future__ import annotations

import dataclasses
import io
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from floe.cli import app
from floe.core import present, registry
from floe.core.match import Match
from floe.core.record import Record
from floe.games.arktia import terminal as arktia_render
from floe.games.arktia.game import ArktiaState
from floe.games.arktia.state import TURN
from floe.games.arktia.terminal import HALF, board_text, draw_table
from floe.games.arktia.towers import DISKUS, GLOBUS, HOLE, TORUS, make_code
from floe.play.terminal import GameQuit, _Session, run_terminal_game
from floe.play.views import print_final

from .helpers import output_of, recording_console, scripted

GOLDEN = sorted((Path(__file__).parent.parent / "golden" / "arktia").glob("*.json"))
CELL = re.compile(r"^([a-z])(\d+)$")

# A hand-built 2-player position (no neutrals), P1 to move, past the opening. Expected tokens by field.
POSITION: dict[str, tuple[int, str]] = {
    "b3": (make_code({TORUS: 1, DISKUS: 0, GLOBUS: 1}), "T2D1G2"),  # tower D
    "c2": (make_code({GLOBUS: 0, TORUS: 1}), "G1T2"),  # tower C: a Globus inside a Torus
    "d2": (make_code({GLOBUS: 0}), "G1"),
    "c3": (make_code({DISKUS: 0, GLOBUS: 0}), "D1G1"),  # tower A
    "d3": (make_code({TORUS: 0}), "T1"),
    "c4": (make_code({TORUS: 1, DISKUS: 1}), "T2D2"),  # tower B
    "b4": (make_code({GLOBUS: 1}), "G2"),
    "a2": (HOLE, "~~"),
    "e1": (HOLE, "~~"),
}


def _position() -> Match:
    """A match whose state is ``POSITION`` (supplies make every colour's count 9)."""
    match = Match.new("arktia", players=2, options={"neutrals": False}, seed=5)
    state = match.state
    assert isinstance(state, ArktiaState)
    data = state.to_json()
    names = state.space.layout.names
    data["fields"] = [POSITION[name][0] if name in POSITION else 0 for name in names]
    data["supply"] = [0, 1, 2, 1, 2, 0]  # P1 has G3 D2 T1 on the board, P2 G2 D1 T3
    data["melted"] = [1, 1]
    data["step"], data["player"], data["turn"], data["turns"] = TURN, 0, 10, [5, 5]
    match.state = match.game.state_from_json(data)
    return match


def _board_cells(text: str) -> dict[str, str]:
    """Field name -> token, read back from a drawn board by each token's position.

    The column letters on the line above row 1 calibrate the columns: the letter of column ``q`` stands
    where its diagonal crosses that line (``2q - 1``), and a token centred at character ``c`` on the line of
    row ``r`` stands at ``2q + r = (c - origin) / HALF``. A column letter never stands inside a row.
    """
    rows: dict[int, list[tuple[float, str]]] = {}
    above: list[tuple[float, str]] = []
    previous: list[tuple[float, str]] = []
    for line in text.splitlines():
        body = line.split("│")[1] if "│" in line else line
        words = body.split()
        tokens = [(m.start() + len(m.group()) / 2, m.group()) for m in re.finditer(r"\S+", body)]
        if len(words) < 3 or not words[0].isdigit() or words[0] != words[-1]:
            previous = tokens
            continue  # a board row starts and ends with its number
        if not rows:
            above = previous
        rows[int(words[0]) - 1] = tokens[1:-1]
        assert all(len(token) > 1 for _, token in tokens[1:-1]), f"a column letter inside row {words[0]}"
    letters = [(centre, token) for centre, token in above if len(token) == 1 and token.isalpha()]
    assert letters, "no column letters above the board"
    centre, letter = letters[0]
    origin = centre - HALF * (2 * (ord(letter) - ord("a")) - 1)
    cells = {}
    for r, tokens in rows.items():
        for centre, token in tokens:
            x = round((centre - origin) / HALF)
            cells[f"{chr(ord('a') + (x - r) // 2)}{r + 1}"] = token
    return cells


def _expected_cells(state: Any) -> dict[str, str]:
    raw = state.observation(None).raw
    names = state.observation(None).names
    return {
        name: arktia_render.field_text(name, code).plain
        for name, code in zip(names, raw["fields"], strict=True)
    }


# --- the board ----------------------------------------------------------------------------------------------


def test_board_shows_every_piece_at_its_cell() -> None:
    match = _position()
    console = Console(record=True, width=100, file=io.StringIO())
    draw_table(console, match.state, 0)
    text = console.export_text()
    cells = _board_cells(text)
    names = match.state.observation(0).names
    assert set(cells) == set(names)
    for name in names:
        expected = POSITION[name][1] if name in POSITION else name
        assert cells[name] == expected, name
    # Column letters stand above and below the board (never inside a row: _board_cells checks), row numbers
    # at both sides.
    assert re.search(r"^│\s+a\s+b\s+c\s+d\s+e\s+│$", text, re.MULTILINE)
    assert re.search(r"^│\s+a\s+b\s+c\s+d\s+│$", text, re.MULTILINE)
    for r in range(1, 5):
        assert re.search(rf"│ {r} .* {r}\s+│", text)
    # Counters and what is being decided.
    assert "Turn 11 · P1 (you) to play" in text
    assert "Now: place a Muglu, move a piece or tower in a straight line, or stop" in text
    p1 = next(line for line in text.splitlines() if "P1 (you)" in line and "◀" in line)
    # supply G D T, on board, captured, melted, controlled fields, points
    assert re.search(r"0 1 2\s+6\s+0\s+1\s+3\s+4\s+active", p1)


def test_every_layout_fits_80_columns() -> None:
    for players in (2, 3, 4):
        match = Match.new("arktia", players=players, seed=1)
        console = Console(record=True, width=80, file=io.StringIO())
        draw_table(console, match.state, 0, ["P1 (you)", *(f"P{q + 1} (mcts:ms=500)" for q in range(1, 4))])
        text = console.export_text()
        assert max(len(line) for line in text.splitlines()) <= 80
        assert "…" not in text  # nothing cut short
        assert set(_board_cells(text)) == set(match.state.observation(0).names)


def test_board_of_a_custom_layout_with_a_gap() -> None:
    ring = "c1 d1 e1 b2 c2 d2 e2 a3 b3 d3 e3 a4 b4 c4 d4 a5 b5 c5"
    match = Match.new("arktia", players=2, options={"layout": ring}, seed=1)
    text = board_text(match.state.observation(0)).plain
    cells = _board_cells(text)
    assert set(cells) == set(ring.split())  # the gap at c3 stays blank
    assert "c3" not in text


# --- whole games --------------------------------------------------------------------------------------------


BAD_INPUTS = [
    ("z9", "Cannot read 'z9' as an Arktia action."),
    ("g@z9", "No field 'z9' on this board."),
    ("0", "There is no choice 0."),
    ("999", "There is no choice 999."),
    ("", "Nothing typed."),
    ("g c3-e9", "No field 'e9' on this board."),
    ("c3-e3", "No legal move goes c3-e3."),
    ("c3-d4", "c3 and d4 are not on one straight line."),
    ("melt c3", "Melt c3 is not legal now."),
]


def _then_last_choice(answers: list[str]) -> Callable[[str], str]:
    """``answers`` in order, then always the last choice: ``stop`` once it is legal (a short game)."""
    queue = list(answers)

    def answer(prompt: str) -> str:
        if queue:
            return queue.pop(0)
        if prompt.endswith("(yes/no): "):
            return "yes"  # stop asks first
        found = re.search(r"\(1-(\d+)", prompt)
        assert found, prompt
        return found.group(1)

    return answer


def test_whole_game_with_bad_inputs_numbers_and_notation(tmp_path: Path) -> None:
    console = recording_console()
    save = tmp_path / "arktia.json"
    answers = [text for text, _ in BAD_INPUTS] + [
        "help",
        "table",
        "neutral g@c3",  # notation
        "neutral g@c2",  # P1 has placed its neutral Globus: not legal now
        "2",  # a number
    ]
    state = run_terminal_game(
        "arktia",
        players=2,
        seat=0,
        bots="random",
        seed=12,
        options={},
        save=save,
        console=console,
        input_fn=_then_last_choice(answers),
    )
    out = output_of(console)
    assert state.is_terminal()
    assert "Traceback" not in out
    for _, message in BAD_INPUTS:
        assert message in out, message
    assert "Neutral g@c2 is not legal now." in out
    assert out.count("Type a number from 1 to") == len(BAD_INPUTS) + 1
    assert "How to answer" in out and "The board" in out
    history = [state.action_to_string(a) for a in state.history]
    assert history[0] == "neutral g@c3"
    # The log tells every seat's actions (perfect information); the end shows the board and the scores.
    assert "  P2 places a neutral" in out and "  P1 places a neutral Globus on c3." in out
    assert "Turn 1 · P2 (Random)" in out  # the bot's name for people, not its spec
    assert "Game over after" in out and "Final scores" in out and "Ranking: 1st" in out
    assert Record.load(save).replay().scores() == state.scores()


def test_ambiguous_bare_move_gets_the_choices_and_the_prompt_again() -> None:
    match = _position()
    console = recording_console()
    session = _Session(match, 0, {}, ["P1 (you)", "P2"], console, scripted(["c3-e3", "dg c3-e3"], then=None))
    action = session.ask()
    out = output_of(console)
    assert match.state.action_to_string(action) == "dg c3-e3"
    assert "'c3-e3' could be g c3-e3, dg c3-e3. Type a number from 1 to" in out
    # Many choices are listed compactly, stop last.
    legal = match.state.legal_actions()
    assert f"{len(legal)}. stop" in out and not re.search(r"(?<!\d)1\. stop", out)


def test_one_described_line_per_choice_when_there_are_few() -> None:
    match = Match.new("arktia", players=2, seed=3)
    for text in ("neutral g@c3", "neutral d@c2", "neutral t@c1", "neutral g@c4"):
        match.apply(match.state.parse_legal(text))
    console = recording_console()
    session = _Session(match, 0, {}, ["P1 (you)", "P2"], console, scripted(["1"]))
    session.ask()
    out = output_of(console)
    assert "1. Place a neutral Diskus on" in out and "[neutral d@" in out


def test_quit_and_end_of_input_leave_cleanly() -> None:
    for answers, then, words in ((["quit"], "1", "You left the game"), ([], None, "Input ended")):
        console = recording_console()
        with pytest.raises(GameQuit) as info:
            run_terminal_game(
                "arktia",
                players=3,
                seat=1,
                bots="random",
                seed=2,
                options={},
                save=None,
                console=console,
                input_fn=scripted(answers, then=then),
            )
        assert info.value.exit_code == 0
        assert words in output_of(console)


def test_hint_uses_the_games_preferred_bot(monkeypatch: pytest.MonkeyPatch) -> None:
    game_entry = registry.entry("arktia")
    assert game_entry.default_bot == "mcts"
    for hint_bots, title in (
        (("mcts:it=40",), "mcts hint (40 iterations)"),
        (("mcts:nosuch=1", "ismcts:it=30"), "ismcts hint (30 iterations)"),
    ):
        monkeypatch.setitem(registry._ENTRIES, "arktia", dataclasses.replace(game_entry, hint_bots=hint_bots))
        console = recording_console()
        with pytest.raises(GameQuit):
            run_terminal_game(
                "arktia",
                players=2,
                seat=0,
                bots="random",
                seed=4,
                options={},
                save=None,
                console=console,
                input_fn=scripted(["hint", "quit"]),
            )
        out = output_of(console)
        assert title in out
        assert re.search(r"◀ \w+ +│ +\d+% │", out)


def test_log_tells_captures_and_the_end_of_a_seats_game() -> None:
    record = Record.load(GOLDEN[0])
    match = Match.new(record.game, players=record.players, options=record.options, seed=record.seed)
    presenter = present.presenter_for("arktia")
    lines = []
    for text in record.actions:
        action = match.state.parse_legal(text)
        lines.append(present.log_line(presenter, match.state, action, 0))
        match.apply(action)
    assert any(re.search(r"\d Muglus? \(neutral\) on .* cut off", line or "") for line in lines)
    assert any(re.search(r"P\d takes \d+ Muglus?\.", line or "") for line in lines)
    assert any("cannot melt a field: their game ends" in (line or "") for line in lines)
    assert all(line and (line.startswith("P1 ") or line.startswith("P2 ")) for line in lines)


# --- the command line ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_replay_prints_the_final_board_and_scores(path: Path) -> None:
    result = CliRunner().invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    out = result.stdout
    record = Record.load(path)
    state = record.replay()
    assert f"arktia · {record.players} players · seed {record.seed}" in out
    assert "Game over after" in out and "Final scores" in out and "Ranking: 1st" in out
    assert _board_cells(out) == _expected_cells(state)
    for total in state.scores():
        assert str(total) in out
    data = json.loads(path.read_text())
    if len(set(data["result"]["scores"])) == 1:
        assert "1st= P1" in out and "1st= P2" in out  # a shared win


def test_replay_as_a_seat_and_print_final_without_a_record() -> None:
    result = CliRunner().invoke(app, ["replay", str(GOLDEN[0]), "--seat", "2"])
    assert result.exit_code == 0 and "P2 (you)" in result.stdout
    state = Record.load(GOLDEN[0]).replay()
    console = recording_console()
    print_final(state, None, None, console, game="arktia")
    assert "Final scores" in output_of(console)


def test_play_command_runs_an_arktia_game(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    result = CliRunner().invoke(
        app,
        ["play", "arktia", "--players", "2", "--bots", "random", "--seed", "8", "--save", str(save)],
        input="garbage\n" + "1\nyes\n" * 3000,  # "yes" confirms a stop (else it is one more bad answer)
    )
    assert result.exit_code == 0, result.output
    assert "Cannot read 'garbage' as an Arktia action." in result.output
    assert "Final scores" in result.output
    assert json.loads(save.read_text())["game"] == "arktia"
    result = CliRunner().invoke(app, ["play", "arktia", "--players", "2", "--bots", "baseline"])
    assert result.exit_code == 2 and "unknown bot 'baseline' for arktia" in result.output


def test_stop_asks_first_as_the_web_table_does() -> None:
    """``stop`` ends the person's game: the terminal asks its question; "no" plays nothing and shows the
    choices again, "yes" plays it."""
    match = _position()
    console = recording_console()
    answers = scripted(["stop", "no", "stop", "yes"], then=None)
    session = _Session(match, 0, {}, ["P1 (you)", "P2"], console, answers)
    action = session.ask()
    out = output_of(console)
    assert match.state.action_to_string(action) == "stop"
    assert "Stop and end your game here?" not in out  # the question is the prompt, not a printed line
    assert out.count("1.") >= 2, "after 'no' the choices are listed again"


def test_stop_question_is_the_prompt() -> None:
    match = _position()
    prompts: list[str] = []

    def answer(prompt: str) -> str:
        prompts.append(prompt)
        return ["stop", "y"][len(prompts) - 1]

    _Session(match, 0, {}, ["P1 (you)", "P2"], recording_console(), answer).ask()
    assert prompts[1].startswith("Stop and end your game here?") and prompts[1].endswith("(yes/no): ")

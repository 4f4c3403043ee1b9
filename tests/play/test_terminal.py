"""The terminal game: a scripted person plays whole games against random bots; bad input never breaks it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from floe.cli import app
from floe.core.errors import OptionError
from floe.core.record import Record
from floe.play.terminal import GameQuit, parse_bot_specs, run_terminal_game

from .helpers import output_of, recording_console, scripted

BAD_INPUTS = [
    "garbage",
    "0",
    "999",
    "",
    "   ",
    "-3",
    "main right",  # a real action, not legal while placing
    "place",  # the start of several legal actions
    "place zebra-fox-1",
    "help",
    "table",
]


def test_whole_game_with_bad_inputs_mixed_in(tmp_path: Path) -> None:
    console = recording_console()
    save = tmp_path / "game.json"
    state = run_terminal_game(
        "arctic",
        players=2,
        seat=0,
        bots="random",
        seed=11,
        options={},
        save=save,
        console=console,
        input_fn=scripted(BAD_INPUTS),
    )
    out = output_of(console)
    assert state.is_terminal()
    assert "Traceback" not in out
    for message in (
        "Cannot read 'garbage' as an Arctic action",
        "There is no choice 0.",
        "There is no choice 999.",
        "Nothing typed.",
        "is not legal now",
        "could be place",
        "How to answer",
    ):
        assert message in out, message
    assert out.count("Type a number from 1 to") >= 9
    # The seed comes first so the deal can be replayed; the end shows scores and ranking.
    assert out.index("seed 11") < out.index("Landscape")
    assert "Final scores" in out and "Ranking: 1st" in out
    for animal in ("fox", "moose", "walrus", "orca", "puffin", "bear"):
        assert f"{animal} points (run)" in out
    # The saved record replays to the same result.
    record = Record.load(save)
    assert record.replay().scores() == state.scores()
    assert record.seed == 11


def test_same_seed_and_answers_give_the_same_game() -> None:
    def play() -> list[int]:
        return run_terminal_game(
            "arctic",
            players=3,
            seat=1,
            bots="random",
            seed=4,
            options={},
            save=None,
            console=recording_console(),
            input_fn=scripted([]),
        ).history

    assert play() == play()


def test_answers_by_notation_prefix_and_card_alone() -> None:
    console = recording_console()
    asked = 0
    last_choice = ""

    def answer(prompt: str) -> str:
        # Answer with the notation of the last listed choice: cut short, or the card alone; after a
        # refusal (the short form fitted several choices), with the full notation.
        nonlocal asked, last_choice
        asked += 1
        out = output_of(console)
        if "Type a number from 1 to" in out.rstrip().splitlines()[-1]:
            return last_choice
        last_choice = str(re.findall(r"\[([^\]]+)\]", out)[-1])
        if asked % 2:
            return last_choice[:-1]
        return last_choice.partition(" ")[2] or last_choice

    state = run_terminal_game(
        "arctic",
        players=2,
        seat=1,
        bots="random",
        seed=2,
        options={},
        save=None,
        console=console,
        input_fn=answer,
    )
    out = output_of(console)
    assert state.is_terminal()
    assert "Traceback" not in out
    # Most short answers were understood at once.
    assert out.count("Type a number from 1 to") < asked / 2


def test_quit_leaves_cleanly_and_saves_the_game_so_far(tmp_path: Path) -> None:
    console = recording_console()
    save = tmp_path / "partial.json"
    with pytest.raises(GameQuit) as info:
        run_terminal_game(
            "arctic",
            players=3,
            seat=2,
            bots="random",
            seed=9,
            options={},
            save=save,
            console=console,
            input_fn=scripted(["1", "quit"]),
        )
    assert info.value.exit_code == 0
    out = output_of(console)
    assert "You left the game" in out and "--seed 9" in out
    state = Record.load(save).replay()
    assert not state.is_terminal()


def test_end_of_input_quits_cleanly() -> None:
    console = recording_console()
    with pytest.raises(GameQuit) as info:
        run_terminal_game(
            "arctic",
            players=2,
            seat=0,
            bots="random",
            seed=1,
            options={},
            save=None,
            console=console,
            input_fn=scripted(["garbage"], then=None),
        )
    assert info.value.exit_code == 0
    assert "Input ended" in output_of(console)


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"players": 2, "seat": 2, "bots": "random"}, "seat 3 does not exist"),
        ({"players": 3, "seat": -1, "bots": "random"}, "seat 0 does not exist"),
        ({"players": 2, "seat": 0, "bots": "random,random"}, "2 bots given for 1 other seat"),
        ({"players": 3, "seat": 0, "bots": "random,random,random"}, "3 bots given for 2 other seats"),
        ({"players": 3, "seat": 0, "bots": "random,,random"}, "empty bot name"),
        ({"players": 2, "seat": 0, "bots": "nosuchbot"}, "unknown bot 'nosuchbot'"),
        ({"players": 5, "seat": 0, "bots": "random"}, "2 to 4 players"),
    ],
)
def test_bad_seats_and_bot_lists_are_option_errors(kwargs: dict[str, object], words: str) -> None:
    with pytest.raises(OptionError, match=words) as info:
        run_terminal_game(
            "arctic",
            seed=1,
            options={},
            save=None,
            console=recording_console(),
            input_fn=scripted([]),
            **kwargs,  # type: ignore[arg-type]
        )
    assert "\n" not in str(info.value)


def test_bot_spec_parsing() -> None:
    assert parse_bot_specs("random", 3) == ["random"] * 3
    assert parse_bot_specs("random, baseline", 3) == ["random", "baseline", "random"]
    assert parse_bot_specs("ismcts:ms=200,c=0.7,random", 2) == ["ismcts:ms=200,c=0.7", "random"]
    with pytest.raises(OptionError):
        parse_bot_specs("", 2)


def test_play_command_quits_with_status_zero_and_rejects_bad_options() -> None:
    runner = CliRunner()
    result = runner.invoke(
        app, ["play", "--players", "2", "--bots", "random", "--seed", "3"], input="2\nquit\n"
    )
    assert result.exit_code == 0, result.output
    assert "You left the game" in result.output
    result = runner.invoke(app, ["play", "--players", "2", "--seat", "3", "--bots", "random"])
    assert result.exit_code == 2
    assert "seat 3 does not exist" in result.output and "Traceback" not in result.output
    result = runner.invoke(app, ["play", "--players", "2", "--bots", "random,random"])
    assert result.exit_code == 2
    assert "2 bots given for 1 other seat" in result.output


def test_play_command_plays_to_the_end_and_saves(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    result = CliRunner().invoke(
        app,
        ["play", "--players", "2", "--bots", "random", "--seed", "8", "--save", str(save)],
        input="1\n" * 2000,
    )
    assert result.exit_code == 0, result.output
    assert "Final scores" in result.output
    data = json.loads(save.read_text())
    assert data["seed"] == 8 and data["result"]["scores"]

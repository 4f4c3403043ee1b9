"""Arctic in a 45-row terminal: at every prompt of whole games, the last 44 printed lines (the 45th is the
prompt itself) hold the landscape, every choice and, at the start of the person's turn, the last moves
printed above the table. ``table`` still draws the whole table (every pile, what each power does)."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from floe.games.arctic.game import ArcticGame
from floe.games.arctic.terminal import draw_compact_table, draw_table, scores_table
from floe.play.terminal import run_terminal_game

ROWS = 45
LAST_MOVES = 6  # lines printed above the table that must stay on screen (when that many were printed)


def screen_checker(console: Console, failures: list[str]):  # type: ignore[no-untyped-def]
    """An ``input_fn`` answering 1 (the first choice) that checks the screen at every prompt."""

    printed_before = 0  # lines printed when the previous prompt was shown

    def answer(prompt: str) -> str:
        nonlocal printed_before
        assert isinstance(console.file, io.StringIO)
        lines = console.file.getvalue().splitlines()
        screen = lines[-(ROWS - 1) :]
        hidden = len(lines) - len(screen)
        if not any("Landscape" in line or "landscape:" in line for line in screen):
            failures.append("no landscape on screen:\n" + "\n".join(screen))
        if not any(line.lstrip().startswith("1.") or " 1. " in line for line in screen):
            failures.append("the first choice is off screen:\n" + "\n".join(screen))
        tops = [i for i, line in enumerate(lines) if line.startswith("╭─")]
        if tops and tops[-1] >= printed_before:  # the table was drawn for this prompt
            moves = tops[-1] - printed_before  # the lines printed since the last prompt: the last moves
            shown = tops[-1] - hidden
            if shown < min(LAST_MOVES, moves):
                failures.append(f"only {shown} lines of last moves on screen:\n" + "\n".join(screen))
        printed_before = len(lines)
        return "1"

    return answer


@pytest.mark.parametrize(("players", "width", "seed"), [(2, 80, 1), (3, 100, 2), (4, 80, 3), (4, 120, 4)])
def test_prompt_landscape_and_last_moves_fit_45_rows(players: int, width: int, seed: int) -> None:
    console = Console(file=io.StringIO(), width=width, color_system=None)
    failures: list[str] = []
    state = run_terminal_game(
        "arctic",
        players=players,
        seat=0,
        bots="random",
        seed=seed,
        options={"power_sides": [1, 2, 1, 2, 1, 2]},
        save=None,
        console=console,
        input_fn=screen_checker(console, failures),
    )
    assert state.is_terminal()
    assert not failures, failures[0]


def test_the_table_command_draws_the_whole_table() -> None:
    console = Console(file=io.StringIO(), width=100, color_system=None)
    answers = iter(["table", "1"])
    run_terminal_game(
        "arctic",
        players=2,
        seat=0,
        bots="random",
        seed=5,
        options={},
        save=None,
        console=console,
        input_fn=lambda prompt: next(answers, "1"),
    )
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert "Piles, bottom to top" in out and "Powers in play" in out  # the whole table, once asked
    assert out.count("Piles, bottom to top") <= 2  # asked once (plus the final table at the end)


def test_compact_table_is_short_and_the_whole_one_is_not() -> None:
    game = ArcticGame(4, {"power_sides": [1, 1, 1, 1, 1, 1]})
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply(state.legal_actions()[0])

    def height(draw) -> int:  # type: ignore[no-untyped-def]
        console = Console(file=io.StringIO(), width=80, color_system=None)
        draw(console, state, 0)
        return console.file.getvalue().count("\n")  # type: ignore[attr-defined]

    assert height(draw_compact_table) <= 22 < height(draw_table)


def test_final_scores_show_each_run_as_points_then_length() -> None:
    """As the web's score screen: a run of one scores nothing and reads ``0 (1)``; a run of 3 ``3 (3)``."""
    breakdown = {
        "runs": {"fox": 1, "moose": 3, "walrus": 0, "orca": 0, "puffin": 0, "bear": 0},
        "run_points": {"fox": 0, "moose": 3, "walrus": 0, "orca": 0, "puffin": 0, "bear": 0},
        "bonus": 0,
        "totem": 6,
        "penalties": 1,
        "wildcards": [],
        "total": 8,
    }
    console = Console(file=io.StringIO(), width=100, color_system=None)
    console.print(scores_table([breakdown], [0], ["P1 (you)"]))
    lines = console.file.getvalue().splitlines()  # type: ignore[attr-defined]
    rows = {line.split()[1]: line for line in lines if " points (run)" in line}
    assert "0 (1)" in rows["fox"] and "3 (3)" in rows["moose"] and "0 (0)" in rows["walrus"]

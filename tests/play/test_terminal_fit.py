"""Every screen fits: a whole seeded game per registered game with a terminal, at 80×45 and 100×45. At each
decision, what the person needs (the table drawn for it, its header, the choices and the prompt) fits in
45 rows, so nothing scrolls away, and no word of it is cut (rich's "…").

A game whose panel does not fit yet is an expected failure (strict: once it fits, the mark must go).
"""

from __future__ import annotations

import dataclasses
import io
from typing import Any

import pytest
from rich.console import Console

import floe.play.terminal as terminal
from floe.core.registry import entries

ROWS = 45
# Games whose screens do not fit yet.
NOT_YET: set[str] = set()


def _screens(game: str, width: int, monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The lines of each decision's screen: from the table drawn for it (or the previous prompt) to the
    prompt."""
    out = io.StringIO()
    console = Console(file=out, width=width, height=ROWS, color_system=None)
    starts: list[int] = []
    real = terminal.view_for

    def view_for(name: str) -> Any:
        view = real(name)

        def draw(con: Console, state: Any, seat: int | None, names: Any) -> None:
            starts.append(len(out.getvalue().splitlines()))
            view.draw_table(con, state, seat, names)

        return dataclasses.replace(view, draw_table=draw)

    monkeypatch.setattr(terminal, "view_for", view_for)
    screens: list[list[str]] = []
    last = 0

    def answer(prompt: str) -> str:
        nonlocal last
        if prompt.endswith("(yes/no): "):
            return "yes"  # a final choice's question (Arktia's stop)
        lines = out.getvalue().splitlines()
        start = max(starts[-1] if starts else 0, last)
        screens.append([*lines[start:], prompt])
        last = len(lines)
        return "1"

    e = next(x for x in entries() if x.name == game)
    terminal.run_terminal_game(
        game, players=max(2, e.min_players), seat=0, bots="random", seed=3, options={}, save=None,
        console=console, input_fn=answer, rows=ROWS,
    )  # fmt: skip
    return screens


def _cases() -> list[Any]:
    marks = {True: [pytest.mark.xfail(strict=True, raises=AssertionError, reason="does not fit yet")]}
    return [
        pytest.param(e.name, width, id=f"{e.name}-{width}", marks=marks.get(e.name in NOT_YET, []))
        for e in entries()
        if e.terminal is not None
        for width in (80, 100)
    ]


@pytest.mark.parametrize(("game", "width"), _cases())
def test_every_decision_fits_on_one_screen(game: str, width: int, monkeypatch: pytest.MonkeyPatch) -> None:
    screens = _screens(game, width, monkeypatch)
    assert screens
    tall = [len(s) for s in screens if len(s) > ROWS]
    assert not tall, (
        f"{game} at {width} columns: {len(tall)} screens taller than {ROWS} rows (up to {max(tall)})"
    )
    cut = [line for s in screens for line in s if "…" in line]
    assert not cut, f"{game} at {width} columns cuts words: {cut[:3]}"


def test_the_arche_panels_title_fits_80_columns() -> None:
    """The header's turn, rain, deck and bank all show at 80 columns (a panel's title is cut silently)."""
    from floe.games.arche.game import ArcheGame
    from floe.games.arche.terminal import draw_table

    out = io.StringIO()
    console = Console(file=out, width=80, color_system=None)
    state = ArcheGame(3, {"first_player": 0}).new_initial_state()
    while state.is_chance_node():
        state.apply(state.chance_outcomes()[0][0])
    draw_table(console, state, 0, None)
    title = out.getvalue().splitlines()[0]
    assert "bank" in title and "rain" in title and "deck" in title, title


def test_a_table_too_tall_gives_way_to_the_status_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """Arche's whole table and its many choices do not fit 80×45 by mid-game: the choices are notations, the
    status line (with the header's turn, rain, deck and bank) stands for the table, and a line says how to
    see the whole table."""
    screens = _screens("arche", 80, monkeypatch)
    pointed = [s for s in screens if "Type table to see the whole table." in s]
    assert pointed and len(pointed) < len(screens)  # the whole table where it fits
    for screen in pointed:
        assert not any(line.startswith("╭") for line in screen)  # no panel: the status line
        assert any("bank" in line and "rain" in line and "deck" in line for line in screen)
        assert any(line.startswith("Now:") for line in screen)

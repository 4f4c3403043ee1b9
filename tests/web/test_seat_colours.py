"""Issue 29, item 4 and 5 without a browser: the seats' colours of every game step in lightness (so they
stay apart under deuteranopia, protanopia and achromatopsia: a grey scale keeps relative luminance), and
the board's marks (clickable, selected, last move, focus) reach 3:1 against the page's light backgrounds.
The second cue (each seat's number, Arktia's border patterns) is checked in test_browser_a11y.py."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

from floe.core.registry import game_names

SRC = Path(__file__).resolve().parents[2] / "src" / "floe"

# Each game's seat palette: (file of its board module, the constant, how the seats' entries are picked).
PALETTES = {
    "arktia": ("games/arktia/web/pieces.js", "COLOURS", ["p1", "p2", "p3", "p4"]),
    "arche": ("games/arche/web/icons.js", "SEAT_COLOURS", None),
}
# Games whose board colours no seat (players are told apart by name and panel only).
NO_SEAT_COLOURS = {"arctic"}
# Two seats' colours differ at least this much in relative luminance (as a contrast ratio): a clear step of
# grey where no hue is seen.
MIN_STEP = 1.6
# The page's light backgrounds a mark sits on: white, the page, Arktia's ice, the tint of a legal field.
BACKGROUNDS = ["#ffffff", "#eef3f7", "#eef6fb", "#fff1c2"]


def luminance(colour: str) -> float:
    """WCAG 2's relative luminance of ``#rrggbb``."""
    channels = [int(colour[k : k + 2], 16) / 255 for k in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """WCAG 2's contrast ratio of two colours (1 to 21)."""
    la, lb = sorted((luminance(a), luminance(b)))
    return (lb + 0.05) / (la + 0.05)


def seat_colours(game: str) -> list[str]:
    """The seat colours as the board module writes them (an array, or an object's p1..pN entries)."""
    path, name, keys = PALETTES[game]
    text = (SRC / path).read_text()
    body = re.search(rf"export const {name} = ([\[{{][^;]*);", text)
    assert body, f"{name} not found in {path}"
    if keys is None:
        return re.findall(r'"(#[0-9a-fA-F]{6})"', body.group(1))
    pairs = dict(re.findall(r'(\w+): "(#[0-9a-fA-F]{6})"', body.group(1)))
    return [pairs[k] for k in keys]


def test_every_game_is_listed() -> None:
    assert set(game_names()) == set(PALETTES) | NO_SEAT_COLOURS


@pytest.mark.parametrize("game", list(PALETTES))
def test_seat_colours_step_in_lightness(game: str) -> None:
    colours = seat_colours(game)
    assert len(colours) >= 4, colours
    close = [
        (f"P{i + 1} {a}", f"P{j + 1} {b}", round(contrast(a, b), 2))
        for (i, a), (j, b) in itertools.combinations(enumerate(colours), 2)
        if contrast(a, b) < MIN_STEP
    ]
    assert not close, f"{game}: seats too alike in lightness: {close}"


def test_the_marks_reach_3_to_1() -> None:
    css = (SRC / "web" / "css" / "floe.css").read_text()
    for mark in ("legal", "selected", "last-move", "focus"):
        found = re.search(rf"--{mark}: (#[0-9a-fA-F]{{6}});", css)
        assert found, f"--{mark} is not a #rrggbb colour in floe.css"
        low = min(contrast(found.group(1), bg) for bg in BACKGROUNDS)
        assert low >= 3, f"--{mark} {found.group(1)}: {low:.2f}:1"

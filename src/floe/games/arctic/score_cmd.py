"""``floe score``: score a pile from a physical game of Arctic (docs/arctic-rules.md §8).

The pile is written bottom to top as animal words: ``fox moose walrus orca puffin bear`` (``polar-bear``
and ``polar bear`` too, singular or plural), ``?`` for a face-down card, separated by spaces or commas.
A count may follow a word as ``bear*6``, ``bear×6`` or ``bear x6``. Bad input raises ``ValueError``
with a short message that names the bad word.
"""

from __future__ import annotations

import json
import re
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from floe.games.arctic.cards import ANIMALS, LANDSCAPE, N_CARDS
from floe.games.arctic.scoring import FACE_DOWN, MODES, ScoreBreakdown, score
from floe.games.arctic.terminal_parts import animal_text

__all__ = ["parse_pile", "score_command", "score_pile_command"]

# Every spelling of each animal, singular and plural (a player copying a rulebook writes "orcas").
_WORDS: dict[str, int] = {}
for _index, _plurals in enumerate(
    (
        ("fox", "foxes"),
        ("moose", "mooses", "meese"),
        ("walrus", "walruses", "walrii"),
        ("orca", "orcas"),
        ("puffin", "puffins"),
        ("bear", "bears", "polar-bear", "polar-bears", "polarbear", "polarbears"),
    )
):
    for _word in _plurals:
        _WORDS[_word] = _index
_FACE_DOWN_WORDS = ("?", "face-down", "facedown")
_COUNT = re.compile(r"^(?P<word>.+?)(?:[*×x](?P<count>\d+))?$")
_REPEAT = re.compile(r"^[*×x](?P<count>\d+)$")  # "bear x6": a count standing on its own


def parse_pile(text: str) -> list[int]:
    """The pile as animal ints bottom to top (``FACE_DOWN`` for ``?``); ``ValueError`` naming a bad word."""
    words = [w for w in re.split(r"[\s,;]+", text.strip().lower()) if w]
    pile: list[int] = []
    i = 0
    while i < len(words):
        word = words[i]
        # "polar bear" arrives as two words once split on spaces.
        if word == "polar" and i + 1 < len(words) and words[i + 1].startswith("bear"):
            word = "polar-" + words[i + 1]
            i += 1
        i += 1
        repeat = _REPEAT.match(word)
        if repeat and pile:
            count = int(repeat["count"])
            if not 1 <= count <= N_CARDS:
                raise ValueError(f"{word!r}: a count must be 1 to {N_CARDS}")
            pile += [pile[-1]] * (count - 1)
            continue
        match = _COUNT.match(word)
        name, count_text = (match["word"], match["count"]) if match else (word, None)
        if name in _FACE_DOWN_WORDS:
            animal = FACE_DOWN
        elif name in _WORDS:
            animal = _WORDS[name]
        else:
            raise ValueError(f"{word!r} is not an animal: use fox, moose, walrus, orca, puffin, bear or ?")
        count = int(count_text) if count_text else 1
        if not 1 <= count <= N_CARDS:
            raise ValueError(f"{word!r}: a count must be 1 to {N_CARDS}")
        pile += [animal] * count
    if len(pile) > N_CARDS:
        raise ValueError(f"the pile has {len(pile)} cards, more than the {N_CARDS} in the game")
    return pile


def _pile_words(pile: list[int]) -> list[str]:
    return ["?" if a == FACE_DOWN else ANIMALS[a] for a in pile]


def score_command(
    pile: Annotated[
        str, typer.Option(help='The pile bottom to top, e.g. "fox fox ? moose"; ? is face-down.')
    ],
    totem_value: Annotated[int, typer.Option(help="Landscape value under your totem's token.")] = 0,
    penalties: Annotated[int, typer.Option(help="Cards in your penalty zone.")] = 0,
    mode: Annotated[
        str, typer.Option(help="Face-down cards: free_max (rules) or bga_adjacent.")
    ] = "free_max",
    as_json: Annotated[bool, typer.Option("--json", help="Print the breakdown as JSON.")] = False,
) -> None:
    """Score a physical game's pile: runs, bonus, totem and penalties (floe score arctic --pile ...)."""
    score_pile_command(pile, totem_value, penalties, mode, as_json)


def score_pile_command(
    pile_text: str,
    totem_value: int,
    penalties: int,
    mode: str,
    as_json: bool,
    console: Console | None = None,
) -> ScoreBreakdown:
    """Score one Arctic pile and print the breakdown (a Rich table, or one JSON object with ``as_json``).

    ``totem_value`` is the landscape value under the totem's token (0, 1, 3, 6, 10 or 15), ``penalties``
    the number of penalty cards, ``mode`` how face-down cards count (``free_max`` or ``bga_adjacent``).
    ``ValueError`` for a bad pile, value or mode.
    """
    if totem_value not in LANDSCAPE:
        raise ValueError(f"--totem-value must be one of {', '.join(map(str, LANDSCAPE))}, not {totem_value}")
    if penalties < 0:
        raise ValueError(f"--penalties counts penalty cards and cannot be negative ({penalties})")
    if mode not in MODES:
        raise ValueError(f"--mode must be one of {', '.join(MODES)}, not {mode!r}")
    pile = parse_pile(pile_text)
    breakdown = score(pile, totem_value, penalties, mode)
    console = console or Console()
    if as_json:
        data: dict[str, Any] = {
            "game": "arctic",
            "pile": _pile_words(pile),
            "mode": mode,
            **breakdown.to_dict(),
        }
        # Plain print, not Rich: JSON must not be wrapped or highlighted.
        print(json.dumps(data), file=console.file)
        return breakdown
    console.print(_breakdown_table(pile, breakdown))
    if breakdown.wildcards:
        wild = ", ".join(ANIMALS[a] for a in breakdown.wildcards)
        console.print(f"Face-down cards ({mode}) counted as: {wild}", highlight=False)
    return breakdown


def _breakdown_table(pile: list[int], b: ScoreBreakdown) -> Table:
    table = Table(title=f"Arctic score · {len(pile)} cards", title_justify="left")
    table.add_column("part")
    table.add_column("longest run", justify="right")
    table.add_column("points", justify="right")
    for a in range(len(ANIMALS)):
        run, pts = b.runs[a], b.run_points[a]
        table.add_row(animal_text(a), str(run) if run else "-", str(pts) if pts else Text("0", style="dim"))
    scored = sum(1 for n in b.runs if n >= 2)
    table.add_row("bonus", f"{scored} animal{'s' if scored != 1 else ''}", str(b.bonus))
    table.add_row("totem", "", str(b.totem))
    cards = f"{b.penalties} card{'s' if b.penalties != 1 else ''}"
    table.add_row("penalties", cards, f"-{b.penalties}" if b.penalties else "0")
    table.add_row(Text("total", style="bold"), "", Text(str(b.total), style="bold"), end_section=True)
    return table

"""The card list (docs/arche-rules.md §13): the placeholder deck shipped as data, and a player's own deck
loaded from a CSV file (``--option deck=FILE``), checked line by line; records keep the cards, never a
path."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from floe.core.errors import OptionError
from floe.core.match import Match
from floe.core.options import read_file_options
from floe.core.record import Record
from floe.core.registry import entry
from floe.games.arche.cards import (
    HEAVY,
    PLACEHOLDER_DECK,
    PLACEHOLDER_NOTICE,
    deck_text,
    parse_deck,
    placeholder_deck,
    placeholder_rows,
)
from floe.games.arche.game import ArcheGame
from floe.games.arche.options import OPTIONS

HEADER = "name_de,name_en,weight,climate,diet,category,special"


def placeholder_csv() -> str:
    return deck_text(placeholder_deck())


def test_the_placeholder_deck_has_the_spec_counts() -> None:
    deck = placeholder_deck()
    assert PLACEHOLDER_DECK and deck.placeholder
    cats = [deck.category[c] for c in range(deck.n)]
    assert deck.n == 55 and [cats.count(k) for k in range(6)] == [11, 11, 11, 10, 8, 4]
    weights = [deck.weight[c] for c in range(deck.n) if cats[c] != 4]
    assert [weights.count(w) for w in range(5)] == [8, 12, 9, 11, 7], "§13.1: the animals' weights"
    assert sorted(deck.names[c] for c in deck.evicters) == ["Mosquito", "Skunk", "Spider"]


def test_the_placeholder_is_marked_where_a_player_sees_the_game() -> None:
    assert entry("arche").notice == PLACEHOLDER_NOTICE == "placeholder cards, not the printed ones"
    st = ArcheGame(3).new_initial_state()
    assert PLACEHOLDER_NOTICE in st.render(0)
    assert st.observation_dict(None)["placeholder_cards"] is True


def test_a_deck_file_round_trips() -> None:
    text = placeholder_csv()
    rows = parse_deck(text)
    assert [tuple(r) for r in rows] == list(placeholder_rows())
    assert parse_deck(rows) == rows, "the stored form reads back to itself"
    assert parse_deck("") == [] and parse_deck([]) == []


def edited(line: int, new: str | None) -> str:
    """The placeholder CSV with line ``line`` (1-based, the header is line 1) replaced or dropped."""
    lines = placeholder_csv().splitlines()
    if new is None:
        del lines[line - 1]
    else:
        lines[line - 1] = new
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (edited(2, "Bronto,Brontosaurus,4,warm,H,heavy,bronto"), "deck line 2: unknown climate 'warm'"),
        (edited(3, "Tyranno,Tyrannosaurus,5,hot,C,heavy,-"), "deck line 3: weight must be 0 to 4, not '5'"),
        (edited(4, "Elefant,Elephant,-1,hot,H,heavy,-"), "deck line 4: weight must be 0 to 4"),
        (edited(5, "Nashorn,Rhinoceros,4,hot,X,heavy,-"), "deck line 5: unknown diet 'X'"),
        (edited(6, "Nilpferd,Hippopotamus,4,hot,H,huge,-"), "deck line 6: unknown category 'huge'"),
        (edited(7, "Mammut,Mammoth,4,cold,H,heavy,flying"), "deck line 7: unknown special 'flying'"),
        (edited(8, "Walross,Walrus,4,cold,C"), "deck line 8: 5 columns, expected 7"),
        (edited(9, "Giraffe,,3,hot,H,heavy,-"), "deck line 9: the card has no English name"),
        (edited(49, "Heu,Hay,2,any,-,provisions,fox"), "deck line 49: provisions have no special ability"),
        (edited(57, None), "deck: 4 rain cards, the game needs exactly 5"),
        (edited(1, "name,weight"), "deck line 1: the header must be"),
        (
            edited(3, "Tyranno,Brontosaurus,4,hot,C,heavy,-"),
            "two cards are called 'brontosaurus' (lines 2 and 3)",
        ),
        (edited(9, "Giraffe,Gira/ffe,3,hot,H,heavy,-"), "deck line 9: name_en may not contain '/'"),
        (
            edited(9, "Giraffe," + "G" * 30 + ",3,hot,H,heavy,-"),
            "deck line 9: name_en must be at most 24 characters",
        ),
        (HEADER + "\n" + "Regen,Rain,-,-,-,rain,-\n" * 5, "0 animal and provisions cards, at least 20"),
        ("", None),
    ],
)
def test_a_bad_deck_file_is_a_one_line_error_naming_the_line(text: str, message: str | None) -> None:
    if message is None:
        assert parse_deck(text) == []
        return
    with pytest.raises(OptionError) as info:
        parse_deck(text)
    assert message in str(info.value) and "\n" not in str(info.value)


def test_the_opening_must_be_possible() -> None:
    heavy = [f"X{i},Animal {i},3,hot,H,heavy,-" for i in range(30)]
    lines = [HEADER, *heavy] + ["Regen,Rain,-,-,-,rain,-"] * 5
    with pytest.raises(OptionError, match="opening needs 4 cards of weight 1 or 2"):
        parse_deck("\n".join(lines))


def own_deck() -> str:
    """The placeholder with different weights for two animals: a deck a player might own."""
    text = placeholder_csv().replace("Ziege,Goat,1,any,H,useful,-", "Ziege,Goat,2,any,H,useful,-")
    return text


def test_a_loaded_deck_plays_and_its_record_keeps_the_cards(tmp_path: Path) -> None:
    path = tmp_path / "my-cards.csv"
    path.write_text(own_deck(), encoding="utf-8")
    raw = read_file_options(OPTIONS, {"deck": str(path)})
    assert raw["deck"].startswith(HEADER), "the command line reads the file"
    match = Match.new("arche", players=3, options=raw, seed=5)
    assert not match.game.config.deck.placeholder
    goat = match.game.config.deck.card_id("goat")
    assert match.game.config.weight[goat] == 2
    while not match.is_over():
        match.apply(match.legal_actions()[0])
    record = match.record()
    assert str(path) not in json.dumps(record.to_json()), "no path in the record"
    assert record.options["deck"][18][2] == 2, "the cards themselves"
    assert Record.from_json(json.loads(record.dumps())).replay().scores() == match.state.scores()
    assert "a loaded deck of 55 cards" in match.state.render(0)


def test_the_command_line_reads_a_deck_file(tmp_path: Path) -> None:
    path = tmp_path / "cards.csv"
    path.write_text(own_deck(), encoding="utf-8")
    floe = [sys.executable, "-m", "floe"]
    done = subprocess.run(
        [*floe, "simulate", "arche", "--players", "3", "--games", "2", "--option", f"deck={path}", "--json"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    path.write_text(edited(2, "Bronto,Brontosaurus,4,warm,H,heavy,bronto"), encoding="utf-8")
    done = subprocess.run(
        [*floe, "simulate", "arche", "--players", "3", "--games", "1", "--option", f"deck={path}"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 2 and "deck line 2: unknown climate 'warm'" in done.stderr


def test_a_spreadsheets_csv_utf8_with_a_byte_order_mark_loads() -> None:
    assert parse_deck("\ufeff" + own_deck()) == parse_deck(own_deck())


def test_a_loaded_deck_is_never_called_placeholder() -> None:
    """The terminal's intro line names the placeholder only for the placeholder deck (the web's help text
    says which deck the bar shows)."""
    from floe.play.terminal import GameQuit, run_terminal_game

    for deck, said in (("", True), (own_deck(), False)):
        out = io.StringIO()
        with pytest.raises(GameQuit):
            run_terminal_game(
                "arche",
                players=3,
                seat=0,
                bots="random",
                seed=2,
                options={"deck": deck},
                save=None,
                console=Console(file=out, width=120),
                input_fn=lambda prompt: "quit",
            )
        assert ("placeholder" in out.getvalue()) is said


def test_the_brontos_figure_goes_on_heavy_whatever_its_category() -> None:
    """A loaded deck may file the Bronto under another category: its figure (with its chip) still goes on
    the heavy scoring card, as the rulebook says."""
    text = own_deck().replace(
        "Bronto,Brontosaurus,4,hot,H,heavy,bronto", "Bronto,Brontosaurus,4,hot,H,slow,bronto"
    )
    assert text != own_deck()
    game = ArcheGame(3, {"deck": text, "first_player": 0})
    bronto = game.config.deck.card_id("brontosaurus")
    assert game.config.category[bronto] != 0
    from floe.games.arche import rules

    st = game.new_initial_state()
    assert rules._figure_jobs(st, 0, bronto, True) == [(rules.J_PLACE, 0, 2 * HEAVY + 1)]

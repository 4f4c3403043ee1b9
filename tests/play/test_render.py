"""The Rich table: drawn from one seat's observation only, with every part of the table present."""

from __future__ import annotations

import random

from floe.core.match import Match
from floe.core.record import Record
from floe.games.arctic.cards import ANIMALS
from floe.games.arctic.game import ArcticGame
from floe.games.arctic.powers import POWER_WORDS
from floe.games.arctic.terminal import draw_table, step_words
from floe.play.views import print_final

from .helpers import output_of, recording_console

OPTIONS = {"powers": "fox-facedown,moose-draw,walrus-main,orca-deck,puffin-swap,bear-give"}


def _midgame(seed: int, players: int, decisions: int) -> Match:
    match = Match.new("arctic", players=players, options=OPTIONS, seed=seed)
    rng = random.Random(seed)
    for _ in range(decisions):
        if match.is_over():
            break
        match.apply(rng.choice(match.legal_actions()))
    return match


def test_table_shows_every_part() -> None:
    match = _midgame(seed=3, players=3, decisions=60)
    console = recording_console()
    draw_table(console, match.state, 0)
    out = output_of(console)
    for part in ("Landscape", "River (", "Your hand (", "Players", "Piles, bottom to top", "Powers in play"):
        assert part in out, part
    for value in ("0", "1", "3", "6", "10", "15"):
        assert f" {value} " in out
    for animal in ANIMALS:
        assert animal in out
    assert "Deck " in out and "reserve " in out and "your totem" in out
    assert "Now: " in out
    # The powers in play are explained in words.
    for pid in match.state.observation(0).powers:
        assert " ".join(POWER_WORDS[pid].split()[:3]) in out


def test_table_depends_only_on_the_observation() -> None:
    # A determinized state has the same observation for the seat but a different hidden world
    # (other hands, totems, face-down cards, the deck): the drawing must not change.
    for seed in range(8):
        match = _midgame(seed=seed, players=2 + seed % 3, decisions=40 + 7 * seed)
        state = match.state
        players = state.observation(None).scalars["players"]
        seat = seed % players
        game = ArcticGame(players, OPTIONS)
        other = game.determinize(state.observation(seat), random.Random(seed + 100))
        assert other.observation(seat) == state.observation(seat)
        a, b = recording_console(), recording_console()
        draw_table(a, state, seat)
        draw_table(b, other, seat)
        assert output_of(a) == output_of(b)


def test_step_words_name_the_decision() -> None:
    match = _midgame(seed=5, players=2, decisions=0)
    obs = match.state.observation(match.current_player())
    assert step_words(obs).startswith("place cards")


def test_print_final_reveals_totems_and_scores() -> None:
    match = _midgame(seed=7, players=3, decisions=10_000)
    assert match.is_over()
    console = recording_console()
    print_final(match.state, None, match.record(), console)
    out = output_of(console)
    assert "Game over" in out and "Final scores" in out and "Ranking: 1st" in out
    assert "seed 7" in out
    # The ranking line names every seat with its exact score, best first.
    scores, names = match.state.scores(), ["P1", "P2", "P3"]
    ordinals = ("1st", "2nd", "3rd")
    expected = ", ".join(
        f"{ordinals[place]} {names[q]} ({scores[q]})" for place, q in enumerate(match.state.ranking())
    )
    assert f"Ranking: {expected}" in out
    # The scores table shows each seat's revealed totem animal, in ranking order, on its totem row.
    totems = [ANIMALS[match.state.totems[q]] for q in match.state.ranking()]  # type: ignore[attr-defined]
    totem_row = next(line for line in out.splitlines() if line.startswith("│ totem"))
    assert [cell.split()[0] for cell in totem_row.strip("│").split("│")[1:]] == totems


def test_print_final_of_an_unfinished_record() -> None:
    match = _midgame(seed=2, players=2, decisions=5)
    record = Record.of(match.game, match.seed, match.state)
    console = recording_console()
    print_final(record.replay(), 1, record, console)
    assert "stops before the end" in output_of(console)

"""The words the terminal shows are the words it reads, for every game, in every language.

Every notation example of a game's help (its ``[cyan]…[/]`` spans, as the help shows them in the language)
names some action of the game; every choice's notation as the choices show it (``[ablegen …]``) names that
choice; each word may be cut to a unique start, in English or in the reader's words.
"""

from __future__ import annotations

import random
import re

import pytest
from rich.console import Console

from floe.core.errors import FloeError
from floe.core.game import State
from floe.core.i18n import FLOE, LANGUAGES, using
from floe.core.match import Match
from floe.core.registry import entries, entry
from floe.play.reading import matching
from floe.play.terminal import _Session

from .helpers import recording_console

GAMES = [e.name for e in entries() if e.terminal is not None]
COMMANDS = ("help", "table", "hint", "quit", "board")
EXAMPLE = re.compile(r"\[cyan\]([^\[]*)\[/\]")


def _session(game: str, console: Console | None = None) -> _Session:
    players = max(2, entry(game).min_players)
    match = Match.new(game, players=players, options={}, seed=5)
    names = [f"P{q + 1}" for q in range(players)]
    return _Session(match, 0, {}, names, console or recording_console(), input)


def _named(state: State, size: int) -> list[int]:
    """The action ids below ``size`` that have a notation (a game's space may have gaps)."""
    named = []
    for action in range(size):
        try:
            state.action_to_string(action)
        except FloeError:
            continue
        named.append(action)
    return named


def test_every_word_may_be_cut_to_a_unique_start() -> None:
    forms = {
        1: ("place fox-walrus-4", "ablegen fox-walrus-4"),
        2: ("place bear-orca-4", "ablegen bear-orca-4"),
        3: ("place bear-fox-3", "ablegen bear-fox-3"),
        4: ("play hare l1", "play hare l1"),
        5: ("play hare l10", "play hare l10"),
    }
    assert matching("pl bear-o", forms) == [2]
    assert matching("pl bear", forms) == [2, 3]  # two choices: the person must say which
    assert matching("place bear-orca-4", forms) == [2]
    assert matching("abl bear-f", forms) == [3]  # the reader's words, cut too
    assert matching("fox-w", forms) == [1]  # the card alone
    assert matching("pl hare l1", forms) == [4]  # a whole word beats a longer one it starts
    assert matching("pl hare l", forms) == [4, 5]
    assert matching("walrus", forms) == [] and matching("", forms) == []


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_every_notation_the_help_shows_names_an_action(game: str, lang: str) -> None:
    session = _session(game)
    state = session.match.state
    with using(lang):
        # Only the reader's words: the help must show what the choices show.
        named = _named(state, session.match.game.spec.player_actions)
        forms = {a: (session.notation(state, a),) for a in named}
        commands = set(COMMANDS) | {FLOE.gettext(c) for c in COMMANDS}
        examples = [e for e in EXAMPLE.findall(session.help_text()) if e not in commands]
    assert examples, "the help shows no notation"
    refused = [e for e in examples if not matching(e, forms)]
    assert not refused, f"{game} help in {lang} shows notation the parser refuses: {refused}"


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_every_choice_reads_back_as_shown_and_cut_short(game: str, lang: str) -> None:
    """Along a random game, at a sample of decisions: each choice's shown notation, and the same with each
    word cut to its shortest unique start, names that choice and no other."""
    session = _session(game)
    state: State = session.match.state
    rng = random.Random(7)
    checked = 0
    with using(lang):
        while not state.is_terminal() and checked < 12:
            if state.is_chance_node():
                state.apply(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            if rng.random() < 0.15:
                for action in legal:
                    shown = session.notation(state, action)
                    assert session._parse(state, legal, shown) == (action, ""), shown
                    first = shown.split()[0]
                    if len(first) > 2 and not any(
                        session.notation(state, a).split()[0] != first
                        and session.notation(state, a).startswith(first[:2])
                        for a in legal
                    ):
                        cut = " ".join([first[:2], *shown.split()[1:]])
                        assert session._parse(state, legal, cut) == (action, ""), cut
                checked += 1
            state.apply(rng.choice(legal))
    assert checked


def test_arctic_reads_the_german_words_it_shows() -> None:
    """German words, English words, both cut short; ``ablegen`` alone names every card to place."""
    session = _session("arctic")
    state = session.match.state
    rng = random.Random(3)
    while state.is_chance_node() or not any(
        state.action_to_string(a).startswith("place ") for a in state.legal_actions()
    ):
        state.apply(state.sample_chance(rng) if state.is_chance_node() else state.legal_actions()[0])
    legal = state.legal_actions()
    places = [a for a in legal if state.action_to_string(a).startswith("place ")]
    card = state.action_to_string(places[0]).split()[1]
    with using("de"):
        assert session._parse(state, legal, f"ablegen {card}") == (places[0], "")
        assert session._parse(state, legal, f"abl {card}") == (places[0], "")
        assert session._parse(state, legal, f"pl {card}") == (places[0], "")  # English still reads
        if len(places) > 1:
            none, problem = session._parse(state, legal, "ablegen")
            assert none is None and "ablegen " + card in problem

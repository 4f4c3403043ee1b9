"""What a player reads is written in sentences, for every game: each choice and each log line starts with a
capital, the decision at hand does not start with a seat (the page says whose it is), and no line reads
like notation (a card's short code, an ability's ``!slug``, a scale drawn as ``-2 -1 [0] +1 +2``).

A random game per registered game, read as one seat and as a spectator; a sample of its decisions.
"""

from __future__ import annotations

import random
import re

import pytest

from floe.core.i18n import FLOE, LANGUAGES, using
from floe.core.match import Match
from floe.core.present import deciding, legal_choices, log_line, presenter_for
from floe.core.registry import entries
from floe.play.terminal import GameQuit, run_terminal_game

from .helpers import output_of, recording_console, scripted

GAMES = [e.name for e in entries()]
# Notation a person must not have to read: an ability slug (!chimp), a diet letter between spaces, a scale
# drawn with its marker, a card code (fox-walrus-4, walrus-fox-3).
NOTATION = re.compile(r"![a-z]|\s[HCO]\s|\[[-+]?\d\]|\b[a-z]+-[a-z]+-\d\b")


def _starts_a_sentence(text: str) -> bool:
    return text[:1].isupper() or text[:1].isdigit()


def _read(game: str, lang: str, seed: int) -> tuple[list[str], list[str], list[str]]:
    """The choices' texts, the log lines (as seat 0 and as a spectator) and the decisions of one game."""
    e = next(x for x in entries() if x.name == game)
    match = Match.new(game, players=max(2, e.min_players), options={}, seed=seed)
    state = match.state
    presenter = presenter_for(game)
    rng = random.Random(seed)
    choices: list[str] = []
    lines: list[str] = []
    decisions: list[str] = []
    steps = 0
    with using(lang):
        while not state.is_terminal() and steps < 600:
            steps += 1
            if state.is_chance_node():
                action = state.sample_chance(rng)
            else:
                if rng.random() < 0.2:
                    decisions.append(deciding(presenter, state))
                    choices += [c["text"] for c in legal_choices(presenter, state, state.current_player())]
                action = rng.choice(state.legal_actions())
            before = state.clone()
            state.apply(action)
            for viewer in (0, None):
                line = log_line(presenter, before, action, viewer, state)
                if line:
                    lines.append(line)
    return choices, lines, decisions


@pytest.mark.parametrize("lang", ["en", LANGUAGES[1]])
@pytest.mark.parametrize("game", GAMES)
def test_choices_and_log_lines_are_sentences(game: str, lang: str) -> None:
    choices, lines, decisions = _read(game, lang, seed=3)
    assert choices and lines and decisions
    bad = [c for c in choices if not _starts_a_sentence(c) or NOTATION.search(c)]
    assert not bad, f"{game} choices in {lang} that are no sentences: {bad[:5]}"
    # A log line is sentences joined by ". ": each starts with a capital.
    parts = [p for line in lines for p in re.split(r"(?<=\.)\s+", line)]
    bad = [p for p in parts if not _starts_a_sentence(p) or NOTATION.search(p)]
    assert not bad, f"{game} log in {lang} that is no sentence: {bad[:5]}"
    bad = [d for d in decisions if re.match(r"P\d\b", d)]
    assert not bad, f"{game}'s decision starts with a seat: {bad[:3]}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_lobbys_game_summaries_are_sentences(lang: str) -> None:
    with using(lang):
        for e in entries():
            summary = (e.catalog() or FLOE).gettext(e.summary) if e.summary else ""
            assert not summary or _starts_a_sentence(summary), (e.name, lang, summary)


def test_one_bot_is_a_bot() -> None:
    """``P2 (Random) is a bot`` (not "are bots") at a two-player terminal game."""
    console = recording_console()
    with pytest.raises(GameQuit):
        run_terminal_game(
            "arctic",
            players=2,
            seat=0,
            bots="random",
            seed=1,
            options={},
            save=None,
            console=console,
            input_fn=scripted(["quit"]),
        )
    assert "P2 (Random) is a bot." in output_of(console)


def test_polish_names_a_token_by_its_animal_in_the_genitive() -> None:
    """ "żeton niedźwiedzia polarnego", never "żeton niedźwiedź polarny" (the animals' nominatives)."""
    choices, lines, _decisions = _read("arctic", "pl", seed=5)
    text = "\n".join(choices + lines)
    assert "żeton" in text
    wrong = re.findall(r"żeton (?:niedźwiedź|maskonur\b|lis polarny|łoś\b|mors\b|orka\b)", text)
    assert not wrong, wrong

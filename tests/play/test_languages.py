"""Every terminal screen of a scripted game, in each language, shows no untranslated English.

The person answers ``help``, ``table``, a bad answer and an out-of-range number, then always the first
choice, to the end (the final table, the scores, the ranking); the bots play the other seats. Everything
printed and every prompt is read for English words the catalogs would have translated
(``floe.testing.untranslated``). A game whose texts are not marked for translation yet is an expected
failure (strict: once it is translated, the mark must go).
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from floe.cli import app as cli
from floe.core.errors import FloeError
from floe.core.i18n import FLOE, LANGUAGES, using
from floe.core.match import Match
from floe.core.registry import entries
from floe.play.terminal import run_terminal_game
from floe.testing.untranslated import english_words, untranslated

from .helpers import output_of, recording_console

# Words a screen shows in every language: the terminal's commands (typed in English in any language), the
# players' and bots' names; Arche's ability slug "immune" (a card line's "!immune", an identifier like the
# card names: the web's tips word the ability in the language).
ALLOWED = {"help", "table", "hint", "quit", "ismcts", "random", "baseline", "greedy", "arctic", "arktia"}
ALLOWED |= {"immune"}
# Games whose texts are not marked for translation yet (docs/languages.md, "What is left").
NOT_YET: set[str] = set()


def _notation_words(game: str) -> set[str]:
    """The words of the game's notation (card slugs like ``horse``, typed as they are in any language):
    identifiers, not English to translate (the reader's verbs are checked, as the choices show them)."""
    players = max(2, next(e for e in entries() if e.name == game).min_players)
    match = Match.new(game, players=players, options={}, seed=1)
    state = match.state
    words: set[str] = set()
    for action in range(match.game.spec.player_actions):
        try:
            notation = state.action_to_string(action)
        except FloeError:
            continue
        words |= set(notation.lower().replace("-", " ").split()[1:])  # the verb is the reader's
    return words


def _play(game: str, lang: str) -> str:
    console = recording_console()
    prompts: list[str] = []
    answers = ["help", "table", "nonsense", "99"]

    def answer(prompt: str) -> str:
        prompts.append(prompt)
        if prompt.endswith(FLOE.gettext("(yes/no): ")):
            return FLOE.gettext("yes")  # a final choice's question (Arktia's stop), in the language
        return answers.pop(0) if answers else "1"

    players = max(2, min(3, next(e for e in entries() if e.name == game).min_players))
    with using(lang):
        run_terminal_game(
            game,
            players=players,
            seat=0,
            bots="random",
            seed=11,
            options={},
            save=None,
            console=console,
            input_fn=answer,
        )
    return output_of(console) + "\n".join(prompts)


def _cases() -> list[object]:
    cases = []
    for e in entries():
        if e.terminal is None or e.catalog() is None:
            continue
        for lang in LANGUAGES[1:]:
            marks = (
                [pytest.mark.xfail(strict=True, raises=AssertionError, reason="not translated yet")]
                if e.name in NOT_YET
                else []
            )
            cases.append(pytest.param(e.name, lang, id=f"{e.name}-{lang}", marks=marks))
    return cases


@pytest.mark.parametrize(("game", "lang"), _cases())
def test_every_terminal_screen_is_in_the_language(game: str, lang: str) -> None:
    catalog = next(e for e in entries() if e.name == game).catalog()
    assert catalog is not None
    text = _play(game, lang)
    assert "Final scores" not in text  # the game reached its end, in the language
    english = english_words([FLOE, catalog], lang)
    found = untranslated(text, english, ALLOWED | _notation_words(game))
    assert not found, f"{len(found)} lines with English:\n" + "\n".join(found[:30])


def test_the_check_sees_english_in_an_english_game() -> None:
    """The same screens in English are full of the words it looks for (so it can fail)."""
    catalog = next(e for e in entries() if e.name == "arctic").catalog()
    assert catalog is not None
    text = _play("arctic", "en")
    assert len(untranslated(text, english_words([FLOE, catalog], "de"), ALLOWED)) > 50


def _floe(
    *args: str, env: dict[str, str] | None = None, stdin: str = "quit\n"
) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k not in ("LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    return subprocess.run(
        [sys.executable, "-m", "floe", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env={**base, "COLUMNS": "100", **(env or {})},
        timeout=120,
        check=False,
    )


def test_floe_play_speaks_the_language_of_lang_or_the_environment() -> None:
    german = _floe("play", "arctic", "--players", "2", "--seed", "3", "--lang", "de")
    assert german.returncode == 0, german.stderr
    assert "Du hast die Partie verlassen" in german.stdout and "Ablagewert" in german.stdout
    polish = _floe("play", "arctic", "--players", "2", "--seed", "3", env={"LANG": "pl_PL.UTF-8"})
    assert polish.returncode == 0 and "Opuściłeś grę" in polish.stdout
    forced = _floe(
        "play", "arctic", "--players", "2", "--seed", "3", "--lang", "en", env={"LANG": "pl_PL.UTF-8"}
    )
    assert "You left the game" in forced.stdout
    bad = _floe("play", "arctic", "--lang", "klingon")
    assert (
        bad.returncode == 2 and "unknown language 'klingon'" in bad.stderr and "Traceback" not in bad.stderr
    )


def test_the_terminals_one_line_errors_read_in_the_language_chosen() -> None:
    """``floe play GAME --lang de`` with a bad option or a bad ``--bots`` says why in German."""
    runner = CliRunner()
    option = runner.invoke(cli, ["play", "arche", "--lang", "de", "--option", "start_chips=9"])
    bots = runner.invoke(cli, ["play", "arctic", "--lang", "pl", "--bots", "nobody"])
    english = runner.invoke(cli, ["play", "arche", "--lang", "en", "--option", "start_chips=9"])
    assert option.exit_code == bots.exit_code == english.exit_code == 2
    assert "Fehler: start_chips muss zwischen 1 und 4 liegen, nicht '9'" in option.output
    assert "błąd: nieznany bot 'nobody' dla arctic" in bots.output
    assert "error: start_chips must be between 1 and 4, not '9'" in english.output

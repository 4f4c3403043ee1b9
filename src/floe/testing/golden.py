"""Golden games for any game: seeded full games stored as a record and a transcript, and the check that they
still replay the same (the way ``perft`` counts positions for any game).

A game's regeneration script lists its games (name -> players, options, seed), its way of choosing a
random action (``Choose``: e.g. rarely ``stop``, so games run into the rules' corners) and its transcript
format (the table at each turn, the legal actions, the scores: the game's own words); ``play`` plays a
game from its seed, ``regenerate`` writes the files or reports what differs, and ``assert_replays`` is what
the game's golden test asserts of each stored record.
"""

from __future__ import annotations

import argparse
import difflib
import random
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from floe.core.match import Match
from floe.core.record import Record

# (generator, legal actions) -> the action a golden game takes.
Choose = Callable[[random.Random, list[int]], int]
# A record -> its human-readable transcript, rebuilt by replaying it.
Transcript = Callable[[Record], str]
# The diff lines shown of a changed file (enough to see what changed, short enough to read).
DIFF_LINES = 80


def uniform(rng: random.Random, legal: list[int]) -> int:
    """Any legal action, each as likely."""
    return rng.choice(legal)


def play(game: str, players: int, options: Mapping[str, Any], seed: int, choose: Choose = uniform) -> Record:
    """A full game of ``game``: chance from the match's generator seeded by ``seed``, decisions by ``choose``
    from a second generator seeded from ``seed``; ``RuntimeError`` if it outlasts the game's longest."""
    match = Match.new(game, players=players, options=dict(options), seed=seed)
    rng = random.Random(seed * 7919 + 1)
    while not match.is_over():
        if len(match.state.history) > match.game.spec.max_game_length:
            raise RuntimeError("the game does not end")
        match.apply(choose(rng, match.legal_actions()))
    return match.record()


def game_files(
    game: str,
    games: Mapping[str, tuple[int, Mapping[str, Any], int]],
    folder: Path,
    transcript: Transcript,
    choose: Choose = uniform,
) -> dict[Path, str]:
    """Each golden game's files in ``folder``: ``<name>.json`` (its record, played by ``play`` from
    ``games[name]``: players, options, seed) and ``<name>.txt`` (its transcript)."""
    out: dict[Path, str] = {}
    for name, (players, options, seed) in games.items():
        record = play(game, players, options, seed, choose)
        out[folder / f"{name}.json"] = record.dumps()
        out[folder / f"{name}.txt"] = transcript(record)
    return out


def diff_text(old: str, new: str, old_name: str, new_name: str) -> str:
    """The first ``DIFF_LINES`` lines of the unified diff from ``old`` to ``new``."""
    diff = difflib.unified_diff(old.splitlines(), new.splitlines(), old_name, new_name, lineterm="")
    return "\n".join(list(diff)[:DIFF_LINES])


def assert_replays(record: Record, stored_transcript: str, transcript: Transcript) -> None:
    """``record`` replays to its stored result and rebuilds ``stored_transcript``; ``AssertionError`` with
    the difference otherwise (``RecordError`` if an action became illegal or the scores changed)."""
    state = record.replay()
    assert state.is_terminal(), "the replayed game is not over"
    assert record.result is not None, "the record has no result"
    assert state.scores() == record.result["scores"]
    assert state.ranking() == record.result["ranking"]
    actual = transcript(record)
    assert actual == stored_transcript, "transcript changed:\n" + diff_text(
        stored_transcript, actual, "stored", "replayed"
    )


def regenerate(files: Mapping[Path, str], check: bool) -> int:
    """Write each file of ``files`` (path -> text) whose text changed; with ``check``, print the differences
    and write nothing. The exit status: 1 if checking found a difference, else 0."""
    changed = 0
    for path, text in files.items():
        old = path.read_text(encoding="utf-8") if path.exists() else ""
        if old == text:
            continue
        changed += 1
        if check:
            print(diff_text(old, text, str(path), "regenerated"))
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
    if check and changed:
        print(f"{changed} golden file(s) differ", file=sys.stderr)
        return 1
    return 0


def main(description: str, files: Callable[[], dict[Path, str]], argv: Sequence[str] | None = None) -> int:
    """A regeneration script's command line: ``--check`` compares with the stored files, else they are
    rewritten (``files`` builds every file's text)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--check", action="store_true", help="compare with the stored files, write nothing")
    args = parser.parse_args(argv)
    return regenerate(files(), args.check)

"""Perft-style regression counts for any game (python-chess's perft, docs/style.md §7).

A perft file lists positions — reached from a seed by a number of random plies — and, per depth, how many
sequences of decisions of that length start there (a sequence that reaches the end early counts once).
Chance outcomes are not plies: each is fixed by the seed and the length of the history
(``legal[Random(f"{seed}:{len(history)}").randrange(n)]``), so a count depends on the rules alone. A game's
generator script writes the file with ``perft_text``; its test checks it with ``check_perft``, which
stops at the first wrong depth and names the count under each first action ("divide").

File format, one position a line (``#`` starts a comment)::

    name | players | options (JSON) | seed | plies to reach the position | 1=3 2=6 3=30 ...
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from floe.core.game import State
from floe.core.match import Match

# How a position's random plies are chosen: (generator, legal actions, state) -> an action.
Chooser = Callable[[random.Random, list[int], State], int]


@dataclass(frozen=True)
class PerftPosition:
    """One line of a perft file."""

    name: str
    players: int
    options: dict[str, Any]
    seed: int
    plies: int
    counts: dict[int, int]  # depth -> sequences


def _uniform(rng: random.Random, legal: list[int], state: State) -> int:
    return rng.choice(legal)


def position(
    game: str, players: int, options: Mapping[str, Any], seed: int, plies: int, choose: Chooser = _uniform
) -> State:
    """The position ``plies`` decisions into the seeded match (fewer if the game ends first)."""
    match = Match.new(game, players=players, options=dict(options), seed=seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if match.is_over():
            break
        match.apply(choose(rng, match.legal_actions(), match.state))
    return match.state


def fix_chance(state: State, seed: int) -> None:
    """Resolve the chance nodes at ``state`` as perft does: each outcome fixed by ``seed`` and the length of
    the history."""
    # Fixed, yet specific to the path, since the list of outcomes depends on it.
    while state.is_chance_node():
        legal = state.legal_actions()
        state.apply_unchecked(legal[random.Random(f"{seed}:{len(state.history)}").randrange(len(legal))])


def perft(state: State, depth: int, seed: int = 0) -> int:
    """Decision sequences of length ``depth`` from ``state`` (shorter ones that reach the end count once)."""
    if depth == 0 or state.is_terminal():
        return 1
    if depth == 1:
        return len(state.legal_actions())
    total = 0
    for action in state.legal_actions():
        child = state.clone()
        child.apply_unchecked(action)
        fix_chance(child, seed)
        total += perft(child, depth - 1, seed)
    return total


def divide(state: State, depth: int, seed: int = 0) -> dict[str, int]:
    """``perft`` per first action, by its notation."""
    out = {}
    for action in state.legal_actions():
        child = state.clone()
        child.apply_unchecked(action)
        fix_chance(child, seed)
        out[state.action_to_string(action)] = perft(child, depth - 1, seed)
    return out


def read_perft_file(path: Path) -> list[PerftPosition]:
    """The positions of a perft file."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        name, players, options, seed, plies, counts = (part.strip() for part in line.split("|"))
        depths = {int(d): int(c) for d, c in (item.split("=") for item in counts.split())}
        out.append(PerftPosition(name, int(players), json.loads(options), int(seed), int(plies), depths))
    return out


def perft_text(
    game: str,
    positions: Mapping[str, tuple[int, dict[str, Any], int, int, int]],
    header: str,
    choose: Chooser = _uniform,
) -> str:
    """A perft file for ``positions`` (name -> players, options, seed, plies, deepest depth), after the
    comment lines of ``header``."""
    lines = [f"# {line}" for line in header.splitlines()]
    lines.append("# name | players | options (JSON) | seed | plies to reach the position | depth=count ...")
    for name, (players, options, seed, plies, max_depth) in positions.items():
        state = position(game, players, options, seed, plies, choose)
        counts = " ".join(f"{d}={perft(state, d, seed)}" for d in range(1, max_depth + 1))
        lines.append(
            f"{name} | {players} | {json.dumps(options, sort_keys=True)} | {seed} | {plies} | {counts}"
        )
    return "\n".join(lines) + "\n"


def check_perft(game: str, entry: PerftPosition, cap: int, choose: Chooser = _uniform) -> None:
    """Recount one position at every stored depth up to ``cap`` sequences; ``AssertionError`` with the
    divide of the first wrong depth."""
    state = position(game, entry.players, entry.options, entry.seed, entry.plies, choose)
    assert not state.is_terminal(), f"{entry.name}: the position is already over"
    for depth, expected in sorted(entry.counts.items()):
        if expected > cap:
            continue
        got = perft(state, depth, entry.seed)
        if got != expected:
            rows = "\n".join(f"  {text}: {n}" for text, n in divide(state, depth, entry.seed).items())
            raise AssertionError(
                f"{entry.name} depth {depth}: {got} sequences, expected {expected}; divide:\n{rows}"
            )

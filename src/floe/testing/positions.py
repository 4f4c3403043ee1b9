"""Checks of one position: who acts, the legal actions, chance, notation, refused actions, observations.

``check_position`` is cheap enough for every position of every game; ``check_position_fully`` adds the
costly ones (every notation, every seat's vector and view, refused actions) and runs at sampled positions.
"""

from __future__ import annotations

import json
import math
import random
from typing import Any

import numpy as np

from floe.core.errors import IllegalActionError
from floe.core.game import CHANCE, TERMINAL, GameSpec, State
from floe.testing.context import Where, short

_OUT_OF_RANGE = (-1, 10**6)


def check_position(
    state: State,
    where: Where,
    spec: GameSpec,
    rng: random.Random,
    seen: set[int],
    *,
    every: bool = False,
    illegal: int = 2,
) -> list[int]:
    """The cheap checks of one position; returns its legal actions. ``every``: ask ``is_legal`` of every
    legal action (else of a few).

    ``seen`` holds the action ids whose notation was already checked in this game: a new id is checked at
    once, so every id that ever becomes legal has its notation checked at least once.
    """
    # This runs after every action of every game: plain ``if``s, and messages built only on failure.
    with where.checking("legal_actions"):
        player = state.current_player()
        legal = list(state.legal_actions())
    if not (player in (CHANCE, TERMINAL) or 0 <= player < spec.players):
        raise where.failure("current_player", f"{player} is not a seat of {spec.players}, CHANCE or TERMINAL")
    if player == TERMINAL:
        if legal:
            raise where.failure("legal_actions", f"the game is over but {short(legal)} are legal")
        return legal
    if not legal:
        raise where.failure("legal_actions", "no legal action before the end of the game")
    if len(set(legal)) != len(legal) or legal != sorted(legal):
        raise where.failure("legal_actions", f"not sorted and unique: {short(legal)}")
    low, high = (
        (spec.player_actions, spec.num_distinct_actions) if player == CHANCE else (0, spec.player_actions)
    )
    if type(legal[0]) is not int or legal[0] < low or legal[-1] >= high:
        kind = "chance outcome" if player == CHANCE else "player action"
        bad = next(a for a in legal if type(a) is not int or not low <= a < high)
        raise where.failure("legal_actions", f"{bad!r} is not a {kind} id ({low}..{high - 1})")
    _check_is_legal(
        state, where, spec, legal if every or len(legal) <= 3 else rng.sample(legal, 3), rng, illegal
    )
    if player == CHANCE:
        _check_chance(state, where, spec, legal, rng)
    fresh = [a for a in legal if a not in seen]
    if fresh:
        check_notation(state, where, fresh)
        seen.update(fresh)
    return legal


def _check_is_legal(
    state: State, where: Where, spec: GameSpec, some: list[int], rng: random.Random, illegal: int
) -> None:
    """``is_legal`` agrees with the legal list: for ``some`` legal ids, random ids and ids out of range."""
    with where.checking("is_legal"):
        is_legal = state.is_legal
        if not all(map(is_legal, some)):
            refused = [a for a in some if not is_legal(a)]
            raise where.failure("is_legal", f"False for the legal action(s) {short(refused)}")
        legal_set = set(state.legal_actions())
        probes = [rng.randrange(spec.num_distinct_actions) for _ in range(illegal)]
        for a in (*probes, spec.num_distinct_actions, *_OUT_OF_RANGE):
            got = is_legal(a)
            if got != (a in legal_set):
                raise where.failure("is_legal", f"is_legal({a}) is {got}, the legal list disagrees")


def _check_chance(state: State, where: Where, spec: GameSpec, legal: list[int], rng: random.Random) -> None:
    """The outcomes are the legal actions, with positive probabilities summing to 1."""
    with where.checking("chance_outcomes"):
        outcomes = state.chance_outcomes()
        ids = [a for a, _ in outcomes]
        probabilities = [p for _, p in outcomes]
        drawn = state.sample_chance(rng)
    if sorted(ids) != legal:
        raise where.failure(
            "chance_outcomes", f"outcomes {short(ids)} are not the legal actions {short(legal)}"
        )
    if len(ids) > spec.max_chance_outcomes:
        raise where.failure(
            "chance_outcomes",
            f"{len(ids)} outcomes, more than spec.max_chance_outcomes = {spec.max_chance_outcomes}",
        )
    if min(probabilities) <= 0:
        raise where.failure("chance_outcomes", f"a probability is not positive: {short(probabilities)}")
    total = math.fsum(probabilities)
    if abs(total - 1.0) > 1e-9:
        raise where.failure("chance_outcomes", f"probabilities sum to {total!r}, not 1")
    if drawn not in set(legal):
        raise where.failure("sample_chance", f"drew {drawn!r}, not a legal outcome")


def check_notation(state: State, where: Where, actions: list[int]) -> None:
    """Every action's notation parses back to it, through ``string_to_action`` and ``parse_legal``."""
    with where.checking("notation round trip"):
        for a in actions:
            text = state.action_to_string(a)
            if not isinstance(text, str) or not text.strip():
                raise where.failure("notation round trip", f"action_to_string({a}) gave {text!r}")
            back = state.string_to_action(text)
            if back != a:
                raise where.failure("notation round trip", f"string_to_action({text!r}) gave {back}, not {a}")
            parsed = state.parse_legal(text)
            if parsed != a:
                raise where.failure("parse_legal", f"parse_legal({text!r}) gave {parsed}, not {a}")


def check_position_fully(
    state: State, where: Where, spec: GameSpec, legal: list[int], rng: random.Random, *, illegal: int = 4
) -> None:
    """The costly checks of one position (run at sampled positions and at the end)."""
    check_notation(state, where, legal)
    with where.checking("describe_action"):
        for a in legal:
            words = state.describe_action(a)
            where.expect(isinstance(words, str) and words != "", "describe_action", f"{words!r} for {a}")
    check_refused(state, where, spec, legal, rng, illegal)
    check_views(state, where, spec)


def check_refused(
    state: State, where: Where, spec: GameSpec, legal: list[int], rng: random.Random, count: int
) -> None:
    """An illegal ``apply`` raises ``IllegalActionError`` and leaves the state exactly as it was."""
    legal_set = set(legal)
    ids = [a for a in rng.sample(range(spec.num_distinct_actions), min(count, spec.num_distinct_actions))]
    ids = [a for a in ids if a not in legal_set] + [spec.num_distinct_actions, *_OUT_OF_RANGE]
    with where.checking("to_json"):
        before = state.to_json()
    for a in ids:
        try:
            state.apply(a)
        except IllegalActionError:
            pass
        except Exception as exc:  # the contract names the error; anything else is a finding
            raise where.failure(
                "illegal apply", f"apply({a}) raised {type(exc).__name__}: {exc}, not IllegalActionError"
            ) from exc
        else:
            raise where.failure("illegal apply", f"apply({a}) of an illegal action did not raise")
        after = state.to_json()
        where.same(before, after, "illegal apply", f"the refused apply({a}) changed the state")


def check_views(state: State, where: Where, spec: GameSpec) -> None:
    """Every seat's vector (shape, dtype, finite), every view's dict as JSON, the spectator, ``render``."""
    for seat in range(spec.players):
        with where.checking("observation_vector"):
            vec = state.observation_vector(seat)
        check_vector(vec, where, spec, seat)
    for view in (None, *range(spec.players)):
        with where.checking(f"observation_dict({view})"):
            state.observation(view)
            data = state.observation_dict(view)
            where.expect(isinstance(data, dict), "observation_dict", f"a {type(data).__name__}, not a dict")
            check_json(data, where, f"observation_dict({view})")
            text = state.render(view)
            where.expect(isinstance(text, str), "render", f"render({view}) gave a {type(text).__name__}")


def check_vector(vec: Any, where: Where, spec: GameSpec, seat: int) -> None:
    """A float32 array of shape ``(spec.observation_size,)`` with finite values."""
    check = f"observation_vector({seat})"
    where.expect(isinstance(vec, np.ndarray), check, f"a {type(vec).__name__}, not a numpy array")
    where.expect(vec.dtype == np.float32, check, f"dtype {vec.dtype}, not float32")
    where.expect(
        vec.shape == (spec.observation_size,), check, f"shape {vec.shape}, not ({spec.observation_size},)"
    )
    where.expect(bool(np.isfinite(vec).all()), check, "a value is not finite")


def check_json(data: Any, where: Where, check: str) -> None:
    """``data`` is plain JSON: it serialises (no NaN) and reads back equal."""
    try:
        text = json.dumps(data, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise where.failure(check, f"not JSON-serialisable: {exc}") from exc
    back = json.loads(text)
    where.same(data, back, check, "changes through JSON text")

"""Copies of a state: clones, JSON and pickle round trips, records, and copies that play on in step.

A copy made at a sampled position becomes a ``Follower``: it receives the same actions as the game for a
few steps and must stay identical to it, which catches copies that share a list with the original
(either one moving changes the other) and restored states whose caches or derived fields are wrong.
"""

from __future__ import annotations

import json
import pickle
import random
from dataclasses import dataclass
from typing import Any

from floe.core.game import Game, State
from floe.core.record import Record
from floe.testing.context import Where
from floe.testing.positions import check_json


@dataclass
class Follower:
    """A copy of the game's state that must keep equal to it while both receive the same actions."""

    label: str  # "clone", "state_from_json" or "pickle"
    state: State
    steps: int  # actions still to follow
    frozen: dict[str, Any] | None = None  # a clone's JSON: it must not change while the original moves


def make_followers(game: Game, state: State, where: Where, rng: random.Random, steps: int) -> list[Follower]:
    """Check a clone, a JSON round trip and a pickle round trip of ``state``; return them to follow."""
    with where.checking("to_json"):
        data = state.to_json()
        check_json(data, where, "to_json")
        legal = list(state.legal_actions())
    out = []
    with where.checking("clone"):
        clone = state.clone()
    where.expect(clone is not state, "clone", "clone() returned the state itself")
    _same(where, "clone", data, clone, legal)
    _clone_moves_alone(state, clone, where, rng, data)
    out.append(Follower("clone", clone, steps, frozen=data))
    with where.checking("state_from_json"):
        restored = game.state_from_json(json.loads(json.dumps(data)))
    _same(where, "state_from_json", data, restored, legal)
    out.append(Follower("state_from_json", restored, steps))
    with where.checking("pickle"):
        unpickled = pickle.loads(pickle.dumps(state))
    _same(where, "pickle", data, unpickled, legal)
    out.append(Follower("pickle", unpickled, steps))
    return out


def _same(where: Where, check: str, data: dict[str, Any], copy: State, legal: list[int]) -> None:
    """``copy`` is the position whose JSON is ``data`` and whose legal actions are ``legal``."""
    with where.checking(check):
        got = copy.to_json()
        where.same(data, got, check, "the copy differs")
        copy_legal = list(copy.legal_actions())
    where.same(legal, copy_legal, check, "the copy's legal actions differ")


def _clone_moves_alone(
    state: State, clone: State, where: Where, rng: random.Random, data: dict[str, Any]
) -> None:
    """A second clone plays a few random actions: neither the original nor the first clone may change."""
    with where.checking("clone independence"):
        probe = state.clone()
        for _ in range(3):
            if probe.is_terminal():
                break
            probe.apply(rng.choice(probe.legal_actions()))
        now = state.to_json()
        where.same(data, now, "clone independence", "moving a clone changed the original")
        other = clone.to_json()
        where.same(data, other, "clone independence", "moving a clone changed another clone")


def follow(followers: list[Follower], state: State, action: int, where: Where) -> list[Follower]:
    """Apply ``action`` (already applied to ``state``) to every follower; those that finish are compared
    with ``state`` in full. Returns the followers still following."""
    kept = []
    for f in followers:
        check = f"{f.label} plays on"
        with where.checking(check):
            if f.frozen is not None:
                # The original has moved on: a clone sharing its lists would have moved with it.
                now = f.state.to_json()
                where.same(f.frozen, now, "clone independence", "moving the original changed its clone")
                f.frozen = None
            f.state.apply(action)
            f.steps -= 1
            copy_legal, legal = list(f.state.legal_actions()), list(state.legal_actions())
            where.same(legal, copy_legal, check, "legal actions differ")
            if f.steps > 0 and not state.is_terminal():
                kept.append(f)
                continue
            mine, theirs = f.state.to_json(), state.to_json()
            where.same(theirs, mine, check, "the copy drifted")
    return kept


def check_record(game: Game, seed: int, state: State, where: Where) -> None:
    """The record of ``state`` survives JSON text and replays to the identical state."""
    with where.checking("record"):
        record = Record.of(game, seed, state)
        text = record.dumps()
        loaded = Record.from_json(json.loads(text))
        where.expect(loaded == record, "record", "the record changes through its JSON text")
        replayed = loaded.replay()
        mine, theirs = replayed.to_json(), state.to_json()
    where.same(theirs, mine, "record replay", "the replay differs from the game")
    if state.is_terminal():
        with where.checking("record"):
            expected = {"scores": state.scores(), "ranking": state.ranking()}
        where.expect(record.result == expected, "record", f"result {record.result} != {expected}")

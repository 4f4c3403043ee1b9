"""Traces of seeded play for the compiled engines' differential tests (``test_arctic_native.py``,
``test_arche_native.py``): run in the test's process (the compiled engine) and as a script with
``FLOE_NATIVE=0`` (the Python reference), and compared. Also ``python_module``: a compiled module's source.

Imports only Floe, so that the script runs by its path. Input (stdin): JSON ``{"game": ..., "games": [...],
"searches": [...], "bots": [...]}``; output (stdout): JSON with the engine in use and one digest per position.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import json
import random
import sys
from types import ModuleType
from typing import Any

from floe.bots.registry import make_bot
from floe.core.game import State
from floe.core.match import Match
from floe.core.registry import make_game


def python_module(game: str, name: str) -> ModuleType:
    """The engine module ``name`` of ``game`` as Python: itself unless it is compiled, else its source run as
    a module of its own (with the same imports). A compiled module keeps no docstrings, and its functions
    call each other directly, so a test that reads the examples or replaces a function needs the source."""
    module = importlib.import_module(f"floe.games.{game}.{name}")
    native = importlib.import_module(f"floe.games.{game}.native")
    if name not in native.COMPILED or native.status() != "mypyc":
        return module
    spec = importlib.util.spec_from_file_location(f"_python_{game}_{name}", native.HERE / f"{name}.py")
    assert spec is not None and spec.loader is not None
    source = importlib.util.module_from_spec(spec)
    source.__package__ = f"floe.games.{game}"
    sys.modules[spec.name] = source  # dataclasses look their module up there
    spec.loader.exec_module(source)
    return source


def digest(st: State, players: int) -> str:
    """One position, everything a caller can read of it: who acts, the legal list (and chance
    probabilities), the full state, every seat's and a spectator's observation, the scores at the end."""
    over = st.is_terminal()
    seen = {
        "to_act": st.current_player(),
        "legal": st.legal_actions(),
        "chance": st.chance_outcomes(),
        "state": st.to_json(),
        "observations": [st.observation_dict(seat) for seat in (None, *range(players))],
        "scores": [st.scores(), st.score_breakdowns(), st.ranking()] if over else None,
    }
    return hashlib.sha256(json.dumps(seen, sort_keys=True).encode()).hexdigest()


def play(game: str, players: int, options: dict[str, Any], seed: int) -> list[str]:
    """A seeded random game: the digest of every position, the first to the last."""
    st = make_game(game, players, options).new_initial_state()
    rng = random.Random(seed)
    out = [digest(st, players)]
    while not st.is_terminal():
        st.apply(rng.choice(st.legal_actions()))
        out.append(digest(st, players))
    return out


def search(game: str, players: int, seed: int, steps: int, iterations: int) -> list[list[Any]]:
    """ISMCTS's statistics (action, visits, value) from the position ``steps`` random actions into a
    seeded game, with its default settings for that player count."""
    match = Match.new(game, players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        match.apply(rng.choice(match.legal_actions()))
    state = match.state
    if state.is_terminal():
        raise ValueError(f"the game ended before {steps} actions")
    seat = state.current_player()
    bot = make_bot(f"ismcts:it={iterations}", match.game, seat, seed)
    rows = bot.analyse(state.observation(seat), state.legal_actions())  # type: ignore[attr-defined]
    return [list(row) for row in rows]


def bot_game(game: str, players: int, bot: str, seed: int) -> list[int]:
    """A whole game of ``bot`` in every seat (chance drawn from ``seed``): its actions."""
    match = Match.new(game, players=players, seed=seed)
    bots = [make_bot(bot, match.game, seat, seed + seat) for seat in range(players)]
    while not match.is_over():  # the match draws chance itself, from ``seed``
        seat = match.current_player()
        match.apply(bots[seat].choose(match.state.observation(seat), match.legal_actions()))
    return list(match.state.history)  # type: ignore[attr-defined]


def run(spec: dict[str, Any]) -> dict[str, Any]:
    """Every trace ``spec`` asks for, and which engine made them."""
    game = spec["game"]
    return {
        "engine": make_game(game, spec["games"][0]["players"]).engine(),
        "rules": importlib.import_module(f"floe.games.{game}.rules").__file__,
        "games": [play(game, g["players"], g["options"], g["seed"]) for g in spec["games"]],
        "searches": [search(game, **s) for s in spec["searches"]],
        "bots": [bot_game(game, **b) for b in spec["bots"]],
    }


if __name__ == "__main__":
    json.dump(run(json.load(sys.stdin)), sys.stdout)

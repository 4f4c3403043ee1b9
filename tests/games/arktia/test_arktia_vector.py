"""Arktia's observation vector, field by field, against a reference encoder written from its documented
layout (``floe.games.arktia.vector``) that reads only the observation's JSON dict, never the state.

So a vector that lost who stands or who controls a field, a seat's supply, or the step would differ here.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from floe.core.registry import make_game

SIZES = "gdt"
STEPS = ("neutral-setup", "turn", "keep", "melt", "over")
CELL, SEAT, GLOBAL, MAX_SEATS = 21, 10, 13, 4


def colour_slot(name: str, seat: int, n: int) -> int:
    """A colour's slot relative to the observing seat: own 0, then clockwise; neutral 4."""
    return 4 if name == "n" else (int(name[1:]) - 1 - seat) % n


def reference(view: dict[str, Any], seat: int, n: int, max_turns: int) -> np.ndarray:
    board = view["board"]
    out = np.zeros(CELL * len(board) + SEAT * MAX_SEATS + GLOBAL, dtype=np.float32)
    for c, field in enumerate(board):
        base = CELL * c
        if field["melted"]:
            continue
        out[base] = 1.0
        for piece in field.get("pieces", []):
            out[base + 1 + 5 * SIZES.index(piece["size"]) + colour_slot(piece["colour"], seat, n)] = 1.0
        if "control" in field:
            out[base + 16 + colour_slot(field["control"], seat, n)] = 1.0
    seats_base = CELL * len(board)
    for q, info in enumerate(view["seats"]):
        base = seats_base + SEAT * ((q - seat) % n)
        for s, size in enumerate(SIZES):
            out[base + s] = info["supply"][size] / 3.0
            out[base + 3 + s] = info["neutral_supply"][size]
        out[base + 6] = info["captured"] / 27.0
        out[base + 7] = info["melted"] / len(board)
        out[base + 8] = 0.0 if info["status"] == "active" else 1.0
        out[base + 9] = 1.0 if view["player"] == q else 0.0
    g = seats_base + SEAT * MAX_SEATS
    out[g + STEPS.index(view["step"])] = 1.0
    out[g + 5] = 1.0 if view["seats"][seat]["turns"] < 2 else 0.0
    out[g + 6] = 1.0 if view["melt_due"] else 0.0
    if view["pending_keep"]:
        out[g + 7 + colour_slot(view["pending_keep"][0], seat, n)] = 1.0
    out[g + 12] = view["turn"] / max_turns
    return out


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_entry_matches_the_reference_encoder(players: int) -> None:
    checked = 0
    for seed in range(8):
        rng = random.Random(seed)
        options = {"out_pieces": "remove"} if seed % 2 else {}
        game = make_game("arktia", players, options)
        state = game.new_initial_state()
        while not state.is_terminal():
            for seat in range(players):
                got = state.observation_vector(seat)
                want = reference(state.observation_dict(seat), seat, players, game.options["max_turns"])
                assert got.shape == want.shape and got.dtype == np.float32
                different = np.flatnonzero(got != want)
                assert different.size == 0, (
                    f"seed {seed}, action {len(state.history)}, entries {different[:8]}"
                )
                checked += 1
            legal = state.legal_actions()
            playing = [a for a in legal if state.action_to_string(a) != "stop"] or legal  # longer games
            state.apply(rng.choice(playing))
    assert checked > 1000


def test_the_controller_of_a_field_is_encoded() -> None:
    """A direct check of the piece the issue named: the control slot follows the top piece's owner."""
    game = make_game("arktia", 2)
    state = game.new_initial_state()
    rng = random.Random(3)
    while not any("control" in f for f in state.observation_dict(0)["board"] if f.get("pieces")):
        state.apply(rng.choice(state.legal_actions()))
    view = state.observation_dict(0)
    c = next(k for k, f in enumerate(view["board"]) if "control" in f)
    for seat in (0, 1):
        vec = state.observation_vector(seat)
        slot = colour_slot(view["board"][c]["control"], seat, 2)
        assert vec[CELL * c + 16 + slot] == 1.0 and vec[CELL * c + 16 : CELL * c + 21].sum() == 1.0

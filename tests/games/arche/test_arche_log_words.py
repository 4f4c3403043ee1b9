"""Arche's log lines in the viewer's words: a figure placed for the viewer is "You put a figure on …"."""

from __future__ import annotations

import random

from floe.core.present import log_line, presenter_for
from floe.games.arche.game import ArcheGame


def test_figures_are_told_as_yours_to_their_owner_and_as_a_seats_to_the_others() -> None:
    presenter = presenter_for("arche")
    yours = others = 0
    for seed in range(3):
        rng = random.Random(seed)
        state = ArcheGame(3).new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                action = rng.choices(outcomes, weights)[0]
            else:
                action = rng.choice(state.legal_actions())
            actor = None if state.is_chance_node() else state.current_player()
            if actor is not None:
                mine = log_line(presenter, state, action, actor) or ""
                spectator = log_line(presenter, state, action, None) or ""
                assert "You put" not in spectator, (mine, spectator)
                if f"P{actor + 1} puts a figure on" in spectator:
                    assert "You put a figure on" in mine, (mine, spectator)
                    yours += 1
                others += "puts a figure on" in spectator
            state.apply(action)
    assert yours > 0 and others > 0

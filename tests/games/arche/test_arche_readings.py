"""Two readings of the short rules (seed 004) offered as options, the defaults as the rulebook reads
(docs/arche-rules.md): the Chimpanzee's chip "kann" (may) be placed, so it may be declined
(``chimp_chip=may``; ``must``: forced); a shy herbivore and provisions (``shy_with_provisions``: the table
says no for herbivores and yes for shy animals; the default keeps the herbivores' no)."""

from __future__ import annotations

import random

from floe.games.arche import actions as act
from floe.games.arche.config import RulesConfig, pair_ok
from floe.games.arche.game import ArcheGame, ArcheState


def _chimp_decision(options: dict[str, object]) -> ArcheState:
    """The first Chimpanzee chip decision of a random game (seed 0 has one)."""
    state = ArcheGame(3, options).new_initial_state()
    rng = random.Random(0)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply(rng.choices(outcomes, weights)[0])
            continue
        legal = state.legal_actions()
        if any(act.CHIP <= a < act.CHIP + 4 for a in legal):
            return state
        state.apply(rng.choice(legal))
    raise AssertionError("no Chimpanzee decision in the game")


def test_the_chimpanzees_chip_may_be_declined_by_default() -> None:
    state = _chimp_decision({})
    assert act.NO_CHIP in state.legal_actions()
    assert state.parse_legal("no-chip") == act.NO_CHIP
    chips, bank = list(state.halves), state.bank
    state.apply(act.NO_CHIP)
    assert list(state.halves) == chips and state.bank == bank, "declined: no chip moves"
    assert "Put no chip under a figure" in [state.describe_action(act.NO_CHIP)]


def test_chimp_chip_must_forces_the_chip() -> None:
    state = _chimp_decision({"chimp_chip": "must"})
    legal = state.legal_actions()
    assert act.NO_CHIP not in legal and all(act.CHIP <= a < act.CHIP + 4 for a in legal)


def _pair(a: str, b: str, **options: object) -> bool:
    cfg = RulesConfig.from_options(options)
    d = cfg.deck
    return pair_ok(d, d.card_id(a), d.card_id(b), cfg.options)


def test_a_shy_herbivore_and_provisions_by_the_option() -> None:
    assert not _pair("hare", "nuts") and not _pair("nuts", "hare"), "default: the herbivores' no"
    assert _pair("hare", "nuts", shy_with_provisions=True) and _pair("nuts", "hare", shy_with_provisions=True)
    # Only shy herbivores: a herbivore that is not shy, and an omnivore, still never share with provisions.
    assert not _pair("cow", "nuts", shy_with_provisions=True)
    cfg = RulesConfig.from_options({"shy_with_provisions": True})
    hare, nuts = cfg.deck.card_id("hare"), cfg.deck.card_id("nuts")
    assert cfg.compat[hare] >> nuts & 1, "the engine's table follows the option"

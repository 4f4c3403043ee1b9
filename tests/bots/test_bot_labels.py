"""How people see bots: friendly names with their budget, and the lobby's bots in order of measured
strength, both from each game's entry (``GameEntry.bot_labels``, ``bot_strength``)."""

from __future__ import annotations

import dataclasses

import pytest

from floe.bots.labels import bot_label, lobby_bots
from floe.bots.registry import bot_names
from floe.bots.specs import parse_bot_spec
from floe.core.registry import entries, entry


@pytest.mark.parametrize(
    ("spec", "label"),
    [
        ("baseline", "Baseline (BGA's automatic player)"),
        ("ismcts:ms=500", "ISMCTS · 0.5 s"),
        ("ismcts:ms=1000", "ISMCTS · 1 s"),
        ("ismcts:ms=1500,c=0.7", "ISMCTS · 1.5 s · c=0.7"),
        ("ismcts:it=200", "ISMCTS · 200 iterations"),
        ("ismcts:it=1", "ISMCTS · 1 iteration"),
        ("random", "Random"),
        ("greedy:worlds=4", "Greedy (one move ahead) · worlds=4"),
        ("ismcts:ms=fast", "ISMCTS · ms=fast"),  # not a number: shown as given
        ("unknown_bot", "Unknown_bot"),
        ("ismcts:nokey", "ismcts:nokey"),  # does not parse: the spec itself
    ],
)
def test_an_arctic_bot_for_people(spec: str, label: str) -> None:
    assert bot_label(entry("arctic"), spec) == label


def test_the_lobby_lists_arctic_bots_by_measured_strength() -> None:
    # docs/strength.md: greedy wins 40.5% of its games against the baseline.
    order = [parse_bot_spec(spec)[0] for spec in lobby_bots(entry("arctic"))]
    assert order.index("greedy") < order.index("baseline") < order.index("ismcts")
    assert lobby_bots(entry("arctic"))[-3:] == ["ismcts:ms=200", "ismcts:ms=500", "ismcts:ms=1000"]


def test_the_strength_rank_orders_the_lobby_whatever_the_order_listed() -> None:
    listed = dataclasses.replace(
        entry("arctic"), lobby_bots=("ismcts:ms=500", "baseline", "random", "greedy")
    )
    assert lobby_bots(listed) == ["random", "greedy", "baseline", "ismcts:ms=500"]
    assert lobby_bots(listed, {"random", "baseline"}) == ["random", "baseline"]


def test_a_game_that_gives_no_strength_keeps_its_listed_order() -> None:
    plain = dataclasses.replace(entry("arctic"), bot_strength={}, bot_labels={})
    assert lobby_bots(plain) == list(plain.lobby_bots)
    assert bot_label(plain, "baseline") == "Baseline"


@pytest.mark.parametrize("game", [e.name for e in entries()])
def test_every_game_ranks_and_names_the_bots_it_suggests(game: str) -> None:
    info = entry(game)
    names = {parse_bot_spec(spec)[0] for spec in info.lobby_bots}
    assert names <= set(bot_names(game))
    if info.bot_strength:
        assert names <= set(info.bot_strength), "a ranked game ranks every bot it suggests"
    for spec in info.lobby_bots:
        assert ":" not in bot_label(info, spec) and "=" not in bot_label(info, spec), spec


@pytest.mark.parametrize("lang", ["de", "it", "pl"])
def test_a_bots_label_reads_in_the_language_in_force(lang: str) -> None:
    """The name through the game's catalog (or Floe's), the iterations counted in the language; every
    game's own labels are translated (the catalog check covers the ids, this the wording's use)."""
    from floe.core.i18n import using

    with using(lang):
        assert "iteration" not in bot_label(entry("arctic"), "ismcts:it=200")
        assert bot_label(entry("arctic"), "random") != "Random"
        for e in entries():
            for spec, label in e.bot_labels.items():
                if label not in ("ISMCTS", "MCTS"):
                    assert bot_label(e, spec) != label, (e.name, spec, lang)
    with using("pl"):
        assert bot_label(entry("arctic"), "ismcts:it=2").endswith("2 iteracje")

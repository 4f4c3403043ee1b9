"""Arctic states as data: refused actions that name Arctic's own ids, the JSON fields (docs/style.md §9).

The generic round trips (JSON, pickle, records), clone independence and refused random actions are
checked by the conformance kit in ``test_kit.py``.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from floe.core.errors import IllegalActionError
from floe.core.record import Record
from floe.games.arctic import actions as act
from floe.games.arctic.game import ArcticGame
from floe.games.arctic.state import STEP_NAMES

from .invariants import random_options


def games(count: int, seed: int) -> list[tuple[ArcticGame, list[int]]]:
    """Random full games (their game and action list) under random options."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        players = rng.choice([2, 3, 4])
        game = ArcticGame(players, random_options(rng, players))
        st = game.new_initial_state()
        while not st.is_terminal():
            assert len(st.history) < 4000, "the game does not end"
            st.apply(rng.choice(st.legal_actions()))
        out.append((game, list(st.history)))
    return out


def test_chance_outcome_is_illegal_for_a_player_and_decisions_at_chance() -> None:
    game = ArcticGame(2, {"first_player": 0})
    st = game.new_initial_state()
    assert st.is_chance_node()
    with pytest.raises(IllegalActionError):
        st.apply(act.STOP)
    while st.is_chance_node():
        st.apply(st.legal_actions()[0])
    hand_card = st.hands[0][0]
    before = st.to_json()
    with pytest.raises(IllegalActionError):
        st.apply(act.CARD + st.deck[0])
    with pytest.raises(IllegalActionError):
        st.apply(act.PLACE + st.deck[0])  # a card not in the hand
    assert st.to_json() == before
    st.apply(act.PLACE + hand_card)


def test_to_json_is_plain_json_with_every_field() -> None:
    game, history = games(1, 30)[0]
    st = game.new_initial_state()
    for a in history[:120]:
        st.apply(a)
    data = st.to_json()
    assert json.loads(json.dumps(data)) == data
    for key in (
        "hands",
        "piles",
        "penalties",
        "river",
        "deck",
        "tokens",
        "holder",
        "powers",
        "totems",
        "step",
    ):
        assert key in data
    assert STEP_NAMES[data["step"]]


OLD_RECORDS = Path(__file__).resolve().parents[2] / "data" / "arctic-records"


@pytest.mark.parametrize("path", sorted(OLD_RECORDS.glob("*.json")), ids=lambda p: p.stem)
def test_records_from_before_the_penalties_option_replay_exactly(path: Path) -> None:
    """Records of version arctic-2 store ``owner_sees_penalties`` (true: BGA's seen zone; false: blind
    Polar bear draws), not ``penalties``; they replay to their stored scores, every action legal."""
    record = Record.load(path)
    assert record.version == "arctic-2" and "penalties" not in record.options
    state = record.replay()  # raises RecordError if an action became illegal or the scores changed
    assert state.is_terminal() and record.result is not None
    assert state.scores() == record.result["scores"]
    expected = "seen" if record.options["owner_sees_penalties"] else "hidden_blind"
    assert state.config.penalties == expected  # type: ignore[attr-defined]

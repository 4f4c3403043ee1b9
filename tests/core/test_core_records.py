"""Records, matches and the registry (``floe.core``), exercised with Arctic, the one registered game."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from floe.core.errors import IllegalActionError, OptionError, RecordError, UnknownGameError
from floe.core.game import CHANCE
from floe.core.match import Match
from floe.core.record import Record
from floe.core.registry import game_names, make_game


def finished_match(players: int = 2, seed: int = 1, options: dict[str, Any] | None = None) -> Match:
    match = Match.new("arctic", players=players, seed=seed, options=options)
    rng = random.Random(seed)
    while not match.is_over():
        assert len(match.state.history) < 4000, "the game does not end"
        match.apply(rng.choice(match.legal_actions()))
    return match


# --- replay ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("preset", ["rules", "bga"])
def test_record_replays_to_the_identical_state(players: int, preset: str) -> None:
    for seed in range(3):
        match = finished_match(players, seed, {"preset": preset})
        record = match.record()
        assert record.result == {"scores": match.state.scores(), "ranking": match.state.ranking()}
        assert record.version == match.game.spec.version and record.seed == seed
        replayed = record.replay()
        assert replayed == match.state  # == compares the full JSON, history included
        assert replayed.to_json() == match.state.to_json()


def test_unfinished_record_replays_and_has_no_result() -> None:
    match = Match.new("arctic", players=3, seed=4)
    rng = random.Random(4)
    for _ in range(40):
        match.apply(rng.choice(match.legal_actions()))
    record = match.record()
    assert record.result is None
    assert record.replay() == match.state


def test_json_text_round_trip(tmp_path: Path) -> None:
    match = finished_match(3, 5, {"preset": "bga"})
    record = match.record()
    text = record.dumps()
    data = json.loads(text)
    assert data["actions"] == list(record.actions) and data["result"] == record.result
    again = Record.from_json(data)
    assert again == record and again.result == record.result
    path = tmp_path / "game.json"
    record.save(path)
    loaded = Record.load(path)
    assert loaded == record and loaded.result == record.result
    assert loaded.replay() == match.state
    assert text.count("\n") > len(record.actions)  # one action per line


def test_same_seed_and_moves_give_the_same_match() -> None:
    a, b = finished_match(4, 9), finished_match(4, 9)
    assert a.state == b.state and a.record().dumps() == b.record().dumps()
    assert finished_match(4, 10).state != a.state


def test_match_never_waits_on_chance_and_refuses_illegal_moves() -> None:
    match = Match.new("arctic", players=2, seed=3)
    assert match.current_player() != CHANCE
    before = match.state.to_json()
    illegal = next(a for a in range(2000) if a not in match.legal_actions())
    with pytest.raises(IllegalActionError):
        match.apply(illegal)
    assert match.state.to_json() == before
    # Without a seed each match draws its own, in the range records and the CLI accept.
    seeds = {Match.new("arctic", players=2).seed for _ in range(5)}
    assert len(seeds) == 5 and all(0 <= s < 2**31 for s in seeds)


# --- corrupt records -------------------------------------------------------------------------------------


def base_data() -> dict[str, Any]:
    return finished_match(2, 2).record().to_json()


def test_bad_json_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"game": "arctic", "players": 2, "actions": [', encoding="utf-8")
    with pytest.raises(RecordError, match="not valid JSON"):
        Record.load(path)
    with pytest.raises(RecordError, match="cannot read"):
        Record.load(tmp_path / "missing.json")


@pytest.mark.parametrize("field", ["game", "players", "actions"])
def test_missing_fields(field: str) -> None:
    data = base_data()
    del data[field]
    with pytest.raises(RecordError, match=field):
        Record.from_json(data)


def test_wrongly_typed_fields() -> None:
    with pytest.raises(RecordError):
        Record.from_json(["not", "an", "object"])
    for key, value in (("options", []), ("seed", "x"), ("players", "2")):
        data = base_data()
        data[key] = value
        with pytest.raises(RecordError, match=key):
            Record.from_json(data)
    data = base_data()
    data["actions"][4] = 17
    with pytest.raises(RecordError, match="action 5 "):
        Record.from_json(data)


def test_unknown_game_and_bad_header() -> None:
    for key, value in (("game", "chess"), ("players", 5), ("players", 1), ("options", {"colour": "red"})):
        data = base_data()
        data[key] = value
        with pytest.raises(RecordError, match="record header"):
            Record.from_json(data).replay()


def test_unparsable_action_names_the_first_bad_action() -> None:
    data = base_data()
    data["actions"][30] = "dance the tango"
    data["actions"][40] = "also nonsense"
    with pytest.raises(RecordError) as info:
        Record.from_json(data).replay()
    assert "action 31 " in str(info.value) and "dance the tango" in str(info.value)


def test_illegal_action_names_the_action() -> None:
    data = base_data()
    k = next(i for i, text in enumerate(data["actions"]) if text.startswith("place "))
    data["actions"][k] = "main left" if data["actions"][k] != "main left" else "stop"
    with pytest.raises(RecordError) as info:
        Record.from_json(data).replay()
    assert f"action {k + 1} " in str(info.value) and data["actions"][k] in str(info.value)


def test_extra_actions_after_the_end() -> None:
    data = base_data()
    n = len(data["actions"])
    data["actions"].append("stop")
    with pytest.raises(RecordError) as info:
        Record.from_json(data).replay()
    assert f"action {n + 1} " in str(info.value) and "over" in str(info.value)


def test_mismatching_result_scores() -> None:
    data = base_data()
    data["result"]["scores"] = [s + 1 for s in data["result"]["scores"]]
    with pytest.raises(RecordError, match="scores"):
        Record.from_json(data).replay()


def test_truncated_record_replays_to_an_unfinished_game() -> None:
    data = base_data()
    data["actions"] = data["actions"][:50]
    del data["result"]
    state = Record.from_json(data).replay()
    assert not state.is_terminal() and len(state.history) == 50


# --- registry --------------------------------------------------------------------------------------------


def test_registry_finds_arctic_by_name_only() -> None:
    assert "arctic" in game_names()
    assert make_game(" Arctic ", 3).name == "arctic"
    with pytest.raises(UnknownGameError, match="known games"):
        make_game("tic-tac-toe", 2)
    with pytest.raises(OptionError):
        make_game("arctic", 5)
    with pytest.raises(OptionError, match="preset"):
        make_game("arctic", 2, {"preset": "nope"})


def test_record_claiming_a_result_must_reach_the_end() -> None:
    data = base_data()
    data["actions"] = data["actions"][:50]
    with pytest.raises(RecordError, match="do not end the game"):
        Record.from_json(data).replay()


def test_bug_record_ranking_is_checked() -> None:
    data = base_data()
    data["result"] = dict(data["result"], ranking=list(reversed(data["result"]["ranking"])))
    with pytest.raises(RecordError, match="ranking"):
        Record.from_json(data).replay()

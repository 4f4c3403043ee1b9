"""``floe.server.tables`` in-process: seats and tokens, a table's status and turn, the refusals of
``check_move``, chance drawn from the secret seed, the turn timer, and what each viewer is sent (log, view,
legal choices, result, replay frames). The server tests drive the same code through a real server."""

from __future__ import annotations

import hashlib
import random
import time

import pytest

from floe.core import present
from floe.core.errors import FloeError
from floe.core.game import State
from floe.core.registry import make_game
from floe.server.refusal import Refusal
from floe.server.store import TableRow
from floe.server.tables import Seat, Table, chance_rng, new_token, token_hash

TOKEN = "secret-token-of-seat-0"


def make_table(
    *,
    claimed: bool = True,
    timer: float | None = None,
    actions: list[int] | None = None,
    options: dict[str, object] | None = None,
) -> Table:
    """Arctic for 2: seat 0 a person (``TOKEN``), seat 1 the random bot."""
    person = Seat("person", "Ann", token_hash=token_hash(TOKEN), claimed=claimed).stored()
    bot = Seat("bot", "Bot", bot="random").stored()
    row = TableRow(
        id="t1", game="arctic", players=2, options=options or {}, seed=1234, created=1.5, public=True,
        turn_timer=timer, seats=[person, bot], actions=actions or [],
    )  # fmt: skip
    table = Table.from_row(row)
    table.seats[0].left_at = None
    if not actions:
        start = table.state.clone()
        Table.resolve_chance(start, row.seed)
        table.commit(start)
    return table


def play_to(table: Table, seat: int) -> None:
    """Play the first legal action until ``seat`` is to act."""
    while table.state.current_player() != seat:
        table.commit(table.after(table.state.legal_actions()[0]))


def play_out(table: Table) -> None:
    while not table.state.is_terminal():
        table.commit(table.after(table.state.legal_actions()[0]))


def test_tokens_are_stored_as_their_sha256_and_compared_whole() -> None:
    tokens = {new_token() for _ in range(20)}
    assert len(tokens) == 20 and all(len(t) == 24 for t in tokens), "18 random bytes, URL-safe base64"
    assert token_hash("abc") == hashlib.sha256(b"abc").hexdigest()
    seat = Seat("person", "Ann", token_hash=token_hash(TOKEN))
    assert seat.matches(TOKEN)
    assert not seat.matches(TOKEN + "x") and not seat.matches("")
    assert not Seat("bot", "Bot", bot="random").matches(TOKEN)


def test_a_seat_is_stored_without_its_connections_and_comes_back_gone() -> None:
    seat = Seat("person", "Ann", None, token_hash("t"), True, "browser", connections=2, away=True)
    stored = seat.stored()
    assert stored == {
        "kind": "person", "name": "Ann", "bot": None, "token_hash": token_hash("t"), "claimed": True,
        "joined_by": "browser", "seen": False,
    }  # fmt: skip
    before = time.time()
    back = Seat.from_stored(stored)
    assert (back.kind, back.name, back.bot, back.token_hash, back.claimed, back.joined_by) == (
        "person", "Ann", None, token_hash("t"), True, "browser",
    )  # fmt: skip
    assert (back.connections, back.away, back.seen) == (0, False, False)
    assert Seat.from_stored({**stored, "seen": True}).seen
    assert back.left_at is not None and before <= back.left_at <= time.time()
    bot = Seat.from_stored({"kind": "bot", "name": "B", "bot": "random"})
    assert (bot.bot, bot.token_hash, bot.claimed, bot.joined_by) == ("random", None, False, None)


def test_seat_summary_is_public_facts_only() -> None:
    person = Seat("person", "Ann", token_hash=token_hash("t"), connections=1)
    assert person.summary(0) == {
        "seat": 0, "kind": "person", "name": "Ann", "bot": None, "label": None, "claimed": False,
        "connected": True, "away": False,
    }  # fmt: skip
    bot = Seat("bot", "Bot", bot="ismcts:ms=500", away=True)
    assert bot.summary(1, "arctic") == {
        "seat": 1, "kind": "bot", "name": "Bot", "bot": "ismcts:ms=500", "label": "ISMCTS · 0.5 s",
        "claimed": True, "connected": False, "away": True,
    }  # fmt: skip


def draw_chance(state: State, seed: int) -> None:
    """The chance outcomes drawn as the server documents it: from ``floe/<seed>/<version>``."""
    while state.is_chance_node():
        state.apply_unchecked(state.sample_chance(random.Random(f"floe/{seed}/{len(state.history)}")))


def test_chance_depends_on_the_seed_and_version_only() -> None:
    assert chance_rng(7, 3).random() == random.Random("floe/7/3").random()
    assert chance_rng(7, 3).random() != chance_rng(7, 4).random()
    assert chance_rng(7, 3).random() != chance_rng(8, 3).random()
    table = make_table()
    expected = table.game.new_initial_state()
    draw_chance(expected, 1234)
    assert table.state.history == expected.history
    while len(table.state.history) < 60 and not table.state.is_terminal():
        action = table.state.legal_actions()[0]
        expected.apply(action)
        draw_chance(expected, 1234)
        table.commit(table.after(action))
        assert table.state.history == expected.history, "every draw from the seed and the version"


def test_the_stored_options_are_the_games() -> None:
    options = {"preset": "bga"}
    table = make_table(options=options)
    assert table.game.options == make_game("arctic", 2, options).options != make_game("arctic", 2).options


def test_status_turn_and_summary() -> None:
    waiting = make_table(claimed=False)
    assert (waiting.status, waiting.to_move) == ("waiting", None)
    table = make_table(timer=30.0)
    assert (table.status, table.to_move) == ("playing", table.state.current_player())
    assert table.summary() == {
        "id": "t1", "game": "arctic", "players": 2, "status": "playing", "opened": False,
        "version": len(table.state.history),
        "created": 1.5, "options": {}, "turn_timer": 30.0, "public": True, "name": None,
        "seats": [table.seats[0].summary(0, "arctic"), table.seats[1].summary(1, "arctic")],
        "to_move": table.to_move,
    }  # fmt: skip
    assert table.summary()["seats"][1]["label"] == "Random"
    play_out(table)
    assert (table.status, table.to_move, table.deadline()) == ("finished", None, None)


def test_check_move_refuses_each_kind_of_bad_move_with_its_code() -> None:
    def refusal(table: Table, seat: int, action: object, version: object) -> tuple[str, int, str]:
        with pytest.raises(Refusal) as caught:
            table.check_move(seat, action, version)
        assert str(caught.value) == caught.value.message
        return caught.value.code, caught.value.status, caught.value.message

    waiting = make_table(claimed=False)
    assert refusal(waiting, 0, 0, waiting.version) == (
        "not_started", 409, "the game starts when every seat is taken",
    )  # fmt: skip
    table = make_table()
    play_to(table, 0)
    legal = table.state.legal_actions()[0]
    v = table.version
    malformed = ("malformed", 400, "a move needs an integer action and an integer version")
    assert refusal(table, 0, "1", v) == malformed
    assert refusal(table, 0, legal, str(v)) == malformed
    assert refusal(table, 0, legal, v - 1) == (
        "stale", 409, f"stale move: made on version {v - 1}, the table is at {v}",
    )  # fmt: skip
    assert refusal(table, 1, legal, v) == ("not_your_turn", 409, "it is not your turn (P1 to act)")
    illegal = next(a for a in range(table.game.spec.player_actions) if not table.state.is_legal(a))
    assert refusal(table, 0, illegal, v) == ("illegal", 409, f"action {illegal} is not legal now")
    table.check_move(0, legal, v)  # accepted: no error
    play_out(table)
    assert refusal(table, 0, 0, table.version) == ("finished", 409, "the game is over")


def test_after_resolves_chance_from_the_seed_and_keeps_the_table_state() -> None:
    table = make_table()
    before = list(table.state.history)
    new = table.after(table.state.legal_actions()[0])
    assert table.state.history == before
    assert not new.is_chance_node()
    started = table.decision_started()
    time.sleep(0.01)
    table.commit(new)
    assert table.state is new and table.decision_started() > started


def test_the_turn_timer_runs_for_the_person_to_move_only() -> None:
    assert make_table().deadline() is None
    table = make_table(timer=20.0)
    play_to(table, 0)
    assert table.deadline() == table.decision_started() + 20.0
    play_to(table, 1)
    assert table.deadline() is None, "no timer for a bot"


def test_who_moves_for_a_seat() -> None:
    table = make_table()
    assert table.plays_by_bot(1) == "random"
    assert table.plays_by_bot(0) is None
    table.seats[0].away = True
    assert table.plays_by_bot(0) == "baseline", "Arctic's away bot"


def test_seat_of_a_token() -> None:
    table = make_table()
    assert table.seat_of(TOKEN) == 0
    with pytest.raises(Refusal) as caught:
        table.seat_of("not-a-token")
    assert (caught.value.code, caught.value.status, caught.value.message) == (
        "bad_token", 403, "that seat token does not belong to this table",
    )  # fmt: skip


def test_a_stored_log_replays_and_a_bad_one_names_its_action() -> None:
    table = make_table()
    play_to(table, 1)
    play_to(table, 0)
    again = make_table(actions=list(table.state.history))
    assert again.state.to_json() == table.state.to_json()
    broken = [*table.state.history, 10**6]
    with pytest.raises(FloeError, match=f"table t1: stored action {len(broken)} does not replay"):
        make_table(actions=broken)


def test_logs_views_and_state_messages_per_viewer() -> None:
    table = make_table()
    play_to(table, 1)
    first_log = list(table.log(0))
    play_to(table, 0)
    # The incremental log is what a fresh table computes from the whole history, for every viewer.
    fresh = make_table(actions=list(table.state.history))
    for viewer in (0, 1, None):
        assert table.log(viewer) == fresh.log(viewer)
    assert table.log(0)[: len(first_log)] == first_log and len(table.log(0)) > len(first_log)
    view = table.view(0)
    assert view == table.state.observation_dict(0) and table.view(0) is view, "cached per version"
    assert table.view(None) == table.state.observation_dict(None)

    message = table.state_message(0, 2)
    lines = table.log(0)
    assert message["type"] == "state" and message["seat"] == 0
    assert (message["version"], message["status"], message["to_move"]) == (table.version, "playing", 0)
    assert message["table"] == table.summary()
    assert message["view"] == table.state.observation_dict(0) != table.state.observation_dict(None)
    assert message["deciding"] == present.deciding(table.presenter, table.state) != ""
    assert message["legal"] == present.legal_choices(table.presenter, table.state, 0) != []
    assert message["log"] == [{"index": k, "text": lines[k]} for k in range(2, len(lines))]
    assert message["log_total"] == len(lines)
    assert (message["deadline"], message["result"]) == (None, None)
    assert table.state_message(1, 0)["legal"] == [], "only the seat to act gets its choices"
    assert table.state_message(None, 0)["legal"] == []
    assert table.state_message(None, 0)["view"] == table.state.observation_dict(None)
    waiting = make_table(claimed=False)
    assert (waiting.state_message(0, 0)["to_move"], waiting.state_message(0, 0)["deciding"]) == (None, "")

    table.commit(table.after(table.state.legal_actions()[0]))
    assert table.view(0) == table.state.observation_dict(0), "a new version, a new view"


def test_the_result_and_the_replay_frames_of_a_finished_game() -> None:
    table = make_table()
    assert table.result() is None
    play_out(table)
    assert table.result() == {
        "scores": table.state.scores(),
        "ranking": table.state.ranking(),
        "breakdowns": table.state.score_breakdowns(),
    }
    message = table.state_message(0, 0)
    assert message["result"] == table.result() and message["deciding"] == table.deciding()
    record = table.record()
    assert record.seed == 1234 and record.replay().to_json() == table.state.to_json()

    frames = table.replay_frames(0, reveal=True)
    decisions = 0
    probe = table.game.new_initial_state()
    for action in table.state.history:
        decisions += not probe.is_chance_node()
        probe.apply_unchecked(action)
    assert len(frames) == decisions + 1, "one frame per decision and the final position"
    assert frames[-1]["version"] == table.version and frames[-1]["view"] == table.state.observation_dict(0)
    assert frames[-1]["views"] == [table.state.observation_dict(s) for s in range(2)]
    assert frames[0]["actor"] is None and {f["actor"] for f in frames[1:]} == {0, 1}
    assert [line for f in frames for line in f["log"]] == table.log(0)
    assert "views" not in table.replay_frames(1, reveal=False)[0]

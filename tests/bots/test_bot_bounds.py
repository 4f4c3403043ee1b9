"""Every bot parameter has a bound checked when the spec is parsed, and a search stops at its ``time_cap``
whatever its budget (issue 11, item 2): the bot side of the server's limits on bot decisions."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from typing import Any

import pytest

from floe.bots import mcts as mcts_module
from floe.bots.base import Bot
from floe.bots.ismcts import ISMCTSBot
from floe.bots.mcts import MCTSBot
from floe.bots.params import MAX_ITERATIONS, MAX_MS, number_option, read_params, whole_option
from floe.bots.registry import bot_cost, make_bot
from floe.bots.specs import capped_spec
from floe.core.errors import OptionError
from floe.core.game import Game, State
from floe.core.options import OptionSchema
from floe.core.registry import make_game
from floe.games.arctic import greedy as greedy_module
from floe.games.arctic.greedy import GreedyBot
from floe.testing import midgame

# Budgets and caps are checked on a virtual clock (``VirtualClock``): it moves only when the search reads it
# or sleeps, so a decision takes the same "time" on a quiet and on a busy machine, and a test fails only when
# the search reads its budget or cap wrongly. The search reads the clock every few iterations or rollout
# steps, so a decision may end a few readings past its limit.
STEP = 0.002  # virtual seconds a reading of the clock costs
TOLERANCE = 6 * STEP
CAP = 0.3


class VirtualClock:
    """``time.perf_counter`` and ``time.sleep`` for one test: a reading moves the clock by ``STEP``, a sleep
    by its length. Nothing else moves it, however busy the machine."""

    def __init__(self) -> None:
        self.now = 1000.0

    def perf_counter(self) -> float:
        self.now += STEP
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> VirtualClock:
    virtual = VirtualClock()
    monkeypatch.setattr(time, "perf_counter", virtual.perf_counter)
    monkeypatch.setattr(time, "sleep", virtual.sleep)
    return virtual


def position(
    game: str, players: int, seed: int, steps: int, options: dict[str, Any] | None = None
) -> tuple[Game, State]:
    """A fixed position: ``steps`` seeded random decisions, never Arktia's voluntary stop
    (``floe.testing.midgame``)."""
    match = midgame(game, players, seed, steps, options=options, avoid=("stop",))
    return match.game, match.state


def timed(bot: Bot, state: State) -> float:
    """The time of one decision of ``bot`` (the seat to move) in ``state``, on the clock ``time.perf_counter``
    is (a ``VirtualClock`` in the tests of budgets and caps)."""
    seat = state.current_player()
    assert seat == bot.seat and len(state.legal_actions()) > 1
    start = time.perf_counter()
    bot.choose(state.observation(seat), state.legal_actions())
    return time.perf_counter() - start


# --- the parsing helpers: a bot's parameters are read by the option schema's readers -----------------------
WORLDS = OptionSchema((whole_option("worlds", 4, "worlds", 1, 1000),))
C = OptionSchema((number_option("c", 0.7, "exploration", 100, positive=True),))


@pytest.mark.parametrize(
    "text",
    ["¹", "١٢", "1_000", "5.0", "1e3", "", "0", "-5", "1001", "9" * 20, "9" * 10_000],
)
def test_a_whole_parameter_takes_ascii_digits_within_bounds_only(text: str) -> None:
    with pytest.raises(OptionError, match=r"^greedy: worlds (must be|is too long)") as info:
        read_params("greedy", WORLDS, {"worlds": text}, 2)
    assert len(str(info.value)) < 120  # a long value is shown shortened


def test_a_whole_parameter_accepts_its_range() -> None:
    schema = OptionSchema((whole_option("n", 3, "n", 0, 10),))
    assert [read_params("b", schema, {"n": t}, 2)["n"] for t in ("0", "7", "10", "010")] == [0, 7, 10, 10]
    assert read_params("b", schema, {}, 2) == {"n": 3}  # the default filled in
    with pytest.raises(OptionError, match=r"^b: n must be between 0 and 10, not '11'$"):
        read_params("b", schema, {"n": "11"}, 2)


@pytest.mark.parametrize("text", ["1e400", "nan", "inf", "1_0", "١", "0", "-1", "0x10", "1e", ".", "101"])
def test_a_decimal_parameter_refuses_what_is_not_a_plain_bounded_number(text: str) -> None:
    with pytest.raises(OptionError, match=r"^ismcts: c must be a positive number up to 100, not "):
        read_params("ismcts", C, {"c": text}, 2)


def test_a_decimal_parameter_reads_plain_numbers() -> None:
    assert [read_params("b", C, {"c": t}, 2)["c"] for t in ("0.7", ".5", "1e2", "12")] == [0.7, 0.5, 100, 12]
    mix = OptionSchema((number_option("mix", 0.0, "mix", 1),))
    assert read_params("b", mix, {"mix": "0"}, 2)["mix"] == 0  # 0 is in a closed range
    with pytest.raises(OptionError, match=r"^b: mix must be a number from 0 to 1, not '1\.5'$"):
        read_params("b", mix, {"mix": "1.5"}, 2)


def test_an_unknown_parameter_is_named_before_any_value_is_read() -> None:
    with pytest.raises(OptionError, match=r"^b has no parameter 'x'; parameters: c$"):
        read_params("b", C, {"c": "nan", "x": "1"}, 2)


# --- every bot's parameters ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("game", "spec", "message"),
    [
        # The attacks: a Unicode digit (answered 500) and a budget that grew its worker 40 MB/s.
        ("arctic", "greedy:worlds=¹", "worlds must be a whole number, not '¹'"),
        ("arctic", "greedy:worlds=99999999999999999999", "worlds must be between 1 and 1000"),
        ("arctic", "greedy:worlds=1001", "worlds must be between 1 and 1000"),
        ("arctic", f"ismcts:ms={MAX_MS + 1}", "ms must be a positive number up to 3600000"),
        ("arctic", "ismcts:ms=1e9", "ms must be a positive number up to 3600000"),
        ("arctic", f"ismcts:it={MAX_ITERATIONS + 1}", "it must be between 1 and 10000000"),
        ("arctic", "ismcts:it=١٢", "it must be a whole number"),
        # Both names of the iteration budget are checked, not only the one that is used.
        ("arctic", f"ismcts:it=5,iterations={10**20}", "iterations must be between 1 and 10000000"),
        ("arctic", "ismcts:c=101", "c must be a positive number up to 100"),
        ("arctic", "ismcts:depth=10001", "depth must be between 1 and 10000"),
        ("arktia", f"mcts:it={10**30}", "it is too long"),
        ("arktia", "mcts:ms=36000000", "ms must be a positive number up to 3600000"),
        ("arktia", "mcts:depth=10001", "depth must be a whole number from 0 to 10000 or end"),
        ("arktia", "mcts:depth=³", "depth must be a whole number from 0 to 10000 or end"),
        ("arktia", "mcts:c=1e3", "c must be a positive number up to 100"),
        ("arktia", "ismcts:it=99999999999", "it must be between 1 and 10000000"),
    ],
)
def test_every_bot_parameter_is_bounded(game: str, spec: str, message: str) -> None:
    with pytest.raises(OptionError, match=message) as info:
        make_bot(spec, make_game(game, 2), 0, 1)
    assert "\n" not in str(info.value) and len(str(info.value)) < 200


@pytest.mark.parametrize(
    ("game", "spec"),
    [
        ("arctic", "greedy:worlds=1000"),
        ("arctic", f"ismcts:ms={MAX_MS},c=100,depth=10000"),
        ("arctic", f"ismcts:it={MAX_ITERATIONS}"),
        ("arktia", "mcts:depth=end"),
        ("arktia", "mcts:depth=10000,it=10000000"),
        ("arktia", "mcts:depth=0"),
    ],
)
def test_the_bounds_themselves_are_accepted(game: str, spec: str) -> None:
    make_bot(spec, make_game(game, 2), 0, 1)


def test_budgets_above_a_servers_caps_are_lowered_to_them() -> None:
    assert capped_spec("ismcts:ms=20000,c=0.5", 10_000, 100_000) == ("ismcts:ms=10000,c=0.5", ["ms=10000"])
    assert capped_spec("mcts:iterations=200000,it=7", 10_000, 100_000) == (
        "mcts:iterations=100000,it=7",
        ["iterations=100000"],
    )
    assert capped_spec("ismcts:ms=500", 10_000, 100_000) == ("ismcts:ms=500", [])
    assert capped_spec("ismcts:ms=2000", 1500.0, 10) == ("ismcts:ms=1500", ["ms=1500"])


def test_a_bot_says_what_a_decision_costs() -> None:
    assert bot_cost("random", "arctic") == pytest.approx(1e-5)
    assert bot_cost("baseline", "arctic") == pytest.approx(1e-4)
    assert bot_cost("greedy", "arctic") == pytest.approx(4 * 0.003)
    assert bot_cost("greedy:worlds=100", "arctic") == pytest.approx(0.3)
    assert bot_cost("greedy", "arktia") == pytest.approx(0.02)
    assert bot_cost("ismcts:ms=200", "arctic") == pytest.approx(0.2)
    assert bot_cost("mcts:ms=500,it=9", "arktia") == pytest.approx(0.5)
    # An iteration budget's time depends on the game and the position: unknown, so a long decision.
    assert bot_cost("ismcts:it=30", "arctic") is None
    assert bot_cost("ismcts", "arctic") is None

    class Silent(Bot):
        def choose(self, observation: Any, legal_actions: list[int]) -> int:
            return legal_actions[0]

    assert Silent.cost({}) is None  # a bot that says nothing is taken for a long one


# --- the time budget ------------------------------------------------------------------------------------
# ``ms`` is time per decision. The search reads the clock every 8 iterations (ismcts) or after every
# iteration (mcts), and inside long walks and rollouts, so a decision ends a few readings after its budget;
# a budget read in the wrong unit (2 s or 20 ms) is far outside. No cap is set: the budget alone must stop
# the search (a server's cap would hide an overrun).
BUDGET_MS = 200


@pytest.mark.parametrize(
    ("game", "players", "seed", "steps", "spec"),
    [
        ("arctic", 2, 9, 20, f"ismcts:ms={BUDGET_MS}"),
        ("arctic", 3, 4, 15, f"ismcts:ms={BUDGET_MS}"),
        ("arktia", 2, 5, 12, f"mcts:ms={BUDGET_MS}"),
        ("arktia", 3, 7, 10, f"mcts:ms={BUDGET_MS},depth=end"),
    ],
)
def test_a_time_budget_is_kept(
    game: str, players: int, seed: int, steps: int, spec: str, clock: VirtualClock
) -> None:
    made, state = position(game, players, seed, steps)
    bot = make_bot(spec, made, state.current_player(), 1)
    assert isinstance(bot, ISMCTSBot | MCTSBot) and bot.time_cap is None
    elapsed = timed(bot, state)
    # Not before the budget either: the search runs until its deadline (a budget read in the wrong unit
    # would stop it early), and it did search.
    assert BUDGET_MS / 1000 <= elapsed <= BUDGET_MS / 1000 + TOLERANCE, f"{spec}: {elapsed:.3f} s"
    assert bot.last_iterations > 8


# --- the time cap ----------------------------------------------------------------------------------------
def test_an_iteration_budget_stops_at_the_time_cap(clock: VirtualClock) -> None:
    game, state = position("arctic", 2, 9, 20)
    bot = make_bot(f"ismcts:it={MAX_ITERATIONS}", game, state.current_player(), 1)
    assert isinstance(bot, ISMCTSBot)
    bot.time_cap = CAP
    assert timed(bot, state) <= CAP + TOLERANCE
    assert 1 <= bot.last_iterations < MAX_ITERATIONS


@pytest.mark.parametrize(
    ("game", "players", "seed", "steps", "spec"),
    [("arctic", 3, 4, 15, "ismcts:ms=5000"), ("arktia", 2, 5, 12, "mcts:ms=5000,depth=end")],
)
def test_a_time_budget_above_the_cap_stops_at_the_cap(
    game: str, players: int, seed: int, steps: int, spec: str, clock: VirtualClock
) -> None:
    """The bot's time as its user sees it (the lab, a program using the API): whichever of the budget and the
    cap comes first ends the decision. (The server lowers a budget to its cap when a table is made, so there
    the two never disagree.)"""
    made, state = position(game, players, seed, steps)
    bot = make_bot(spec, made, state.current_player(), 1)
    bot.time_cap = CAP
    assert timed(bot, state) <= CAP + TOLERANCE


def test_mcts_to_the_end_of_an_endless_game_stops_at_the_time_cap(clock: VirtualClock) -> None:
    # The case: mcts:it=100000,depth=end with max_turns=100000 would take hours a decision.
    game, state = position("arktia", 2, 5, 12, {"max_turns": 100_000})
    bot = make_bot("mcts:it=100000,depth=end,rollout=random", game, state.current_player(), 1)
    assert isinstance(bot, MCTSBot)
    bot.time_cap = CAP
    assert timed(bot, state) <= CAP + TOLERANCE
    assert bot.last_iterations < 100_000


def slow_policy(delay: float) -> Callable[[Any, list[int], random.Random], int]:
    """A rollout policy that takes ``delay`` seconds a move (never Arktia's voluntary stop): a rollout of a
    few hundred moves takes seconds, and one to the end of an endless game forever."""

    def policy(state: Any, legal: list[int], rng: random.Random) -> int:
        time.sleep(delay)
        going = [a for a in legal if state.action_to_string(a) != "stop"] or legal
        return going[rng.randrange(len(going))]

    return policy


def test_a_long_rollout_is_cut_at_the_time_cap(clock: VirtualClock) -> None:
    """One rollout alone would outlast the cap: the clock is read inside it, not only between iterations."""
    game, state = position("arctic", 2, 9, 20)
    ismcts = make_bot("ismcts:it=2,depth=10000", game, state.current_player(), 1)
    assert isinstance(ismcts, ISMCTSBot)
    ismcts.policy = slow_policy(0.004)  # 64 moves ≈ 0.26 s between two readings of the clock
    ismcts.time_cap = 0.1
    assert timed(ismcts, state) <= 0.1 + 64 * 0.004 + TOLERANCE
    assert ismcts.last_iterations == 1

    arktia_game, arktia = position("arktia", 2, 5, 12, {"max_turns": 100_000})
    mcts = make_bot("mcts:it=2,depth=end", arktia_game, arktia.current_player(), 1)
    assert isinstance(mcts, MCTSBot)
    mcts.policy = slow_policy(0.004)
    mcts.time_cap = 0.1
    assert timed(mcts, arktia) <= 0.1 + 64 * 0.004 + TOLERANCE
    assert mcts.last_iterations == 1


def test_without_a_cap_the_budget_alone_decides() -> None:
    game, state = position("arctic", 2, 9, 20)
    bot = make_bot("ismcts:it=120", game, state.current_player(), 1)
    assert isinstance(bot, ISMCTSBot) and bot.time_cap is None  # the command line and the lab set none
    bot.choose(state.observation(bot.seat), state.legal_actions())
    assert bot.last_iterations == 120


def test_a_capped_search_still_plays_the_same_with_a_budget_that_fits() -> None:
    game, state = position("arctic", 2, 9, 20)
    seat = state.current_player()
    free = make_bot("ismcts:it=80", game, seat, 3)
    capped = make_bot("ismcts:it=80", game, seat, 3)
    capped.time_cap = 60.0
    legal = state.legal_actions()
    assert free.choose(state.observation(seat), legal) == capped.choose(state.observation(seat), legal)


def test_greedy_stops_sampling_at_the_time_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    """Counted, not timed (a loaded machine cannot make it fail): without a cap every one of the 1,000
    worlds judges every legal action; with a cap already passed, only the first world does."""
    judged: list[int] = []
    real_values = greedy_module.values
    monkeypatch.setattr(greedy_module, "values", lambda st: judged.append(1) or real_values(st))
    game, state = position("arctic", 3, 4, 15)
    legal = state.legal_actions()
    for cap, worlds in ((None, 1000), (1e-9, 1)):
        judged.clear()
        bot = make_bot("greedy:worlds=1000", game, state.current_player(), 1)
        assert isinstance(bot, GreedyBot)
        bot.time_cap = cap
        bot.choose(state.observation(bot.seat), legal)
        assert len(judged) == worlds * len(legal), (cap, len(judged))


def test_an_mcts_tree_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mcts_module, "MAX_TREE_NODES", 150)
    game, state = position("arktia", 2, 5, 12)
    bot = make_bot("mcts:it=100000", game, state.current_player(), 1)
    assert isinstance(bot, MCTSBot)
    root = bot.search(state.observation(bot.seat), state.legal_actions())
    assert bot.last_iterations <= 150 and root.visits <= 150

    def size(node: mcts_module.Node) -> int:
        return 1 + sum(size(child) for child in node.children.values())

    assert size(root) <= 151


# --- the listing: what a bot takes is its schema -------------------------------------------------------
@pytest.mark.parametrize("game", ["arctic", "arktia", "arche"])
def test_every_listed_parameter_is_taken_at_its_default(game: str) -> None:
    """Each bot's listed parameters (``Bot.parameters``) are the ones its spec takes: every one given its
    default builds the bot (a network's ``net`` aside: it needs a model), and one not listed is refused."""
    from floe.bots.registry import bot_names, bot_parameters
    from floe.core.registry import entry

    players = entry(game).game.min_players
    for name in bot_names(game):
        schema = bot_parameters(name, game)
        given = {o.name: str(o.default) for o in schema.options if o.default is not None and o.name != "net"}
        if given:
            make_bot(
                name + ":" + ",".join(f"{k}={v}" for k, v in given.items()), make_game(game, players), 0, 1
            )
        with pytest.raises(OptionError, match="no parameter 'nonesuch'"):
            make_bot(f"{name}:nonesuch=1", make_game(game, players), 0, 1)


def test_floe_options_lists_a_bots_parameters() -> None:
    from typer.testing import CliRunner

    from floe.cli import app

    listed = CliRunner().invoke(app, ["options", "arctic", "--bot", "ismcts", "--json"])
    assert listed.exit_code == 0, listed.output
    names = [o["name"] for o in json.loads(listed.output)]
    assert {"ms", "it", "c", "depth", "totems"} <= set(names)  # the game's world parameter too
    unknown = CliRunner().invoke(app, ["options", "arctic", "--bot", "wizard"])
    assert unknown.exit_code != 0 and "unknown bot 'wizard' for arctic" in unknown.output

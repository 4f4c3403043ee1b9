"""``check_game``: seeded random games of a registered game, checked after every action.

In the spirit of pgx's ``api_test`` and OpenSpiel's ``random_sim_test``: each game is played from the
empty table with decisions drawn by a seeded generator (or the game's own ``policy``) and chance outcomes
drawn with ``sample_chance`` from the same generator, so a seed names one game exactly. Which positions
get the costly checks is drawn from a second generator, so changing the sampling never changes the games.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, cast

from floe.core.entry import GameEntry, resolve
from floe.core.game import CHANCE, Game, GameSpec, State
from floe.core.registry import entry
from floe.testing.context import Where, short
from floe.testing.copies import Follower, check_record, follow, make_followers
from floe.testing.information import Invariants, Reveals, check_information
from floe.testing.positions import check_position, check_position_fully, check_views
from floe.testing.results import check_results, check_spec
from floe.testing.undo import check_undo

# The decision of the seat to act, given the state and the game's generator (chance never reaches it).
Policy = Callable[[State, random.Random], int]
# Options for each game: one mapping for all, a list used in turn, or (rng, players) -> options per game.
Options = Mapping[str, Any] | Sequence[Mapping[str, Any]] | Callable[[random.Random, int], Mapping[str, Any]]


class Watch(Protocol):
    """Checks of a game's transitions: ``after`` each action (given the new state), ``final`` at the end."""

    def after(self, state: State, action: int) -> None: ...

    def final(self, state: State) -> None: ...


# Builds the watch of one game from the game, its initial state and a generator for the watch's own use.
WatchFactory = Callable[[Game, State, random.Random], Watch]


@dataclass(frozen=True)
class KitReport:
    """What ``check_game`` did."""

    game: str
    players: tuple[int, ...]
    games: int  # games played
    finished: int  # of which reached the end (the others stopped at ``max_actions``)
    actions: int  # actions applied and checked, chance outcomes included
    full_checks: int  # positions that got the costly checks
    information_checks: int  # positions whose observation safety was checked
    distinct_actions: int  # different action ids seen legal
    seconds: float
    undos: int = 0  # undoable decisions whose undo was checked (testing/undo.py)

    def __str__(self) -> str:
        seats = "/".join(map(str, self.players))
        return (
            f"{self.game} ({seats} players): {self.games} games ({self.finished} to the end), "
            f"{self.actions} actions, {self.full_checks} positions fully checked, "
            f"{self.information_checks} information checks, {self.distinct_actions} distinct actions, "
            f"{self.seconds:.2f}s"
        )


@dataclass
class _Settings:
    """The knobs of one ``check_game`` call, handed to each game."""

    invariants: Invariants | None
    watch: WatchFactory | None
    policy: Policy | None
    max_actions: int | None
    sample: float
    information: float
    twin_steps: int
    reveals: Reveals | None
    follow_steps: int
    records: bool
    observed_actions: int


@dataclass
class _Tally:
    finished: int = 0
    actions: int = 0
    full: int = 0
    information: int = 0
    undos: int = 0
    seen: set[int] = field(default_factory=set)


def check_game(
    name: str,
    players: int | Iterable[int] | None = None,
    *,
    games: int = 4,
    seed: int = 0,
    options: Options | None = None,
    invariants: Invariants | None = None,
    watch: WatchFactory | None = None,
    policy: Policy | None = None,
    max_actions: int | None = None,
    sample: float = 0.05,
    information: float | None = None,
    twin_steps: int = 6,
    reveals: Reveals | None = None,
    follow_steps: int = 4,
    records: bool = True,
    observed_actions: int = 40,
) -> KitReport:
    """Play ``games`` seeded random games of ``name`` per player count and check them after every action.

    - ``players``: a count or several (default: every count the game allows).
    - ``seed``: game ``k`` of each player count is seed ``seed + k``; a failure names the seed to replay.
    - ``options``: one mapping, a list of mappings used in turn, or a function ``(rng, players)`` that
      draws them (called with the game's generator, so the seed fixes them too).
    - ``invariants``: the game's own check of a state, called on every state (and on determinized worlds);
      it fails by raising (an ``assert``).
    - ``watch``: builds a ``Watch`` per game for checks of transitions (``after`` each action, ``final``).
    - ``policy``: chooses decisions (default: uniformly among the legal actions).
    - ``max_actions``: stop each game after this many actions (the end checks still run on it).
    - ``sample``: the share of positions that get the costly checks (every notation, refused actions,
      clones and JSON/pickle copies that play on for ``follow_steps`` actions, every view, the undo of a
      few undoable decisions: testing/undo.py);
      ``information``: the share that get the observation-safety checks (default ``sample``), with twin
      worlds played for ``twin_steps`` actions and at most ``observed_actions`` actions compared for the
      seen-action check (0: no such check). The initial and the final positions always get both (unless
      the rate is 0).
    - ``reveals``: ``(state, action, seat) -> bool``, whether the action may show the seat something that
      was hidden (a rule turning a card face up); twin worlds are compared only up to such an action.
      Default: the one the game's entry names (``GameEntry.reveals``), else none.
    - ``records``: replay the record at actions 1, 4, 16, 64… and at the end.

    Raises ``ConformanceError`` (an ``AssertionError``) naming the seed, the action number and the check.

    >>> check_game("mygame", players=[2, 3], games=20, options={"variant": "short"})  # doctest: +SKIP
    KitReport(game='mygame', ...)
    """
    found = entry(name)
    counts = _player_counts(found, players)
    settings = _Settings(
        invariants=invariants,
        watch=watch,
        policy=policy,
        max_actions=max_actions,
        sample=sample,
        information=sample if information is None else information,
        twin_steps=twin_steps,
        reveals=reveals if reveals is not None else _entry_reveals(found),
        follow_steps=follow_steps,
        records=records,
        observed_actions=observed_actions,
    )
    tally = _Tally()
    start = time.perf_counter()
    for count in counts:
        for k in range(games):
            _play_one(found, count, seed + k, options, settings, tally)
    return KitReport(
        game=found.name,
        players=tuple(counts),
        games=games * len(counts),
        finished=tally.finished,
        actions=tally.actions,
        full_checks=tally.full,
        information_checks=tally.information,
        distinct_actions=len(tally.seen),
        seconds=time.perf_counter() - start,
        undos=tally.undos,
    )


def _entry_reveals(found: GameEntry) -> Reveals | None:
    """The ``reveals`` hook the game's entry names, or None."""
    if found.reveals is None:
        return None
    hook = resolve(found.reveals)
    if not callable(hook):
        raise TypeError(f"{found.reveals} (the entry's reveals) is not a function")
    return cast(Reveals, hook)


def _player_counts(found: GameEntry, players: int | Iterable[int] | None) -> list[int]:
    if players is None:
        return list(range(found.min_players, found.max_players + 1))
    counts = [players] if isinstance(players, int) else list(players)
    if not counts:
        raise ValueError("no player count to check")
    return counts


def _options_for(options: Options | None, rng: random.Random, players: int, k: int) -> dict[str, Any]:
    if options is None:
        return {}
    if callable(options):
        return dict(options(rng, players))
    if isinstance(options, Mapping):
        return dict(options)
    return dict(options[k % len(options)])


def _play_one(
    found: GameEntry, players: int, game_seed: int, options: Options | None, s: _Settings, tally: _Tally
) -> None:
    """One seeded game, checked after every action."""
    # The seed mixed with the player count (as the games' own seeded helpers do): seed k at 2 and at 3
    # players are unrelated games. This generator draws the options, chance and decisions, nothing else.
    rng = random.Random(game_seed * 1_000_003 + players)
    checks = random.Random(f"floe.testing/{found.name}/{players}/{game_seed}")
    opts = _options_for(options, rng, players, game_seed)
    where = Where(found.name, players, game_seed, opts)
    with where.checking("make_game"):
        game = found.new_game(players, opts)
        spec = game.spec
    check_spec(found, spec, players, where)
    with where.checking("new_initial_state"):
        state = game.new_initial_state()
        where.same([], list(state.history), "history", "a new state has a history")
    watcher = None
    if s.watch is not None:
        with where.checking("watch"):
            watcher = s.watch(game, state, checks)
    _invariants(state, where, s)
    seen: set[int] = set()
    followers: list[Follower] = []
    next_record = 1
    while True:
        # The first position always gets the costly checks, unless their rate is 0 (a cheap run).
        full = (where.action == 0 and s.sample > 0) or checks.random() < s.sample
        legal = check_position(state, where, spec, checks, seen, every=full)
        if full:
            tally.full += 1
            check_position_fully(state, where, spec, legal, checks)
            tally.undos += check_undo(game, state, where, checks)
        if state.is_terminal() or (s.max_actions is not None and where.action >= s.max_actions):
            break
        where.expect(
            where.action < spec.max_game_length,
            "max_game_length",
            f"the game is not over after spec.max_game_length = {spec.max_game_length} actions",
        )
        if full:  # before the information checks, which play on clones
            followers += make_followers(game, state, where, checks, s.follow_steps)
        if (where.action == 0 and s.information > 0) or checks.random() < s.information:
            tally.information += 1
            _check_information(game, state, where, checks, s, s.twin_steps)
        action = _choose(state, legal, rng, where, s.policy)
        with where.checking("action_to_string"):
            text = state.action_to_string(action)
        with where.checking(f"apply({text})"):
            state.apply(action)
        where.action += 1
        where.last = text
        history = state.history
        if len(history) != where.action or history[-1] != action:
            raise where.failure(
                "history", f"after {where.action} actions it ends {short(list(history)[-3:])}"
            )
        followers = follow(followers, state, action, where)
        _invariants(state, where, s)
        if watcher is not None:
            with where.checking("watch"):
                watcher.after(state, action)
        if s.records and where.action == next_record:
            check_record(game, game_seed, state, where)
            next_record *= 4
    tally.actions += where.action
    tally.seen |= seen
    _check_end(game, state, where, spec, checks, s, watcher)
    if state.is_terminal():
        tally.finished += 1


def _choose(state: State, legal: list[int], rng: random.Random, where: Where, policy: Policy | None) -> int:
    """The next action: a chance outcome from ``sample_chance``, else the policy's (or a random) choice."""
    if state.current_player() == CHANCE:
        with where.checking("sample_chance"):
            action = state.sample_chance(rng)
        where.expect(action in legal, "sample_chance", f"drew {action!r}, not a legal outcome")
        return action
    if policy is None:
        return rng.choice(legal)
    with where.checking("policy"):
        action = policy(state, rng)
    where.expect(action in legal, "policy", f"the policy chose {action!r}, not a legal action")
    return action


def _invariants(state: State, where: Where, s: _Settings) -> None:
    if s.invariants is not None:
        with where.checking("invariants"):
            s.invariants(state)


def _check_end(
    game: Game,
    state: State,
    where: Where,
    spec: GameSpec,
    rng: random.Random,
    s: _Settings,
    watcher: Watch | None,
) -> None:
    """The last position: results, copies, record, views and information, and the watch's ``final``."""
    if state.is_terminal():
        check_results(state, where, spec)
        if watcher is not None:
            with where.checking("watch final"):
                watcher.final(state)
    if s.sample > 0:
        make_followers(game, state, where, rng, 0)
        check_views(state, where, spec)
    if s.records:
        check_record(game, where.seed, state, where)
    if s.information > 0:
        _check_information(game, state, where, rng, s, 0)


def _check_information(
    game: Game, state: State, where: Where, rng: random.Random, s: _Settings, twin_steps: int
) -> None:
    """The observation-safety checks; they play on clones, so the state itself must not change."""
    before = state.to_json()
    check_information(
        game,
        state,
        where,
        rng,
        twin_steps=twin_steps,
        invariants=s.invariants,
        reveals=s.reveals,
        max_actions=s.observed_actions,
    )
    after = state.to_json()
    where.same(before, after, "clone independence", "playing on clones changed the original")

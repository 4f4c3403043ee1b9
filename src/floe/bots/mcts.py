"""UCT Monte Carlo Tree Search for perfect-information games (Kocsis & Szepesvári 2006).

The bot rebuilds the exact position from its observation (``game.determinize``, exact when the game has
perfect information; the constructor refuses other games, which have ``ismcts``) and grows one tree of
positions. Each node keeps the position it stands for, so walking down the tree costs no replay: an
iteration selects with UCB1 among fully expanded nodes, expands one untried action (one ``clone`` and one
``apply_unchecked``), plays a rollout from a copy and backs up the result.

**Rewards (max^n style).** A rollout returns one value in [0, 1] per seat: a finished game gives every seat
its rank utility (``State.returns`` scaled to [0, 1]: 1 for the winner, 0 for the last, shared places
share), an evaluated cut-off gives the evaluator's win chances. Each node adds up the value of the seat
that chose the action leading to it, so every seat maximises its own value, for any number of players.

**Rollouts.** ``rollout=heuristic`` (the default) uses the game's cheap rollout policy where it has one
(its ``SearchHooks.rollout``), ``rollout=random`` picks uniformly. Where the game has an evaluator
(``SearchHooks.evaluate``) the rollout stops after ``depth`` decisions and the position is evaluated
(``depth=0`` evaluates the new leaf at once); ``depth=end`` always plays to the end, as do games without
an evaluator. Chance events (for deterministic games there are none) are sampled where they occur, and a
node keeps the outcome drawn when it was expanded.

**Tree reuse.** In a deterministic game the bot keeps its tree between decisions: when the new position
follows the old root by actions the tree knows (its own and the others' since), the subtree below is the
new root, with its statistics (``reuse=0`` switches this off).

**Repeated positions.** Where the game says what makes two positions the same (``SearchHooks.position_key``),
a position the bot has already searched twice in this game is answered at once with the action it chose the
last time (``repeat=0`` always searches). A game without a repetition rule may let a seat that is behind
shuffle a piece back and forth until a turn limit rather than lose, and without the shortcut such a game
would cost minutes of search for moves that are already known. A bot rebuilt mid-game learns the positions
its seat met from ``recall``.

Parameters (``mcts:ms=500,c=0.7``): ``ms`` (time per decision, up to an hour) or ``it`` (iterations per
decision, up to ten million; the default is 1,000 iterations), ``c`` exploration constant (default 0.7, up
to 100), ``rollout`` = ``heuristic`` or ``random``, ``depth`` (rollout decisions before evaluating, default 4,
up to 10,000, or ``end``), ``reuse`` = 1 or 0, ``repeat`` = 1 or 0; declared in ``PARAMETERS`` (an
``OptionSchema``: ``floe options GAME --bot mcts`` lists them).

**With a network** (``mcts:net=NAME``, a trained model, ``default`` for the game's own: docs/learning.md)
the search is PUCT guided by the network instead (``floe.bots.puct``), with ``c`` (default 1.5) and
``depth`` (rollout decisions before the network's value, default 0) besides the budget; no tree reuse.

**Bounds.** Whatever the budget, a search stops at the bot's ``time_cap`` (``Bot.time_cap``, set by a server;
the clock is read every iteration and every few dozen steps of a rollout, so a rollout to the end of a long
game stops too, valued by the evaluation or as even chances) and once its tree holds ``MAX_TREE_NODES``
positions.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Hashable, Mapping
from typing import Any

from floe.bots.base import Bot
from floe.bots.hooks import PositionKey, hooks_for
from floe.bots.params import (
    BUDGET,
    MAX_NUMBER_TEXT,
    ROLLOUT,
    exploration,
    read_params,
    search_budget,
    search_cost,
)
from floe.bots.puct import NET_PARAMETERS, NET_SWITCH, NetSearch, most_visited, net_search_for
from floe.bots.searching import deadline, visit_rows
from floe.core.errors import OptionError
from floe.core.game import CHANCE, Game, State
from floe.core.i18n import L_
from floe.core.options import Choice, Option, OptionSchema, parse_int

# With repeat=1: a position met this many times before is answered with the action chosen last time.
REPEATS_BEFORE_SHORTCUT = 2
MAX_DEPTH = 10_000  # rollout decisions before evaluating (or ``end``)
# A search stops once its tree holds this many positions (a stored position of a small board game costs
# ~2 KB), so an iteration budget cannot fill a worker's memory; a tree is bounded by its root's visits (each
# iteration adds at most one node below every node it passes).
MAX_TREE_NODES = 50_000
# The clock is read every this many steps of a rollout (a power of two less one).
CLOCK_EVERY = 63


def _depth(value: Any, players: int) -> float:
    """``depth``: a whole number of rollout decisions, or ``end`` (infinity: play to the end)."""
    if value == "end":
        return math.inf
    try:
        return parse_int("depth", value, 0, MAX_DEPTH)
    except OptionError:
        wanted = L_("a whole number from 0 to %(high)s or end", high=MAX_DEPTH)
        said = L_("%(name)s must be %(what)s, not %(value)s", name="depth", what=wanted, value=repr(value))
        raise OptionError(said) from None


_ON_OFF = (Choice("1", "on"), Choice("0", "off"))
PARAMETERS = OptionSchema(
    (
        *BUDGET,
        exploration(0.7),
        ROLLOUT,
        Option(
            "depth",
            "text",
            4,
            f"rollout decisions before evaluating (0 to {MAX_DEPTH:,}), or end",
            max_length=MAX_NUMBER_TEXT,
            parser=_depth,
        ),
        Option("reuse", "choice", "1", "keep the tree between decisions", choices=_ON_OFF),
        Option("repeat", "choice", "1", "answer a position met twice as the last time", choices=_ON_OFF),
        NET_SWITCH,
    )
)


def terminal_values(state: State) -> list[float]:
    """Rank utilities in [0, 1] per seat: 1 for the winner, 0 for the last; shared places share."""
    return [(r + 1.0) / 2.0 for r in state.returns()]


class Node:
    """A position in the tree and the statistics of the action that led to it."""

    __slots__ = ("children", "mover", "reward", "state", "to_move", "untried", "values", "visits")

    def __init__(self, state: State, mover: int, rng: random.Random) -> None:
        self.state = state
        self.mover = mover  # the seat that chose the action leading here (-1 at the root)
        self.to_move = state.current_player()
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.reward = 0.0
        self.values: list[float] | None = None  # a terminal node's result, computed once
        if state.is_terminal():
            self.untried: list[int] = []
        else:
            self.untried = list(state.legal_actions())
            rng.shuffle(self.untried)  # expanded from the end, so in random order


class MCTSBot(Bot):
    """UCT on the exact position: UCB1 selection, stored positions, evaluated short rollouts."""

    name = "mcts"
    remembers = True  # the tree and the positions met are kept between decisions

    @classmethod
    def plays(cls, game: type[Game]) -> bool:
        return game.information == "perfect"

    def __init__(self, game: Game, seat: int, seed: int, **params: str) -> None:
        super().__init__(game, seat, seed)
        hooks = hooks_for(game)
        if game.spec.information != "perfect":
            raise OptionError(
                L_("mcts needs a perfect-information game; %(game)s is not (use ismcts)", game=game.name)
            )
        self.last_iterations = 0
        self.net: NetSearch | None = None
        if "net" in params:
            values = read_params("mcts", NET_PARAMETERS, params, game.players, mode="with net")
            self.net = net_search_for("mcts", game, seat, self.rng, hooks, values)
            self.ms, self.iterations = search_budget(values)
            self.position_key: PositionKey | None = None
            return
        values = read_params("mcts", PARAMETERS, params, game.players)
        self.ms, self.iterations = search_budget(values)
        self.c: float = values["c"]
        self.depth: float = values["depth"]
        self.reuse = values["reuse"] == "1" and game.spec.max_chance_outcomes == 0
        self.position_key = hooks.position_key if values["repeat"] == "1" and self.reuse else None
        rollout = values["rollout"]
        self._seen: dict[Hashable, tuple[int, int]] = {}  # position -> (times met, action chosen)
        self.evaluator = hooks.evaluate
        self.policy = hooks.rollout if rollout == "heuristic" else None
        self._tree: Node | None = None
        self._deadline = math.inf  # when the running search stops (its budget or ``time_cap``)
        self._expired = False  # a rollout found the deadline passed: the search stops

    @classmethod
    def parameters(cls, game: type[Game]) -> OptionSchema:
        """``PARAMETERS``, the same in every game (``net`` switches to ``NET_PARAMETERS``)."""
        return PARAMETERS

    @classmethod
    def cost(cls, params: Mapping[str, str]) -> float | None:
        return search_cost(params)

    # --- the search -------------------------------------------------------------------------------------
    def _root(self, observation: Any) -> Node:
        state = self.game.determinize(observation, self.rng)
        old = self._tree
        if self.reuse and old is not None:
            seen = old.state.history
            now = state.history
            if len(now) >= len(seen) and now[: len(seen)] == seen:
                node: Node | None = old
                for action in now[len(seen) :]:
                    node = node.children.get(action) if node is not None else None
                if node is not None and node.to_move == state.current_player():
                    node.mover = -1
                    return node
        return Node(state, -1, self.rng)

    def search(self, observation: Any, legal_actions: list[int]) -> Node:
        """Run the search from ``observation`` and return the root with its statistics."""
        root = self._root(observation)
        stop = self._deadline = deadline(self.ms, self.time_cap)
        self._expired = False
        limit = self.iterations or math.inf
        done = 0
        clock = time.perf_counter
        while done < limit and root.visits < MAX_TREE_NODES:
            self._iterate(root)
            done += 1
            if self._expired or (stop < math.inf and clock() >= stop):
                break
        self.last_iterations = done
        self._tree = root if self.reuse else None
        return root

    def choose(self, observation: Any, legal_actions: list[int]) -> int:
        self.last_visits = None
        if len(legal_actions) == 1:
            return legal_actions[0]
        if self.net is not None:
            net_root = self._net_search(observation, legal_actions)
            self.last_visits = {a: child.visits for a, child in net_root.children.items()}
            return most_visited(net_root, legal_actions)
        key = None
        if self.position_key is not None:
            key = self.position_key(self.game.determinize(observation, self.rng))
            times, action = self._seen.get(key, (0, -1))
            if times >= REPEATS_BEFORE_SHORTCUT and action in legal_actions:
                self._seen[key] = (times + 1, action)
                return action
        root = self.search(observation, legal_actions)
        self.last_visits = {a: child.visits for a, child in root.children.items()}
        action = max(legal_actions, key=lambda a: _rank_key(root, a))
        if key is not None:
            self._seen[key] = (self._seen.get(key, (0, -1))[0] + 1, action)
        return action

    def recall(self, observation: Any, action: int) -> None:
        """Count an earlier decision of this seat as ``choose`` would have (for the repeat shortcut)."""
        if self.position_key is None:
            return
        state = self.game.determinize(observation, self.rng)
        if len(state.legal_actions()) > 1:
            key = self.position_key(state)
            self._seen[key] = (self._seen.get(key, (0, -1))[0] + 1, action)

    def _net_search(self, observation: Any, legal_actions: list[int]) -> Any:
        assert self.net is not None
        root = self.net.search(observation, legal_actions, self.iterations, self.ms, self.time_cap)
        self.last_iterations = self.net.last_iterations
        return root

    def analyse(self, observation: Any, legal_actions: list[int]) -> list[tuple[int, int, float]]:
        """(action, visits, mean value for the seat) for each legal action, best first."""
        if self.net is not None:
            return visit_rows(self._net_search(observation, legal_actions).children, legal_actions)
        return visit_rows(self.search(observation, legal_actions).children, legal_actions)

    def _iterate(self, root: Node) -> None:
        node = root
        path = [root]
        c = self.c
        log = math.log
        sqrt = math.sqrt
        while not node.untried and node.children:
            scale = c * sqrt(log(node.visits))
            best: Node | None = None
            best_value = -math.inf
            for child in node.children.values():
                visits = child.visits
                value = child.reward / visits + scale / sqrt(visits)
                if value > best_value:
                    best, best_value = child, value
            assert best is not None
            node = best
            path.append(node)
        if node.untried:
            action = node.untried.pop()
            state = node.state.clone()
            state.apply_unchecked(action)
            while state.current_player() == CHANCE:
                state.apply_unchecked(state.sample_chance(self.rng))
            child = Node(state, node.to_move, self.rng)
            node.children[action] = child
            path.append(child)
            if state.is_terminal():
                values = child.values = terminal_values(state)
            else:
                values = self._rollout(state.clone())
        else:  # a terminal position
            if node.values is None:
                node.values = terminal_values(node.state)
            values = node.values
        for visited in path:
            visited.visits += 1
            if visited.mover >= 0:
                visited.reward += values[visited.mover]

    def _rollout(self, state: State) -> list[float]:
        rng = self.rng
        evaluator = self.evaluator
        policy = self.policy
        depth = self.depth if evaluator is not None else math.inf
        decisions = 0
        steps = 0
        while True:
            steps += 1
            if not steps & CLOCK_EVERY and self._out_of_time():
                cut = evaluator is not None and state.current_player() >= 0
                return evaluator(state) if evaluator is not None and cut else self._even
            player = state.current_player()
            if player < 0:
                if player == CHANCE:
                    state.apply_unchecked(state.sample_chance(rng))
                    continue
                return terminal_values(state)
            if decisions >= depth:
                assert evaluator is not None
                return evaluator(state)
            legal = state.legal_actions()
            if len(legal) == 1:
                action = legal[0]
            elif policy is not None:
                action = policy(state, legal, rng)
            else:
                action = legal[rng.randrange(len(legal))]
            state.apply_unchecked(action)
            decisions += 1

    def _out_of_time(self) -> bool:
        """Whether the deadline has passed (then the search stops after this iteration)."""
        if self._deadline < math.inf and time.perf_counter() >= self._deadline:
            self._expired = True
        return self._expired

    @property
    def _even(self) -> list[float]:
        """Even chances: the value of a rollout stopped by the deadline in a game without an evaluation."""
        return [0.5] * self.game.players


def _rank_key(root: Node, action: int) -> tuple[int, float]:
    child = root.children.get(action)
    if child is None or not child.visits:
        return (-1, 0.0)
    return (child.visits, child.reward / child.visits)

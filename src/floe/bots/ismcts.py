"""Information Set Monte Carlo Tree Search (SO-ISMCTS, Cowling, Powley & Whitehouse 2012).

Each iteration samples a world consistent with the bot's observation (``game.determinize``), walks the
one tree of the bot's information set with UCB1 over the actions legal in that world (each child counts
how often it was available, so actions that exist only in some worlds are judged fairly), expands one
action, plays a short random rollout and backs up one value per seat. Chance events are never nodes of
the tree: each world resolves them with its own draws.

The rollout stops after ``depth`` decisions; the position is then judged by the game's evaluator (its
``SearchHooks.evaluate``), or played to the end where a game has none. Rollout moves come from the game's
rollout policy where it has one, and worlds from its world sampler (``floe.bots.hooks``).

Parameters (``ismcts:ms=200,c=0.7``): ``ms`` (time per decision, up to an hour) or ``it`` (iterations per
decision, up to ten million; the default is 1,000 iterations), ``c`` exploration constant (up to 100),
``depth`` rollout decisions before evaluating (up to 10,000),
``rollout`` = ``heuristic`` (the game's policy) or ``random``, ``reward`` = ``rank`` or ``win``,
``opponents`` = ``tree`` or ``policy``, and the game's world parameters (its ``SearchHooks``); declared as an
``OptionSchema`` (``ISMCTSBot.parameters``, which ``floe options GAME --bot ismcts`` lists).

With ``net=NAME`` (a trained model, ``default`` for the game's own: docs/learning.md) the search is PUCT
guided by the network instead (``floe.bots.puct``): ``ismcts:net=default,it=200``, with ``c`` (default 1.5)
and ``depth`` (rollout decisions before the network's value, default 0) besides the budget.

Whatever the budget, a search stops at the bot's ``time_cap`` (``Bot.time_cap``, set by a server): the clock
is read every few iterations and every few dozen steps of a rollout, and a rollout cut short is valued by
the game's evaluation (even chances without one).
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from typing import Any

from floe.bots.base import Bot
from floe.bots.hooks import hooks_for
from floe.bots.params import (
    BUDGET,
    ROLLOUT,
    exploration,
    read_params,
    search_budget,
    search_cost,
    whole_option,
)
from floe.bots.puct import NET_PARAMETERS, NET_SWITCH, NetSearch, most_visited, net_search_for
from floe.bots.searching import deadline, visit_rows
from floe.core.game import CHANCE, Game, State
from floe.core.options import Choice, Option, OptionSchema

MAX_DEPTH = 10_000  # rollout decisions before evaluating
# The parameters of every game (the game's world parameters are added: ``ISMCTSBot.parameters``).
PARAMETERS = (
    *BUDGET,
    exploration(0.7),
    whole_option("depth", 24, "rollout decisions before evaluating", 1, MAX_DEPTH),
    ROLLOUT,
    Option(
        "reward",
        "choice",
        "rank",
        "what a finished game is worth: by rank, or a win only",
        choices=(Choice("rank"), Choice("win")),
    ),
    Option(
        "opponents",
        "choice",
        None,
        "the other seats: searched in the tree, or played by the rollout policy",
        choices=(Choice("tree"), Choice("policy")),
        default_text="tree with 2 players, else policy",
    ),
    NET_SWITCH,
)
# The clock is read every this many steps of a walk or a rollout (a rollout to the end of a long game must
# stop at the deadline too); a power of two less one, for a cheap test.
CLOCK_EVERY = 63


def terminal_values(state: State) -> list[float]:
    """Rank utilities scaled to [0, 1]: 1 for the winner, 0 for the last."""
    order = state.ranking()
    n = len(order)
    out = [0.0] * n
    for place, seat in enumerate(order):
        out[seat] = (n - 1 - place) / (n - 1)
    return out


def win_values(state: State) -> list[float]:
    """1 for the winner, 0 for everyone else (with two players the same as ``terminal_values``)."""
    out = [0.0] * len(state.ranking())
    out[state.ranking()[0]] = 1.0
    return out


class Node:
    """A node of the information-set tree: statistics of the action that led here."""

    __slots__ = ("avail", "children", "player", "reward", "visits")

    def __init__(self, player: int) -> None:
        self.player = player  # the seat that chose the action leading here
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.reward = 0.0
        self.avail = 1


class ISMCTSBot(Bot):
    """SO-ISMCTS with determinization per iteration, UCB1 with availability, evaluated short rollouts."""

    name = "ismcts"

    def __init__(self, game: Game, seat: int, seed: int, **params: str) -> None:
        super().__init__(game, seat, seed)
        hooks = self.hooks = hooks_for(game)
        self.last_iterations = 0
        self.net: NetSearch | None = None
        if "net" in params:
            values = read_params("ismcts", NET_PARAMETERS, params, game.players, mode="with net")
            self.net = net_search_for("ismcts", game, seat, self.rng, hooks, values)
            self.ms, self.iterations = search_budget(values)
            return
        values = read_params("ismcts", self.parameters(type(game)), params, game.players)
        self.ms, self.iterations = search_budget(values)
        self.c: float = values["c"]
        self.depth: int = values["depth"]
        self.world_params: dict[str, str] = {key: values[key] for key in hooks.world_parameters}
        self.reward: str = values["reward"]
        self.evaluator = (hooks.evaluate_win or hooks.evaluate) if self.reward == "win" else hooks.evaluate
        self.final = win_values if self.reward == "win" else terminal_values
        # With two players the one opponent is searched; with more, the tree would spread its budget over
        # three opponents' turns, and playing them by the rollout policy measured stronger (docs/strength.md).
        opponents = values["opponents"] or ("tree" if game.players == 2 else "policy")
        self.opponents_by_policy = opponents == "policy"
        self.policy = hooks.rollout if values["rollout"] == "heuristic" else None
        self._deadline = math.inf  # when the running search stops (its budget or ``time_cap``)
        self._expired = False  # a walk or rollout found the deadline passed: the search stops

    @classmethod
    def parameters(cls, game: type[Game]) -> OptionSchema:
        """``PARAMETERS`` and the game's world parameters (choices, the first the default)."""
        worlds = tuple(
            Option(key, "choice", allowed[0], "how a world is sampled", choices=tuple(map(Choice, allowed)))
            for key, allowed in hooks_for(game).world_parameters.items()
        )
        return OptionSchema((*PARAMETERS, *worlds))

    @classmethod
    def cost(cls, params: Mapping[str, str]) -> float | None:
        return search_cost(params)

    def _sample_world(self, observation: Any) -> State:
        return self.hooks.world(self.game, observation, self.rng, self.world_params)

    def search(self, observation: Any, legal_actions: list[int]) -> Node:
        """Run the search from ``observation`` and return the root with its statistics."""
        assert self.net is None
        root = Node(self.seat)
        stop = self._deadline = deadline(self.ms, self.time_cap)
        self._expired = False
        limit = self.iterations or math.inf
        done = 0
        while done < limit:
            self._iterate(root, self._sample_world(observation))
            done += 1
            if self._expired or (stop < math.inf and (done & 7) == 0 and time.perf_counter() >= stop):
                break
        self.last_iterations = done
        return root

    def choose(self, observation: Any, legal_actions: list[int]) -> int:
        self.last_visits = None
        if len(legal_actions) == 1:
            return legal_actions[0]
        if self.net is not None:
            net_root = self._net_search(observation, legal_actions)
            self.last_visits = {a: child.visits for a, child in net_root.children.items()}
            return most_visited(net_root, legal_actions)
        root = self.search(observation, legal_actions)
        self.last_visits = {a: child.visits for a, child in root.children.items()}
        return max(legal_actions, key=lambda a: _visits(root, a))

    def _net_search(self, observation: Any, legal_actions: list[int]) -> Any:
        assert self.net is not None
        root = self.net.search(observation, legal_actions, self.iterations, self.ms, self.time_cap)
        self.last_iterations = self.net.last_iterations
        return root

    def analyse(self, observation: Any, legal_actions: list[int]) -> list[tuple[int, int, float]]:
        """For the hint command: (action, visits, estimated win rate) for each legal action, best first."""
        if self.net is not None:
            return visit_rows(self._net_search(observation, legal_actions).children, legal_actions)
        return visit_rows(self.search(observation, legal_actions).children, legal_actions)

    def _iterate(self, root: Node, state: State) -> None:
        rng = self.rng
        node = root
        path = [root]
        c = self.c
        steps = 0
        while not state.is_terminal():
            steps += 1
            if not steps & CLOCK_EVERY and self._out_of_time():
                self._back_up(root, path, self._cut(state))
                return
            player = state.current_player()
            if player == CHANCE:
                state.apply_unchecked(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            if self.opponents_by_policy and player != self.seat:
                # Opponents are played by the rollout policy, not searched: the tree holds only this
                # seat's own decisions, so its budget goes into them (an open-loop tree over own moves).
                if len(legal) == 1:
                    action = legal[0]
                elif self.policy is not None:
                    action = self.policy(state, legal, rng)
                else:
                    action = legal[rng.randrange(len(legal))]
                state.apply_unchecked(action)
                continue
            children = node.children
            untried = [a for a in legal if a not in children]
            for a in legal:
                child = children.get(a)
                if child is not None:
                    child.avail += 1
            if untried:
                action = untried[rng.randrange(len(untried))] if len(untried) > 1 else untried[0]
                child = Node(player)
                children[action] = child
                state.apply_unchecked(action)
                path.append(child)
                break
            best, best_value = legal[0], -math.inf
            for a in legal:
                child = children[a]
                value = child.reward / child.visits + c * math.sqrt(math.log(child.avail) / child.visits)
                if value > best_value:
                    best, best_value = a, value
            node = children[best]
            state.apply_unchecked(best)
            path.append(node)
        self._back_up(root, path, self._rollout(state))

    @staticmethod
    def _back_up(root: Node, path: list[Node], values: list[float]) -> None:
        for child in path[1:]:
            child.visits += 1
            child.reward += values[child.player]
        root.visits += 1

    def _out_of_time(self) -> bool:
        """Whether the deadline has passed (then the search stops after this iteration)."""
        if self._deadline < math.inf and time.perf_counter() >= self._deadline:
            self._expired = True
        return self._expired

    def _cut(self, state: State) -> list[float]:
        """The value of a walk or rollout stopped by the deadline: the evaluation, or even chances."""
        if self.evaluator is not None and state.current_player() >= 0:
            return self.evaluator(state)
        return [0.5] * self.game.players

    def _rollout(self, state: State) -> list[float]:
        rng = self.rng
        decisions = 0
        steps = 0
        evaluator = self.evaluator
        policy = self.policy
        while not state.is_terminal():
            steps += 1
            if not steps & CLOCK_EVERY and self._out_of_time():
                return self._cut(state)
            player = state.current_player()
            legal = state.legal_actions()
            if player != CHANCE:
                if evaluator is not None and decisions >= self.depth:
                    return evaluator(state)
                decisions += 1
                if policy is not None and len(legal) > 1:
                    state.apply_unchecked(policy(state, legal, rng))
                    continue
            state.apply_unchecked(legal[rng.randrange(len(legal))] if len(legal) > 1 else legal[0])
        return self.final(state)


def _visits(root: Node, action: int) -> int:
    child = root.children.get(action)
    return child.visits if child else -1

"""Search guided by a learned network: PUCT over one seat's information set (``ismcts:net=…``,
``mcts:net=…``, and the self-play of ``floe train``).

Each iteration samples a world consistent with the seat's observation (the game's world sampler; for a
game of perfect information that is the position itself), walks one tree of decisions, and stops at the
first decision the tree has not evaluated: there the network reads the observation vector *of the seat to
act in that world* and gives the priors of its actions and a value per seat (after a short rollout of
``depth`` decisions, if asked, from where the network's value is read instead). Selection is AlphaZero's
PUCT: ``Q(a) + c · P(a) · sqrt(N) / (1 + N(a))``, with ``Q`` the mean value for the seat that chooses,
``P`` the network's prior renormalised over the actions legal in this world, ``N`` the visits of the
actions legal here. Forced moves and chance events are applied without nodes.

``mix`` (0 to 1, default 0) mixes the game's own evaluation (its ``SearchHooks.evaluate``, where it has
one) into the network's values, as AlphaGo mixed rollouts into its value network: a young network's values
are noise, and the game's evaluation gives self-play something to search with from the first iteration.

A node evaluated for one seat keeps its priors as weights over the actions legal when it was evaluated; an
action legal only in other worlds gets the mean weight. Values are in [0, 1] (1: first, 0: last), the
game's ``State.returns`` rescaled.

The search reads the network only through positions it samples from the seat's own observation: the
vectors of the other seats are those of sampled worlds, never of the real hidden state.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from floe.bots.hooks import Evaluator, SearchHooks
from floe.bots.params import BUDGET, exploration, number_option, whole_option
from floe.bots.searching import deadline
from floe.core.errors import OptionError
from floe.core.game import CHANCE, Game, State
from floe.core.options import Option, OptionSchema
from floe.learn.model import Model, ModelError, find_model

# A search stops once its tree holds this many nodes (each keeps its priors over the legal actions), so an
# iteration budget cannot fill a worker's memory.
MAX_TREE_NODES = 50_000
MAX_DEPTH = 10_000
DEFAULT_C = 1.5
# A model's name (``floe.learn.model.find_model`` checks its spelling); never a path.
NET = Option("net", "text", "default", "the trained model: default for the game's own", max_length=64)
# ``net`` as a search bot without a network lists it (giving it switches to ``NET_PARAMETERS``).
NET_SWITCH = Option(
    "net",
    "text",
    None,
    "a trained model (default: the game's own): the search is then PUCT guided by it, with c (default "
    "1.5), depth (default 0) and mix (0 to 1, default 0) besides the budget",
    max_length=64,
    default_text="none",
)
# What a search bot takes once it has a network: its budget, the model, and the search's own.
NET_PARAMETERS = OptionSchema(
    (
        *BUDGET,
        NET,
        exploration(DEFAULT_C),
        whole_option("depth", 0, "rollout decisions before the network's value", 0, MAX_DEPTH),
        number_option("mix", 0.0, "weight of the game's own evaluation mixed into the network's values", 1),
    )
)


class PNode:
    """A decision of the tree: the statistics of the action that led here, and the priors of the seat to
    act here (None until evaluated)."""

    __slots__ = ("children", "mover", "priors", "reward", "to_move", "visits")

    def __init__(self, mover: int) -> None:
        self.mover = mover  # the seat that chose the action leading here
        self.children: dict[int, PNode] = {}
        self.visits = 0
        self.reward = 0.0
        self.priors: dict[int, float] | None = None
        self.to_move = -1


def load_net(bot: str, game: Game, name: str) -> Model:
    """The model a bot's ``net=NAME`` names, as a one-line ``OptionError`` if it cannot be used."""
    try:
        return find_model(game, name)
    except ModelError as exc:
        raise OptionError(f"{bot}: {exc}") from None


def returns01(state: State) -> list[float]:
    """A finished game's rank utilities rescaled to [0, 1] (the network's values are on this scale)."""
    return [(r + 1.0) / 2.0 for r in state.returns()]


class NetSearch:
    """PUCT with a network for one seat (see the module docstring). ``world(observation)`` samples a full
    state consistent with the seat's observation; ``rollout`` is the game's rollout policy (or None:
    uniform), used only with ``depth`` > 0; ``evaluate`` the game's evaluation, mixed into the network's
    values with the weight ``mix`` (0: the network alone)."""

    def __init__(
        self,
        game: Game,
        seat: int,
        rng: random.Random,
        model: Model,
        world: Callable[[Any], State],
        *,
        c: float = DEFAULT_C,
        depth: int = 0,
        rollout: Callable[[Any, list[int], random.Random], int] | None = None,
        evaluate: Evaluator | None = None,
        mix: float = 0.0,
    ) -> None:
        self.game = game
        self.seat = seat
        self.rng = rng
        self.model = model
        self.world = world
        self.c = c
        self.depth = depth
        self.rollout_policy = rollout
        self.evaluator = evaluate if mix > 0 else None
        self.mix = mix
        self.last_iterations = 0
        self._deadline = math.inf

    def search(
        self,
        observation: Any,
        legal_actions: list[int],
        iterations: int | None,
        ms: float | None,
        time_cap: float | None,
        noise: float = 0.0,
        noise_alpha: float = 0.3,
    ) -> PNode:
        """Search from ``observation`` and return the root (its children hold the visits). ``noise``: the
        weight of Dirichlet noise mixed into the root's priors (self-play's exploration; 0 for play)."""
        root = PNode(self.seat)
        stop = self._deadline = deadline(ms, time_cap)
        limit = iterations or math.inf
        done = 0
        nodes = 0
        while done < limit and nodes < MAX_TREE_NODES:
            nodes += self._iterate(root, self.world(observation))
            done += 1
            if root.priors is not None and done == 1 and noise > 0:
                self._add_noise(root, legal_actions, noise, noise_alpha)
            if stop < math.inf and time.perf_counter() >= stop:
                break
        self.last_iterations = done
        return root

    def _add_noise(self, root: PNode, legal: list[int], weight: float, alpha: float) -> None:
        assert root.priors is not None
        draws = [self.rng.gammavariate(alpha, 1.0) for _ in legal]
        total = sum(draws) or 1.0
        mass = sum(root.priors.get(a, 0.0) for a in legal) or 1.0
        for a, d in zip(legal, draws, strict=True):
            root.priors[a] = (1 - weight) * root.priors.get(a, 0.0) / mass + weight * d / total

    def _evaluate(self, state: State, player: int, legal: list[int]) -> tuple[dict[int, float], list[float]]:
        probs, values = self.model.evaluate(state.observation_vector(player), player, legal)
        out = [(v + 1.0) / 2.0 for v in values]
        if self.evaluator is not None:
            mix = self.mix
            out = [(1 - mix) * v + mix * e for v, e in zip(out, self.evaluator(state), strict=True)]
        return dict(zip(legal, probs.tolist(), strict=True)), out

    def _iterate(self, root: PNode, state: State) -> int:
        """One iteration; returns the number of nodes it added (0 or 1)."""
        rng = self.rng
        node = root
        path = [root]
        added = 0
        c = self.c
        while True:
            player = state.current_player()
            if player < 0:
                if player == CHANCE:
                    state.apply_unchecked(state.sample_chance(rng))
                    continue
                values = returns01(state)
                break
            legal = state.legal_actions()
            if len(legal) == 1 and node is not root:
                state.apply_unchecked(legal[0])
                continue
            if node.priors is None or node.to_move != player:
                node.priors, values = self._evaluate(state, player, legal)
                node.to_move = player
                if self.depth:
                    values = self._rollout(state)
                break
            priors = node.priors
            children = node.children
            mean_prior = 1.0 / len(priors)
            weights = [priors.get(a, mean_prior) for a in legal]
            scale = sum(weights)
            total = 0
            for a in legal:
                child = children.get(a)
                if child is not None:
                    total += child.visits
            explore = c * math.sqrt(max(total, 1)) / scale
            best, best_value = legal[0], -math.inf
            for a, w in zip(legal, weights, strict=True):
                child = children.get(a)
                if child is None or not child.visits:
                    value = 0.5 + explore * w  # an untried action: first-play value of even chances
                else:
                    value = child.reward / child.visits + explore * w / (1 + child.visits)
                if value > best_value:
                    best, best_value = a, value
            child = children.get(best)
            if child is None:
                child = children[best] = PNode(player)
                added = 1
            state.apply_unchecked(best)
            path.append(child)
            node = child
        for visited in path[1:]:
            visited.visits += 1
            visited.reward += values[visited.mover]
        root.visits += 1
        return added

    def _rollout(self, state: State) -> list[float]:
        """``depth`` decisions of the rollout policy, then the network's value of the position reached."""
        rng = self.rng
        decisions = 0
        while True:
            player = state.current_player()
            if player == CHANCE:
                state.apply_unchecked(state.sample_chance(rng))
                continue
            if player < 0:
                return returns01(state)
            legal = state.legal_actions()
            if decisions >= self.depth or time.perf_counter() >= self._deadline:
                return self._evaluate(state, player, legal)[1]
            if len(legal) == 1:
                action = legal[0]
            elif self.rollout_policy is not None:
                action = self.rollout_policy(state, legal, rng)
            else:
                action = legal[rng.randrange(len(legal))]
            state.apply_unchecked(action)
            decisions += 1


def most_visited(root: PNode, legal_actions: list[int]) -> int:
    """The action the search chose: the most visited, then the highest prior."""
    priors = root.priors or {}

    def key(a: int) -> tuple[int, float]:
        child = root.children.get(a)
        return (child.visits if child else 0, priors.get(a, 0.0))

    return max(legal_actions, key=key)


def visit_distribution(root: PNode, legal_actions: list[int]) -> np.ndarray:
    """The root's visits over ``legal_actions`` as probabilities (the training target of the policy)."""
    counts = np.array(
        [root.children[a].visits if a in root.children else 0 for a in legal_actions], dtype=np.float32
    )
    total = counts.sum()
    if total <= 0:
        return np.full(len(legal_actions), 1.0 / len(legal_actions), dtype=np.float32)
    shares: np.ndarray = counts / total
    return shares


def net_search_for(
    bot: str, game: Game, seat: int, rng: random.Random, hooks: SearchHooks, values: Mapping[str, Any]
) -> NetSearch:
    """The ``NetSearch`` of a search bot given ``net=NAME``, from its parameters read by ``NET_PARAMETERS``
    (the budget is the bot's); ``OptionError`` for a model that cannot be used. The game's world parameters
    keep their defaults."""
    model = load_net(bot, game, values["net"])
    world_params = {key: allowed[0] for key, allowed in hooks.world_parameters.items()}
    return NetSearch(
        game,
        seat,
        rng,
        model,
        lambda observation: hooks.world(game, observation, rng, world_params),
        c=values["c"],
        depth=values["depth"],
        rollout=hooks.rollout,
        evaluate=hooks.evaluate,
        mix=values["mix"],
    )

"""Train a small policy for 2-player Arctic against the ``random`` bot, through the Gymnasium interface.

    .venv/bin/python examples/train_arctic_policy.py            # a few minutes on one core
    .venv/bin/python examples/train_arctic_policy.py --quick    # seconds: the smoke test's budget

The policy is a softmax over the legal actions only (the mask in ``info["action_mask"]``) of a bilinear
score ``phi(a) . W x``: ``x`` is the seat's observation vector (plus a constant) and ``phi(a)`` a few
features of the action (its kind; for a card action the card's animals and values), so what is learnt about
one card carries over to the others. Training is REINFORCE with a running-mean baseline on the final
reward (+1 win, -1 loss), numpy only. The learner's seat is drawn at random each episode.

It plays with penalty cards seen by their owner (``penalties=seen``, BGA's model) unless ``--penalties``
says otherwise, the model its figures were measured in. Under the rulebook's face-down zone
(``hidden_look``) the Polar bear's ``look`` has no features of its own here (an all-zero row), and the
1,000-game budget of the test did not show learning (seed 0: 0.475 -> 0.50).

It prints the win rate of the greedy policy on a fixed set of evaluation deals before training and after
each block, then a JSON summary line (``{"initial_win_rate": ..., "final_win_rate": ..., ...}``).
"""

from __future__ import annotations

import argparse
import json
import time

import gymnasium
import numpy as np

import floe.rl  # noqa: F401  (registers floe/Arctic-v0)
from floe.games.arctic import actions as act
from floe.games.arctic.cards import COMPANION, DRAW, MAIN, N_CARDS, PLACEMENT
from floe.games.arctic.vector import VECTOR_SIZE

# --- action features ---------------------------------------------------------------------------------------
_KINDS = [act.PLACE, act.UNDER, act.FACEDOWN, act.SWAP, act.RIVER, act.PENALTY, act.DISCARD]


def _action_features() -> np.ndarray:
    """Per player action id: kind one-hot (18); for a card action its animals (6 + 6) and values (2)."""
    n_simple = 9  # stop, pass, take-back, deck, main right/left, extra right/left, penalty ?
    n_kinds = n_simple + 1 + len(_KINDS) + 1  # + give ? + card verbs + give card
    features = np.zeros((act.N_PLAYER_ACTIONS, n_kinds + 14), dtype=np.float32)
    for a in range(act.N_PLAYER_ACTIONS):
        card = -1
        if a < n_simple:
            kind = a
        elif act.GIVE_BLIND <= a < act.GIVE_BLIND + 4:
            kind = n_simple
        elif act.PLACE <= a < act.GIVE:
            kind = n_simple + 1 + (a - act.PLACE) // N_CARDS
            card = (a - act.PLACE) % N_CARDS
        elif act.GIVE <= a < act.N_PLAYER_ACTIONS:
            kind = n_kinds - 1
            card = (a - act.GIVE) // 4
        else:
            continue  # an unused id
        features[a, kind] = 1.0
        if card >= 0:
            features[a, n_kinds + MAIN[card]] = 1.0
            features[a, n_kinds + 6 + COMPANION[card]] = 1.0
            features[a, n_kinds + 12] = PLACEMENT[card] / 5
            features[a, n_kinds + 13] = DRAW[card] / 5
    return features


class Policy:
    """Softmax over legal actions of ``phi(a) . W [x, 1]``."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.phi = _action_features()
        self.w = rng.normal(0.0, 0.01, size=(self.phi.shape[1], VECTOR_SIZE + 1)).astype(np.float32)

    def probabilities(self, x: np.ndarray, legal: np.ndarray) -> np.ndarray:
        """The action probabilities over ``legal``."""
        logits = self.phi[legal] @ (self.w @ x)
        logits -= logits.max()
        p = np.exp(logits)
        return p / p.sum()

    def gradient_step(
        self, steps: list[tuple[np.ndarray, np.ndarray, int, np.ndarray]], advantage: float, lr: float
    ) -> None:
        """REINFORCE: W += lr * advantage * sum over decisions of (phi(a) - E_p[phi]) x^T."""
        direction = np.zeros(self.w.shape[0], dtype=np.float32)
        for x, legal, choice, p in steps:
            phis = self.phi[legal]
            direction[:] = phis[choice] - p @ phis
            self.w += (lr * advantage) * np.outer(direction, x)


def _x(obs: np.ndarray) -> np.ndarray:
    return np.append(obs, np.float32(1.0))


def play(
    env: gymnasium.Env, policy: Policy, seed: int, rng: np.random.Generator | None
) -> tuple[float, list]:
    """One episode: sampled actions with ``rng`` (training) or greedy ones (``rng=None``)."""
    obs, info = env.reset(seed=seed)
    steps = []
    while True:
        legal = np.flatnonzero(info["action_mask"])
        x = _x(obs)
        p = policy.probabilities(x, legal)
        choice = int(rng.choice(len(legal), p=p)) if rng is not None else int(np.argmax(p))
        if rng is not None and len(legal) > 1:
            steps.append((x, legal, choice, p))
        obs, reward, terminated, truncated, info = env.step(legal[choice])
        if terminated or truncated:
            return float(reward), steps


def win_rate(env: gymnasium.Env, policy: Policy, seeds: range) -> float:
    """The greedy policy's share of games won on the evaluation deals."""
    return sum(play(env, policy, s, None)[0] > 0 for s in seeds) / len(seeds)


def main(argv: list[str] | None = None) -> None:
    """Train, printing the evaluation win rate as it rises, then the JSON summary."""
    parser = argparse.ArgumentParser(description="REINFORCE on 2-player Arctic against the random bot.")
    parser.add_argument("--quick", action="store_true", help="a tiny budget (the test suite's smoke run)")
    parser.add_argument("--episodes", type=int, default=8000, help="training games")
    parser.add_argument("--blocks", type=int, default=8, help="evaluations during training")
    parser.add_argument("--eval-games", type=int, default=300, help="evaluation games (fixed deals)")
    parser.add_argument("--lr", type=float, default=0.0005, help="learning rate")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--penalties",
        choices=["seen", "hidden_look", "hidden_blind"],
        default="seen",
        help="what a player sees of their own penalty zone (Arctic's option; see the module's docstring)",
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.episodes, args.blocks, args.eval_games = 20, 2, 10

    rng = np.random.default_rng(args.seed)
    options = {"penalties": args.penalties}
    env = gymnasium.make(
        "floe/Arctic-v0", players=2, seat=None, opponents="random", reward="rank", options=options
    )
    policy = Policy(rng)
    eval_seeds = range(10**6, 10**6 + args.eval_games)  # never used for training
    start = time.perf_counter()
    initial = win_rate(env, policy, eval_seeds)
    print(f"episodes {0:>6}  win rate vs random {initial:.3f}", flush=True)
    history = [initial]
    baseline = 0.0
    per_block = max(1, args.episodes // args.blocks)
    for episode in range(1, args.episodes + 1):
        reward, steps = play(env, policy, args.seed * 10**7 + episode, rng)
        policy.gradient_step(steps, reward - baseline, args.lr)
        baseline += 0.01 * (reward - baseline)
        if episode % per_block == 0 or episode == args.episodes:
            rate = win_rate(env, policy, eval_seeds)
            history.append(rate)
            print(f"episodes {episode:>6}  win rate vs random {rate:.3f}", flush=True)
    summary = {
        "initial_win_rate": round(initial, 3),
        "final_win_rate": round(history[-1], 3),
        "win_rates": [round(rate, 3) for rate in history],
        "episodes": args.episodes,
        "eval_games": args.eval_games,
        "seconds": round(time.perf_counter() - start, 1),
    }
    print(json.dumps(summary))


if __name__ == "__main__":
    main()

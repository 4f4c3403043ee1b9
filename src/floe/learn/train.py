"""``floe train``: expert iteration for any registered game (docs/learning.md).

With ``--imitate BOT`` a bootstrap comes first (iteration 0, AlphaGo's supervised start): ``imitate_games``
games in which every seat is that bot, each decision an example (the seat's vector, the bot's policy: its
search's root visits where it reports them, else the action it chose; the final results), at most
``imitate_keep`` positions per game; the first network is trained on them (every ``HELD_OUT_EVERY``-th
game held out: its losses stop the training early) and evaluated like an iteration. The games are saved
in chunks (``data/imitate-<k>.npz``, each naming its games), so an interrupted bootstrap resumes where it
stopped. The imitation examples may stay in every later iteration's training
(``imitate_window``: ``values`` keeps their results only, ``all`` their policies too), so the value head
keeps seeing many games.

Each iteration:

1. **self-play**: ``games`` games in which every seat is the PUCT search (``floe.bots.puct``) guided by the
   best network so far, run through the lab's ``backends.execute`` (local processes, ``--ray``,
   ``--ray-address``); each decision gives an example: the seat's observation vector, the search's visit
   distribution over the legal actions, and (once the game is over) the final result of every seat;
2. **training**: the network is trained on the examples of the last ``window`` iterations (cross-entropy to
   the visit distributions over the legal actions, squared error to the results, weight decay), with JAX
   and optax (the optional extra ``train``);
3. **evaluation**: the new network's search plays the best one's, and the new network (its search and its
   policy alone) plays the game's reference bot (the entry's ``away_bot``); the new network becomes the best
   if it scores at least half against the old.

Everything a run needs to continue is in its folder (``--out``): ``run.json`` (the configuration and every
iteration's figures), ``best.npz`` (and ``models/<game>-<N>p.npz``, the same model under the name the bots
look for), ``candidate-<k>.npz``, ``data/iter-<k>.npz`` (the examples), and ``report.png``. ``--resume``
continues an interrupted or finished run (a larger ``--iterations`` extends it); an iteration interrupted
half-way is played again.
"""

from __future__ import annotations

import importlib.util
import itertools
import json
import math
import shlex
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from floe.core.errors import FloeError, OptionError
from floe.core.game import Game
from floe.core.registry import entry, make_game
from floe.lab.backends import execute
from floe.lab.stats import wilson_interval
from floe.lab.where import Backend
from floe.learn.model import Model, ModelError, load_model, new_model
from floe.learn.selfplay import (
    EvalJob,
    Examples,
    ImitationJob,
    SelfPlayJob,
    evaluation_game,
    imitation_game,
    self_play,
)

Job = TypeVar("Job")
Result = TypeVar("Result")

RUN_FORMAT = "floe-train/1"
TRAIN_INSTALL = "training needs the extra train: uv sync --extra train (or pip install 'floe[train]')"
MAX_ITERATIONS = 10_000
MAX_GAMES = 1_000_000
MAX_SEARCH = 100_000
MAX_STEPS = 1_000_000
MAX_IMITATE_GAMES = 1_000_000
MAX_IMITATE_KEEP = 100_000
# The bootstrap's examples are held in memory while training: their estimated size (games x positions kept
# x observation size x 4 bytes) is bounded before any game is played.
MAX_IMITATION_BYTES = 4 * 1024**3
IMITATE_WINDOWS = ("none", "values", "all")
# A chunk of imitation games is saved once it holds this many games or this many seconds have passed, so an
# interrupted bootstrap loses at most that much (a fast bot's games go in few files, a slow one's often).
CHUNK_GAMES = 1000
CHUNK_SECONDS = 60.0
# The bootstrap holds out every this-many-th game (5%): its losses on them decide when its training stops.
HELD_OUT_EVERY = 20
# While a held-out set is given, ``fit`` measures it every this many steps and stops once this many
# measures in a row have not improved on the best (whose weights it keeps).
CHECK_EVERY = 200
PATIENCE = 5


class TrainError(FloeError):
    """A training run cannot start or continue (its folder is another run's, or damaged)."""


@dataclass(frozen=True)
class TrainConfig:
    """What a run is: the game and the hyper-parameters (a resumed run must have the same)."""

    game: str
    players: int
    options: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    hidden: tuple[int, ...] = (128, 128)
    games: int = 24  # self-play games per iteration
    search: int = 48  # search iterations per self-play decision
    c: float = 1.5
    explore: int = 6  # decisions per seat sampled by visits (the rest: the most visited)
    noise: float = 0.25
    mix: float = 0.5  # weight of the game's evaluation in the search's values (floe.bots.puct)
    depth: int = 4  # rollout decisions (the game's rollout policy) before a leaf's value
    steps: int = 300  # gradient steps per iteration
    batch: int = 128
    learning_rate: float = 1e-3
    weight_decay: float = 1e-4
    window: int = 4  # iterations of examples trained on
    eval_games: int = 16  # games per evaluation match (rounded up to whole seatings)
    eval_search: int = 32
    reference: str = ""  # the reference bot (the entry's away_bot if empty)
    imitate: str = ""  # the bot the bootstrap imitates (none if empty)
    imitate_games: int = 1000
    imitate_keep: int = 16  # positions kept per imitation game (a random sample)
    imitate_steps: int = 20_000  # the most gradient steps of the first network (early stopping ends it)
    imitate_window: str = "values"  # what of the imitation examples later iterations train on too

    def check(self) -> None:
        """``OptionError`` for a value out of its bounds."""
        bounds = {
            "games": (self.games, 1, MAX_GAMES),
            "search": (self.search, 1, MAX_SEARCH),
            "steps": (self.steps, 0, MAX_STEPS),
            "batch": (self.batch, 1, 65_536),
            "window": (self.window, 1, MAX_ITERATIONS),
            "eval_games": (self.eval_games, 0, MAX_GAMES),
            "eval_search": (self.eval_search, 1, MAX_SEARCH),
            "explore": (self.explore, 0, 1_000_000),
            "depth": (self.depth, 0, 10_000),
            "imitate_games": (self.imitate_games, 1, MAX_IMITATE_GAMES),
            "imitate_keep": (self.imitate_keep, 1, MAX_IMITATE_KEEP),
            "imitate_steps": (self.imitate_steps, 0, MAX_STEPS),
        }
        for name, (value, low, high) in bounds.items():
            if not low <= value <= high:
                raise OptionError(f"--{name.replace('_', '-')} must be from {low} to {high:,}")
        if not (0 < self.c <= 100 and 0 <= self.noise <= 1 and 0 <= self.mix <= 1):
            raise OptionError("c must be in (0, 100], noise and mix in [0, 1]")
        if not 0 < self.learning_rate <= 1:
            raise OptionError("the learning rate must be in (0, 1]")
        if not 1 <= len(self.hidden) <= 8 or not all(1 <= h <= 4096 for h in self.hidden):
            raise OptionError("--hidden: 1 to 8 layers of 1 to 4,096 units")
        if self.imitate_window not in IMITATE_WINDOWS:
            raise OptionError(f"--imitate-window must be one of {', '.join(IMITATE_WINDOWS)}")
        if len(self.imitate) > 200:
            raise OptionError("--imitate: a bot spec of at most 200 characters")

    def check_imitation(self, game: Game) -> None:
        """``OptionError`` if the bootstrap's bot cannot play ``game`` or its examples would not fit in
        memory (checked before any game is played)."""
        if not self.imitate:
            return
        from floe.bots.registry import make_bot

        make_bot(self.imitate, game, 0, 0)
        positions = min(self.imitate_keep, game.spec.max_game_length)
        size = self.imitate_games * positions * game.spec.observation_size * 4
        if size > MAX_IMITATION_BYTES:
            raise OptionError(
                f"--imitate-games × --imitate-keep would hold up to {size / 1024**3:.1f} GB of examples "
                f"(at most {MAX_IMITATION_BYTES // 1024**3}): lower either"
            )


def _search_bot(game: Game) -> str:
    """The generic search bot of ``game``: ``mcts`` for perfect information, else ``ismcts``."""
    return "mcts" if game.information == "perfect" else "ismcts"


# --- the run's folder -----------------------------------------------------------------------------------


class Run:
    """A training run's folder (see the module docstring)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.file = folder / "run.json"

    def read(self) -> dict[str, Any]:
        try:
            data = json.loads(self.file.read_text(encoding="utf-8"))
        except OSError as exc:
            raise TrainError(f"cannot read {self.file}: {exc.strerror or exc}") from None
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise TrainError(f"{self.file} is damaged (not JSON)") from None
        if not isinstance(data, dict) or data.get("format") != RUN_FORMAT:
            raise TrainError(f"{self.file} is not a training run")
        return data

    def write(self, data: dict[str, Any]) -> None:
        part = self.file.with_name("run.json.part")
        part.write_text(json.dumps(data, indent=1), encoding="utf-8")
        part.replace(self.file)

    def data_file(self, iteration: int) -> Path:
        return self.folder / "data" / f"iter-{iteration:04d}.npz"

    def imitation_file(self, chunk: int) -> Path:
        return self.folder / "data" / f"imitate-{chunk:04d}.npz"

    def imitation_files(self) -> list[Path]:
        """The bootstrap's saved chunks, in order."""
        return sorted((self.folder / "data").glob("imitate-[0-9][0-9][0-9][0-9].npz"))


def save_examples(path: Path, ex: Examples, games: Sequence[int] = ()) -> None:
    """Examples as one ``.npz`` (legal actions and targets flattened with offsets), with their games'
    decisions and processor time, and (a bootstrap's chunk) the indices of the ``games`` they come from."""
    path.parent.mkdir(parents=True, exist_ok=True)
    lengths = np.array([len(a) for a in ex.legal], dtype=np.int64)
    part = path.with_name(path.name + ".part.npz")
    np.savez_compressed(
        part,
        vectors=ex.vectors,
        values=ex.values,
        lengths=lengths,
        legal=np.concatenate(ex.legal) if ex.legal else np.zeros(0, np.int32),
        targets=np.concatenate(ex.targets) if ex.targets else np.zeros(0, np.float32),
        games=np.asarray(games, dtype=np.int64),
        origin=ex.origin,
        decisions=np.int64(ex.decisions),
        cpu_seconds=np.float64(ex.cpu_seconds),
    )
    part.replace(path)


def load_examples(path: Path) -> tuple[Examples, list[int]]:
    """The examples ``save_examples`` wrote, and the indices of their games (empty if it named none)."""
    try:
        with np.load(path, allow_pickle=False) as data:
            offsets = np.concatenate([[0], np.cumsum(data["lengths"])])
            legal, targets = data["legal"], data["targets"]
            games = [int(g) for g in data["games"]] if "games" in data else []
            ex = Examples(
                vectors=data["vectors"],
                legal=[legal[a:b] for a, b in itertools.pairwise(offsets)],
                targets=[targets[a:b] for a, b in itertools.pairwise(offsets)],
                values=data["values"],
                decisions=int(data["decisions"]) if "decisions" in data else 0,
                games=len(games),
                cpu_seconds=float(data["cpu_seconds"]) if "cpu_seconds" in data else 0.0,
                origin=data["origin"] if "origin" in data else np.zeros(0, np.int64),
            )
            return ex, games
    except (OSError, ValueError, KeyError):
        raise TrainError(f"{path} is damaged: delete it and resume (its games are played again)") from None


def load_imitation(run: Run) -> tuple[Examples, set[int]]:
    """All the bootstrap's saved examples, and the indices of the games they come from."""
    parts: list[Examples] = []
    games: set[int] = set()
    for path in run.imitation_files():
        ex, indices = load_examples(path)
        parts.append(ex)
        games.update(indices)
    return merge(parts), games


def values_only(ex: Examples) -> Examples:
    """``ex`` without its policy targets (all zero: ``fit`` then trains only the value head on them)."""
    return Examples(
        vectors=ex.vectors,
        legal=ex.legal,
        targets=[np.zeros_like(t) for t in ex.targets],
        values=ex.values,
        decisions=ex.decisions,
        games=ex.games,
        cpu_seconds=ex.cpu_seconds,
        origin=ex.origin,
    )


def subset(ex: Examples, rows: np.ndarray) -> Examples:
    """The examples ``rows`` (indices) of ``ex`` (the counts of games, decisions and time are not split)."""
    return Examples(
        vectors=ex.vectors[rows],
        legal=[ex.legal[r] for r in rows],
        targets=[ex.targets[r] for r in rows],
        values=ex.values[rows],
        origin=ex.origin[rows] if len(ex.origin) == len(ex) else np.zeros(0, np.int64),
    )


def merge(parts: list[Examples]) -> Examples:
    """One set of examples from several."""
    width = parts[0].vectors.shape[1] if parts else 0
    return Examples(
        vectors=np.concatenate([p.vectors for p in parts]) if parts else np.zeros((0, width), np.float32),
        legal=[a for p in parts for a in p.legal],
        targets=[t for p in parts for t in p.targets],
        values=np.concatenate([p.values for p in parts]) if parts else np.zeros((0, 0), np.float32),
        decisions=sum(p.decisions for p in parts),
        games=sum(p.games for p in parts),
        cpu_seconds=sum(p.cpu_seconds for p in parts),
        origin=np.concatenate([p.origin for p in parts])
        if parts and all(len(p.origin) == len(p) for p in parts)
        else np.zeros(0, np.int64),
    )


# --- training the network (JAX) ---------------------------------------------------------------------------


def fit(
    model: Model,
    ex: Examples,
    config: TrainConfig,
    seed: int,
    steps: int | None = None,
    held_out: Examples | None = None,
) -> tuple[Model, dict[str, float]]:
    """Train a copy of ``model`` on ``ex`` for ``steps`` minibatch steps (default ``config.steps``); the
    trained model and the losses (policy cross-entropy and value squared error, on the whole set before and
    after). An example whose target is all zero (``values_only``) trains the value head only; where there
    are both kinds, each batch takes half of each, so the few policy examples are not drowned.

    With ``held_out`` examples (of other games), their loss (policy plus value) is measured every
    ``CHECK_EVERY`` steps: the weights with the lowest are returned, and the training stops once
    ``PATIENCE`` measures in a row have not improved on it (early stopping: a network that learns its
    games by heart gets worse on others)."""
    try:
        import jax
        import jax.numpy as jnp
        import optax  # type: ignore[import-untyped]
    except ImportError:
        raise OptionError(TRAIN_INSTALL) from None

    n = len(ex)
    actions = model.actions
    params: dict[str, Any] = {
        "hidden": [jnp.asarray(a) for a in model.hidden],
        "wp": jnp.asarray(model.policy[0]),
        "bp": jnp.asarray(model.policy[1]),
        "wv": jnp.asarray(model.value[0]),
        "bv": jnp.asarray(model.value[1]),
    }

    def forward(p: Any, x: Any) -> tuple[Any, Any]:
        h = x
        hidden = p["hidden"]
        for k in range(0, len(hidden), 2):
            h = jax.nn.relu(h @ hidden[k] + hidden[k + 1])
        return h @ p["wp"] + p["bp"], jnp.tanh(h @ p["wv"] + p["bv"])

    def losses(p: Any, x: Any, mask: Any, target: Any, value: Any) -> tuple[Any, Any]:
        logits, v = forward(p, x)
        logits = jnp.where(mask, logits, -1e9)
        # The mean over the examples that have a policy target (each sums to 1; a values-only one to 0).
        policy = -jnp.sum(target * jax.nn.log_softmax(logits)) / jnp.maximum(jnp.sum(target), 1.0)
        return policy, jnp.mean(jnp.sum((v - value) ** 2, axis=-1))

    def objective(p: Any, x: Any, mask: Any, target: Any, value: Any) -> Any:
        policy, value_loss = losses(p, x, mask, target, value)
        decay = jnp.sum(jnp.stack([jnp.sum(w**2) for w in [*p["hidden"][::2], p["wp"], p["wv"]]]))
        return policy + value_loss + config.weight_decay * decay

    optimiser = optax.adam(config.learning_rate)
    opt_state = optimiser.init(params)

    @jax.jit
    def step(p: Any, s: Any, x: Any, mask: Any, target: Any, value: Any) -> tuple[Any, Any]:
        grads = jax.grad(objective)(p, x, mask, target, value)
        updates, s = optimiser.update(grads, s, p)
        return optax.apply_updates(p, updates), s

    def dense(e: Examples, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        mask = np.zeros((len(rows), actions), dtype=bool)
        target = np.zeros((len(rows), actions), dtype=np.float32)
        for i, r in enumerate(rows):
            mask[i, e.legal[r]] = True
            target[i, e.legal[r]] = e.targets[r]
        return mask, target

    eval_loss = jax.jit(losses)

    def measure(p: Any, e: Examples) -> tuple[float, float]:
        total_p = total_v = mass = 0.0
        for start in range(0, len(e), 1024):
            rows = np.arange(start, min(len(e), start + 1024))
            mask, target = dense(e, rows)
            lp, lv = eval_loss(p, e.vectors[rows], mask, target, e.values[rows])
            total_p += float(lp) * max(float(target.sum()), 1.0)
            total_v += float(lv) * len(rows)
            mass += float(target.sum())
        return total_p / max(mass, 1.0), total_v / max(len(e), 1)

    with_policy = np.array([float(t.sum()) > 0 for t in ex.targets], dtype=bool)
    groups = (np.flatnonzero(with_policy), np.flatnonzero(~with_policy))
    before = measure(params, ex)
    rng = np.random.default_rng(seed)
    batch = min(config.batch, n)
    held = held_out if held_out is not None and len(held_out) else None
    kept, kept_loss, kept_step, since = params, math.inf, 0, 0
    done = 0
    for done in range(1, (config.steps if steps is None else steps) + 1 if n else 1):
        if len(groups[0]) and len(groups[1]):
            half = batch // 2
            rows = np.concatenate(
                [rng.choice(groups[0], size=batch - half), rng.choice(groups[1], size=half)]
            )
        else:
            rows = rng.integers(0, n, size=batch)
        mask, target = dense(ex, rows)
        params, opt_state = step(params, opt_state, ex.vectors[rows], mask, target, ex.values[rows])
        if held is not None and done % CHECK_EVERY == 0:
            loss = sum(measure(params, held))
            if loss < kept_loss:
                kept, kept_loss, kept_step, since = params, loss, done, 0
            elif (since := since + 1) >= PATIENCE:
                break
    held_figures: dict[str, float] = {}
    if held is not None:
        loss = sum(measure(params, held))
        if loss < kept_loss:
            kept, kept_step = params, done
        params = kept
        held_policy, held_value = measure(params, held)
        held_figures = {
            "policy_loss_held_out": held_policy,
            "value_loss_held_out": held_value,
            "steps_kept": kept_step,
            "steps_done": done,
        }
    after = measure(params, ex)
    trained = Model(
        game=model.game,
        version=model.version,
        players=model.players,
        observation_size=model.observation_size,
        actions=model.actions,
        hidden=[np.asarray(a, dtype=np.float32) for a in params["hidden"]],
        policy=(np.asarray(params["wp"], np.float32), np.asarray(params["bp"], np.float32)),
        value=(np.asarray(params["wv"], np.float32), np.asarray(params["bv"], np.float32)),
        info=dict(model.info),
    )
    figures = {
        "policy_loss_before": before[0],
        "value_loss_before": before[1],
        "policy_loss": after[0],
        "value_loss": after[1],
        **held_figures,
    }
    return trained, figures


def held_out_losses(model: Model, ex: Examples) -> dict[str, float]:
    """``model``'s losses (as ``fit`` measures them) on examples it was not trained on: the best network's
    on the iteration's new games, before training. Unlike the training losses, these say how well the
    network generalises (numpy only)."""
    if not len(ex):
        return {}
    logits, values = model.forward(ex.vectors)
    policy = 0.0
    mass = 0.0
    for row, legal, target in zip(logits, ex.legal, ex.targets, strict=True):
        chosen = row[legal]
        top = float(chosen.max())
        log_z = top + math.log(float(np.exp(chosen - top).sum()))
        policy -= float(np.dot(target, chosen - log_z))
        mass += float(target.sum())
    value = float(np.mean(np.sum((values - ex.values) ** 2, axis=-1)))
    return {"policy_loss_new_games": policy / max(mass, 1.0), "value_loss_new_games": value}


# --- evaluation --------------------------------------------------------------------------------------------


def evaluation_jobs(
    game: Game,
    config: TrainConfig,
    matches: Mapping[str, tuple[str, str]],
    models: dict[str, bytes],
    seed: int,
) -> list[EvalJob]:
    """The games of each match ``tag -> (hero spec, opponent spec)``: the hero in every seat in turn
    (``config.eval_games`` rounded up to whole rotations), the opponent in the others, deal ``d`` seeded
    ``seed + d`` for every seating."""
    n = game.players
    deals = math.ceil(config.eval_games / n) if config.eval_games else 0
    packed = tuple(sorted(models.items()))
    jobs = []
    for tag, (hero, other) in matches.items():
        for deal in range(deals):
            for seat in range(n):
                seats = tuple(hero if q == seat else other for q in range(n))
                jobs.append(
                    EvalJob(game.name, n, config.options, packed, seats, seed + deal, tag, seat)
                )  # fmt: skip
    return jobs


# --- the command --------------------------------------------------------------------------------------------


def run_training(
    config: TrainConfig,
    out: Path,
    iterations: int,
    backend: Backend,
    *,
    resume: bool = False,
    progress: bool = True,
    command: str | None = None,
    console: Console | None = None,
) -> dict[str, Any]:
    """Train until the run in ``out`` has ``iterations`` iterations after its bootstrap, if it has one (see
    the module docstring); returns the run's record (``run.json``)."""
    if not (0 if config.imitate else 1) <= iterations <= MAX_ITERATIONS:
        low = 0 if config.imitate else 1
        raise OptionError(f"--iterations must be from {low} to {MAX_ITERATIONS:,}")
    config.check()
    # Checked before any game is played, so a missing extra costs one line and no work.
    if importlib.util.find_spec("jax") is None or importlib.util.find_spec("optax") is None:
        raise OptionError(TRAIN_INSTALL)
    game = make_game(config.game, config.players, config.options)
    config.check_imitation(game)
    reference = config.reference or entry(game.name).away_bot
    config = TrainConfig(**{**asdict(config), "game": game.name, "reference": reference})
    console = console or Console(stderr=True)
    run = Run(out)
    best_path = out / "best.npz"
    command = command or shlex.join(["floe", *sys.argv[1:]])
    if run.file.exists():
        if not resume:
            raise TrainError(
                f"{out} holds a training run: add --resume to continue it, or choose another --out"
            )
        record = run.read()
        # A setting a run's record lacks (written before the setting existed) had its default value.
        defaults = asdict(TrainConfig(game=config.game, players=config.players))
        had = {**defaults, **record.get("config", {})}
        had["hidden"] = tuple(had["hidden"])
        want = {**asdict(config), "hidden": tuple(config.hidden)}
        diffs = [k for k in want if had.get(k) != want[k]]
        if diffs:
            raise TrainError(f"{out} holds another run ({', '.join(diffs)} differ); use another --out")
        try:
            best = load_model(best_path, game)
        except ModelError as exc:
            raise TrainError(str(exc)) from None
    else:
        if resume and out.exists() and any(out.iterdir()):
            raise TrainError(f"{out} holds no training run to resume (no run.json)")
        out.mkdir(parents=True, exist_ok=True)
        best = new_model(game, config.hidden, config.seed, {"command": command})
        best.info.update(iterations=0, games=0, core_seconds=0.0)
        best.save(best_path)
        record = {
            "format": RUN_FORMAT,
            "config": {**asdict(config), "hidden": list(config.hidden)},
            "iterations": [],
        }
        run.write(record)
    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
        disable=not progress,
    )
    trainer = _Trainer(config, game, run, backend, bar, console, command)
    with bar:
        if config.imitate and not any(it["iteration"] == 0 for it in record["iterations"]):
            best = trainer.bootstrap(best, record)
        kept: Examples | None = None  # the imitation examples later iterations train on too
        while (k := sum(1 for it in record["iterations"] if it["iteration"] > 0) + 1) <= iterations:
            if kept is None and config.imitate and config.imitate_window != "none":
                kept = load_imitation(run)[0]
                kept = values_only(kept) if config.imitate_window == "values" else kept
            best = trainer.iteration(k, best, record, kept)
    return record


class _Trainer:
    """The steps of a run (``run_training`` decides which to take)."""

    def __init__(
        self,
        config: TrainConfig,
        game: Game,
        run: Run,
        backend: Backend,
        bar: Progress,
        console: Console,
        command: str,
    ) -> None:
        self.config = config
        self.game = game
        self.run = run
        self.backend = backend
        self.bar = bar
        self.console = console
        self.command = command
        self.bot = _search_bot(game)
        self.budget = f"it={config.eval_search},depth={config.depth}" + (
            f",mix={config.mix:g}" if config.mix else ""
        )

    def bootstrap(self, best: Model, record: dict[str, Any]) -> Model:
        """Iteration 0: the imitation games not yet saved, the first network trained on all of them and
        evaluated against the reference bot; it becomes the best."""
        config, run = self.config, self.run
        started = time.perf_counter()
        _, done = load_imitation(run)
        chunks = [int(p.stem.split("-")[1]) for p in run.imitation_files()]
        jobs = [
            ImitationJob(
                self.game.name, self.game.players, config.options, config.imitate,
                _imitation_seed(config.seed, g), g, config.imitate_keep,
            )
            for g in range(config.imitate_games)
            if g not in done
        ]  # fmt: skip
        chunk = max(chunks, default=-1) + 1
        pending: list[tuple[int, Examples]] = []
        flushed = time.monotonic()

        def flush() -> None:
            nonlocal chunk, flushed
            if pending:
                ex = merge([e for _, e in pending])
                save_examples(run.imitation_file(chunk), ex, [g for g, _ in pending])
                chunk += 1
                pending.clear()
            flushed = time.monotonic()

        task = self.bar.add_task(f"iteration 0: {len(jobs)} games of {config.imitate}", total=len(jobs))

        def keep(result: tuple[int, Examples]) -> None:
            pending.append(result)
            self.bar.advance(task)
            if len(pending) >= CHUNK_GAMES or time.monotonic() - flushed >= CHUNK_SECONDS:
                flush()

        try:
            execute(imitation_game, jobs, self.backend, keep)
        finally:
            flush()  # what was played survives an interrupt: a resumed bootstrap does not play it again
        self.bar.remove_task(task)
        examples, done = load_imitation(run)
        task = self.bar.add_task("iteration 0: training", total=None)
        train_cpu = time.process_time()
        # Every HELD_OUT_EVERY-th game is held out: the network's losses on games it never saw decide when
        # its training stops (with a few thousand games it learns them by heart: docs/learning.md).
        held = examples.origin % HELD_OUT_EVERY == HELD_OUT_EVERY - 1
        if len(examples.origin) != len(examples) or not held.any() or held.all():
            held = np.zeros(len(examples), dtype=bool)
        candidate, losses = fit(
            best,
            subset(examples, np.flatnonzero(~held)),
            config,
            _seed(config.seed, 0, -1),
            config.imitate_steps,
            subset(examples, np.flatnonzero(held)) if held.any() else None,
        )
        train_cpu = time.process_time() - train_cpu
        self.bar.remove_task(task)
        candidate.save(run.folder / f"candidate-{0:04d}.npz")
        matches = {
            "search_vs_reference": (f"{self.bot}:net=candidate,{self.budget}", config.reference),
            "net_vs_reference": ("net:net=candidate", config.reference),
        }
        figures, eval_cpu = self.evaluate(0, matches, {"candidate": candidate.to_bytes()})
        core_seconds = examples.cpu_seconds + eval_cpu + train_cpu
        candidate.info = {
            **best.info,
            "command": self.command,
            "iterations": 0,
            "imitation": config.imitate,
            "imitation_games": len(done),
            "core_seconds": float(best.info.get("core_seconds", 0.0)) + core_seconds,
        }
        entry = {
            "iteration": 0,
            "imitate": config.imitate,
            "examples": len(examples),
            "trained_on": int((~held).sum()),
            "games": len(done),
            "decisions": examples.decisions,
            **{key: round(v, 5) for key, v in losses.items()},
            **figures,
            "accepted": True,
            "seconds": round(time.perf_counter() - started, 1),
            "core_seconds": round(core_seconds, 1),
        }
        self.record(candidate, record, entry)
        return candidate

    def iteration(self, k: int, best: Model, record: dict[str, Any], kept: Examples | None) -> Model:
        """Iteration ``k`` of expert iteration: self-play, training, evaluation; the best network after it."""
        config, run, game = self.config, self.run, self.game
        started = time.perf_counter()
        # 1. self-play
        data = best.to_bytes()
        jobs = [
            SelfPlayJob(
                game.name, game.players, config.options, data, _seed(config.seed, k, g),
                config.search, config.c, config.explore, config.noise, config.mix, config.depth,
            )
            for g in range(config.games)
        ]  # fmt: skip
        parts = _phase(self.bar, f"iteration {k}: self-play", self_play, jobs, self.backend)
        fresh = merge(parts)
        save_examples(run.data_file(k), fresh)
        window = [run.data_file(j) for j in range(max(1, k - config.window + 1), k + 1)]
        examples = merge(
            [fresh if p == run.data_file(k) else load_examples(p)[0] for p in window if p.exists()]
            + ([kept] if kept is not None else [])
        )
        # 2. training
        task = self.bar.add_task(f"iteration {k}: training", total=None)
        train_cpu = time.process_time()
        candidate, losses = fit(best, examples, config, _seed(config.seed, k, -1))
        losses.update(held_out_losses(best, fresh))
        train_cpu = time.process_time() - train_cpu
        self.bar.remove_task(task)
        candidate.save(run.folder / f"candidate-{k:04d}.npz")
        # 3. evaluation
        bot, budget, reference = self.bot, self.budget, config.reference
        matches = {
            "vs_best": (f"{bot}:net=candidate,{budget}", f"{bot}:net=best,{budget}"),
            "search_vs_reference": (f"{bot}:net=candidate,{budget}", reference),
            "net_vs_reference": ("net:net=candidate", reference),
        }
        figures, eval_cpu = self.evaluate(k, matches, {"candidate": candidate.to_bytes(), "best": data})
        accepted = not figures["vs_best"]["games"] or figures["vs_best"]["score"] >= 0.5
        # Processor time, measured where the games ran and here for the training (all its threads).
        core_seconds = fresh.cpu_seconds + eval_cpu + train_cpu
        info = dict(best.info)
        if accepted:
            best = candidate
        best.info = {
            **info,
            "command": self.command,
            "iterations": k,
            "games": int(info.get("games", 0)) + config.games,
            "core_seconds": float(info.get("core_seconds", 0.0)) + core_seconds,
        }
        entry = {
            "iteration": k,
            "examples": len(fresh),
            "trained_on": len(examples),
            "games": config.games,
            "decisions": fresh.decisions,
            **{key: round(v, 5) for key, v in losses.items()},
            **figures,
            "accepted": accepted,
            "seconds": round(time.perf_counter() - started, 1),
            "core_seconds": round(core_seconds, 1),
        }
        self.record(best, record, entry)
        return best

    def evaluate(
        self, k: int, matches: Mapping[str, tuple[str, str]], models: dict[str, bytes]
    ) -> tuple[dict[str, dict[str, Any]], float]:
        """The matches' scores (tag -> score with its interval) and the processor time they took."""
        ejobs = evaluation_jobs(self.game, self.config, matches, models, _seed(self.config.seed, k, -2))
        results: dict[str, list[float]] = {tag: [] for tag in matches}
        cpu = 0.0
        for tag, value, spent in _phase(
            self.bar, f"iteration {k}: evaluation", evaluation_game, ejobs, self.backend
        ):
            results[tag].append(value)
            cpu += spent
        return {tag: _score(values) for tag, values in results.items()}, cpu

    def record(self, best: Model, record: dict[str, Any], entry: dict[str, Any]) -> None:
        """Save the best model (also under the name the bots look for) and the iteration's figures."""
        folder = self.run.folder
        best.save(folder / "best.npz")
        best.save(folder / "models" / f"{self.game.name}-{self.game.players}p.npz")
        record["iterations"].append(entry)
        self.run.write(record)
        write_report(record, folder / "report.png")
        self.console.print(_line(entry, self.config.reference), highlight=False)


def _phase(
    bar: Progress, label: str, fn: Callable[[Job], Result], jobs: list[Job], backend: Backend
) -> list[Result]:
    """Run ``jobs`` through the lab's ``execute`` with a progress bar; their results, as they finished."""
    out: list[Result] = []
    task = bar.add_task(label, total=len(jobs))

    def keep(result: Result) -> None:
        out.append(result)
        bar.advance(task)

    execute(fn, jobs, backend, keep)
    bar.remove_task(task)
    return out


def _seed(seed: int, iteration: int, index: int) -> int:
    return (seed * 1_000_003 + iteration * 10_007 + index) % (2**31)


def _imitation_seed(seed: int, game: int) -> int:
    """The seed of the bootstrap's game ``game``: apart from the iterations' (up to a million games)."""
    return (seed * 1_000_003 + 2**30 + game) % (2**31)


def _score(values: list[float]) -> dict[str, Any]:
    """Mean result with a 95% Wilson interval (a result counts as that fraction of a win)."""
    n = len(values)
    mean = sum(values) / n if n else 0.0
    low, high = wilson_interval(round(mean * n), n)
    return {"score": round(mean, 4), "low": round(low, 4), "high": round(high, 4), "games": n}


def _line(it: Mapping[str, Any], reference: str) -> str:
    def show(tag: str) -> str:
        f = it.get(tag) or {}
        return (
            f"{f.get('score', 0):.0%} [{f.get('low', 0):.0%}–{f.get('high', 0):.0%}]"
            if f.get("games")
            else "—"
        )

    source = f" (imitating {it['imitate']}, {it['games']} games)" if it.get("imitate") else ""
    return (
        f"iteration {it['iteration']}{source}: {it['examples']} examples; "
        f"losses policy {it['policy_loss']:.3f} value {it['value_loss']:.3f}; vs best {show('vs_best')} "
        f"({'kept' if it['accepted'] else 'dropped'}); "
        f"search vs {reference} {show('search_vs_reference')}; net vs {reference} {show('net_vs_reference')}"
    )


def write_report(record: Mapping[str, Any], path: Path) -> None:
    """The training report: strength against the reference bot per iteration with 95% intervals, and the
    losses (a PNG)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    its = record["iterations"]
    xs = [it["iteration"] for it in its]
    config = record["config"]
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(8, 7), sharex=True)
    for tag, label in (
        ("search_vs_reference", f"search with the net vs {config['reference']}"),
        ("net_vs_reference", f"net alone vs {config['reference']}"),
        ("vs_best", "new net's search vs the best so far"),
    ):
        rows = [(x, it[tag]) for x, it in zip(xs, its, strict=True) if it.get(tag, {}).get("games")]
        if rows:
            score = [r[1]["score"] for r in rows]
            low = [r[1]["score"] - r[1]["low"] for r in rows]
            high = [r[1]["high"] - r[1]["score"] for r in rows]
            top.errorbar([r[0] for r in rows], score, yerr=[low, high], marker="o", capsize=3, label=label)
    top.axhline(0.5, color="grey", linewidth=0.8)
    top.set_ylim(0, 1)
    top.set_ylabel("score (1 first, 0 last)")
    top.legend(fontsize=8)
    top.set_title(
        f"floe train {config['game']} --players {config['players']}: strength per iteration (95% CI)"
    )
    bottom.plot(xs, [it["policy_loss"] for it in its], marker="o", label="policy loss (cross-entropy)")
    bottom.plot(xs, [it["value_loss"] for it in its], marker="o", label="value loss (squared error)")
    for label in ("policy", "value"):
        # Games the network was not trained on: an iteration's new games, the bootstrap's held-out ones.
        keys = (f"{label}_loss_new_games", f"{label}_loss_held_out")
        held = [(x, it[k]) for x, it in zip(xs, its, strict=True) for k in keys if k in it]
        if held:
            bottom.plot(
                *zip(*held, strict=True), linestyle="--", marker="x", label=f"{label} loss, new games"
            )
    bottom.set_xlabel("iteration")
    bottom.set_ylabel("loss")
    bottom.legend(fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=90)
    plt.close(fig)

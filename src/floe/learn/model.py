"""The model file of a learned bot, and the network's evaluation in numpy (no training library needed).

A model is a small multilayer perceptron for one game, player count and rules version. It reads one seat's
observation vector (``State.observation_vector``, ``spec.observation_size`` numbers: what that seat may
know, nothing else) and gives

- **policy logits** over the game's player action ids (``spec.player_actions``); the bots mask them to the
  legal actions before the softmax;
- **a value per seat** in [-1, 1] (``State.returns``'s scale: 1 first, -1 last), *relative to the
  observer*: entry 0 is the observing seat, entry k the seat k places after it. So the network needs no
  notion of its own seat number, whether or not the game's vector is written from the observer's side.

The file is a numpy ``.npz`` archive (no pickle): the arrays ``w0, b0, w1, b1, …`` of the hidden layers,
``wp, bp`` of the policy head, ``wv, bv`` of the value head, and ``meta``, a JSON text (as bytes) with the
format, game, rules version, player count, observation size, action count, hidden sizes and the command
that trained the model. ``load_model`` checks all of it against the game it is loaded for, and refuses a
file of another game, rules version or size, a damaged file or an oversized one with a one-line
``ModelError``.
"""

from __future__ import annotations

import io
import itertools
import json
import os
import re
import zipfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from floe.core.errors import FloeError
from floe.core.game import Game

FORMAT = "floe-model/1"
# A model file is refused above this size before it is read (the shipped ones are a few MB).
MAX_MODEL_BYTES = 64 * 1024 * 1024
# Hidden layers and their widths a file may declare (a bound on the work one evaluation may cost).
MAX_LAYERS = 8
MAX_WIDTH = 4096

Array = npt.NDArray[np.float32]


class ModelError(FloeError):
    """A model file cannot be used: missing, damaged, or made for another game, rules version or size."""


@dataclass
class Model:
    """A network and the facts that say which game it plays (see the module docstring)."""

    game: str
    version: str
    players: int
    observation_size: int
    actions: int
    hidden: list[Array]  # weights (in, out) and biases, alternating: w0, b0, w1, b1, ...
    policy: tuple[Array, Array]
    value: tuple[Array, Array]
    info: dict[str, Any] = field(default_factory=dict)  # the command, iterations, games...: for people

    # --- evaluation ---------------------------------------------------------------------------------------
    def forward(self, x: Array) -> tuple[Array, Array]:
        """Logits over every action id and relative values (see the module docstring) for a batch of
        observation vectors ``x`` (shape (batch, observation_size))."""
        h = x
        for k in range(0, len(self.hidden), 2):
            h = np.maximum(h @ self.hidden[k] + self.hidden[k + 1], 0.0)
        logits = h @ self.policy[0] + self.policy[1]
        values = np.tanh(h @ self.value[0] + self.value[1])
        return logits, values

    def evaluate(self, vector: Array, seat: int, legal: Sequence[int]) -> tuple[Array, list[float]]:
        """For one seat's observation vector: the policy over ``legal`` (probabilities, in that order) and
        the value of every seat by seat number, in [-1, 1]."""
        logits, rel = self.forward(np.asarray(vector, dtype=np.float32)[None, :])
        chosen = logits[0, np.asarray(legal, dtype=np.intp)]
        chosen = np.exp(chosen - chosen.max())
        probs: Array = chosen / chosen.sum()
        n = self.players
        values = [0.0] * n
        for k in range(n):
            values[(seat + k) % n] = float(rel[0, k])
        return probs, values

    # --- the file -----------------------------------------------------------------------------------------
    def meta(self) -> dict[str, Any]:
        """The JSON facts written with the weights."""
        return {
            "format": FORMAT,
            "game": self.game,
            "version": self.version,
            "players": self.players,
            "observation_size": self.observation_size,
            "actions": self.actions,
            "hidden_sizes": [int(w.shape[1]) for w in self.hidden[::2]],
            "info": self.info,
        }

    def to_bytes(self) -> bytes:
        """The model file's bytes (a compressed ``.npz``)."""
        arrays: dict[str, Any] = {}
        for k in range(0, len(self.hidden), 2):
            arrays[f"w{k // 2}"], arrays[f"b{k // 2}"] = self.hidden[k], self.hidden[k + 1]
        arrays["wp"], arrays["bp"] = self.policy
        arrays["wv"], arrays["bv"] = self.value
        arrays["meta"] = np.frombuffer(json.dumps(self.meta(), sort_keys=True).encode(), dtype=np.uint8)
        buffer = io.BytesIO()
        np.savez_compressed(buffer, **arrays)
        return buffer.getvalue()

    def save(self, path: Path) -> None:
        """Write the model file, atomically (a reader never sees half a file)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        part = path.with_name(path.name + ".part")
        part.write_bytes(self.to_bytes())
        part.replace(path)

    def parameter_count(self) -> int:
        """How many numbers the network has."""
        return sum(int(a.size) for a in [*self.hidden, *self.policy, *self.value])


def new_model(
    game: Game, hidden_sizes: Sequence[int], seed: int, info: Mapping[str, Any] | None = None
) -> Model:
    """A network for ``game`` with random weights (He initialisation; small heads, so the first policy is
    close to uniform and the first values close to 0)."""
    spec = game.spec
    rng = np.random.default_rng(seed)
    sizes = [spec.observation_size, *hidden_sizes]
    hidden: list[Array] = []
    for a, b in itertools.pairwise(sizes):
        hidden.append((rng.standard_normal((a, b)) * np.sqrt(2.0 / a)).astype(np.float32))
        hidden.append(np.zeros(b, dtype=np.float32))
    last = sizes[-1]
    policy_w = (rng.standard_normal((last, spec.player_actions)) * 0.01).astype(np.float32)
    value_w = (rng.standard_normal((last, game.players)) * 0.01).astype(np.float32)
    return Model(
        game=game.name,
        version=spec.version,
        players=game.players,
        observation_size=spec.observation_size,
        actions=spec.player_actions,
        hidden=hidden,
        policy=(policy_w, np.zeros(spec.player_actions, dtype=np.float32)),
        value=(value_w, np.zeros(game.players, dtype=np.float32)),
        info=dict(info or {}),
    )


def load_model(path: Path, game: Game | None = None) -> Model:
    """Read a model file; with ``game``, check that it was made for that game, rules version, player count
    and sizes. ``ModelError`` (one line) for a missing, oversized, damaged or mismatched file."""
    try:
        size = path.stat().st_size
        if not path.is_file():
            raise ModelError(f"{path} is not a model file")
        if size > MAX_MODEL_BYTES:
            raise ModelError(f"{path} is too large for a model ({size:,} bytes, at most {MAX_MODEL_BYTES:,})")
        data = path.read_bytes()
    except OSError as exc:
        raise ModelError(f"cannot read the model {path}: {exc.strerror or exc}") from None
    return model_from_bytes(data, game, str(path))


def model_from_bytes(data: bytes, game: Game | None = None, where: str = "the model") -> Model:
    """``load_model`` for the bytes of a model file (``where`` names it in errors)."""
    if len(data) > MAX_MODEL_BYTES:
        raise ModelError(f"{where} is too large for a model")
    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as archive:
            arrays = {name: archive[name] for name in archive.files}
        meta = json.loads(bytes(arrays.pop("meta")).decode())
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile, UnicodeDecodeError):
        raise ModelError(f"{where} is damaged or not a Floe model file") from None
    model = _model_of(arrays, meta, where)
    if game is not None:
        check_fits(model, game, where)
    return model


def check_fits(model: Model, game: Game, where: str = "the model") -> None:
    """``ModelError`` naming the first difference if ``model`` was made for another game, rules version,
    player count, observation size or action count than ``game``."""
    spec = game.spec
    wanted = (
        ("game", model.game, game.name),
        ("rules version", model.version, spec.version),
        ("players", model.players, game.players),
        ("observation size", model.observation_size, spec.observation_size),
        ("action count", model.actions, spec.player_actions),
    )
    for what, have, want in wanted:
        if have != want:
            raise ModelError(f"{where} was made for {what} {have}, not {want}: train one for this game")


def _model_of(arrays: dict[str, Any], meta: Any, where: str) -> Model:
    """Check the archive's arrays and facts against each other (shapes, types, bounds); the model."""
    bad = ModelError(f"{where} is damaged or not a Floe model file")
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise bad
    try:
        game, version = str(meta["game"]), str(meta["version"])
        players, obs, actions = int(meta["players"]), int(meta["observation_size"]), int(meta["actions"])
        sizes = [int(s) for s in meta["hidden_sizes"]]
        info = meta.get("info") or {}
    except (KeyError, TypeError, ValueError):
        raise bad from None
    if not (1 <= len(sizes) <= MAX_LAYERS and all(1 <= s <= MAX_WIDTH for s in sizes)) or not isinstance(
        info, dict
    ):
        raise bad
    if not (2 <= players <= 64 and 1 <= obs <= 1_000_000 and 1 <= actions <= 1_000_000):
        raise bad
    shapes: dict[str, tuple[int, ...]] = {}
    dims = [obs, *sizes]
    for k, (a, b) in enumerate(itertools.pairwise(dims)):
        shapes[f"w{k}"], shapes[f"b{k}"] = (a, b), (b,)
    shapes.update(wp=(dims[-1], actions), bp=(actions,), wv=(dims[-1], players), bv=(players,))
    if set(arrays) != set(shapes):
        raise bad
    for name, shape in shapes.items():
        array = arrays[name]
        if array.shape != shape or array.dtype.kind != "f" or not np.all(np.isfinite(array)):
            raise bad
        arrays[name] = array.astype(np.float32)
    hidden = [arrays[f"{kind}{k}"] for k in range(len(sizes)) for kind in ("w", "b")]
    return Model(
        game=game,
        version=version,
        players=players,
        observation_size=obs,
        actions=actions,
        hidden=hidden,
        policy=(arrays["wp"], arrays["bp"]),
        value=(arrays["wv"], arrays["bv"]),
        info=info,
    )


# --- finding a model by name ------------------------------------------------------------------------------
# A model is named, never given by path, by a bot spec (``net:model=NAME``): a spec may come from a web
# client, which must not make the server open files of its choosing. Names are looked up in the models this
# process was handed (``install_model``: the trainer's candidates), then in the folders of the environment
# variable FLOE_MODELS (set by whoever runs Floe), then in the game's own folder (``GameEntry.models``).
MODELS_ENV = "FLOE_MODELS"
DEFAULT = "default"  # the name that means the game's own model for the player count
_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")
_INSTALLED: dict[tuple[str, int, str], Model] = {}
_LOADED: dict[tuple[str, int, int], Model] = {}  # (path, mtime, size) -> model: a file is read once
MAX_LOADED = 16  # models kept in memory per process (a file rewritten by a trainer is a new entry)


def default_name(game: Game) -> str:
    """The model a learned bot plays when none is named: ``<game>-<players>p``."""
    return f"{game.name}-{game.players}p"


def valid_name(name: str) -> bool:
    """Whether ``name`` may name a model (lower-case letters, digits, ``-`` and ``_``, at most 64)."""
    return bool(_NAME.fullmatch(name))


def install_model(name: str, model: Model) -> None:
    """Make ``model`` available to the bots of this process under ``name`` (before any file of that name)."""
    _INSTALLED[model.game, model.players, name] = model


def model_dirs(game_name: str) -> list[Path]:
    """The folders searched for the game's model files, in order."""
    from floe.core.registry import entry

    folders = [Path(p) for p in os.environ.get(MODELS_ENV, "").split(os.pathsep) if p]
    own = entry(game_name).models_dir()
    return [*folders, *([own] if own is not None else [])]


def has_models(game_name: str) -> bool:
    """Whether a learned bot may find a model for the game: one was installed in this process, the game
    ships some, or FLOE_MODELS names folders (their files say their game only once read). The bot list
    offers ``net`` only then."""
    if any(key[0] == game_name for key in _INSTALLED) or os.environ.get(MODELS_ENV):
        return True
    from floe.core.registry import entry

    own = entry(game_name).models_dir()
    return own is not None and own.is_dir() and any(own.glob("*.npz"))


def find_model(game: Game, name: str | None = None) -> Model:
    """The model ``name`` (None or ``default``: ``default_name(game)``) for ``game``, checked against it;
    ``ModelError`` (one line) if there is none or it does not fit."""
    name = default_name(game) if name in (None, "", DEFAULT) else name
    if not valid_name(name):
        shown = name if len(name) <= 40 else name[:39] + "…"
        raise ModelError(f"{shown!r} is not a model name (lower-case letters, digits, - and _)")
    installed = _INSTALLED.get((game.name, game.players, name))
    if installed is not None:
        check_fits(installed, game, f"the model {name}")
        return installed
    for folder in model_dirs(game.name):
        path = folder / f"{name}.npz"
        try:
            stat = path.stat()
        except OSError:
            continue
        key = (str(path), stat.st_mtime_ns, stat.st_size)
        model = _LOADED.get(key)
        if model is None:
            model = load_model(path)
            while len(_LOADED) >= MAX_LOADED:
                del _LOADED[next(iter(_LOADED))]
            _LOADED[key] = model
        check_fits(model, game, str(path))
        return model
    raise ModelError(
        f"no model {name} for {game.name} with {game.players} players: train one (floe train) or put "
        f"{name}.npz in a folder of {MODELS_ENV}"
    )

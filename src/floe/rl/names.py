"""The names each registered game gets in the learning libraries, all derived from its ``GameEntry``.

For a game named ``name`` with title ``Title``:

- PettingZoo module ``floe.rl.<name>_v0`` (with ``env`` and ``raw_env``), the library's convention;
- Gymnasium id ``floe/<Title>-v0`` and environment class ``floe.rl.<Title>Env``;
- OpenSpiel short name ``python_floe_<name>``.

``Title`` is the title with everything but letters, digits and ``_`` left out (a title ``Ship Of Fools`` gives
``ShipOfFools``), so it is both a Gymnasium id part and a Python identifier. Nothing here imports the
learning libraries: the names are plain text.
"""

from __future__ import annotations

from floe.core.entry import GameEntry
from floe.core.registry import entries, entry

__all__ = [
    "VERSION",
    "class_name",
    "entry_for_class",
    "entry_for_module",
    "env_id",
    "module_name",
    "spiel_name",
    "title_word",
]

VERSION = 0  # the ``-v0``/``_v0`` suffix; bump when an adapter's observations or rewards change meaning


def _identifier(text: str) -> str:
    """``text`` reduced to a Python identifier's characters (``-`` and spaces become ``_``)."""
    out = "".join(c if c.isalnum() or c == "_" else "_" for c in text.strip())
    return out if out.isidentifier() else f"game_{out}"


def title_word(game: GameEntry) -> str:
    """The title as one word (``Ship Of Fools`` -> ``ShipOfFools``), for ids and class names."""
    word = "".join(c for c in game.title if c.isalnum() or c == "_")
    if not word.isidentifier():  # empty, or starting with a digit
        word = _identifier(game.name).capitalize()
    return word


def env_id(name: str) -> str:
    """The Gymnasium id of game ``name``: ``floe/<Title>-v0``."""
    return f"floe/{title_word(entry(name))}-v{VERSION}"


def class_name(name: str) -> str:
    """The name of game ``name``'s Gymnasium environment class: ``<Title>Env``."""
    return f"{title_word(entry(name))}Env"


def module_name(name: str) -> str:
    """The PettingZoo module name of game ``name``: ``<name>_v0`` (as an identifier)."""
    return f"{_identifier(entry(name).name)}_v{VERSION}"


def spiel_name(name: str) -> str:
    """The OpenSpiel short name of game ``name``: ``python_floe_<name>``."""
    return f"python_floe_{_identifier(entry(name).name)}"


def entry_for_module(module: str) -> GameEntry | None:
    """The game whose PettingZoo module is called ``module`` (``<name>_v0``), or None."""
    return next((e for e in entries() if module_name(e.name) == module), None)


def entry_for_class(cls: str) -> GameEntry | None:
    """The game whose Gymnasium environment class is called ``cls`` (``<Title>Env``), or None."""
    return next((e for e in entries() if class_name(e.name) == cls), None)

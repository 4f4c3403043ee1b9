"""The game contract: one ``GameEntry`` per game, everything Floe needs to know about it.

A game package registers its entry under the ``floe.games`` entry-point group (see ``registry``); the
generic layers (bots, lab, terminal, web table, learning adapters) read the entry and never name a game.

The engine facts (name, title, player range, information, option schema) live on the ``Game`` class the
entry points to; the entry adds what the rest of Floe needs around the engine. The heavier parts (bots,
search hooks, terminal view, web presenter) are named by ``"module:attribute"`` references and imported
only by the layer that uses them, so listing the games stays cheap and ``floe.core`` imports nothing of
theirs.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

from floe.core.game import Game
from floe.core.i18n import Catalog, catalog_of
from floe.core.options import OptionSchema

# "package.module:attribute"
Ref = str
T = TypeVar("T")


@dataclass(frozen=True)
class GameEntry:
    """Everything Floe needs to know about one game (see the module docstring).

    - ``game``: the engine's ``Game`` class, built as ``game(players, options)``.
    - ``summary``: one line for the lobby and ``floe games``; ``notice``: a warning shown wherever a player
      sees the game (e.g. placeholder components), or empty.
    - ``bots``: the game's own bots, name -> ``"module:BotClass"`` (the generic ``random``, ``ismcts`` and,
      for perfect-information games, ``mcts`` are there for every game).
    - ``default_bot``: the opponent when none is named; ``away_bot``: the stand-in for an away person;
      ``hint_bots``: bot specs for the terminal's ``hint``, in order of preference; ``lobby_bots``: the bot
      specs the lobby suggests, weakest first (within one bot, by budget).
    - ``bot_labels``: the name people see for a bot, by bot name (``"baseline": "Baseline (BGA's automatic
      player)"``); a bot not listed has its generic label (``floe.bots.labels``), its budget added
      (``ISMCTS · 0.5 s``). ``bot_strength``: each lobby bot's measured strength rank, by bot name (higher
      is stronger; docs/strength.md), which orders the lobby's suggestions; a game that gives none keeps the
      order of ``lobby_bots``.
    - ``search``: ``"module:HOOKS"``, a ``floe.bots.hooks.SearchHooks`` (evaluation, rollout policy, world
      sampling) that the generic search bots use.
    - ``terminal``: ``"module:VIEW"``, a ``floe.play.views.GameView``.
    - ``presenter``: ``"module:PRESENTER"``, a ``floe.server.present.GamePresenter`` (log lines, the decision
      in words, the legal choices with what they touch).
    - ``web``: ``"package:folder"``, the browser's files for the game: ``board.js`` (the board module) and
      ``icon.svg``.
    - ``locale``: ``"package:folder"``, the game's gettext catalogs (domain: the game's name; one ``.po`` per
      language, ``floe.core.i18n``), or None for a game that speaks English only.
    - ``score``: ``"module:function"``, a Typer command that scores a physical game's position
      (``floe score <game> ...``), or None.
    - ``balance``: ``"module:BALANCE"``, a ``floe.core.balance.BalanceSpec``: the game's own facts of a
      finished game for ``floe balance`` (power held, colour, end condition...), or None for the generic
      figures only (seat, bot, game length).
    - ``reveals``: ``"module:function"``, ``(state, action, seat) -> bool``: whether applying the action may
      show the seat something that was hidden from it (a rule turning a card face up), which the
      conformance kit needs to compare a seat's possible worlds (``floe.testing``); None for a game whose
      hidden parts stay hidden until the end.
    - ``models``: ``"package:folder"`` of the game's trained models for the learned bots (``net``,
      ``ismcts:net=…``): ``<game>-<players>p.npz`` files (``floe.learn.model``, docs/learning.md), or None.
    - ``order``: where the game is listed; the first is the default game of ``floe play``.
    """

    game: type[Game]
    summary: str = ""
    notice: str = ""
    bots: Mapping[str, Ref] = field(default_factory=dict)
    default_bot: str = "random"
    away_bot: str = "random"
    hint_bots: tuple[str, ...] = ("ismcts:ms=1000",)
    lobby_bots: tuple[str, ...] = ("random",)
    bot_labels: Mapping[str, str] = field(default_factory=dict)
    bot_strength: Mapping[str, int] = field(default_factory=dict)
    search: Ref | None = None
    terminal: Ref | None = None
    presenter: Ref | None = None
    web: Ref | None = None
    locale: Ref | None = None
    score: Ref | None = None
    balance: Ref | None = None
    reveals: Ref | None = None
    models: Ref | None = None
    aliases: tuple[str, ...] = ()
    order: int = 100

    # --- the engine's facts -------------------------------------------------------------------------------
    @property
    def name(self) -> str:
        """The game's name in records, commands and URLs (``floe play <name>``)."""
        return self.game.name

    @property
    def title(self) -> str:
        """The game's name for people."""
        return self.game.title or self.game.name.capitalize()

    @property
    def min_players(self) -> int:
        return self.game.min_players

    @property
    def max_players(self) -> int:
        return self.game.max_players

    @property
    def information(self) -> str:
        """``perfect`` or ``imperfect``."""
        return self.game.information

    @property
    def options(self) -> OptionSchema:
        """The option schema."""
        return self.game.schema

    def new_game(self, players: int, options: Mapping[str, Any] | None = None) -> Game:
        """The game for ``players`` seats with ``options`` (checked by the schema: ``OptionError``)."""
        return self.game(players, options)

    # --- the parts other layers load ------------------------------------------------------------------------
    def web_dir(self) -> Path | None:
        """The folder of the game's browser files, or None."""
        if self.web is None:
            return None
        package, _, folder = self.web.partition(":")
        return Path(str(resources.files(package).joinpath(folder)))

    def models_dir(self) -> Path | None:
        """The folder of the game's trained models, or None."""
        if self.models is None:
            return None
        package, _, folder = self.models.partition(":")
        return Path(str(resources.files(package).joinpath(folder or "models")))

    def catalog(self) -> Catalog | None:
        """The game's gettext catalogs (its domain is its name), or None if it has none."""
        if self.locale is None:
            return None
        package, _, folder = self.locale.partition(":")
        return catalog_of(package, self.name, folder or "locale")

    def info(self) -> dict[str, Any]:
        """JSON facts for listings (``GET /api/games``, ``floe games --json``)."""
        return {
            "name": self.name,
            "title": self.title,
            "summary": self.summary,
            "notice": self.notice,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "information": self.information,
            "options": self.options.describe(),
        }


def resolve_as(ref: Ref, kind: type[T]) -> T:
    """The object ``ref`` names, which must be a ``kind`` (``TypeError`` naming the reference if not)."""
    found = resolve(ref)
    if not isinstance(found, kind):
        raise TypeError(f"{ref} is not a {kind.__name__}")
    return found


def resolve(ref: Ref) -> Any:
    """The object a ``"module:attribute"`` reference names (``ImportError``/``AttributeError`` if none)."""
    module, _, attribute = ref.partition(":")
    if not module or not attribute:
        raise ValueError(f"a reference must look like package.module:attribute, not {ref!r}")
    target: Any = importlib.import_module(module)
    for part in attribute.split("."):
        target = getattr(target, part)
    return target

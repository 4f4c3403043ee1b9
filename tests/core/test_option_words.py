"""Every word of a game's option schema that the lobby shows (each option's and each list item's label and
help) is translated in every language, by the game's catalog or Floe's: the catalog check, extended to the
games' data."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from floe.core.i18n import FLOE, LANGUAGES
from floe.core.options import Option
from floe.core.registry import entries


def _texts(option: Option) -> Iterator[str]:
    yield option.label
    yield option.help
    for item in option.items:
        yield from _texts(item)


@pytest.mark.parametrize("lang", LANGUAGES[1:])
@pytest.mark.parametrize("game", [e for e in entries() if e.catalog() is not None], ids=lambda e: e.name)
def test_every_option_reads_in_every_language(game: object, lang: str) -> None:
    from floe.core.entry import GameEntry

    assert isinstance(game, GameEntry)
    catalog = game.catalog()
    assert catalog is not None
    known: dict[str, object] = {}
    for source in (FLOE, catalog):
        known.update(source.browser(lang)["messages"])
    missing = sorted({t for o in game.options.options for t in _texts(o) if t and t not in known})
    assert not missing, f"{game.name} options not translated into {lang}: {missing}"

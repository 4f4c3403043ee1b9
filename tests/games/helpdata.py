"""The worked scoring example a game's rules help shows (``web/help.js``, between ``/* example */`` and
``/* /example */``), read as JSON, so each game's test recomputes its figures with the game's scoring code."""

from __future__ import annotations

import json
import re
from importlib import resources
from typing import Any

_EXAMPLE = re.compile(r"/\* example \*/(.*?)/\* /example \*/", re.S)


def help_example(game: str) -> dict[str, Any]:
    """The example data of ``floe.games.<game>``'s help module."""
    text = resources.files(f"floe.games.{game}").joinpath("web/help.js").read_text(encoding="utf-8")
    found = _EXAMPLE.findall(text)
    assert len(found) == 1, f"{game}/web/help.js: expected one example block, found {len(found)}"
    data: dict[str, Any] = json.loads(found[0])
    return data

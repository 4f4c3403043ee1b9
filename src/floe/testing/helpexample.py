"""The worked example of a game's rules help, for tests that recompute its figures with the game's scoring.

A game's help module (``help.js`` in its web folder, docs/server.md "Help modules") may show a worked
scoring example; its data sits between ``/* example */`` and ``/* /example */`` as plain JSON, and the text
the panel shows is built from it. ``help_example`` reads that block, so a game's test can score the same
position with the game's own code and compare every figure the help states.
"""

from __future__ import annotations

import json
import re
from typing import Any

from floe.core.registry import entry

_EXAMPLE = re.compile(r"/\* example \*/(.*?)/\* /example \*/", re.S)


def help_example(game: str) -> dict[str, Any]:
    """The example data of ``game``'s help module; ``ValueError`` if it has none, or more than one."""
    folder = entry(game).web_dir()
    path = folder / "help.js" if folder is not None else None
    if path is None or not path.is_file():
        raise ValueError(f"{game} has no help module (help.js in its web folder)")
    found = _EXAMPLE.findall(path.read_text(encoding="utf-8"))
    if len(found) != 1:
        raise ValueError(f"{path}: expected one /* example */ block, found {len(found)}")
    data: dict[str, Any] = json.loads(found[0])
    return data

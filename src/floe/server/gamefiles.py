"""A game's browser files (its board module, styles and pictures), served read-only at ``/games/<name>/…``.

Each game's entry names its web folder (``GameEntry.web``, ``"package:folder"``); the server knows no game
by name and finds the folder through the entry. A request is answered only for a file that is really inside
that folder (after following links), of a known kind, and of a bounded size; anything else (a folder, a
hidden file, a path that climbs out, an unknown game, a game with no web folder) is a plain 404, so the
answer never tells what exists outside the folder.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from floe.core.errors import FloeError
from floe.core.registry import entries
from floe.server.refusal import Refusal

# What a board may ship, and how it is sent. Anything else (Python files, data) is never served.
MEDIA_TYPES = {
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".webp": "image/webp",
    ".json": "application/json",
    ".woff2": "font/woff2",
}
MAX_PATH = 200  # characters of the path inside the folder
MAX_DEPTH = 4  # folders below the web folder
MAX_BYTES = 2_000_000  # no board file is near this; a bigger one is a mistake, not something to send


@lru_cache(maxsize=64)
def web_root(game: str) -> Path | None:
    """The resolved web folder of ``game`` (its exact name), or None for an unknown game or one without."""
    for found in entries():
        if found.name == game:
            folder = found.web_dir()
            return folder.resolve() if folder is not None and folder.is_dir() else None
    return None


def game_file(game: str, path: str) -> tuple[Path, str]:
    """The file ``path`` of ``game``'s web folder and its media type; ``Refusal`` (404) if it may not be
    served (see the module docstring)."""
    missing = Refusal("not_found", "no such file", 404)
    parts = path.split("/")
    if not path or len(path) > MAX_PATH or len(parts) > MAX_DEPTH + 1:
        raise missing
    # No hidden files, no empty or relative parts, no backslashes (another spelling of a separator).
    if any(not p or p.startswith(".") or "\\" in p or "\0" in p for p in parts):
        raise missing
    media = MEDIA_TYPES.get(Path(parts[-1]).suffix.lower())
    if media is None:
        raise missing
    try:
        root = web_root(game)
    except FloeError:
        raise missing from None
    if root is None:
        raise missing
    target = root.joinpath(*parts).resolve()
    # resolve() follows links: a link that points out of the folder is refused like a "..".
    if not target.is_relative_to(root) or not target.is_file() or target.stat().st_size > MAX_BYTES:
        raise missing
    return target, media

"""The pages draw their own icons: no emoji in the web chrome, the boards or the catalogs' texts for them
(an emoji shows as a blank box where no emoji font is installed: the table's Skip button did)."""

from __future__ import annotations

import re
from pathlib import Path

from floe.core.catalogs import domains

ROOT = Path(__file__).resolve().parents[2] / "src" / "floe"
# Emoji and the media-control symbols that fonts without emoji lack (⏭ ⏸ …); arrows and geometric shapes
# (→ ◀ ▶) are in every ordinary font.
EMOJI = re.compile("[\u23e9-\u23fa\ufe0f\U0001f000-\U0001faff]")


def test_no_web_file_holds_an_emoji() -> None:
    files = [*ROOT.joinpath("web").rglob("*"), *ROOT.joinpath("games").glob("*/web/*")]
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()[:60]}"
        for path in files
        if path.suffix in (".html", ".js", ".css")
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if EMOJI.search(line)
    ]
    assert not found, found


def test_no_translation_holds_an_emoji() -> None:
    found = []
    for domain in domains():
        path = domain.catalog.template_path().parent
        for po in path.rglob("*.po"):
            found += [
                f"{po.relative_to(ROOT)}: {line[:60]}"
                for line in po.read_text(encoding="utf-8").splitlines()
                if not line.startswith("#~") and EMOJI.search(line)
            ]
    assert not found, found

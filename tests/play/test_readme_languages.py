"""The README's "Languages" section does not say a translated game is still English: every game whose
entry brings a catalog is translated (tests/core/test_catalogs.py checks the catalogs are complete)."""

from __future__ import annotations

import re
from pathlib import Path

from floe.core.registry import entries

README = Path(__file__).resolve().parents[2] / "README.md"


def test_the_readme_names_no_translated_game_as_english() -> None:
    text = README.read_text(encoding="utf-8")
    section = re.search(r"^## Languages\n(.*?)^## ", text, re.DOTALL | re.MULTILINE)
    assert section, "README.md has a Languages section"
    words = section.group(1)
    assert "still English" not in words
    for e in entries():
        if e.catalog() is not None:
            assert e.title in words, f"the Languages section does not name {e.title}"

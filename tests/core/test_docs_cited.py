"""The repository stands alone: every section the code cites exists in a document of the repository.

A citation names a document of ``docs/`` and sections in it: ``docs/arctic-rules.md §6.1``, ``docs/style.md
§7 and §9``, ``docs/arktia-rules.md §10(d)``. A bare ``§6.1`` in a game's own files (its package, its tests)
cites that game's rules reference, ``docs/<game>-rules.md``. A section exists where a document has a heading
that starts with it (``### §6.1 How powers work``) or a table row whose first cell is it (``| §D12 | …``).
The options' ``follows`` column names sections of the game's rules reference too. Nothing in ``src/`` may
point outside the repository (the former ``../shared`` documents, an absolute path).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from floe.core.registry import entry

HERE = Path(__file__).resolve()  # its examples are not citations
ROOT = HERE.parents[2]
DOCS = ROOT / "docs"
GAMES = ("arctic", "arktia", "arche")
TEXT = {".py", ".js", ".c", ".h", ".css", ".html", ".toml", ".csv"}

ID = r"[A-D]?\d+(?:\.\d+)*"
SECTION = re.compile(rf"§({ID})")
# A document and the sections that follow it, which may run over a line break (a comment's "#").
CITATION = re.compile(rf"docs/([\w-]+\.md)((?:[\s#/*]*(?:,|;|and|/|–|-)?[\s#/*]*§{ID}(?:\([a-d]\))?)+)")
DOC = re.compile(r"docs/([\w-]+\.md)")
ANCHOR = re.compile(rf"^(?:#+\s+§({ID})\b|\|\s*§({ID})\s*\|)", re.MULTILINE)
OUTSIDE = re.compile(r"\.\./shared|shared/(?:rules|design)/|(?<![\w.])/(?:work|home|root|Users)/")


def anchors(doc: str) -> set[str]:
    """The sections document ``doc`` defines."""
    text = (DOCS / doc).read_text(encoding="utf-8")
    return {a or b for a, b in ANCHOR.findall(text)}


def sources() -> list[Path]:
    """The text files of src/ and tests/ (not built extensions, caches or data dumps)."""
    found = []
    for top in ("src", "tests"):
        for path in (ROOT / top).rglob("*"):
            if path.is_file() and path.suffix in TEXT and "__pycache__" not in path.parts and path != HERE:
                found.append(path)
    return sorted(found)


def game_of(path: Path) -> str | None:
    """The game whose files ``path`` is among (its package, its tests, its terminal tests), or None."""
    rel = path.relative_to(ROOT).as_posix()
    for game in GAMES:
        if f"/games/{game}/" in rel or f"/test_{game}_" in rel or rel.endswith(f"/test_{game}.py"):
            return game
    return None


def citations(path: Path) -> list[tuple[str, str]]:
    """(document, section) of every citation in the file at ``path``."""
    text = path.read_text(encoding="utf-8", errors="replace")
    cited: list[tuple[str, str]] = []
    spans: list[tuple[int, int]] = []
    for m in CITATION.finditer(text):
        cited += [(m.group(1), s) for s in SECTION.findall(m.group(2))]
        spans.append(m.span())
    game = game_of(path)
    for m in SECTION.finditer(text):
        if any(a <= m.start() < b for a, b in spans):
            continue
        cited.append((f"{game}-rules.md" if game else "(no document named)", m.group(1)))
    return cited


def test_the_citation_parser_reads_every_form() -> None:
    text = "docs/arctic-rules.md §A2, §A3, §D12 and docs/style.md §6 and §9; docs/arktia-rules.md\n# §10(d)."
    found = [(m.group(1), SECTION.findall(m.group(2))) for m in CITATION.finditer(text)]
    assert found == [
        ("arctic-rules.md", ["A2", "A3", "D12"]),
        ("style.md", ["6", "9"]),
        ("arktia-rules.md", ["10"]),
    ]
    assert anchors("arctic-rules.md") >= {"6.1", "A4", "D12", "13.5"}


def test_every_cited_section_exists() -> None:
    missing = []
    known: dict[str, set[str]] = {}
    for path in sources():
        for doc, section in citations(path):
            if doc not in known:
                known[doc] = anchors(doc) if (DOCS / doc).is_file() else set()
            if section not in known[doc]:
                missing.append(f"{path.relative_to(ROOT)}: {doc} §{section}")
    assert missing == []


def test_every_document_named_exists() -> None:
    named = {
        (path.relative_to(ROOT).as_posix(), doc)
        for path in sources()
        for doc in DOC.findall(path.read_text(encoding="utf-8", errors="replace"))
    }
    assert sorted(n for n in named if not (DOCS / n[1]).is_file()) == []


@pytest.mark.parametrize("game", GAMES)
def test_the_options_follow_sections_of_the_rules_reference(game: str) -> None:
    """Each option's ``follows`` (``7.1, D2, D3``; ``6 1a [GUESS], 12 #9``; ``our decision``) names sections
    of ``docs/<game>-rules.md``, where the generated option table shows it."""
    have = anchors(f"{game}-rules.md")
    missing = []
    for option in entry(game).options.options:
        for part in re.split(r"[,;]", option.source):
            first = re.match(rf"\s*({ID})\b", part)
            if first and first.group(1) not in have:
                missing.append(f"{option.name}: {first.group(1)}")
    assert missing == []


def test_nothing_in_src_points_outside_the_repository() -> None:
    hits = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in sources()
        if path.is_relative_to(ROOT / "src")
        for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1)
        if OUTSIDE.search(line)
    ]
    assert hits == []

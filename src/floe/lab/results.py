"""The lab's results file: JSON lines, a header first, then one line per finished game.

``floe tournament`` and ``floe balance`` keep their games in such a file (their lines differ; the file does
not). The header records the configuration of the run; a game line is appended and flushed as soon as the
game finishes, so whatever finished survives an interrupt. ``--resume`` reads the file back: the header must
be the run's, every game line must belong to it, and a last line without its newline that does not parse
(cut off by the interrupt) is dropped and truncated away; then only the missing games are played. The file
is read as a stream, so a run of millions of games never sits in memory whole.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Generic, TypeVar

from floe.core.errors import FloeError

Line = dict[str, Any]  # one JSON line of a results file: the header or one finished game
K = TypeVar("K", bound=Hashable)


class ResultsError(FloeError):
    """A results file cannot be used: another run's, corrupt, or not writable."""


def iter_lines(path: Path, error: type[FloeError] = ResultsError) -> Iterator[tuple[int, Any, int]]:
    """Each non-blank line of ``path`` parsed, with its line number and the byte offset after it, read as a
    stream. A last line cut off by an interrupted run is left out; any other bad line is an ``error``."""
    offset = 0
    with path.open("rb") as f:
        for lineno, text in enumerate(f, start=1):
            try:
                record = json.loads(text) if text.strip() else None
            except (UnicodeDecodeError, json.JSONDecodeError):
                if not text.endswith(b"\n") and lineno > 1:
                    return  # the half-written last line of an interrupted run
                raise error(f"{path}:{lineno}: not valid JSON") from None
            offset += len(text)
            if record is not None:
                yield lineno, record, offset


def first_line(path: Path, error: type[FloeError] = ResultsError) -> Any:
    """The header line of ``path`` as parsed, reading nothing else; ``error`` if the file is empty."""
    first = next(iter_lines(path, error), None)
    if first is None:
        raise error(f"{path} is empty")
    return first[1]


@dataclass(frozen=True)
class ResultsFile(Generic[K]):
    """One run's results file at ``path``.

    ``header``: what a resume must find on the first line (its ``format`` names the kind of file);
    ``noted``: written in the header too but not compared (the command line that started the file: the
    same run may be continued by a differently written command); ``key_of(line, where)``: the key of a
    game line of this run, raising ``error`` (with ``where``, ``path:lineno``) if it does not belong;
    ``kind``: the run's name in messages ("tournament").
    """

    path: Path
    header: Line
    key_of: Callable[[Any, str], K]
    kind: str
    error: type[FloeError] = ResultsError
    noted: Mapping[str, Any] = field(default_factory=dict)

    def check_header(self, found: Any) -> None:
        """``error`` unless ``found`` (a parsed first line) is this run's header."""
        fmt = self.header["format"]
        if not isinstance(found, dict) or found.get("type") != "header" or found.get("format") != fmt:
            raise self.error(f"{self.path} is not a {self.kind} results file (no {fmt} header line)")
        want = self.header
        have = {k: v for k, v in found.items() if k not in self.noted}
        if have != want:
            diffs = [f"{k} {have.get(k)!r} here, {want[k]!r} asked" for k in want if have.get(k) != want[k]]
            raise self.error(f"{self.path} holds another {self.kind} ({'; '.join(diffs)}); use another --out")

    def games(self) -> Iterator[tuple[K, Line]]:
        """Every game line of the file with its key, in file order, read as a stream after the header is
        checked; ``error`` if the header is not this run's or a line does not belong to it."""
        for key, line, _ in self._scan():
            yield key, line

    def _scan(self) -> Iterator[tuple[K, Line, int]]:
        lines = iter_lines(self.path, self.error)
        first = next(lines, None)
        if first is None:
            raise self.error(f"{self.path} is empty")
        self.check_header(first[1])
        for lineno, record, end in lines:
            yield self.key_of(record, f"{self.path}:{lineno}"), record, end

    def start(self, resume: bool, seen: Callable[[K, Line], None] | None = None) -> set[K]:
        """Begin the file with the header, or (``resume``) read it, tell ``seen`` of each game found
        (the first line of a key, if a game was written twice), cut a half-written last line and return
        the keys already played. ``error`` if the file exists and ``resume`` is not set."""
        path = self.path
        if path.exists() and path.stat().st_size > 0:
            if not resume:
                raise self.error(
                    f"{path} already exists: add --resume to continue it, or choose another --out"
                )
            keys: set[K] = set()
            intact = 0
            for key, record, end in self._scan():
                if key not in keys and seen is not None:
                    seen(key, record)
                keys.add(key)
                intact = end
            if intact == 0:  # the header alone: it ends where the first line does
                intact = next(iter_lines(path, self.error))[2]
            with path.open("r+b") as f:
                f.truncate(intact)
                # The last intact line may lack its newline (cut just before it): the next game needs a line.
                f.seek(intact - 1)
                if f.read(1) != b"\n":
                    f.write(b"\n")
            return keys
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("w", encoding="utf-8") as f:
            f.write(json.dumps({**self.header, **self.noted}) + "\n")
        return set()

    def appending(self) -> IO[str]:
        """The file opened for appending game lines (with ``append``)."""
        return self.path.open("a", encoding="utf-8")


def append(out: IO[str], line: Line) -> None:
    """Write one game line and flush it at once: it survives an interrupt, for ``--resume``."""
    out.write(json.dumps(line) + "\n")
    out.flush()

"""Shared helpers for the terminal-play tests: a scripted person and a console that records."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable

from rich.console import Console


def recording_console() -> Console:
    """A 120-column console writing plain text into a buffer (no colour codes)."""
    return Console(file=io.StringIO(), width=120, color_system=None)


def output_of(console: Console) -> str:
    """Everything printed to a ``recording_console``."""
    assert isinstance(console.file, io.StringIO)
    return console.file.getvalue()


def scripted(answers: Iterable[str], then: str | None = "1") -> Callable[[str], str]:
    """An ``input_fn`` giving ``answers`` in order, then ``then`` forever (or EOF when ``then`` is None)."""
    queue = list(answers)

    def answer(prompt: str) -> str:
        if queue:
            return queue.pop(0)
        if then is None:
            raise EOFError
        return then

    return answer

"""The errors Floe raises for bad input. Each carries a short message meant for a person, not a traceback."""

from __future__ import annotations


class FloeError(Exception):
    """Base of every error Floe reports to a user."""


class UnknownGameError(FloeError, ValueError):
    """No game is registered under that name."""


class OptionError(FloeError, ValueError):
    """A game option, flag value or player count is not valid."""


class InvalidActionError(FloeError, ValueError):
    """The text or id does not name any action of the game (a syntax error)."""


class IllegalActionError(FloeError, ValueError):
    """The action exists but may not be taken in this state."""


class AmbiguousActionError(FloeError, ValueError):
    """The text matches more than one legal action."""


class RecordError(FloeError, ValueError):
    """A game record is malformed or does not replay."""

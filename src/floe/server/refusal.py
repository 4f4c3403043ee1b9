"""The one refusal of the server: every request it turns down (HTTP or WebSocket) raises ``Refusal``.

Its ``code`` is what programs read in ``{"error": {"code", "message"}}`` (or a WebSocket ``error``),
docs/server.md lists them; ``TooMany`` (limits.py) is the refusal that also says when to try again.
"""

from __future__ import annotations

from floe.core import i18n


class Refusal(Exception):
    """A refused request, whatever was asked (a move, a seat, a table, a chat line, an option...): ``code``
    for programs (the wire's error code), a message for people (a lazy ``i18n.Msg``, written in each
    reader's language by ``text``; or plain text) and the HTTP ``status``. Never names hidden cards."""

    def __init__(self, code: str, message: str | i18n.Msg, status: int = 409) -> None:
        super().__init__(message)
        self.code = code
        self.said = message
        self.status = status

    @property
    def message(self) -> str:
        """The message in the language in force (English unless inside ``i18n.using``)."""
        return str(self.said)

    def text(self, lang: str) -> str:
        """The message in ``lang``, for one reader."""
        with i18n.using(lang):
            return str(self.said)

    def body(self, lang: str) -> dict[str, str]:
        """The refusal as the wire says it (``{"code", "message"}``), in ``lang``."""
        return {"code": self.code, "message": self.text(lang)}

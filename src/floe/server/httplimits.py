"""A bound on HTTP request bodies, enforced before they are read (an ASGI middleware).

A body whose ``Content-Length`` is over the limit is refused at once, before the app reads a byte of it;
a body sent in chunks is counted as it arrives and refused as soon as it passes the limit. The refusal is
the server's short JSON error (413 ``too_large``). What the client still sends of a refused body is never
stored: up to ``DISCARD_BYTES`` the HTTP layer reads it and throws it away (so the client, still
writing, hears the 413 instead of a reset connection); a longer or chunked body gets ``Connection:
close`` and is not read at all. The request line and headers are bounded by the HTTP parser (``floe
serve`` runs uvicorn's h11 parser with ``h11_max_incomplete_event_size``).
"""

from __future__ import annotations

import json

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from floe.core.i18n import L_, NL_, SOURCE, Msg, using
from floe.server.languages import reader_language

# A refused body of up to this many bytes is read and thrown away rather than cut off (see above).
DISCARD_BYTES = 16 * 1024 * 1024


class _TooLarge(HTTPException):
    """Raised into the app's body read; an ``HTTPException``, so the app stops reading and answers it
    with its own error (which is dropped: the middleware's answer went out first)."""

    def __init__(self) -> None:
        super().__init__(413, "the request body is too large")


def error_body(code: str, message: str) -> bytes:
    """The server's short JSON error."""
    return json.dumps({"error": {"code": code, "message": message}}).encode()


def scope_language(scope: Scope) -> str:
    """The language of a request not yet handed to the app: its ``?lang=``, else its Accept-Language."""
    request = Request(scope)
    return reader_language(request.query_params.get("lang"), request)


async def send_error(
    send: Send, status: int, code: str, message: str | Msg, *, lang: str = SOURCE, close: bool = True
) -> None:
    """Answer with the short JSON error in ``lang`` (and ``Connection: close``: the request was not read
    whole)."""
    with using(lang):
        body = error_body(code, str(message))
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if close:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class BodyLimit:
    """Refuse HTTP request bodies over ``max_bytes`` (0: no limit) before reading them."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or self.max_bytes <= 0:
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length")
        chunked = b"chunked" in headers.get(b"transfer-encoding", b"").lower()
        too_large = NL_(
            "request bodies are at most %(n)s byte", "request bodies are at most %(n)s bytes", self.max_bytes
        )
        if length is not None:
            if not length.strip().isdigit():
                said = L_("the Content-Length header is not a number")
                await send_error(send, 400, "malformed", said, lang=scope_language(scope))
                return
            if int(length) > self.max_bytes:
                close = int(length) > DISCARD_BYTES
                await send_error(send, 413, "too_large", too_large, lang=scope_language(scope), close=close)
                return
        received = 0
        body_done = not chunked and (length is None or int(length) == 0)
        started = refused = False

        async def counted_receive() -> Message:
            nonlocal received, body_done, refused
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                body_done = not message.get("more_body", False)
                if received > self.max_bytes:
                    if not started:
                        refused = True
                        await send_error(send, 413, "too_large", too_large, lang=scope_language(scope))
                    raise _TooLarge()
            return message

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if refused:
                return  # the app's answer to the aborted read: ours went out already
            if message["type"] == "http.response.start":
                started = True
                if not body_done:
                    # The app answers without having read the whole body (a route that takes none): close
                    # the connection after the answer rather than read and discard whatever comes next.
                    message = {**message, "headers": [*message.get("headers", []), (b"connection", b"close")]}
            await send(message)

        try:
            await self.app(scope, counted_receive, guarded_send)
        except _TooLarge:
            if not refused:
                raise

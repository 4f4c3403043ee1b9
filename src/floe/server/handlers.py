"""How the application answers a request it refuses: every refusal (``Refusal``, a storage error, a body
that does not validate, an HTTP error of the framework) becomes the short JSON error
``{"error": {"code", "message"}}`` in the requester's language, and leaves nothing of the request behind."""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException as StarletteHTTPException

from floe.core.i18n import L_
from floe.server.languages import reader_language
from floe.server.limits import TooMany
from floe.server.protocol import error_line
from floe.server.refusal import Refusal

log = logging.getLogger("floe.server")


def _error(exc: Refusal, request: Request) -> JSONResponse:
    """The refusal as a short JSON error, in the requester's language (``?lang=``, else Accept-Language)."""
    headers = {"Retry-After": exc.retry_after_header} if isinstance(exc, TooMany) else None
    lang = reader_language(request.query_params.get("lang"), request)
    return JSONResponse({"error": exc.body(lang)}, status_code=exc.status, headers=headers)


async def _refused(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, Refusal)
    answer = _error(exc, request)
    _let_go(exc)
    return answer


async def _storage_error(request: Request, exc: Exception) -> JSONResponse:
    log.error("storage error: %s", exc)
    return _error(Refusal("storage", L_("the table could not be saved; try again"), 503), request)


async def _invalid(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    first = exc.errors()[0] if exc.errors() else {}
    answer = _error(Refusal("malformed", error_line(first, "body", skip=("body",)), 400), request)
    _let_go(exc)
    return answer


async def _http_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    codes = {400: "malformed", 404: "not_found", 405: "method_not_allowed", 413: "too_large"}
    code = codes.get(exc.status_code, "http_error")
    answer = _error(Refusal(code, str(exc.detail), exc.status_code), request)
    _let_go(exc)
    return answer


def answer_refusals(app: FastAPI) -> None:
    """Install the handlers that answer every refusal of ``app`` as a short JSON error."""
    app.add_exception_handler(Refusal, _refused)
    app.add_exception_handler(SQLAlchemyError, _storage_error)
    app.add_exception_handler(RequestValidationError, _invalid)
    app.add_exception_handler(StarletteHTTPException, _http_error)


class _BadUtf8(logging.Filter):
    """uvicorn logs a traceback for every WebSocket text frame that is not UTF-8 (and closes the connection
    with 1007, as it should): a client's mistake, worth one line, not a server error with a traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.msg == "Invalid UTF-8 sequence received from client.":
            record.msg = "a WebSocket client sent a text frame that is not UTF-8: closed it (1007)"
            record.exc_info, record.exc_text = None, None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def one_line_for_bad_utf8() -> None:
    """Install ``_BadUtf8`` on uvicorn's logger (once; after uvicorn has set its logging up)."""
    logger = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, _BadUtf8) for f in logger.filters):
        logger.addFilter(_BadUtf8())


def _let_go(exc: BaseException) -> None:
    """Drop what a refused request's exception holds: its traceback, whose frames hold the request's body
    (and the exception itself: a reference cycle), and the exceptions it came from. Left to the cyclic
    collector, which this server runs seldom (``gc.set_threshold`` in ``app.lifespan``), the bodies of refused
    requests piled up: 400 malformed 250 KB bodies left 200 MB resident (issue 24, item 9)."""
    exc.__traceback__ = None
    exc.__context__ = exc.__cause__ = None
    if isinstance(exc, RequestValidationError):
        exc.body = None

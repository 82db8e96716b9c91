"""Every error the service answers has one shape: ``{"error": {"code", "message"}}``.

Bad input is a 4xx, never a 500 and never FastAPI's default ``{"detail": ...}``
(docs/api.md, HTTP API). This module holds the exception handlers and the
request-body limit that is enforced while the body streams in.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from sanma_lens.api.jsonio import dumps
from sanma_lens.api.responses import JsonResponse
from sanma_lens.engine.errors import InputError

log = logging.getLogger("sanma.api")

# HTTP status for InputError codes that are not "unprocessable content" (422).
STATUS_BY_CODE: dict[str, int] = {
    "bad_json": 400,
    "too_deep": 400,
    "bad_request": 400,
    "body_too_large": 413,
    "upload_too_large": 413,
    "not_an_image": 415,
    "empty_image": 415,
    "unsupported_image": 415,
    "model_unavailable": 503,
    # a photo's work bounds (vision/limits.py): too many tile-like shapes is the photo's fault;
    # a photo not read within its time is given up so that others are not held up
    "too_many_tiles": 422,
    "photo_timeout": 503,
}

# Codes for plain HTTP errors raised by the framework (routing, multipart parsing).
CODE_BY_STATUS: dict[int, str] = {
    400: "bad_request",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    413: "body_too_large",
    415: "unsupported_media_type",
    503: "unavailable",
}


def error_body(code: str, message: str) -> dict[str, dict[str, str]]:
    return {"error": {"code": code, "message": message}}


def error_response(status: int, code: str, message: str) -> JSONResponse:
    return JsonResponse(error_body(code, message), status_code=status)


def status_for(exc: InputError) -> int:
    return STATUS_BY_CODE.get(exc.code, 422)


class ServiceError(HTTPException):
    """An HTTP error with our own error code (body too large, model missing)."""

    def __init__(
        self, status_code: int, code: str, message: str, headers: dict[str, str] | None = None
    ) -> None:
        super().__init__(status_code=status_code, detail=message, headers=headers)
        self.code = code


def _describe_validation(errors: list[Any]) -> str:
    parts = []
    for err in errors[:5]:
        loc = ".".join(str(p) for p in err.get("loc", ()) if p != "body") or "body"
        parts.append(f"{loc}: {err.get('msg', 'invalid')}")
    more = f" (and {len(errors) - 5} more)" if len(errors) > 5 else ""
    return "; ".join(parts) + more


async def _on_input_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, InputError)
    return error_response(status_for(exc), exc.code, exc.message)


async def _on_validation_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    errors = list(exc.errors())
    bad_json = [e for e in errors if e.get("type") == "json_invalid"]
    if bad_json:
        detail = (bad_json[0].get("ctx") or {}).get("error", "JSON decode error")
        return error_response(400, "bad_json", f"request body is not valid JSON: {detail}")
    return error_response(422, "invalid_request", _describe_validation(errors))


# Why FastAPI could not read a JSON body (it answers a bare 400 "error parsing the body").
_UNREADABLE_JSON: dict[type[BaseException], str] = {
    UnicodeDecodeError: "request body is not valid JSON: it is not UTF-8 text",
    RecursionError: "request body is not valid JSON: it is nested too deeply to read",
}


async def _on_http_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, HTTPException)
    if isinstance(exc.__cause__, InputError):  # our strict JSON reader, under FastAPI's 400
        return await _on_input_error(request, exc.__cause__)
    code = getattr(exc, "code", None) or CODE_BY_STATUS.get(exc.status_code, "http_error")
    message = exc.detail if isinstance(exc.detail, str) else dumps(exc.detail).decode()
    cause = exc.__cause__
    unreadable = (
        _UNREADABLE_JSON.get(type(cause)) if cause is not None and exc.status_code == 400 else None
    )
    if unreadable:  # the same code as the CLI and as malformed JSON
        code, message = "bad_json", unreadable
    return JSONResponse(error_body(code, message), status_code=exc.status_code, headers=exc.headers)


async def _on_unexpected(request: Request, exc: Exception) -> JSONResponse:
    log.exception("unexpected error on %s %s", request.method, request.url.path)
    return error_response(500, "internal_error", "internal error; the request was not processed")


def install_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(InputError, _on_input_error)
    app.add_exception_handler(RequestValidationError, _on_validation_error)
    app.add_exception_handler(HTTPException, _on_http_error)
    app.add_exception_handler(Exception, _on_unexpected)


class BodyTooLarge(ServiceError):
    def __init__(self, limit: int) -> None:
        super().__init__(
            413, "body_too_large", f"request body is larger than the limit of {limit} bytes"
        )


#: the endpoints that take a photo: the upload limit, and a place in the photo queue
PHOTO_PATHS = frozenset({"/v1/recognize", "/v1/photo/score"})


class BodyLimitMiddleware:
    """Caps request bodies while they stream in (a 50 MB upload is never buffered), and admits
    a photo to the recognition queue before its upload is read.

    A declared ``Content-Length`` over the limit is refused at once, before reading;
    a chunked body is counted chunk by chunk and refused as soon as it passes the limit.
    The photo endpoints get ``upload_limit``; every other path ``json_limit``, whatever its
    Content-Type says (a 15 MB multipart body to /v1/games is a 413 before it is read).
    A photo request then takes a place in the queue (``Services.admit``): when every place is
    taken it is answered 503 ``busy`` at once, its upload unread.
    """

    def __init__(self, app: ASGIApp, upload_limit: int, json_limit: int) -> None:
        self.app = app
        self.upload_limit = upload_limit
        self.json_limit = json_limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared: int | None = None
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = None
        photo = scope["path"] in PHOTO_PATHS and scope.get("method") == "POST"
        limit = self.upload_limit if photo else self.json_limit
        if declared is not None and declared > limit:
            await _send_error(send, BodyTooLarge(limit), close=True)
            return
        svc = _services_of(scope) if photo else None
        if svc is not None and not svc.admit():
            await _send_error(send, svc.busy_error(), close=True)
            return
        try:
            await self._limited(scope, receive, send, limit)
        finally:
            if svc is not None:
                svc.release()

    async def _limited(self, scope: Scope, receive: Receive, send: Send, limit: int) -> None:
        received = 0
        started = False

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise BodyTooLarge(limit)
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, limited_receive, tracking_send)
        except BodyTooLarge as exc:
            if started:
                raise
            await _send_error(send, exc, close=True)


def _services_of(scope: Scope) -> Any:
    """The app's ``Services`` (loaded at start-up), or None outside the full app."""
    from sanma_lens.api.services import services

    app = scope.get("app")
    if app is None or not hasattr(getattr(app, "state", None), "settings"):
        return None
    return services(app)


async def _send_error(send: Send, exc: ServiceError, close: bool) -> None:
    body = dumps(error_body(exc.code, str(exc.detail)))
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
    ]
    for name, value in (exc.headers or {}).items():
        headers.append((name.lower().encode(), value.encode()))
    if close:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": exc.status_code, "headers": headers})
    await send({"type": "http.response.body", "body": body})

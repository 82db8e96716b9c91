"""Every error the service answers has one shape: ``{"error": {"code", "message"}}``.

Bad input is a 4xx, never a 500 and never FastAPI's default ``{"detail": ...}``
(shared/CONTRACT.md, HTTP API). This module holds the exception handlers and the
request-body limit that is enforced while the body streams in.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from sanma_lens.engine.errors import InputError

log = logging.getLogger("sanma.api")

# HTTP status for InputError codes that are not "unprocessable content" (422).
STATUS_BY_CODE: dict[str, int] = {
    "bad_json": 400,
    "bad_request": 400,
    "body_too_large": 413,
    "upload_too_large": 413,
    "not_an_image": 415,
    "empty_image": 415,
    "unsupported_image": 415,
    "model_unavailable": 503,
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
    return JSONResponse(error_body(code, message), status_code=status)


def status_for(exc: InputError) -> int:
    return STATUS_BY_CODE.get(exc.code, 422)


class ServiceError(HTTPException):
    """An HTTP error with our own error code (body too large, model missing)."""

    def __init__(self, status_code: int, code: str, message: str) -> None:
        super().__init__(status_code=status_code, detail=message)
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
    code = getattr(exc, "code", None) or CODE_BY_STATUS.get(exc.status_code, "http_error")
    message = exc.detail if isinstance(exc.detail, str) else json.dumps(exc.detail)
    unreadable = _UNREADABLE_JSON.get(type(exc.__cause__)) if exc.status_code == 400 else None
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


class BodyLimitMiddleware:
    """Caps request bodies while they stream in (a 50 MB upload is never buffered).

    A declared ``Content-Length`` over the limit is refused at once, before reading;
    a chunked body is counted chunk by chunk and refused as soon as it passes the limit.
    Multipart bodies (photos) get ``upload_limit``; everything else ``json_limit``.
    """

    def __init__(self, app: ASGIApp, upload_limit: int, json_limit: int) -> None:
        self.app = app
        self.upload_limit = upload_limit
        self.json_limit = json_limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        content_type = b""
        declared: int | None = None
        for name, value in scope.get("headers", ()):
            if name == b"content-type":
                content_type = value.lower()
            elif name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = None
        limit = self.upload_limit if content_type.startswith(b"multipart/") else self.json_limit
        if declared is not None and declared > limit:
            await _send_error(send, BodyTooLarge(limit), close=True)
            return

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


async def _send_error(send: Send, exc: ServiceError, close: bool) -> None:
    body = json.dumps(error_body(exc.code, str(exc.detail))).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
    ]
    if close:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": exc.status_code, "headers": headers})
    await send({"type": "http.response.body", "body": body})

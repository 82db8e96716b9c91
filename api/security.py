"""Same-origin writes and the headers every answer carries.

The server is run on ``0.0.0.0`` at the table, so any web page a player visits could post to it:
a form or a ``fetch`` with a ``text/plain`` body needs no CORS preflight. Browsers name the
page's origin in ``Origin`` on every cross-origin request and on every POST, and say where a
request comes from in ``Sec-Fetch-Site``. So a write (any method but GET, HEAD, OPTIONS) is
refused with 403 ``cross_origin`` when

- ``Sec-Fetch-Site`` is ``cross-site``, or
- ``Origin`` is present and is not this server: its host and port must be the ``Host`` the
  request was sent to, and that host an IP address, ``localhost``, a ``.local`` name or one of
  ``Settings.allowed_hosts`` (a page on a look-alike domain that resolves to the table's
  server, "DNS rebinding", sends an ``Origin`` equal to its own ``Host``).

Requests without ``Origin`` (curl, scripts, the CLI, other servers) are not from a browser page
and pass. Which JSON body a write must have (``application/json``) is checked where the body
is read (``api.games``).

Every answer gets ``X-Content-Type-Options: nosniff``; every HTML answer (``/``, ``/game.html``,
``/static/…``, ``/docs``) that does not set its own policy gets :data:`PAGE_HEADERS`.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from sanma_lens.api.jsonio import dumps
from sanma_lens.api.pages import PAGE_HEADERS

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
_PAGE_HEADERS = [(k.lower().encode(), v.encode()) for k, v in PAGE_HEADERS.items()]
_NOSNIFF = (b"x-content-type-options", b"nosniff")


def host_is_allowed(host: str, allowed: Iterable[str]) -> bool:
    """An IP address, ``localhost``, a ``.local`` (mDNS) name or a listed name (``*``: any)."""
    name = host.lower().rstrip(".")
    if name.startswith("[") and name.endswith("]"):
        name = name[1:-1]
    listed = {a.lower().rstrip(".") for a in allowed}
    if "*" in listed or name in listed or name == "localhost" or name.endswith(".local"):
        return True
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def _split_host(value: str, scheme: str) -> tuple[str, int | None]:
    """``host[:port]`` of a Host header or an origin, the port made explicit."""
    try:
        parts = urlsplit(f"{scheme}://{value}")
        port = parts.port
    except ValueError:
        return value, None
    default = 443 if scheme in ("https", "wss") else 80
    return (parts.hostname or ""), port or default


def cross_origin_reason(scope: Scope, allowed_hosts: Iterable[str]) -> str | None:
    """Why this request may not write, or None when it may (see the module's notes)."""
    if scope.get("method", "GET") in SAFE_METHODS:
        return None
    wanted = (b"origin", b"host", b"sec-fetch-site")
    headers = {k: v for k, v in scope.get("headers", ()) if k in wanted}
    if headers.get(b"sec-fetch-site", b"").lower() == b"cross-site":
        return "a page of another site may not write to this server"
    origin = headers.get(b"origin")
    if origin is None:
        return None
    text = origin.decode("latin-1").strip()
    parts = urlsplit(text)
    if text == "null" or parts.scheme not in ("http", "https") or not parts.netloc:
        return "a page of another site may not write to this server"
    origin_host = _split_host(parts.netloc, parts.scheme)
    host = headers.get(b"host", b"").decode("latin-1").strip()
    # behind a TLS proxy the Host port stays that of the page, so compare on the page's scheme
    if _split_host(host, parts.scheme) != origin_host:
        return "a page of another site may not write to this server"
    if not host_is_allowed(origin_host[0], allowed_hosts):
        return "this server does not answer pages under this name; list it in SANMA_ALLOWED_HOSTS"
    return None


class SecurityMiddleware:
    """Refuses cross-origin writes (403 ``cross_origin``) and adds the security headers."""

    def __init__(self, app: ASGIApp, allowed_hosts: Iterable[str] = ()) -> None:
        self.app = app
        self.allowed_hosts = tuple(allowed_hosts)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        reason = cross_origin_reason(scope, self.allowed_hosts)
        if reason is not None:
            body = dumps({"error": {"code": "cross_origin", "message": reason}})
            await send(
                {
                    "type": "http.response.start",
                    "status": 403,
                    "headers": [
                        (b"content-type", b"application/json"),
                        (b"content-length", str(len(body)).encode()),
                        (b"connection", b"close"),  # the body was not read
                        _NOSNIFF,
                    ],
                }
            )
            await send({"type": "http.response.body", "body": body})
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = _secured(list(message.get("headers", ())))
            await send(message)

        await self.app(scope, receive, with_headers)


def _secured(headers: list[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    names = {k.lower() for k, _ in headers}
    content_type = next((v for k, v in headers if k.lower() == b"content-type"), b"")
    if content_type.lower().startswith(b"text/html") and b"content-security-policy" not in names:
        headers.extend(h for h in _PAGE_HEADERS if h[0] not in names)
    elif b"x-content-type-options" not in names:
        headers.append(_NOSNIFF)
    return headers

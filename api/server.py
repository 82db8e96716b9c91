"""Running the service: uvicorn with a cap on connections and a deadline for each request.

uvicorn reads a request for as long as the client takes and accepts every connection it is
offered, so ~20,000 half-sent requests (slowloris) used up the process's open files and even
``/healthz`` was refused. :class:`BoundedHttpProtocol` is uvicorn's own HTTP protocol with:

- a cap on open connections per process (``Settings.max_connections``) and per client address
  (``max_connections_per_client``; a trusted reverse proxy, uvicorn's ``forwarded_allow_ips``,
  is not counted): one more is answered 503 and closed at once;
- a read deadline (``read_timeout_s``): from the moment a connection opens, or a new request
  on it starts, the whole request (head and body) must arrive in time, or it is answered 408
  and closed. Between requests uvicorn's keep-alive timeout closes idle connections.

``sanma serve --workers N`` runs N such processes on one port (uvicorn's supervisor restarts
one that dies); they share nothing but the database, so N > 1 wants PostgreSQL
(``docs/deploy.md``).
"""

from __future__ import annotations

import ipaddress
import logging
from collections import Counter
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from sanma_lens.api.settings import Settings

log = logging.getLogger("sanma.api")

_STATUS_TEXT = {408: b"Request Timeout", 503: b"Service Unavailable"}
_settings: Settings | None = None


def _limits() -> Settings:
    """The settings of this process (each worker reads the environment once)."""
    global _settings
    if _settings is None:
        _settings = Settings.from_env()
    return _settings


def _raw_error(status: int, code: str, message: str) -> bytes:
    body = b'{"error":{"code":"' + code.encode() + b'","message":"' + message.encode() + b'"}}'
    return (
        b"HTTP/1.1 %d %s\r\ncontent-type: application/json\r\ncontent-length: %d\r\n"
        b"connection: close\r\n\r\n" % (status, _STATUS_TEXT[status], len(body))
    ) + body


def _trusted(config: Any) -> tuple[bool, list[Any]]:
    """uvicorn's trusted proxies: (all trusted, the networks listed)."""
    raw = getattr(config, "forwarded_allow_ips", None) or []
    entries = raw.split(",") if isinstance(raw, str) else list(raw)
    networks = []
    for entry in (e.strip() for e in entries):
        if entry == "*":
            return True, []
        try:
            networks.append(ipaddress.ip_network(entry, strict=False))
        except ValueError:
            continue  # a unix socket path or a host name: not an address to compare
    return False, networks


class BoundedHttpProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with connection caps and a read deadline (module notes)."""

    def connection_made(self, transport: Any) -> None:  # type: ignore[override]
        limits = _limits()
        per_client: Counter[str] = self.server_state.__dict__.setdefault("per_client", Counter())
        super().connection_made(transport)
        self._read_timer: Any = None
        self._counted: str | None = None
        address = self.client[0] if self.client else None
        if len(self.connections) > limits.max_connections:
            self._refuse(503, "too_many_connections", "the server has too many connections")
            return
        if address is not None and limits.max_connections_per_client and not self._proxy(address):
            if per_client[address] >= limits.max_connections_per_client:
                self._refuse(503, "too_many_connections", "too many connections from this address")
                return
            per_client[address] += 1
            self._counted = address
        self._arm(limits.read_timeout_s)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        if self._counted is not None:
            per_client: Counter[str] = self.server_state.__dict__["per_client"]
            per_client[self._counted] -= 1
            if per_client[self._counted] <= 0:
                del per_client[self._counted]
            self._counted = None
        super().connection_lost(exc)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self._read_timer is None:  # a later request on a kept-alive connection
            self._arm(_limits().read_timeout_s)

    def on_message_complete(self) -> None:
        self._disarm()  # the whole request is in: the answer may take as long as it takes
        super().on_message_complete()

    # ------------------------------------------------------------ the deadline and refusals

    def _proxy(self, address: str) -> bool:
        everyone, networks = _trusted(self.config)
        if everyone:
            return True
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in net for net in networks)

    def _arm(self, seconds: float) -> None:
        self._disarm()
        self._read_timer = self.loop.call_later(seconds, self._read_timed_out)

    def _disarm(self) -> None:
        timer = getattr(self, "_read_timer", None)
        if timer is not None:
            timer.cancel()
            self._read_timer = None

    def _read_timed_out(self) -> None:
        self._read_timer = None
        if self.transport.is_closing():
            return
        cycle = self.cycle
        if cycle is not None and not cycle.response_complete:
            cycle.disconnected = True  # the app, if it waits for the body, sees a disconnect
            cycle.message_event.set()
            if cycle.response_started:
                self.transport.close()
                return
        self.transport.write(
            _raw_error(408, "request_timeout", "the request did not arrive in time")
        )
        self.transport.close()

    def _refuse(self, status: int, code: str, message: str) -> None:
        self.transport.write(_raw_error(status, code, message))
        self.transport.close()


def serve(host: str, port: int, workers: int = 1) -> None:
    """Run the app (``sanma_lens.api.app:create_app``) with :class:`BoundedHttpProtocol`,
    in ``workers`` processes when more than one."""
    import uvicorn

    uvicorn.run(
        "sanma_lens.api.app:create_app",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        http=BoundedHttpProtocol,
        server_header=False,  # no "server: uvicorn": what runs here is nobody else's business
    )

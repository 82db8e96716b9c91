"""Requests per client per minute (``Settings.rate_limit_per_minute``): 429 with Retry-After.

Counted with the ``limits`` library (a sliding window counter in memory: two counters a
client, however many requests) on the API's paths (``/v1/…``); pages, static files and
``/healthz`` are not counted. The client is the address uvicorn reports, which behind a trusted
reverse proxy is the one the proxy forwarded (``--forwarded-allow-ips``). The count is per
server process: with ``--workers N`` a client may make up to N times the limit.
"""

from __future__ import annotations

import math
import time

from limits import RateLimitItemPerMinute
from limits.storage import MemoryStorage
from limits.strategies import SlidingWindowCounterRateLimiter
from starlette.types import ASGIApp, Receive, Scope, Send

from sanma_lens.api.jsonio import dumps

COUNTED_PREFIX = "/v1/"


class RateLimitMiddleware:
    """429 ``rate_limited`` with ``Retry-After`` (seconds) past ``per_minute`` (0: off)."""

    def __init__(self, app: ASGIApp, per_minute: int) -> None:
        self.app = app
        self.item = RateLimitItemPerMinute(per_minute) if per_minute > 0 else None
        self.limiter = SlidingWindowCounterRateLimiter(MemoryStorage())

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            self.item is None
            or scope["type"] != "http"
            or not scope["path"].startswith(COUNTED_PREFIX)
        ):
            await self.app(scope, receive, send)
            return
        client = (scope.get("client") or ("unknown", 0))[0]
        if self.limiter.hit(self.item, client):
            await self.app(scope, receive, send)
            return
        stats = self.limiter.get_window_stats(self.item, client)
        retry = max(1, math.ceil(stats.reset_time - time.time()))
        body = dumps(
            {
                "error": {
                    "code": "rate_limited",
                    "message": f"more than {self.item.amount} requests in a minute from this "
                    f"address; try again in {retry} s",
                }
            }
        )
        await send(
            {
                "type": "http.response.start",
                "status": 429,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"retry-after", str(retry).encode()),
                    (b"connection", b"close"),  # the body was not read
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})

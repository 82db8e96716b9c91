"""The HTTP service (docs/api.md, HTTP API) and the phone page.

``sanma serve`` runs ``uvicorn.run("sanma_lens.api.app:create_app", factory=True)``; importing this
module builds nothing.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

from sanma_lens.api.errors import BodyLimitMiddleware, install_error_handlers
from sanma_lens.api.pages import PAGE_HEADERS
from sanma_lens.api.responses import JsonResponse
from sanma_lens.api.routes import router
from sanma_lens.api.security import SecurityMiddleware
from sanma_lens.api.services import RecognizerFactory, default_recognizer_factory, load_services
from sanma_lens.api.settings import Settings
from sanma_lens.api.throttle import RateLimitMiddleware

WEB_DIR = Path(__file__).resolve().parent / "web"
log = logging.getLogger("sanma.api")

DESCRIPTION = """\
Score three-player (sanma) mahjong hands under the sanma-1.3 house rules, list the waits
of a tenpai hand, and recognize the tiles in a photo.

Every error is a 4xx (5xx only for a missing model or a bug) with
`{"error": {"code": ..., "message": ...}}`.

`POST /v1/photo/score` answers the recognize JSON plus `score`: the result JSON when the
photo holds 14 tiles (a winning tile), the **tenpai JSON** when it holds 13; `score_kind`
(`result` | `tenpai`) says which. A `hand` form field with corrected tiles is scored instead
of the recognized ones.

Uploads are checked by content (JPEG/PNG/WebP magic bytes), size in pixels (header) and
completeness before decoding. Limits (environment): `SANMA_MAX_UPLOAD_MB` (15, enforced while
the body streams in: 413), `SANMA_MAX_JSON_KB` (256), `SANMA_MAX_MEGAPIXELS` (50),
`SANMA_RECOGNIZE_CONCURRENCY` (half the CPU cores). `GET /v1/info` tells whether a model is loaded.
A full photo queue is a 503 `busy` before the upload is read.

JSON is read strictly: `NaN`, `Infinity`, numbers beyond a double and nesting deeper than 32
levels are a 400. Writes from a web page of another site (by `Origin` / `Sec-Fetch-Site`) are a
403 `cross_origin`; game writes must be `application/json` (415). Requests to `/v1/…` are
limited per client address (`SANMA_RATE_LIMIT` a minute, 429 with `Retry-After`), and so are new
games (`SANMA_MAX_GAMES_PER_HOUR`), events per game and bytes per event (README, settings).
"""


JSON_PATHS = frozenset({"/v1/score", "/v1/tenpai"})


class JsonBodyMiddleware:
    """Reads the body of /v1/score and /v1/tenpai as JSON whatever the Content-Type says
    (``curl -d`` sends form encoding); other paths are untouched. Those two only compute an
    answer and change nothing, and a browser page of another site is refused before this by
    its Origin (api.security); the game writes require ``application/json`` (api.games)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"] in JSON_PATHS:
            headers = [(k, v) for k, v in scope["headers"] if k != b"content-type"]
            scope = {**scope, "headers": [*headers, (b"content-type", b"application/json")]}
        await self.app(scope, receive, send)


def _games_router(app: FastAPI) -> bool:
    """Include ``api.games.router`` (the game scoreboard) when that module imports."""
    try:
        from sanma_lens.api import games
    except ImportError as exc:
        log.info("game scoreboard not served: %s", exc)
        return False
    app.include_router(games.router)
    from sanma_lens.api import blocks  # ability mahjong's blocks of games

    app.include_router(blocks.router)
    return True


def _offline_docs(app: FastAPI) -> None:
    """``GET /docs``: Swagger UI 5 (which reads FastAPI's OpenAPI 3.1) with its files served
    from this server (the fastapi-offline package's copies), not from a CDN: the table may
    have no internet. The page starts the viewer from a script file, not an inline script.
    There is no /redoc: ReDoc always loads a logo from its CDN."""
    import fastapi_offline

    assets = Path(fastapi_offline.__file__).resolve().parent / "static"
    app.mount("/docs-static", StaticFiles(directory=assets), name="docs-static")
    app.add_api_route(
        "/docs", _web_file("docs/swagger.html", "text/html; charset=utf-8"), include_in_schema=False
    )


def create_app(
    settings: Settings | None = None,
    recognizer_factory: RecognizerFactory | None = None,
) -> FastAPI:
    """Build the app. The recognizer is loaded once, at start-up, by the lifespan."""
    settings = settings or Settings.from_env()
    factory = recognizer_factory or default_recognizer_factory

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        app.state.services = load_services(settings, factory, app.state.games)
        yield

    app = FastAPI(
        title="sanma-lens",
        version="0.1.0",
        description=DESCRIPTION,
        lifespan=lifespan,
        strict_content_type=False,
        docs_url=None,
        default_response_class=JsonResponse,
        redoc_url=None,
    )
    app.state.settings = settings
    app.state.recognizer_factory = factory
    app.state.services = None
    install_error_handlers(app)
    app.add_middleware(
        BodyLimitMiddleware,
        upload_limit=settings.max_upload_bytes,
        json_limit=settings.max_json_bytes,
    )
    app.add_middleware(JsonBodyMiddleware)
    app.add_middleware(RateLimitMiddleware, per_minute=settings.rate_limit_per_minute)
    app.add_middleware(SecurityMiddleware, allowed_hosts=settings.allowed_hosts)
    app.include_router(router)
    app.state.games = _games_router(app)
    if app.state.games:  # kept photos live in the games' database
        from sanma_lens.api import corrections

        app.include_router(corrections.router)
    _offline_docs(app)

    @app.get("/", include_in_schema=False)
    async def page() -> FileResponse:
        return FileResponse(
            WEB_DIR / "index.html", media_type="text/html; charset=utf-8", headers=PAGE_HEADERS
        )

    # the installable app: its manifest, and the service worker at the root so that its scope
    # covers every page (a worker under /static/ could only serve /static/)
    app.add_api_route(
        "/manifest.webmanifest",
        _web_file("manifest.webmanifest", "application/manifest+json"),
        include_in_schema=False,
    )
    app.add_api_route(
        "/sw.js", _web_file("sw.js", "text/javascript; charset=utf-8"), include_in_schema=False
    )
    app.mount("/static", StaticFiles(directory=WEB_DIR), name="static")
    return app


def _web_file(name: str, media_type: str) -> Any:
    async def serve() -> FileResponse:
        return FileResponse(
            WEB_DIR / name, media_type=media_type, headers={"Cache-Control": "no-cache"}
        )

    return serve

"""What the routes share, built once per process at start-up: settings and the recognizer."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import anyio
import anyio.to_thread
from fastapi import FastAPI

from sanma_lens.api.errors import ServiceError
from sanma_lens.api.settings import Settings

log = logging.getLogger("sanma.api")

RecognizerFactory = Callable[[], Any]


def default_recognizer_factory() -> Any:
    """``vision.pipeline.default_recognizer()``: loads the ONNX models once."""
    from sanma_lens.vision.pipeline import default_recognizer

    return default_recognizer()


@dataclass
class Services:
    """Per-process state: the loaded recognizer (or why it is missing) and the limits."""

    settings: Settings
    recognizer: Any = None
    recognizer_error: str | None = None
    games: bool = False
    limiter: anyio.CapacityLimiter | None = field(default=None, repr=False)
    in_flight: int = 0  # photos being recognized or waiting for their turn

    async def recognize(self, data: bytes) -> dict[str, Any]:
        """Recognize a photo in a worker thread (the event loop stays free); 503 if no model.

        At most ``settings.recognize_concurrency`` photos run at once; up to
        ``settings.max_photo_queue`` more wait; beyond that a 503 ``busy`` answers at once.
        """
        if self.recognizer is None:
            raise ServiceError(
                503,
                "model_unavailable",
                f"photo recognition is not available: {self.recognizer_error or 'no model'}",
            )
        limit = self.settings.recognize_concurrency + self.settings.max_photo_queue
        if self.in_flight >= limit:
            raise ServiceError(
                503, "busy", f"{self.in_flight} photos are already queued; try again shortly"
            )
        if self.limiter is None:
            self.limiter = anyio.CapacityLimiter(self.settings.recognize_concurrency)
        self.in_flight += 1
        try:
            result: dict[str, Any] = await anyio.to_thread.run_sync(
                self.recognizer.recognize_bytes, data, limiter=self.limiter
            )
        finally:
            self.in_flight -= 1
        return result


def load_services(settings: Settings, factory: RecognizerFactory, games: bool) -> Services:
    """Load the recognizer; a missing model or package leaves it None with the reason."""
    svc = Services(settings=settings, games=games)
    try:
        svc.recognizer = factory()
    except Exception as exc:  # noqa: BLE001 - any load failure means "no model", not a crash
        svc.recognizer_error = f"{type(exc).__name__}: {exc}"
        log.warning("recognizer not loaded: %s", svc.recognizer_error)
    return svc


def services(app: FastAPI) -> Services:
    """The app's services (loaded at start-up by the lifespan)."""
    svc = getattr(app.state, "services", None)
    if svc is None:  # the lifespan did not run (e.g. a TestClient used without `with`)
        svc = load_services(app.state.settings, app.state.recognizer_factory, app.state.games)
        app.state.services = svc
    return svc

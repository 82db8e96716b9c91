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
from sanma_lens.engine.errors import InputError

log = logging.getLogger("sanma.api")

RecognizerFactory = Callable[[], Any]

# What /v1/info says when the recognizer did not load, by the kind of failure.
_LOAD_FAILURES: dict[type[BaseException], str] = {
    FileNotFoundError: "a model file was not found",
    ImportError: "a package the recognizer needs is not installed",
    ModuleNotFoundError: "a package the recognizer needs is not installed",
    MemoryError: "not enough memory to load the model",
}


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

    def admit(self) -> bool:
        """Take a place for one photo (running or queued) before its upload is read; False
        when ``recognize_concurrency + max_photo_queue`` photos already hold one. The caller
        gives it back with :meth:`release` when the request ends, however it ends."""
        if self.in_flight >= self.settings.recognize_concurrency + self.settings.max_photo_queue:
            return False
        self.in_flight += 1
        return True

    def release(self) -> None:
        self.in_flight -= 1

    def busy_error(self) -> ServiceError:
        return ServiceError(
            503,
            "busy",
            f"{self.in_flight} photos are already being recognized or queued; try again shortly",
            headers={"Retry-After": "2"},
        )

    async def recognize(self, data: bytes | Callable[[], bytes]) -> dict[str, Any]:
        """Recognize a photo in a worker thread (the event loop stays free); 503 if no model.
        ``data`` is the photo, or reads it (once the photo's turn has come).

        At most ``settings.recognize_concurrency`` photos run at once; the others wait. The
        request took its place in the queue when it started (:meth:`admit`, in
        ``api.errors.BodyLimitMiddleware``), so that a full queue is refused before the upload.
        """
        if self.recognizer is None:
            raise ServiceError(
                503,
                "model_unavailable",
                "photo recognition is not available: "
                + (self.recognizer_error or "the recognition model is not loaded"),
            )
        if self.limiter is None:
            self.limiter = anyio.CapacityLimiter(self.settings.recognize_concurrency)
        recognizer = self.recognizer

        def run() -> dict[str, Any]:
            result: dict[str, Any] = recognizer.recognize_bytes(data() if callable(data) else data)
            return result

        return await anyio.to_thread.run_sync(run, limiter=self.limiter)


def load_services(settings: Settings, factory: RecognizerFactory, games: bool) -> Services:
    """Load the recognizer; a missing model or package leaves it None with the reason."""
    svc = Services(settings=settings, games=games)
    try:
        svc.recognizer = factory()
    except InputError as exc:  # a model missing or unreadable (vision/models.py): say which
        svc.recognizer_error = exc.message
        log.warning("recognizer not loaded: %s", exc.message)
    except Exception as exc:  # noqa: BLE001 - any load failure means "no model", not a crash
        # the details (a model file's path, the exception) go to the log, not to clients
        svc.recognizer_error = _LOAD_FAILURES.get(type(exc), "the model could not be loaded")
        log.warning("recognizer not loaded: %s: %s", type(exc).__name__, exc)
    return svc


def services(app: FastAPI) -> Services:
    """The app's services (loaded at start-up by the lifespan)."""
    svc = getattr(app.state, "services", None)
    if svc is None:  # the lifespan did not run (e.g. a TestClient used without `with`)
        svc = load_services(app.state.settings, app.state.recognizer_factory, app.state.games)
        app.state.services = svc
    return svc

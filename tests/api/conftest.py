"""Fixtures for the HTTP API tests: the app in-process through FastAPI's TestClient."""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator

import cv2
import numpy as np
import pytest
from fastapi.testclient import TestClient

from sanma_lens.api.app import create_app
from sanma_lens.api.settings import Settings


def _missing_model() -> object:
    from sanma_lens.vision.models import ModelError

    raise ModelError("the recognition model tile_detector is missing from the package")


@pytest.fixture()
def client() -> Iterator[TestClient]:
    """The app as `sanma serve` builds it (real recognizer if the model is there)."""
    with TestClient(create_app(), raise_server_exceptions=False) as c:
        yield c


@pytest.fixture()
def client_no_model() -> Iterator[TestClient]:
    """The app on a machine where the model files are missing."""
    app = create_app(Settings(), recognizer_factory=_missing_model)
    with TestClient(app, raise_server_exceptions=False) as c:
        yield c


def has_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:
        return False


def require_engine() -> None:
    """Skip until the engine's service functions exist (they are written in parallel)."""
    pytest.importorskip("sanma_lens.engine.service", reason="engine.service not written yet")


def assert_error(response, status: int, code: str | None = None) -> dict:  # type: ignore[no-untyped-def]
    """The one error shape: {"error": {"code", "message"}}, nothing else."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"error"}, body
    assert set(body["error"]) == {"code", "message"}, body
    assert isinstance(body["error"]["code"], str) and body["error"]["code"]
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    if code is not None:
        assert body["error"]["code"] == code, body
    return body["error"]


def drawn_photo(width: int = 640, height: int = 360, ext: str = ".jpg") -> bytes:
    """A small encoded picture drawn with OpenCV (not a mahjong photo)."""
    img = np.full((height, width, 3), 60, np.uint8)
    for i in range(5):
        cv2.rectangle(img, (40 + 90 * i, 100), (110 + 90 * i, 200), (235, 235, 225), -1)
        cv2.putText(
            img, str(i + 1), (60 + 90 * i, 170), cv2.FONT_HERSHEY_SIMPLEX, 1.5, (0, 0, 0), 3
        )
    ok, buf = cv2.imencode(ext, img)
    assert ok
    return buf.tobytes()

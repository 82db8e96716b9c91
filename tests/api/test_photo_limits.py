"""A photo's work bounds over HTTP (vision/limits.py): too many tile-like shapes is 422
``too_many_tiles``; a photo not read in time is 503 ``photo_timeout``; both in the one error
shape, and the service goes on answering."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from sanma_lens.api.app import create_app
from sanma_lens.api.settings import Settings
from sanma_lens.engine.errors import InputError
from sanma_lens.vision.limits import too_many_tiles

from .conftest import assert_error, drawn_photo


class _Refusing:
    """A recognizer stand-in that gives up every photo with ``error``."""

    def __init__(self, error: InputError) -> None:
        self.error = error

    def recognize_bytes(self, data: bytes) -> dict:
        raise self.error


@pytest.mark.parametrize(
    ("error", "status"),
    [
        (too_many_tiles(525, 200), 422),
        (InputError("photo_timeout", "reading the photo took longer than the limit of 10 s"), 503),
    ],
)
@pytest.mark.parametrize("path", ["/v1/recognize", "/v1/photo/score"])
def test_photo_limits_are_answered_in_the_error_shape(
    error: InputError, status: int, path: str
) -> None:
    app = create_app(Settings(), recognizer_factory=lambda: _Refusing(error))
    with TestClient(app, raise_server_exceptions=False) as c:
        r = c.post(path, files={"image": ("a.jpg", drawn_photo(), "image/jpeg")})
        body = assert_error(r, status, error.code)
        assert body["message"] == error.message
        assert c.get("/healthz").status_code == 200

"""Photo endpoints refuse bad uploads with 4xx and the error shape; no model → 503."""

from __future__ import annotations

import asyncio
import json
import threading
import time

import pytest
from fastapi.testclient import TestClient

from sanma_lens.api.app import create_app
from sanma_lens.api.settings import MB, Settings

from .conftest import assert_error, drawn_photo
from .test_uploads import png_bytes

PHOTO_PATHS = ("/v1/recognize", "/v1/photo/score")


@pytest.mark.parametrize("path", PHOTO_PATHS)
def test_non_image_upload_is_415_whatever_its_name(client, path):
    files = {"image": ("photo.jpg", b"MZ\x90\x00 this is not a picture", "image/jpeg")}
    assert_error(client.post(path, files=files), 415, "not_an_image")


@pytest.mark.parametrize("path", PHOTO_PATHS)
def test_empty_upload_is_415(client, path):
    assert_error(client.post(path, files={"image": ("a.png", b"", "image/png")}), 415)


@pytest.mark.parametrize("path", PHOTO_PATHS)
def test_50_mb_upload_is_413(client, path):
    blob = b"\xff\xd8\xff" + b"\0" * (50 * MB)
    r = client.post(path, files={"image": ("big.jpg", blob, "image/jpeg")})
    assert_error(r, 413, "body_too_large")


def test_chunked_upload_is_cut_off_while_streaming():
    """No Content-Length: the body is counted as it arrives and refused past the limit.

    Driven at the ASGI level (the TestClient would read the whole body first), so we can
    see how much of a 50 MB body the server asked for.
    """
    app = create_app(Settings(max_upload_bytes=1 * MB))
    head = (
        b'--b\r\nContent-Disposition: form-data; name="image"; filename="x.jpg"\r\n'
        b"Content-Type: image/jpeg\r\n\r\n\xff\xd8\xff"
    )
    chunks = [head] + [b"\0" * (MB // 4)] * 200 + [b"\r\n--b--\r\n"]
    pulled = 0
    sent: list[dict] = []

    async def receive():
        nonlocal pulled
        pulled += 1
        if pulled > len(chunks):
            return {"type": "http.disconnect"}
        return {
            "type": "http.request",
            "body": chunks[pulled - 1],
            "more_body": pulled < len(chunks),
        }

    async def send(message):
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/v1/recognize",
        "raw_path": b"/v1/recognize",
        "query_string": b"",
        "root_path": "",
        "client": ("127.0.0.1", 1),
        "server": ("t", 80),
        "headers": [(b"content-type", b"multipart/form-data; boundary=b")],
    }
    asyncio.run(app(scope, receive, send))
    assert sent[0]["type"] == "http.response.start" and sent[0]["status"] == 413
    body = json.loads(b"".join(m.get("body", b"") for m in sent[1:]))
    assert body["error"]["code"] == "body_too_large"
    assert pulled <= 6, f"the server read {pulled} chunks of 256 KiB past a 1 MiB limit"


def test_upload_limit_follows_env(monkeypatch):
    monkeypatch.setenv("SANMA_MAX_UPLOAD_MB", "1")
    with TestClient(create_app()) as c:
        blob = drawn_photo() + b"\0" * (2 * MB)
        r = c.post("/v1/recognize", files={"image": ("a.jpg", blob, "image/jpeg")})
    assert_error(r, 413, "body_too_large")


@pytest.mark.parametrize("path", PHOTO_PATHS)
def test_truncated_jpeg_is_422(client, path):
    data = drawn_photo(640, 480, ".jpg")
    r = client.post(path, files={"image": ("cut.jpg", data[: len(data) // 2], "image/jpeg")})
    assert_error(r, 422, "truncated_image")


@pytest.mark.parametrize("path", PHOTO_PATHS)
def test_100_megapixel_png_is_422(client, path):
    r = client.post(path, files={"image": ("huge.png", png_bytes(10_000, 10_000), "image/png")})
    assert_error(r, 422, "image_too_large")


@pytest.mark.parametrize("path", PHOTO_PATHS)
def test_missing_image_field_is_422(client, path):
    assert_error(client.post(path, data={"situation": "{}"}), 422, "invalid_request")


def test_image_sent_as_text_field_is_422(client):
    assert_error(client.post("/v1/recognize", data={"image": "abc"}), 422, "invalid_request")


def test_json_body_instead_of_multipart_is_422(client):
    assert_error(client.post("/v1/recognize", json={"image": "abc"}), 422)


def test_broken_multipart_is_400(client):
    r = client.post(
        "/v1/recognize",
        content=b'--zz\r\nContent-Disposition: form-data; name="image"\r\n\r\nabc',
        headers={"content-type": "multipart/form-data; boundary=b"},
    )
    assert r.status_code in (400, 422)
    assert_error(r, r.status_code)


@pytest.mark.parametrize("path", PHOTO_PATHS)
def test_missing_model_is_503(client_no_model, path):
    r = client_no_model.post(path, files={"image": ("a.jpg", drawn_photo(), "image/jpeg")})
    err = assert_error(r, 503, "model_unavailable")
    assert "tile_detector is missing" in err["message"]


def test_malformed_situation_json_is_400(client):
    r = client.post(
        "/v1/photo/score",
        files={"image": ("a.jpg", drawn_photo(), "image/jpeg")},
        data={"situation": "{tsumo: true"},
    )
    assert_error(r, 400, "bad_json")


@pytest.mark.parametrize(
    "situation",
    [[], "ron", {"tsumo": "yes"}, {"honba": 1.5}, {"riichi": 1}, {"seat": "X"}],
)
def test_situation_with_wrong_types_is_422(client, situation):
    r = client.post(
        "/v1/photo/score",
        files={"image": ("a.jpg", drawn_photo(), "image/jpeg")},
        data={"situation": json.dumps(situation)},
    )
    assert_error(r, 422, "invalid_request")


def test_hand_override_with_wrong_types_is_422(client):
    r = client.post(
        "/v1/photo/score",
        files={"image": ("a.jpg", drawn_photo(), "image/jpeg")},
        data={"situation": "{}", "hand": json.dumps({"hand": 5})},
    )
    assert_error(r, 422, "invalid_request")


class _SlowRecognizer:
    """Stands in for the model to test the server's queue only: holds each photo a while."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.calls = 0

    def recognize_bytes(self, data: bytes) -> dict:
        self.calls += 1
        self.release.wait(10)
        return {"tiles": [], "hand": {"hand": ""}, "warnings": []}


def test_photo_flood_beyond_the_queue_is_503_busy_at_once():
    """1 running + 2 queued; the 4th and later photos are refused quickly, not buffered."""
    slow = _SlowRecognizer()
    app = create_app(
        Settings(recognize_concurrency=1, max_photo_queue=2), recognizer_factory=lambda: slow
    )
    photo = drawn_photo()
    results: list[int] = []
    with TestClient(app, raise_server_exceptions=False) as c:

        def post() -> None:
            r = c.post("/v1/recognize", files={"image": ("a.jpg", photo, "image/jpeg")})
            results.append(r.status_code)

        threads = [threading.Thread(target=post) for _ in range(3)]
        for t in threads:
            t.start()
        deadline = time.monotonic() + 10
        while slow.calls < 1 and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.2)  # let the other two reach the queue
        r = c.post("/v1/recognize", files={"image": ("a.jpg", photo, "image/jpeg")})
        assert_error(r, 503, "busy")
        slow.release.set()
        for t in threads:
            t.join(10)
    assert sorted(results) == [200, 200, 200]

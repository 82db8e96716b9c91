"""The service under attack: strict JSON, same-origin writes, security headers, errors that
name nothing internal, duplicate form parts, early refusals and the request rate limit."""

from __future__ import annotations

import asyncio
import json

import pytest
from fastapi.testclient import TestClient

from sanma_lens.api.app import create_app
from sanma_lens.api.security import host_is_allowed
from sanma_lens.api.settings import Settings
from tests.api.conftest import assert_error, drawn_photo

HAND = {"hand": "234p456p789s11z22z", "win": "2z", "seat": "S", "round": "E"}
JSON = {"content-type": "application/json"}


def _nested(depth: int) -> object:
    value: object = 1
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize("path", ["/v1/score", "/v1/tenpai"])
@pytest.mark.parametrize(
    ("raw", "code"),
    [
        (b'{"hand":"234p456p789s11z22z","honba":NaN}', "bad_json"),
        (b'{"hand":"234p456p789s11z22z","honba":Infinity}', "bad_json"),
        (b'{"hand":"234p456p789s11z22z","honba":1' + b"0" * 5000 + b"}", "bad_json"),
        (b'{"hand":"234p456p789s11z22z","x":"\\ud800"}', "bad_json"),
        (
            b'{"hand":"234p456p789s11z22z","zz":' + json.dumps(_nested(255)).encode() + b"}",
            "too_deep",
        ),
    ],
)
def test_bad_json_bodies_are_400_never_500(client, path, raw, code):
    assert_error(client.post(path, content=raw, headers=JSON), 400, code)


def test_a_huge_integer_that_parses_is_a_422(client):
    r = client.post("/v1/score", json={**HAND, "honba": 10**19})
    assert r.status_code == 422


@pytest.mark.parametrize("field", ["situation", "hand"])
def test_photo_form_fields_are_read_strictly(client, field):
    for text, code in (
        ('{"honba":NaN}', "bad_json"),
        ('{"x":' + "[" * 100 + "]" * 100 + "}", "too_deep"),
        ('{"honba":1' + "0" * 5000 + "}", "bad_json"),
    ):
        r = client.post(
            "/v1/photo/score",
            files={"image": ("a.jpg", drawn_photo(), "image/jpeg")},
            data={field: text} if field == "situation" else {"situation": "{}", field: text},
        )
        assert_error(r, 400, code)


# ---------------------------------------------------------------- same-origin writes


@pytest.mark.parametrize(
    "headers",
    [
        {"origin": "http://evil.example", "content-type": "text/plain"},
        {"origin": "http://evil.example"},
        {"origin": "null"},
        {"sec-fetch-site": "cross-site"},
        # DNS rebinding: the page's origin equals the Host it sent, a name we do not serve
        {"origin": "http://rebind.example:8000", "host": "rebind.example:8000"},
    ],
)
def test_cross_origin_writes_are_403(client, headers):
    for path, kwargs in (
        ("/v1/games", {"content": b"{}"}),
        ("/v1/score", {"content": json.dumps(HAND).encode()}),
        ("/v1/recognize", {"files": {"image": ("a.jpg", drawn_photo(), "image/jpeg")}}),
    ):
        r = client.post(path, headers=headers, **kwargs)
        assert_error(r, 403, "cross_origin")


def test_same_origin_and_originless_writes_pass(client):
    ok = [
        {"origin": "http://127.0.0.1:8000", "host": "127.0.0.1:8000", **JSON},
        {"origin": "http://192.168.1.20:8000", "host": "192.168.1.20:8000", **JSON},
        {"origin": "http://localhost:8000", "host": "localhost:8000", **JSON},
        {"sec-fetch-site": "same-origin", **JSON},
        JSON,
    ]
    for headers in ok:
        r = client.post("/v1/score", content=json.dumps(HAND).encode(), headers=headers)
        assert r.status_code == 200, (headers, r.text)


def test_allowed_hosts_setting_lets_a_named_server_take_page_writes():
    assert not host_is_allowed("club.example", ())
    assert host_is_allowed("club.example", ("club.example",))
    assert host_is_allowed("anything", ("*",))
    assert host_is_allowed("::1", ()) and host_is_allowed("sanma.local", ())
    app = create_app(Settings(allowed_hosts=("club.example",)))
    with TestClient(app, base_url="https://club.example") as c:
        r = c.post("/v1/score", json=HAND, headers={"origin": "https://club.example"})
        assert r.status_code == 200, r.text


# ---------------------------------------------------------------- headers and messages


@pytest.mark.parametrize(
    "path", ["/", "/static/index.html", "/static/game.html", "/game.html", "/docs"]
)
def test_every_html_page_has_csp_frame_ancestors_and_nosniff(client, path):
    r = client.get(path)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    csp = r.headers["content-security-policy"]
    assert "frame-ancestors 'none'" in csp and "default-src 'self'" in csp
    assert r.headers["x-content-type-options"] == "nosniff"
    assert "unsafe-inline" not in csp


def test_json_answers_are_nosniff(client):
    assert client.get("/healthz").headers["x-content-type-options"] == "nosniff"


def _leaks(message: str) -> bool:
    return any(s in message for s in ("/", "\\", ".onnx", "127.0.0.1", "Error(", "port"))


def test_a_missing_model_is_said_without_its_path(client_no_model):
    info = client_no_model.get("/v1/info").json()
    assert info["model_error"] and not _leaks(info["model_error"])
    r = client_no_model.post(
        "/v1/recognize", files={"image": ("a.jpg", drawn_photo(), "image/jpeg")}
    )
    assert not _leaks(assert_error(r, 503, "model_unavailable")["message"])


def test_an_unreachable_database_is_said_without_its_host(tmp_path):
    from fastapi import FastAPI

    from sanma_lens.api import games
    from sanma_lens.api.storage import Storage

    app = FastAPI()
    app.include_router(games.router)
    dead = Storage("postgresql://nobody@127.0.0.1:9/none")
    app.dependency_overrides[games.get_storage] = lambda: dead
    with TestClient(app) as c:
        r = c.get("/v1/games/" + "a" * 32)
    error = assert_error(r, 503, "storage_unavailable")
    assert not _leaks(error["message"]) and "9" not in error["message"]


# ---------------------------------------------------------------- forms and early refusals


def test_two_image_parts_are_refused(client):
    photo = ("a.jpg", drawn_photo(), "image/jpeg")
    for path in ("/v1/recognize", "/v1/photo/score"):
        r = client.post(path, files=[("image", photo), ("image", photo)])
        assert_error(r, 422, "duplicate_field")
    r = client.post(
        "/v1/photo/score",
        files=[("image", photo)],
        data={"situation": ["{}", '{"tsumo": true}']},
    )
    assert_error(r, 422, "duplicate_field")


def _asgi_post(app, path: str, headers: list[tuple[bytes, bytes]]) -> tuple[int, bool, dict]:
    """POST to ``app`` straight through ASGI; whether the app read any of the body."""
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver"), *headers],
        "client": ("10.0.0.9", 5000),
        "server": ("testserver", 80),
        "app": app,
    }
    read = False
    sent: list[dict] = []

    async def receive() -> dict:
        nonlocal read
        read = True
        return {"type": "http.request", "body": b"x" * 1000, "more_body": True}

    async def send(message: dict) -> None:
        sent.append(message)

    asyncio.run(app(scope, receive, send))
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], read, json.loads(body)


def test_an_oversized_multipart_body_to_games_is_413_before_it_is_read(client):
    app = client.app
    status, read, body = _asgi_post(
        app,
        "/v1/games",
        [(b"content-type", b"multipart/form-data; boundary=x"), (b"content-length", b"15000000")],
    )
    assert (status, read, body["error"]["code"]) == (413, False, "body_too_large")


def test_a_photo_is_refused_busy_before_its_upload_is_read():
    app = create_app(
        Settings(recognize_concurrency=1, max_photo_queue=0), recognizer_factory=lambda: object()
    )
    with TestClient(app) as c:
        svc = c.app.state.services
        assert svc.admit()  # one photo is being recognized: no place left
        status, read, body = _asgi_post(
            c.app,
            "/v1/recognize",
            [
                (b"content-type", b"multipart/form-data; boundary=x"),
                (b"content-length", b"9000000"),
            ],
        )
        svc.release()
    assert (status, read, body["error"]["code"]) == (503, False, "busy")


def test_requests_per_client_per_minute_are_limited_with_retry_after():
    app = create_app(Settings(rate_limit_per_minute=5))
    with TestClient(app) as c:
        codes = [c.post("/v1/score", json=HAND).status_code for _ in range(7)]
        assert codes == [200] * 5 + [429] * 2
        r = c.post("/v1/score", json=HAND)
        assert_error(r, 429, "rate_limited")
        assert 1 <= int(r.headers["retry-after"]) <= 60
        assert c.get("/healthz").status_code == 200  # not counted


def test_a_large_photo_waits_on_disk_and_is_read_whole_when_its_turn_comes():
    seen: list[bytes] = []

    class Recorder:
        def recognize_bytes(self, data: bytes) -> dict:
            seen.append(data)
            return {"tiles": [], "hand": {"hand": ""}, "warnings": []}

    photo = drawn_photo() + b"\0" * (3 * 1024 * 1024)  # bytes after the JPEG's end
    app = create_app(Settings(), recognizer_factory=Recorder)
    with TestClient(app) as c:
        r = c.post("/v1/recognize", files={"image": ("a.jpg", photo, "image/jpeg")})
        assert r.status_code == 200, r.text
        r = c.post("/v1/photo/score", files={"image": ("a.jpg", photo, "image/jpeg")})
        assert r.status_code == 200, r.text
    assert seen == [photo, photo]

"""HTTP service basics: health, docs, page, error shape for framework errors (docs/api.md)."""

from __future__ import annotations

import pytest

from sanma_lens.api.app import create_app
from sanma_lens.api.settings import MB, Settings
from tests.support import CONTRACT_HAND_FIELDS

from .conftest import assert_error


def test_healthz_is_exactly_status_ok(client):
    r = client.get("/healthz")
    assert r.status_code == 200
    assert r.json() == {"status": "ok"}


def test_docs_and_openapi_are_served(client):
    assert client.get("/docs").status_code == 200
    spec = client.get("/openapi.json").json()
    for path in ("/v1/score", "/v1/tenpai", "/v1/recognize", "/v1/photo/score", "/healthz"):
        assert path in spec["paths"], path
    hand = spec["components"]["schemas"]["HandIn"]
    for field in CONTRACT_HAND_FIELDS:
        assert field in hand["properties"], field
        assert hand["properties"][field].get("description") or field == "rules", field
    photo = spec["paths"]["/v1/photo/score"]["post"]["requestBody"]["content"]
    assert "multipart/form-data" in photo


def test_phone_page_is_served_without_external_requests(client):
    r = client.get("/")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/html")
    html = r.text
    assert "<html" in html.lower()
    for asset in ("/static/app.js", "/static/style.css"):
        assert asset in html
        assert client.get(asset).status_code == 200
    for text in (html, client.get("/static/app.js").text, client.get("/static/style.css").text):
        assert "http://" not in text.replace("http://www.w3.org", "")
        assert "https://" not in text
    assert 'capture="environment"' in html and 'accept="image/*"' in html
    assert "/game.html" in html


def test_page_may_only_talk_to_this_server(client):
    csp = client.get("/").headers["content-security-policy"]
    assert "default-src 'self'" in csp
    assert "frame-ancestors 'none'" in csp


def test_game_scoreboard_is_included_when_its_module_imports(client):
    try:
        import sanma_lens.api.games  # noqa: F401
    except ImportError:
        pytest.skip("api.games is not there")
    paths = client.get("/openapi.json").json()["paths"]
    assert any(p.startswith("/v1/games") for p in paths)
    assert client.get("/v1/info").json()["games"] is True


def test_info_reports_model_and_limits(client_no_model):
    info = client_no_model.get("/v1/info").json()
    assert info["model_loaded"] is False
    assert "tile_detector is missing" in info["model_error"]
    assert info["max_upload_mb"] == 15


def test_unknown_path_is_404_in_error_shape(client):
    assert_error(client.get("/v1/nothing"), 404, "not_found")


def test_wrong_method_is_405_in_error_shape(client):
    assert_error(client.get("/v1/score"), 405, "method_not_allowed")


def test_malformed_json_is_400_bad_json(client):
    r = client.post(
        "/v1/score", content=b'{"hand": "123p"', headers={"content-type": "application/json"}
    )
    assert_error(r, 400, "bad_json")


def test_json_without_content_type_is_still_read(client):
    r = client.post("/v1/score", content=b"[")
    assert_error(r, 400, "bad_json")


def test_json_sent_as_form_encoding_is_still_read(client):
    """`curl -d '{...}'` labels JSON as form data; the hand is read as JSON all the same."""
    r = client.post(
        "/v1/score",
        content=b'{"hand": 5}',
        headers={"content-type": "application/x-www-form-urlencoded"},
    )
    err = assert_error(r, 422, "invalid_request")
    assert err["message"].startswith("hand:")


def test_wrong_types_are_422_invalid_request(client):
    for body in (
        {"hand": 123},
        {"hand": "123p", "kita": "1"},
        {"hand": "123p", "tsumo": "yes"},
        {"hand": "123p", "melds": "pon:777z"},
        {"hand": "123p", "riichi": "maybe"},
        {"hand": "123p", "honba": -1},
        {"hand": "123p", "dora": [1]},
        {"win": "1p"},
        [],
        "hand",
        None,
    ):
        for path in ("/v1/score", "/v1/tenpai"):
            err = assert_error(client.post(path, json=body), 422, "invalid_request")
            assert "detail" not in err


def test_empty_body_is_422(client):
    assert_error(client.post("/v1/score"), 422, "invalid_request")


def test_json_body_over_limit_is_413_before_reading():
    from fastapi.testclient import TestClient

    app = create_app(Settings(max_json_bytes=1024, max_upload_bytes=MB))
    with TestClient(app) as c:
        big = b'{"hand": "' + b"1" * 4000 + b'"}'
        assert_error(c.post("/v1/score", content=big), 413, "body_too_large")


def test_settings_from_env(monkeypatch):
    monkeypatch.setenv("SANMA_MAX_UPLOAD_MB", "2.5")
    monkeypatch.setenv("SANMA_MAX_MEGAPIXELS", "10")
    s = Settings.from_env()
    assert s.max_upload_bytes == int(2.5 * MB)
    assert s.max_pixels == 10_000_000


def test_settings_refuse_a_pixel_limit_the_decoder_would_not_honour(monkeypatch):
    """The vision decoder refuses photos over 50 megapixels whatever the service allows, so
    SANMA_MAX_MEGAPIXELS above it is a start-up error, not a setting silently ignored."""
    monkeypatch.setenv("SANMA_MAX_MEGAPIXELS", "80")
    with pytest.raises(ValueError, match="SANMA_MAX_MEGAPIXELS"):
        Settings.from_env()
    monkeypatch.setenv("SANMA_MAX_MEGAPIXELS", "50")
    assert Settings.from_env().max_pixels == 50_000_000


def test_docs_page_needs_no_internet(client):
    """Swagger UI's script and style come from this server, never a CDN."""
    html = client.get("/docs").text
    assert "cdn." not in html and "https://" not in html
    for asset in ("/docs-static/swagger-ui-bundle.js", "/docs-static/swagger-ui.css"):
        assert asset in html
        assert client.get(asset).status_code == 200


def test_serve_with_a_bad_limit_exits_2_with_one_line(monkeypatch, capsys):
    """A SANMA_* limit the service cannot honour stops `sanma serve` before the server starts,
    with the reason on stderr and exit 2 (bad input), not a traceback."""
    from sanma_lens.api.cli import main

    monkeypatch.setenv("SANMA_MAX_MEGAPIXELS", "80")
    assert main(["serve", "--port", "8799"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("sanma serve: SANMA_MAX_MEGAPIXELS") and "Traceback" not in err

"""A missing or unreadable model: `sanma recognize` exits 2 and the HTTP API answers 503, both
with the code model_unavailable and a message that names the model, never a path or an
exception (docs/api.md: bad input and unavailable parts are clear errors, not internal_error)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from sanma_lens.api.app import create_app
from sanma_lens.api.cli import main
from sanma_lens.api.settings import Settings
from sanma_lens.vision import pipeline

from .conftest import assert_error, drawn_photo


@pytest.fixture()
def no_models(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    """$SANMA_MODELS names an empty folder (the process-wide recognizer forgotten around it)."""
    empty = tmp_path / "models"
    empty.mkdir()
    monkeypatch.setenv("SANMA_MODELS", str(empty))
    pipeline.default_recognizer.cache_clear()
    yield empty
    pipeline.default_recognizer.cache_clear()


def test_recognize_without_a_model_exits_2(no_models: Path, tmp_path: Path, capsys) -> None:
    photo = tmp_path / "hand.jpg"
    photo.write_bytes(drawn_photo())
    assert main(["recognize", str(photo), "--json"]) == 2
    out = json.loads(capsys.readouterr().out)
    assert out["error"]["code"] == "model_unavailable"
    assert "tile_detector" in out["error"]["message"]
    assert ".onnx" not in out["error"]["message"]
    assert str(no_models) not in out["error"]["message"]


def test_recognize_with_an_unreadable_model_exits_2(
    no_models: Path, tmp_path: Path, capsys
) -> None:
    (no_models / "tile_detector.onnx").write_bytes(b"\x00" * 64)
    photo = tmp_path / "hand.jpg"
    photo.write_bytes(drawn_photo())
    assert main(["recognize", str(photo), "--json"]) == 2
    out = json.loads(capsys.readouterr().out)
    assert out["error"]["code"] == "model_unavailable"
    assert "cannot be read" in out["error"]["message"]


def test_http_without_a_model_is_503_and_info_says_why(no_models: Path) -> None:
    with TestClient(create_app(), raise_server_exceptions=False) as client:
        r = client.post("/v1/recognize", files={"image": ("a.jpg", drawn_photo(), "image/jpeg")})
        err = assert_error(r, 503, "model_unavailable")
        assert "tile_detector is missing" in err["message"]
        assert str(no_models) not in err["message"]
        info = client.get("/v1/info").json()
        assert info["model_loaded"] is False and str(no_models) not in info["model_error"]


def test_http_with_a_model_that_fails_oddly_names_no_exception() -> None:
    def broken() -> object:
        raise RuntimeError("/opt/secret/path: segfault-ish")

    with TestClient(
        create_app(Settings(), recognizer_factory=broken), raise_server_exceptions=False
    ) as client:
        r = client.post("/v1/recognize", files={"image": ("a.jpg", drawn_photo(), "image/jpeg")})
        err = assert_error(r, 503, "model_unavailable")
        assert "RuntimeError" not in err["message"] and "/opt" not in err["message"]

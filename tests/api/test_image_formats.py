"""`sanma recognize` and the HTTP photo endpoints accept the same files (docs/api.md: JPEG/PNG
photos; WebP is our extension on both): one check, ``vision.decode.check``, decides for both.
BMP was read by the CLI and refused over HTTP."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest
from fastapi.testclient import TestClient

from sanma_lens.api.app import create_app
from sanma_lens.api.cli import main
from sanma_lens.api.settings import Settings
from sanma_lens.vision import pipeline

from .conftest import drawn_photo

STUB_HAND = {"hand": "", "win": None, "melds": [], "kita": 0, "kita_aka": 0}


class _DecodeOnly:
    """The real ``Recognizer.recognize_bytes`` (which decodes first), no model behind it."""

    recognize_bytes = pipeline.Recognizer.recognize_bytes
    limits = pipeline.Recognizer.limits

    def recognize_image(
        self, image: np.ndarray, size: tuple[int, int], scale: float, deadline: object = None
    ) -> dict:
        return {"tiles": [], "hand": dict(STUB_HAND), "warnings": [], "image_size": list(size)}


def _encoded(ext: str) -> Callable[[], bytes]:
    def make() -> bytes:
        ok, buf = cv2.imencode(ext, np.full((90, 120, 3), 128, np.uint8))
        assert ok
        return buf.tobytes()

    return make


def _motion_photo() -> bytes:
    """A phone JPEG with data after its end-of-image marker (Samsung trailer, motion photo):
    a whole photo, though its last bytes are not the marker."""
    return drawn_photo(320, 180) + b"\x00\x00\x00\x18ftypmp42" + bytes(300_000)


def _garbage_scan() -> bytes:
    """A JPEG whose compressed data is noise: headers of a grey picture, then 100 kB of bytes
    that libjpeg reads as blocks of noise, with kilobytes left over."""
    base = cv2.imencode(".jpg", np.full((480, 640, 3), 128, np.uint8))[1].tobytes()
    scan = base.find(b"\xff\xda")
    junk = bytes(range(256)).replace(b"\xff", b"\x00") * 400
    return base[: scan + 14] + junk + b"\xff\xd9"


def _stray_bytes() -> bytes:
    """A whole photo with two stray bytes before its end marker, as some cameras write."""
    data = drawn_photo(320, 180)
    return data[:-2] + b"\x00\x00\xff\xd9"


# name: (bytes, None when the photo is read, else the error code)
PHOTOS: dict[str, tuple[Callable[[], bytes], str | None]] = {
    "jpeg": (lambda: drawn_photo(320, 180), None),
    "png": (_encoded(".png"), None),
    "webp": (_encoded(".webp"), None),
    "jpeg_with_trailer": (_motion_photo, None),
    "bmp": (_encoded(".bmp"), "not_an_image"),
    "gif": (lambda: b"GIF89a\x01\x00\x01\x00\x00\x00\x00;", "not_an_image"),
    "empty": (lambda: b"", "empty_image"),
    "truncated_jpeg": (lambda: drawn_photo(320, 180)[:-600], "truncated_image"),
    "jpeg_garbage_scan": (_garbage_scan, "corrupt_image"),
    "jpeg_stray_bytes": (_stray_bytes, None),
}
HTTP_STATUS = {
    "not_an_image": 415,
    "empty_image": 415,
    "truncated_image": 422,
    "corrupt_image": 422,
}


@pytest.fixture()
def client() -> Iterator[TestClient]:
    app = create_app(Settings(), recognizer_factory=_DecodeOnly)
    with TestClient(app, raise_server_exceptions=False) as c:
        yield c


@pytest.mark.parametrize("name", PHOTOS)
def test_contract_recognize_cli_reads_the_photos_http_takes(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    make, code = PHOTOS[name]
    path = tmp_path / f"photo.{name}"
    path.write_bytes(make())
    monkeypatch.setattr(pipeline, "default_recognizer", _DecodeOnly)
    status = main(["recognize", "--json", str(path)])
    (out,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    if code is None:
        assert status == 0 and out["hand"] == STUB_HAND
    else:
        assert status == 2 and out["error"]["code"] == code


@pytest.mark.parametrize("path", ["/v1/recognize", "/v1/photo/score"])
@pytest.mark.parametrize("name", PHOTOS)
def test_contract_http_takes_the_photos_the_cli_reads(
    name: str, path: str, client: TestClient
) -> None:
    make, code = PHOTOS[name]
    files = {"image": (f"photo.{name}", make(), "application/octet-stream")}
    data = {"situation": "{}"} if path.endswith("score") else None
    r = client.post(path, files=files, data=data)
    if code is None:
        assert r.status_code == 200, r.text
        assert r.json()["hand"] == STUB_HAND
    else:
        assert r.status_code == HTTP_STATUS[code], r.text
        assert r.json()["error"]["code"] == code


def test_recognize_help_names_the_formats(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["recognize", "--help"])
    assert "JPEG/PNG/WebP" in capsys.readouterr().out

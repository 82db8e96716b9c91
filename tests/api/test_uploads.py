"""Cheap header checks on uploads: type by magic bytes, pixels from the header, truncation."""

from __future__ import annotations

import struct
import zlib

import cv2
import numpy as np
import pytest

from sanma_lens.api.uploads import JPEG, PNG, WEBP, check_image
from sanma_lens.engine.errors import InputError

from .conftest import drawn_photo


def png_bytes(width: int, height: int) -> bytes:
    """A valid 1-bit grey PNG of any size (tiny on disk however many pixels)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    row = b"\x00" + b"\x00" * ((width + 7) // 8)
    comp = zlib.compressobj(9)
    idat = b"".join(comp.compress(row) for _ in range(height)) + comp.flush()
    ihdr = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


def test_jpeg_and_png_sizes_read_from_header():
    info = check_image(drawn_photo(640, 360, ".jpg"), 64_000_000)
    assert (info.kind, info.width, info.height) == (JPEG, 640, 360)
    info = check_image(drawn_photo(300, 200, ".png"), 64_000_000)
    assert (info.kind, info.width, info.height) == (PNG, 300, 200)


def test_webp_size_read_from_header():
    ok, buf = cv2.imencode(".webp", np.zeros((50, 70, 3), np.uint8))
    assert ok
    info = check_image(buf.tobytes(), 64_000_000)
    assert (info.kind, info.width, info.height) == (WEBP, 70, 50)


def test_generated_png_decodes():
    img = cv2.imdecode(np.frombuffer(png_bytes(37, 11), np.uint8), cv2.IMREAD_UNCHANGED)
    assert img.shape[:2] == (11, 37)


def test_100_megapixel_png_is_refused_from_header():
    with pytest.raises(InputError) as e:
        check_image(png_bytes(10_000, 10_000), 64_000_000)
    assert e.value.code == "image_too_large"


def test_empty_upload_is_refused():
    with pytest.raises(InputError) as e:
        check_image(b"", 64_000_000)
    assert e.value.code == "empty_image"


@pytest.mark.parametrize("data", [b"hello world", b"GIF89a....", b"%PDF-1.7\n", b"\xff\xd8"])
def test_non_images_are_refused_by_content(data):
    with pytest.raises(InputError) as e:
        check_image(data, 64_000_000)
    assert e.value.code == "not_an_image"


@pytest.mark.parametrize("ext", [".jpg", ".png"])
def test_truncated_files_are_refused(ext):
    data = drawn_photo(640, 360, ext)
    with pytest.raises(InputError) as e:
        check_image(data[: len(data) * 2 // 3], 64_000_000)
    assert e.value.code == "truncated_image"


def test_jpeg_header_only_is_truncated():
    data = drawn_photo(640, 360, ".jpg")
    sos = data.find(b"\xff\xda")
    with pytest.raises(InputError) as e:
        check_image(data[: sos + 20], 64_000_000)
    assert e.value.code == "truncated_image"

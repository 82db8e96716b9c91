"""Photo decoding: bad bytes are clear InputErrors, never crashes or half-decoded images."""

from __future__ import annotations

import struct
import zlib

import cv2
import numpy as np
import pytest

from sanma_lens.engine.errors import InputError
from sanma_lens.vision.decode import MAX_PIXELS, check, decode, header_size, sniff


def _jpeg(w: int = 64, h: int = 48) -> bytes:
    img = np.zeros((h, w, 3), np.uint8)
    img[:, : w // 2] = (0, 0, 255)
    return cv2.imencode(".jpg", img)[1].tobytes()


def _png_header(w: int, h: int) -> bytes:
    """A PNG whose header claims w×h pixels (with a valid CRC and an IEND chunk)."""
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    chunk = struct.pack(">I", len(ihdr)) + b"IHDR" + ihdr
    chunk += struct.pack(">I", zlib.crc32(b"IHDR" + ihdr) & 0xFFFFFFFF)
    iend = struct.pack(">I", 0) + b"IEND" + struct.pack(">I", zlib.crc32(b"IEND") & 0xFFFFFFFF)
    return b"\x89PNG\r\n\x1a\n" + chunk + iend


def _code(data: bytes) -> str:
    with pytest.raises(InputError) as info:
        decode(data)
    return info.value.code


def test_jpeg_decodes_in_colour() -> None:
    dec = decode(_jpeg())
    assert dec.image.shape == (48, 64, 3)
    assert dec.original_size == (64, 48)
    # colour kept: the left half is red (BGR)
    b, g, r = dec.image[24, 10]
    assert r > 200 and b < 60 and g < 60


def test_png_decodes() -> None:
    img = np.full((30, 40, 3), 200, np.uint8)
    dec = decode(cv2.imencode(".png", img)[1].tobytes())
    assert dec.image.shape == (30, 40, 3)


def test_not_an_image_is_refused() -> None:
    assert _code(b"hello, this is text and not a photo") == "not_an_image"
    assert _code(b'{"hand": "123p"}') == "not_an_image"


def test_empty_file_is_refused() -> None:
    assert _code(b"") == "empty_image"


def test_truncated_jpeg_is_refused() -> None:
    data = _jpeg(200, 150)
    assert _code(data[: len(data) // 2]) == "truncated_image"


def test_jpeg_header_only_is_refused() -> None:
    head = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00\xff\xd9"
    assert _code(head) in ("truncated_image", "not_an_image")


def test_huge_dimensions_refused_before_decoding() -> None:
    data = _png_header(100_000, 100_000)
    assert header_size(data, "png")[:2] == (100_000, 100_000)
    assert _code(data) == "image_too_large"


def test_just_over_pixel_limit_is_refused() -> None:
    side = int(MAX_PIXELS**0.5) + 10
    with pytest.raises(InputError) as info:
        check(_png_header(side, side))
    assert info.value.code == "image_too_large"


def test_jpeg_header_size_read_without_decoding() -> None:
    kind, w, h, _ = check(_jpeg(320, 200))
    assert (kind, w, h) == ("jpeg", 320, 200)


def test_big_jpeg_is_decoded_reduced() -> None:
    img = np.random.default_rng(0).integers(0, 255, (2100, 2800, 3), dtype=np.uint8)
    dec = decode(cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 60])[1].tobytes())
    assert dec.original_size == (2800, 2100)
    assert dec.image.shape[1] < 2800
    assert dec.scale == pytest.approx(dec.image.shape[1] / 2800)


def test_sniff_by_magic_not_name() -> None:
    assert sniff(_jpeg()) == "jpeg"
    assert sniff(_png_header(3, 3)) == "png"
    with pytest.raises(InputError):
        sniff(b"GIF89a....")

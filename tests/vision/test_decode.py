"""Photo decoding: bad bytes are clear InputErrors, never crashes or half-decoded images."""

from __future__ import annotations

import struct
import zlib

import cv2
import numpy as np
import pytest

from sanma_lens.engine.errors import InputError
from sanma_lens.vision.decode import MAX_PIXELS, check, decode, header_size, is_damaged, sniff


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


def _photo_like(w: int, h: int) -> bytes:
    """A JPEG with texture at every scale, so that a decoder's rounding would show."""
    rng = np.random.default_rng(7)
    img = cv2.resize(rng.integers(0, 256, (h // 16, w // 16, 3), dtype=np.uint8), (w, h))
    img = cv2.GaussianBlur(img, (5, 5), 0)
    cv2.putText(img, "5p", (w // 4, h // 2), cv2.FONT_HERSHEY_SIMPLEX, 4, (0, 0, 220), 8)
    return cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 92])[1].tobytes()


@pytest.mark.parametrize("work_side", [2000, 400, 200])  # full size, 1/2 and 1/4 from the DCT
def test_jpeg_pixels_are_opencvs_at_every_reduction(work_side: int) -> None:
    data = _photo_like(960, 720)
    flags = {
        2000: cv2.IMREAD_COLOR,
        400: cv2.IMREAD_REDUCED_COLOR_2,
        200: cv2.IMREAD_REDUCED_COLOR_4,
    }[work_side]
    expected = cv2.imdecode(np.frombuffer(data, np.uint8), flags)
    got = decode(data, work_side=work_side).image
    assert got.shape == expected.shape
    assert np.array_equal(got, expected)


def test_jpeg_whose_scan_is_noise_is_corrupt_image() -> None:
    """A grey picture's headers, then compressed data that decodes to blocks of noise with
    kilobytes left over (the crafted photo of the hardening checks)."""
    base = cv2.imencode(".jpg", np.full((480, 640, 3), 128, np.uint8))[1].tobytes()
    scan = base.find(b"\xff\xda")
    junk = bytes(range(256)).replace(b"\xff", b"\x00") * 400
    assert _code(base[: scan + 14] + junk + b"\xff\xd9") == "corrupt_image"


def test_jpeg_with_markers_inside_its_scan_is_corrupt_image() -> None:
    """Random bytes, 0xFF included, in place of the second half of the compressed data."""
    data = _photo_like(640, 480)
    scan = data.find(b"\xff\xda")
    middle = (scan + len(data)) // 2
    junk = np.random.default_rng(3).integers(0, 256, len(data) - 2 - middle, dtype=np.uint8)
    junk[::97] = 0xFF
    junk[1::97] = 0x12  # 0xFF then a byte that is neither stuffing nor a restart marker
    assert _code(data[:middle] + junk.tobytes() + b"\xff\xd9") == "corrupt_image"


def test_jpeg_with_a_few_stray_bytes_before_its_end_is_read() -> None:
    """Some cameras leave a few bytes between the last block and the end marker: libjpeg warns,
    the pixels are whole."""
    data = _jpeg(64, 48)
    stray = data[:-2] + b"\x00\x00\x00\xff\xd9"
    assert np.array_equal(decode(stray).image, decode(data).image)


@pytest.mark.parametrize(
    ("warning", "damaged"),
    [
        ("Corrupt JPEG data: 40954 extraneous bytes before marker 0xd9", True),
        ("Corrupt JPEG data: 3 extraneous bytes before marker 0xd9", False),
        ("Corrupt JPEG data: premature end of data segment", True),
        ("Corrupt JPEG data: bad Huffman code", True),
        ("Corrupt JPEG data: found marker 0xd9 instead of RST3", True),
        ("Premature end of JPEG file", True),
        ("Unsupported marker type 0x12", True),
        ("Corrupt JPEG data: bad ICC marker", False),
        ("Unknown Adobe color transform code 7", False),
    ],
)
def test_which_libjpeg_warnings_refuse_a_photo(warning: str, damaged: bool) -> None:
    assert is_damaged(warning) is damaged

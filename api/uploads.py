"""Cheap checks on an uploaded photo before it is decoded.

The type comes from the file's first bytes (magic numbers), never from its name or the
client's content type. The size in pixels is read from the header, so a 100-megapixel
image is refused without allocating it. A file whose end is missing is refused as
truncated. The vision decoder repeats its own checks; these just answer early and cheaply.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from engine.errors import InputError

JPEG = "jpeg"
PNG = "png"
WEBP = "webp"

_PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
_PNG_IEND = b"IEND\xaeB`\x82"  # the IEND chunk type and its fixed CRC
# JPEG start-of-frame markers carry the image size (all but DHT C4, JPG C8, DAC CC).
_JPEG_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


@dataclass(frozen=True)
class ImageInfo:
    """What the header says: the format and, when found, the size in pixels."""

    kind: str
    width: int | None
    height: int | None


def sniff_kind(data: bytes) -> str:
    """The image format from the magic bytes; InputError ``not_an_image`` otherwise."""
    if not data:
        raise InputError("not_an_image", "the uploaded file is empty")
    if data.startswith(b"\xff\xd8\xff"):
        return JPEG
    if data.startswith(_PNG_MAGIC):
        return PNG
    if len(data) >= 12 and data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return WEBP
    raise InputError("not_an_image", "the uploaded file is not a JPEG, PNG or WebP image")


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    """Width and height from the first start-of-frame segment (EXIF thumbnails are skipped)."""
    i, n = 2, len(data)
    while i + 4 <= n:
        if data[i] != 0xFF:
            return None
        marker = data[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        if marker in (0x01, 0xD8) or 0xD0 <= marker <= 0xD7:
            i += 2
            continue
        (length,) = struct.unpack(">H", data[i + 2 : i + 4])
        if marker in _JPEG_SOF:
            if i + 9 > n:
                return None
            height, width = struct.unpack(">HH", data[i + 5 : i + 9])
            return width, height
        if marker in (0xDA, 0xD9) or length < 2:
            return None
        i += 2 + length
    return None


def _png_size(data: bytes) -> tuple[int, int] | None:
    if len(data) < 24 or data[12:16] != b"IHDR":
        return None
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def _webp_size(data: bytes) -> tuple[int, int] | None:
    chunk = data[12:16]
    if chunk == b"VP8X" and len(data) >= 30:
        width = 1 + int.from_bytes(data[24:27], "little")
        height = 1 + int.from_bytes(data[27:30], "little")
        return width, height
    if chunk == b"VP8L" and len(data) >= 25 and data[20] == 0x2F:
        bits = int.from_bytes(data[21:25], "little")
        return 1 + (bits & 0x3FFF), 1 + ((bits >> 14) & 0x3FFF)
    if chunk == b"VP8 " and len(data) >= 30:
        width, height = struct.unpack("<HH", data[26:30])
        return width & 0x3FFF, height & 0x3FFF
    return None


def _looks_complete(data: bytes, kind: str) -> bool:
    """False when the file's end is missing (a cut-off download or upload)."""
    if kind == JPEG:
        last_scan = data.rfind(b"\xff\xda")
        return last_scan >= 0 and data.find(b"\xff\xd9", last_scan) >= 0
    if kind == PNG:
        return _PNG_IEND in data[-4096:]
    if kind == WEBP:
        (riff_size,) = struct.unpack("<I", data[4:8])
        return len(data) >= 8 + riff_size
    return True


def check_image(data: bytes, max_pixels: int) -> ImageInfo:
    """Type by magic bytes, size by header, completeness; InputError on any failure.

    Codes: ``not_an_image``, ``image_too_large`` (over ``max_pixels``), ``truncated_image``.
    """
    kind = sniff_kind(data)
    size = {JPEG: _jpeg_size, PNG: _png_size, WEBP: _webp_size}[kind](data)
    if size is not None:
        width, height = size
        if width <= 0 or height <= 0:
            raise InputError("not_an_image", f"the {kind.upper()} header gives no image size")
        if width * height > max_pixels:
            raise InputError(
                "image_too_large",
                f"the photo is {width}×{height} = {width * height / 1e6:.0f} megapixels; "
                f"the limit is {max_pixels / 1e6:.0f}",
            )
    if not _looks_complete(data, kind):
        raise InputError("truncated_image", f"the {kind.upper()} file is cut off (truncated)")
    return ImageInfo(kind, *(size or (None, None)))

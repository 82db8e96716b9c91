"""Photo bytes → BGR image, refusing what is not a whole, sane-sized JPEG/PNG/WebP.

:func:`check` is the one place that says which files are photos: ``sanma recognize`` (through
:func:`decode`) and the HTTP uploads (``api.uploads``) both use it, so they accept the same
files. The type is sniffed from the magic bytes, never from a name. Dimensions are read from the
header *before* decoding, so a "decompression bomb" (a tiny file that claims 100 000 × 100 000
pixels) is refused without allocating it. A JPEG without its end-of-image marker is refused as
truncated rather than decoded to a half-grey picture.

JPEGs are decoded by libjpeg-turbo through ``simplejpeg``, which, unlike OpenCV, reports the
decoder's warnings: a JPEG whose compressed image data is damaged (bad Huffman codes, a scan
cut short by a marker, or kilobytes left over once every block is decoded) decodes to blocks of
noise that the detector reads as dozens of tiles, so it is refused as ``corrupt_image`` instead.
Warnings that leave the pixels whole (a bad ICC profile, a few stray bytes before the end
marker, as some phones write) are let through. Large JPEGs are decoded at 1/2 or 1/4 size
straight from the DCT, which is several times faster and still leaves tiles far larger than
the classifier's 48×64 crops. EXIF orientation is applied.
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass

import cv2
import numpy as np
import simplejpeg

from sanma_lens.engine.errors import InputError
from sanma_lens.vision.settings import SETTINGS as S

MAX_BYTES = 40 * 1024 * 1024
MAX_PIXELS = 50_000_000
MAX_SIDE = 20_000
_PNG_IEND = b"IEND\xaeB`\x82"  # the IEND chunk type and its fixed CRC
# libjpeg's messages (jerror.h) that mean the compressed image data itself is damaged. An
# unknown marker met in the scan stops libjpeg-turbo; OpenCV's decoder leaves off before it
# and would return the noise decoded up to there.
_DAMAGED = (
    "premature end of data segment",
    "bad huffman code",
    "bad arithmetic code",
    "instead of rst",
    "premature end of jpeg file",
    "unsupported marker type",
)
_EXTRANEOUS = re.compile(r"(\d+) extraneous bytes")
# More bytes than this left over after the last block: the scan is not the image it claims to
# be. Cameras that write stray bytes before the end marker write a handful.
MAX_EXTRANEOUS = 256


@dataclass(frozen=True)
class Decoded:
    """A decoded photo: the (possibly reduced) BGR image and the original size."""

    image: np.ndarray
    original_size: tuple[int, int]  # (w, h) as stored in the file, after EXIF rotation

    @property
    def scale(self) -> float:
        """image pixels per original pixel."""
        return self.image.shape[1] / self.original_size[0]


def sniff(data: bytes) -> str:
    """The image type from its first bytes: jpeg, png or webp; InputError otherwise."""
    if data[:3] == b"\xff\xd8\xff":
        return "jpeg"
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return "png"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    raise InputError("not_an_image", "the file is not a JPEG, PNG or WebP image")


def _jpeg_info(data: bytes) -> tuple[int, int, int]:
    """(width, height, EXIF orientation) from the JPEG markers, without decoding."""
    i, n = 2, len(data)
    size: tuple[int, int] | None = None
    orient = 1
    while i + 4 <= n:
        if data[i] != 0xFF:
            i += 1
            continue
        marker = data[i + 1]
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7 or marker == 0xFF:
            i += 1 if marker == 0xFF else 2
            continue
        seg = struct.unpack(">H", data[i + 2 : i + 4])[0]
        if marker == 0xE1 and data[i + 4 : i + 10] == b"Exif\x00\x00":
            orient = _exif_orientation(data[i + 10 : i + 2 + seg])
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            if i + 9 > n:
                break
            h, w = struct.unpack(">HH", data[i + 5 : i + 9])
            size = (w, h)
            break
        if marker == 0xDA:
            break
        i += 2 + seg
    if size is None:
        raise InputError("truncated_image", "the JPEG header is incomplete (no frame size)")
    return size[0], size[1], orient


def _exif_orientation(tiff: bytes) -> int:
    try:
        endian = "<" if tiff[:2] == b"II" else ">"
        off = struct.unpack(endian + "I", tiff[4:8])[0]
        count = struct.unpack(endian + "H", tiff[off : off + 2])[0]
        for k in range(count):
            e = off + 2 + 12 * k
            tag, _typ, _cnt = struct.unpack(endian + "HHI", tiff[e : e + 8])
            if tag == 0x0112:
                return int(struct.unpack(endian + "H", tiff[e + 8 : e + 10])[0])
    except (struct.error, IndexError):
        pass
    return 1


def header_size(data: bytes, kind: str) -> tuple[int, int, int]:
    """(width, height, EXIF orientation) read from the header alone."""
    try:
        if kind == "jpeg":
            return _jpeg_info(data)
        if kind == "png":
            w, h = struct.unpack(">II", data[16:24])
            return w, h, 1
        chunk = data[12:16]
        if chunk == b"VP8X":
            w = int.from_bytes(data[24:27], "little") + 1
            h = int.from_bytes(data[27:30], "little") + 1
            return w, h, 1
        if chunk == b"VP8 ":
            w, h = struct.unpack("<HH", data[26:30])
            return w & 0x3FFF, h & 0x3FFF, 1
        if chunk == b"VP8L":
            b = int.from_bytes(data[21:25], "little")
            return (b & 0x3FFF) + 1, ((b >> 14) & 0x3FFF) + 1, 1
    except struct.error as exc:
        raise InputError("truncated_image", "the image header is incomplete") from exc
    raise InputError("not_an_image", "unsupported WebP variant")


def _looks_complete(data: bytes, kind: str) -> bool:
    """False when the file's end is missing (a cut-off download or upload). A JPEG needs an
    end-of-image marker after its last scan, wherever that is: phones append data after it
    (Samsung trailers, motion-photo videos), so it need not be near the end of the file."""
    if kind == "jpeg":
        last_scan = data.rfind(b"\xff\xda")  # scan data stuffs every 0xFF, so this is a marker
        return last_scan >= 0 and data.find(b"\xff\xd9", last_scan) >= 0
    if kind == "png":
        return _PNG_IEND in data[-4096:]
    (riff_size,) = struct.unpack("<I", data[4:8])  # webp: the RIFF container's own length
    return len(data) >= 8 + riff_size


def check(data: bytes, max_pixels: int = MAX_PIXELS) -> tuple[str, int, int, int]:
    """Validate bytes before decoding: type, completeness, size. Returns (kind, w, h, orient)."""
    if not data:
        raise InputError("empty_image", "the image is empty")
    if len(data) > MAX_BYTES:
        raise InputError("image_too_large", f"the file is over {MAX_BYTES // 2**20} MB")
    kind = sniff(data)
    if not _looks_complete(data, kind):
        raise InputError("truncated_image", f"the {kind.upper()} file is cut off (truncated)")
    w, h, orient = header_size(data, kind)
    if w <= 0 or h <= 0:
        raise InputError("not_an_image", "the image has no pixels")
    if w * h > max_pixels or max(w, h) > MAX_SIDE:
        raise InputError(
            "image_too_large", f"{w}×{h} is over the limit of {max_pixels / 10**6:g} megapixels"
        )
    return kind, w, h, orient


_REDUCED = {
    1: cv2.IMREAD_COLOR | cv2.IMREAD_IGNORE_ORIENTATION,
    2: cv2.IMREAD_REDUCED_COLOR_2 | cv2.IMREAD_IGNORE_ORIENTATION,
    4: cv2.IMREAD_REDUCED_COLOR_4 | cv2.IMREAD_IGNORE_ORIENTATION,
}
_ROTATE = {3: cv2.ROTATE_180, 6: cv2.ROTATE_90_CLOCKWISE, 8: cv2.ROTATE_90_COUNTERCLOCKWISE}


def decode(data: bytes, work_side: int = S.work_side) -> Decoded:
    """Check and decode photo bytes (see module doc); InputError for anything unreadable."""
    kind, w, h, orient = check(data)
    if kind == "jpeg":
        long_side = max(w, h)
        factor = 4 if long_side >= work_side * 4 else 2 if long_side >= work_side * 2 else 1
        img = _decode_jpeg(data, w, h, factor)
    else:
        img = cv2.imdecode(np.frombuffer(data, np.uint8), _REDUCED[1])
    if img is None:
        raise InputError("not_an_image", f"the {kind.upper()} data could not be decoded")
    if orient in _ROTATE:
        img = cv2.rotate(img, _ROTATE[orient])
        if orient in (6, 8):
            w, h = h, w
    return Decoded(np.ascontiguousarray(img), (w, h))


def is_damaged(warning: str) -> bool:
    """Whether a libjpeg warning says the compressed image data is damaged (see module doc)."""
    text = warning.lower()
    extra = _EXTRANEOUS.search(text)
    if extra is not None:
        return int(extra.group(1)) > MAX_EXTRANEOUS
    return any(kind in text for kind in _DAMAGED)


def _decode_jpeg(data: bytes, w: int, h: int, factor: int) -> np.ndarray | None:
    """The JPEG as BGR at 1/``factor`` size (``w``×``h`` as stored in the file), or None when
    it cannot be read; InputError ``corrupt_image`` when its image data is damaged."""
    try:
        return simplejpeg.decode_jpeg(
            data,
            colorspace="BGR",
            strict=True,
            min_width=-(-w // factor),
            min_height=-(-h // factor),
        )
    except ValueError as exc:
        if is_damaged(str(exc)):
            raise InputError(
                "corrupt_image", "the JPEG's image data is damaged: take or choose the photo again"
            ) from None
    # A warning that leaves the pixels whole, or what libjpeg-turbo's direct path does not
    # convert (a CMYK JPEG): OpenCV decodes it leniently, to the same pixels.
    return cv2.imdecode(np.frombuffer(data, np.uint8), _REDUCED[factor])

"""Cheap checks on an uploaded photo before it is decoded.

They are the vision decoder's own (:func:`vision.decode.check`), so the HTTP API takes exactly
the photos ``sanma recognize`` reads: JPEG, PNG or WebP by their first bytes (never the file's
name or the client's content type), a size in pixels read from the header (a 100-megapixel
image is refused without allocating it) and a file whose end is not missing. Done here, before
the photo queues for recognition, they answer early and cheaply.
"""

from __future__ import annotations

from dataclasses import dataclass

from sanma_lens.vision.decode import check

JPEG = "jpeg"
PNG = "png"
WEBP = "webp"


@dataclass(frozen=True)
class ImageInfo:
    """What the header says: the format and the size in pixels."""

    kind: str
    width: int
    height: int


def check_image(data: bytes, max_pixels: int) -> ImageInfo:
    """Type by magic bytes, completeness, size by header; InputError on any failure.

    Codes: ``empty_image``, ``not_an_image``, ``image_too_large`` (over ``max_pixels``),
    ``truncated_image``.
    """
    kind, width, height, _orientation = check(data, max_pixels)
    return ImageInfo(kind, width, height)

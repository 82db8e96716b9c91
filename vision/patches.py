"""Pieces of a photo that the sift stage's checks and the small networks look at.

- :func:`shrunk_patch`: a box's pixels, clipped to the image and shrunk so that measuring
  them stays cheap (the face check, the blank check);
- :func:`as_input`: square crops as the small yes-or-no networks read them (the stacked-tile
  network, the tile check).
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np


def shrunk_patch(
    image: np.ndarray, box: tuple[float, float, float, float], side: int
) -> np.ndarray | None:
    """The pixels of ``box`` (image px; widened to whole pixels, clipped to the image), shrunk
    by area to at most ``side`` pixels a side; None when under 2 pixels either way."""
    h, w = image.shape[:2]
    x1, y1, x2, y2 = box
    a, b = max(0, int(x1)), min(w, int(np.ceil(x2)))
    c, d = max(0, int(y1)), min(h, int(np.ceil(y2)))
    if b - a < 2 or d - c < 2:
        return None
    patch = image[c:d, a:b]
    f = side / max(b - a, d - c)
    if f < 1.0:
        patch = cv2.resize(
            patch,
            (max(2, round((b - a) * f)), max(2, round((d - c) * f))),
            interpolation=cv2.INTER_AREA,
        )
    return patch


def as_input(crops: Sequence[np.ndarray]) -> np.ndarray:
    """BGR uint8 square crops → a small network's N×3×S×S float input (centred on 0)."""
    x = np.stack(crops).astype(np.float32) / 255.0 - 0.5
    return np.ascontiguousarray(x.transpose(0, 3, 1, 2))

"""Tile check (the sift stage's step after the face check): is a report a tile at all?

The classifier names a crop among 38 kinds and ``none``; on real tables it still takes some
things for tiles (an automatic table's LED point display read as 0s/1m/0p, a chip or felt read
as a back, a laptop key read as an honour). ``tile_check.onnx`` in the models folder (trained
by ``datasets/train_tile_check.py``; its card is models/tile_check.md) is a
much smaller network with one question only: tile (face up or face down, any kind, any back
colour, cut by the photo's edge or not) or not a tile. It reads a square cut around the
report's box with ``MARGIN`` of the box's long side on every side (the tile's outline against
the table is half of what tells a tile), shrunk to ``SIZE`` × ``SIZE``.

A face-up report it gives less than ``tile_check_below`` tile probability is set aside with the
hits read as no tile (its reading kept as the first alternative, as the face check does); the
check never changes a tile's reading. A report the classifier read at least
``tile_check_unsure`` is set aside so only on a photo the network is at home in: one whose
surest reports (read at least ``tile_check_surest``) it calls tiles, their median tile
probability at least ``tile_check_trust``; on such a photo any face-up report is held to
the higher bar ``tile_check_trusted_below``. On some real close-ups
(hk valid's close-up series, large tiles, the photo cut tight around them) it gives nearly
every tile a tile probability near 0 (0.0006 at p 0.91), while a laptop key or a coin read
surely as a tile sits among faces it calls tiles. Reports read as backs are not asked: asked
too, the first network (2026-11-28) set aside 3 of 466 coloured backs on the benchmark's
renders and caught none of the chips read as backs. It runs only when the models folder holds
the network and the ``tile_check`` setting is on.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import cv2
import numpy as np

from sanma_lens.vision.faces import set_aside
from sanma_lens.vision.patches import as_input
from sanma_lens.vision.settings import Settings

if TYPE_CHECKING:
    from sanma_lens.vision.pipeline import Detections
    from sanma_lens.vision.types import TileDetection

TILE_CHECK_MODEL = "tile_check.onnx"
SIZE = 32  # the crop's side, pixels
MARGIN = 0.15  # share of the box's long side cut around it on every side


def cut_square(image: np.ndarray, box: Sequence[float], scale: float = 1.0) -> np.ndarray:
    """A square around the box (photo pixels × ``scale``), its side the box's long side plus
    ``MARGIN`` of it on each side, resized to SIZE × SIZE BGR (edges beyond the image repeat
    its border). The square keeps the box's shape: a tile's outline is part of the answer."""
    x1, y1, x2, y2 = (float(v) * scale for v in box)
    n = max(2, round(max(x2 - x1, y2 - y1, 1.0) * (1 + 2 * MARGIN)))
    x0, y0 = round((x1 + x2 - n) / 2), round((y1 + y2 - n) / 2)
    h, w = image.shape[:2]
    patch = image[max(0, y0) : min(h, y0 + n), max(0, x0) : min(w, x0 + n)]
    if patch.size == 0:  # wholly outside the image: nothing of a tile to see
        return np.zeros((SIZE, SIZE, 3), np.uint8)
    pads = (max(0, -y0), max(0, y0 + n - h), max(0, -x0), max(0, x0 + n - w))
    if any(pads):
        patch = cv2.copyMakeBorder(patch, *pads, cv2.BORDER_REPLICATE)
    # shrinking averages (thin strokes and LED segments must not alias away)
    return cv2.resize(
        patch, (SIZE, SIZE), interpolation=cv2.INTER_AREA if n > SIZE else cv2.INTER_LINEAR
    )


class TileCheck:
    """The tile-or-not network in an onnxruntime session; one batched call per photo."""

    def __init__(self, session: object) -> None:
        self.session = session
        self._input = session.get_inputs()[0].name  # type: ignore[attr-defined]

    def probabilities(
        self, image: np.ndarray, boxes: Sequence[Sequence[float]], scale: float = 1.0
    ) -> np.ndarray:
        """How likely each box (photo pixels; the image is ``scale`` × the photo) is a tile."""
        if not boxes:
            return np.zeros(0, np.float32)
        x = as_input([cut_square(image, b, scale) for b in boxes])
        (p,) = self.session.run(None, {self._input: x})  # type: ignore[attr-defined]
        return np.asarray(p, np.float32).reshape(-1)


def set_aside_non_tiles(
    found: Detections, image: np.ndarray, check: TileCheck | None, s: Settings
) -> Detections:
    """**tile check**: the face-up reports of ``found`` the network calls no tile, moved from
    ``tiles`` to ``no_tiles`` (read ``none``, their readings kept as alternatives); nothing
    without the network or with ``tile_check`` off. Reports read as backs are not asked; a
    report read at least ``tile_check_unsure`` is set aside only on a photo the network is at
    home in (:func:`trusted`, module notes), where the bar is ``tile_check_trusted_below``."""
    faces = [t for t in found.tiles if not t.face_down]
    if check is None or not s.tile_check or not faces:
        return found
    p = check.probabilities(image, [t.box for t in faces], found.scale)
    at_home = trusted(faces, p, s)
    bad = {
        id(t)
        for t, q in zip(faces, p, strict=True)
        if q
        < (
            s.tile_check_trusted_below
            if at_home
            else s.tile_check_below
            if t.confidence < s.tile_check_unsure
            else 0.0
        )
    }
    return set_aside(found, bad)


def trusted(faces: Sequence[TileDetection], p: np.ndarray, s: Settings) -> bool:
    """The network calls this photo's surest reports tiles: their median tile probability is
    at least ``tile_check_trust`` (a photo without such reports is not trusted)."""
    surest = [q for t, q in zip(faces, p, strict=True) if t.confidence >= s.tile_check_surest]
    return bool(surest) and float(np.median(surest)) >= s.tile_check_trust

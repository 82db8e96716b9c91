"""A tile at any angle: its own axes, found from its white face, and a crop cut along them.

The detector's boxes and the classifier's crops follow the image's axes. A tile lying askew
(scattered on the table, a hand held at a slant) fills such a crop only in part, turned, with
the table and its neighbours' corners around it, and is read worse. :func:`face_rect` finds
the tile's face inside its box: the bright region at the box's centre, its smallest rotated
rectangle (``cv2.minAreaRect``); :func:`cut_along` cuts the crop along that rectangle's axes,
upright (long side vertical), as the classifier was trained to read. The look
:func:`askew_edits` proposes the tiles read again so, where the new reading is surer.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import cv2
import numpy as np

from sanma_lens.vision.classify import CLASSES, CROP_H, CROP_W, MARGIN, NOT_TILES
from sanma_lens.vision.decoder import Edit, Goal, Hypothesis, saying
from sanma_lens.vision.settings import SETTINGS as S
from sanma_lens.vision.types import Box

# a face's rotated rectangle: centre (x, y), size (w, h), angle (degrees), as cv2.minAreaRect
Rect = tuple[tuple[float, float], tuple[float, float], float]
# the classifier's class probabilities of crops cut by the caller (48×64 BGR)
CropReader = Callable[[list[np.ndarray]], np.ndarray]


def off_square(angle: float) -> float:
    """How far (degrees, 0–45) an angle lies from the nearest quarter turn.

    >>> off_square(30.0), off_square(-80.0), off_square(90.0)
    (30.0, 10.0, 0.0)
    """
    a = angle % 90.0
    return min(a, 90.0 - a)


def face_rect(image: np.ndarray, box: Box, scale: float = 1.0) -> Rect | None:
    """The rotated rectangle (image pixels) of the tile face at the centre of ``box`` (photo
    pixels × ``scale``): the outline of the bright part of the box (Otsu's threshold on its
    grey levels) around the box's centre, as ``cv2.minAreaRect`` gives it; None when there is
    no such part or its shape is no tile's (its sides' ratio outside ``axes_aspect``, or its
    hull covers less than ``axes_fill`` of the box)."""
    x1, y1, x2, y2 = (float(v) * scale for v in box)
    ih, iw = image.shape[:2]
    ix1, iy1 = max(int(np.floor(x1)), 0), max(int(np.floor(y1)), 0)
    ix2, iy2 = min(int(np.ceil(x2)), iw), min(int(np.ceil(y2)), ih)
    if ix2 - ix1 < 8 or iy2 - iy1 < 8:
        return None
    roi = image[iy1:iy2, ix1:ix2]
    grey = cv2.cvtColor(roi, cv2.COLOR_BGR2GRAY) if roi.ndim == 3 else roi
    _, bright = cv2.threshold(grey, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    # the outline of the bright part around the box's centre: the face's dark symbol is a
    # hole in it and does not count
    outlines, _ = cv2.findContours(bright, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    centre = (bright.shape[1] / 2.0, bright.shape[0] / 2.0)
    around = [c for c in outlines if cv2.pointPolygonTest(c, centre, False) >= 0]
    if not around:
        return None
    face = cv2.convexHull(max(around, key=cv2.contourArea))
    if cv2.contourArea(face) < S.axes_fill * bright.size:
        return None
    points = (face.reshape(-1, 2) + np.array([ix1, iy1])).astype(np.float32)
    (rx, ry), (rw, rh), ang = cv2.minAreaRect(points)
    if min(rw, rh) < 4:
        return None
    ratio = max(rw, rh) / min(rw, rh)
    lo, hi = S.axes_aspect
    if not lo <= ratio <= hi:
        return None
    return (float(rx), float(ry)), (float(rw), float(rh)), float(ang)


def cut_along(image: np.ndarray, rect: Rect, margin: float = MARGIN) -> np.ndarray:
    """The face ``rect`` (image pixels) cut along its own axes with ``margin`` × its size
    around it, its long side vertical, resized to the classifier's 48×64 BGR (which way up
    is left to the classifier, which reads a tile and the tile upside down alike)."""
    (cx, cy), (w, h), ang = rect
    if w > h:  # turn a quarter more, so that the long side stands
        w, h, ang = h, w, ang + 90.0
    turn = cv2.getRotationMatrix2D((cx, cy), ang, 1.0)
    upright = cv2.warpAffine(
        image,
        turn,
        (image.shape[1], image.shape[0]),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )
    size = (max(int(round(w * (1 + 2 * margin))), 2), max(int(round(h * (1 + 2 * margin))), 2))
    crop = cv2.getRectSubPix(upright, size, (cx, cy))
    return cv2.resize(crop, (CROP_W, CROP_H), interpolation=cv2.INTER_AREA)


def askew_edits(
    now: Hypothesis,
    image: np.ndarray,
    scale: float,
    read: CropReader,
    asked: dict[Box, tuple[str, float] | None],
) -> list[Edit]:
    """The tiles of ``now`` lying askew (their face at least ``axes_min_turn`` off a quarter
    turn) read again along their own axes: one edit re-reading every one whose new reading,
    a riichi tile or a back, is surer than the old by ``axes_gain``, with that probability
    as its confidence (its old reading joins the alternatives). ``asked`` keeps each box's
    new reading (None: not askew, or no face found), so that a box is cut and read once."""
    new = [t for t in now.tiles if t.box not in asked]
    cuts: list[tuple[Box, np.ndarray]] = []
    for t in new:
        rect = face_rect(image, t.box, scale)
        if rect is None or off_square(rect[2]) < S.axes_min_turn:
            asked[t.box] = None
        else:
            cuts.append((t.box, cut_along(image, rect)))
    if cuts:
        probs = read([crop for _, crop in cuts])
        for (box, _), p in zip(cuts, probs, strict=True):
            k = int(np.argmax(p))
            asked[box] = (CLASSES[k], float(p[k]))
    tiles, placed, gain = [], [], 0.0
    for t in now.tiles:
        again = asked.get(t.box)
        if (
            again is not None
            and again[0] != t.tile
            and again[0] not in NOT_TILES
            and again[1] >= t.confidence + S.axes_gain
        ):
            better = replace(
                t,
                tile=again[0],
                confidence=round(again[1], 4),
                alternatives=((t.tile, round(t.confidence, 4)),),
            )
            tiles.append(better)
            placed.append(better)
            gain += again[1] - t.confidence
        else:
            tiles.append(t)
    if not placed:
        return []
    return [
        Edit("askew", Goal.REREAD, tuple(tiles), tuple(placed), saying(), gain, new_melds=False)
    ]

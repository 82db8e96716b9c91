"""Blank check (the sift stage's step after the face check): a blank face is the white dragon
(白 haku, ``5z``) or the back of a face-down tile, told apart by its colour.

Neither shows a symbol, so the classifier, which sees shapes more than colours, mistakes one
for the other on sets whose backs it has seldom seen (yellow, purple, orange, …), a called haku
lying sideways included. A back has the colour of the set's other backs; a haku's face does not,
and lies nearer the colour of the set's faces (white or ivory, or dark on a dark-faced set). So
each report read as either is measured for its colour (the commonest colour of the middle of
its box, in CIELAB) against the colour of the photo's surely read backs (at least
``blank_sure_back``) and that of its surely read faces with a symbol (``blank_sure_face``):

- read ``5z`` but of the backs' colour (within ``blank_near``), and nearer it than the faces':
  read ``back``;
- read ``back`` with ``5z`` among its next readings (``blank_alt``), far from the backs' colour
  (``blank_far``) and nearer the faces': read ``5z``. A black-faced haku on a set with
  orange backs may be read back with 5z only a little likely: a colour at most
  ``blank_nearer`` × as far from the faces' as from the backs' needs 5z only ``blank_alt_weak``
  likely.

The reading's probability is kept as its confidence, the old reading first among its
alternatives. A photo with no sure back, or fewer than ``blank_min_faces`` sure faces, is not
checked: the colours to tell them by are not known.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import cv2
import numpy as np

from sanma_lens.vision.patches import shrunk_patch
from sanma_lens.vision.settings import Settings
from sanma_lens.vision.types import TileDetection

if TYPE_CHECKING:
    from sanma_lens.vision.pipeline import Detections

HAKU = "5z"
BACK = "back"
SAMPLE_SIDE = 24  # each box's middle is measured shrunk to at most this many pixels a side
MIDDLE = 0.25  # the middle of a box: this share of its sides cut off each way
BIN = 24  # a box's colour: its commonest colour in bins this wide (8-bit CIELAB channels)


def box_colours(image: np.ndarray, boxes: list[tuple[float, float, float, float]]) -> np.ndarray:
    """The commonest CIELAB colour (OpenCV's 8-bit scale: L, a, b in 0–255) of the middle of
    each box (image px) of a BGR image (:func:`_dominant`); NaN for a box too small to
    measure."""
    out = np.full((len(boxes), 3), np.nan)
    for k, (x1, y1, x2, y2) in enumerate(boxes):
        dx, dy = (x2 - x1) * MIDDLE, (y2 - y1) * MIDDLE
        crop = shrunk_patch(image, (x1 + dx, y1 + dy, x2 - dx, y2 - dy), SAMPLE_SIDE)
        if crop is None:
            continue
        lab = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB).reshape(-1, 3)
        out[k] = _dominant(lab)
    return out


def _dominant(lab: np.ndarray) -> np.ndarray:
    """The mean of the pixels in the commonest coarse colour bin (``BIN`` levels a channel):
    a face's ground rather than its symbol, whichever colours the symbol has."""
    bins = (lab // BIN).astype(np.int64)
    ids = (bins[:, 0] * 256 + bins[:, 1]) * 256 + bins[:, 2]
    values, counts = np.unique(ids, return_counts=True)
    return lab[ids == values[np.argmax(counts)]].astype(np.float64).mean(axis=0)


def _reference(colours: np.ndarray) -> np.ndarray | None:
    """The median of the measured colours, or None when none was measured."""
    ok = colours[~np.isnan(colours).any(axis=1)]
    return np.median(ok, axis=0) if len(ok) else None


def _distance(c: np.ndarray, ref: np.ndarray | None) -> float:
    """CIELAB distance (8-bit scale) of ``c`` from ``ref``; NaN when either is unknown."""
    if ref is None or np.isnan(c).any():
        return float("nan")
    return float(np.linalg.norm(c - ref))


def blank_readings(
    tiles: tuple[TileDetection, ...], image: np.ndarray, scale: float, s: Settings
) -> tuple[TileDetection, ...]:
    """``tiles`` with each blank report (read ``5z`` or ``back``) read again by its colour, as
    the module says; the others as they were."""
    blanks = [k for k, t in enumerate(tiles) if t.tile in (HAKU, BACK)]
    if not blanks:
        return tiles
    faces = [
        k
        for k, t in enumerate(tiles)
        if t.tile not in (HAKU, BACK) and t.confidence >= s.blank_sure_face
    ]
    if len(faces) < s.blank_min_faces:
        return tiles
    backs = [
        k for k in blanks if tiles[k].tile == BACK and tiles[k].confidence >= s.blank_sure_back
    ]
    if not backs:
        return tiles
    measured = sorted(set(faces) | set(blanks))
    boxes = [tuple(v * scale for v in tiles[k].box) for k in measured]
    colour = dict(zip(measured, box_colours(image, boxes), strict=True))  # type: ignore[arg-type]
    face_ref = _reference(np.array([colour[k] for k in faces]))
    back_ref = _reference(np.array([colour[k] for k in backs]))
    out = list(tiles)
    for k in blanks:
        t = tiles[k]
        to_face, to_back = _distance(colour[k], face_ref), _distance(colour[k], back_ref)
        if t.tile == HAKU and to_back <= s.blank_near and not to_face <= to_back:
            out[k] = _read_as(t, BACK)
        elif t.tile == BACK and to_back >= s.blank_far and to_face < to_back:
            # the clearer the colour says face, the less the classifier need say haku
            least = s.blank_alt_weak if to_face <= s.blank_nearer * to_back else s.blank_alt
            if any(a == HAKU and p >= least for a, p in t.alternatives):
                out[k] = _read_as(t, HAKU)
    return tuple(out)


def _read_as(t: TileDetection, tile: str) -> TileDetection:
    """``t`` read as ``tile``, its old reading first among its alternatives."""
    rest = tuple((a, p) for a, p in t.alternatives if a != tile)
    return replace(t, tile=tile, alternatives=((t.tile, t.confidence), *rest))


def read_blanks_by_colour(found: Detections, image: np.ndarray, s: Settings) -> Detections:
    """**blank check**: the reports of ``found`` read as haku or back, read again by colour
    (:func:`blank_readings`); nothing with ``blank_check`` off."""
    if not s.blank_check:
        return found
    return replace(found, tiles=blank_readings(found.tiles, image, found.scale, s))

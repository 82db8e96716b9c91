"""Face check (the sift stage's last step): a report read as a face-up tile whose box shows too
little tile face is no tile, and is set aside with the other hits read as no tile.

A tile's face is a large ivory or white area. The things on a real table that the detector and
the classifier take for tiles are not: an automatic table's LED point display is dark with
bright saturated segments, a chip or a coin is coloured or metallic, a phone is dark glass.
So each face-up report's box is measured for its *face-coloured* share: pixels bright (relative
to the photo's own brightest tile faces, so that dim or warm light does not matter) and of low
saturation. A report with less than ``face_min_share`` of its box face-coloured is set aside.

Backs are never checked (a back is coloured by design and must stay), and neither is a photo
with too few face-up reports to tell its face colour from (``face_min_tiles``): the check acts
only on the colour evidence of the photo itself, never on a tile's place.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import cv2
import numpy as np

from sanma_lens.vision.patches import shrunk_patch
from sanma_lens.vision.settings import Settings

if TYPE_CHECKING:
    from sanma_lens.vision.pipeline import Detections

SAMPLE_SIDE = 32  # each box is measured shrunk to at most this many pixels a side (cheap)


def face_shares(
    image: np.ndarray, boxes: list[tuple[float, float, float, float]], s: Settings
) -> np.ndarray:
    """The face-coloured share of each box (image px) of a BGR image: pixels at least
    ``face_bright`` × the photo's face brightness and at most ``face_max_sat`` saturated. The
    face brightness is the ``face_ref_quantile`` of the boxes' own bright levels (each box's
    ``face_box_quantile`` of brightness), so the brightest faces of the photo set the scale."""
    if not boxes:
        return np.zeros(0)
    values: list[np.ndarray] = []
    sats: list[np.ndarray] = []
    for box in boxes:
        crop = shrunk_patch(image, box, SAMPLE_SIDE)
        if crop is None:
            values.append(np.zeros(1, np.float32))
            sats.append(np.ones(1, np.float32))
            continue
        hsv = cv2.cvtColor(crop, cv2.COLOR_BGR2HSV)
        values.append(hsv[..., 2].ravel().astype(np.float32) / 255.0)
        sats.append(hsv[..., 1].ravel().astype(np.float32) / 255.0)
    levels = np.array([np.quantile(v, s.face_box_quantile) for v in values])
    ref = max(float(np.quantile(levels, s.face_ref_quantile)), 1e-3)
    return np.array(
        [
            float(np.mean((v >= s.face_bright * ref) & (q <= s.face_max_sat)))
            for v, q in zip(values, sats, strict=True)
        ]
    )


def set_aside_non_faces(found: Detections, image: np.ndarray, s: Settings) -> Detections:
    """**face check**: the face-up reports of ``found`` whose boxes show less than
    ``face_min_share`` tile face, moved from ``tiles`` to ``no_tiles`` (read ``none``, their
    readings kept as alternatives); nothing with ``face_check`` off or on a photo with fewer
    than ``face_min_tiles`` face-up reports."""
    faces = [t for t in found.tiles if not t.face_down]
    if not s.face_check or len(faces) < s.face_min_tiles:
        return found
    k = found.scale  # boxes are photo px, the image is scaled
    boxes = [(x1 * k, y1 * k, x2 * k, y2 * k) for x1, y1, x2, y2 in (t.box for t in faces)]
    shares = face_shares(image, boxes, s)
    bad = {id(t) for t, share in zip(faces, shares, strict=True) if share < s.face_min_share}
    return set_aside(found, bad)


def set_aside(found: Detections, bad: set[int]) -> Detections:
    """``found`` with the reports whose ``id`` is in ``bad`` moved from ``tiles`` to
    ``no_tiles``, read ``none`` with their readings kept as alternatives (the sift stage's
    checks set aside what they find no tile in this way)."""
    if not bad:
        return found
    kept = tuple(t for t in found.tiles if id(t) not in bad)
    aside = tuple(
        replace(t, tile="none", alternatives=((t.tile, t.confidence), *t.alternatives))
        for t in found.tiles
        if id(t) in bad
    )
    return replace(found, tiles=kept, no_tiles=found.no_tiles + aside)

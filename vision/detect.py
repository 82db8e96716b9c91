"""Find tiles: a small fully-convolutional CenterNet-style net, NMS-free peak picking.

The net sees the photo shrunk so its long side is ``detect_side`` pixels (padded to a multiple
of 32) and gives, at stride 4, six maps: tile-centre heat (logit), the centre's sub-cell offset
(x, y), log box size (w, h; ``exp(v) * SIZE_UNIT`` pixels) and a sideways logit (a tile lying
turned 90°: a called tile). A detector with a seventh map also gives a stacked logit: the tile
lies on another or under one (a kakan's added tile on its called one, which the heat shows as
one peak; datasets/train_stack.py). A tile is a local maximum of the heat above a threshold.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from sanma_lens.vision.settings import SETTINGS as S

STRIDE = 4
SIZE_UNIT = 16.0
OUT_CHANNELS = 6
STACKED_CHANNEL = 6  # present only in a detector trained with the stacked branch


@dataclass(frozen=True)
class RawBox:
    """A detector hit in photo pixels, before classification."""

    box: tuple[float, float, float, float]
    score: float
    sideways_prob: float
    stacked_prob: float = 0.0  # 0 from a detector without the stacked map


def prepare(image: np.ndarray, side: int = S.detect_side) -> tuple[np.ndarray, float]:
    """BGR photo → 1×3×H×W float32 RGB input (H, W multiples of 32) and the scale used."""
    h, w = image.shape[:2]
    scale = side / max(h, w)
    nw, nh = max(1, round(w * scale)), max(1, round(h * scale))
    interp = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    small = cv2.resize(image, (nw, nh), interpolation=interp)
    ph, pw = -(-nh // 32) * 32, -(-nw // 32) * 32
    canvas = np.full((ph, pw, 3), 114, np.uint8)
    canvas[:nh, :nw] = small
    x = canvas[..., ::-1].astype(np.float32) * (1.0 / 255.0)
    return np.ascontiguousarray(x.transpose(2, 0, 1)[None]), scale


def squash(image: np.ndarray, fx: float, fy: float) -> np.ndarray:
    """The image resized by ``fx`` across and ``fy`` down (area averaging)."""
    h, w = image.shape[:2]
    size = (max(1, round(w * fx)), max(1, round(h * fy)))
    return cv2.resize(image, size, interpolation=cv2.INTER_AREA)


def unsquash(
    box: tuple[float, float, float, float], fx: float, fy: float
) -> tuple[float, float, float, float]:
    """A box found in ``squash(image, fx, fy)`` in the unsquashed image's pixels."""
    return (box[0] / fx, box[1] / fy, box[2] / fx, box[3] / fy)


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


def decode(out: np.ndarray, scale: float, threshold: float = S.heat_threshold) -> list[RawBox]:
    """Network output (1×6×h×w, or 1×7×h×w) → boxes in photo pixels (peaks of the heat map)."""
    heat = _sigmoid(out[0, 0])
    stacked = out.shape[1] > STACKED_CHANNEL
    peaks = (heat >= threshold) & (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8)))
    ys, xs = np.nonzero(peaks)
    boxes: list[RawBox] = []
    for y, x in zip(ys.tolist(), xs.tolist(), strict=True):
        cx = (x + float(out[0, 1, y, x])) * STRIDE
        cy = (y + float(out[0, 2, y, x])) * STRIDE
        bw = float(np.exp(np.clip(out[0, 3, y, x], -4, 4))) * SIZE_UNIT
        bh = float(np.exp(np.clip(out[0, 4, y, x], -4, 4))) * SIZE_UNIT
        box = (
            (cx - bw / 2) / scale,
            (cy - bh / 2) / scale,
            (cx + bw / 2) / scale,
            (cy + bh / 2) / scale,
        )
        stack = float(_sigmoid(out[0, STACKED_CHANNEL, y, x])) if stacked else 0.0
        boxes.append(RawBox(box, float(heat[y, x]), float(_sigmoid(out[0, 5, y, x])), stack))
    return suppress_overlaps(boxes)


def _intersection(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    return ix * iy


def iou(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    inter = _intersection(a, b)
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def aspect(box: tuple[float, ...]) -> float:
    """A box's width for its height (a sideways tile's is the larger)."""
    return (box[2] - box[0]) / max(box[3] - box[1], 1e-6)


def covered(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    """The share of box ``a``'s area that box ``b`` covers."""
    area = (a[2] - a[0]) * (a[3] - a[1])
    return _intersection(a, b) / area if area > 0 else 0.0


def iou_matrix(boxes: np.ndarray) -> np.ndarray:
    """:func:`iou` of every two of ``boxes`` (n×4, ``x1, y1, x2, y2``), as an n×n array."""
    inter, area = _intersections(boxes)
    union = area[:, None] + area - inter
    return np.divide(inter, union, out=np.zeros_like(inter), where=union > 0)


def covered_matrix(boxes: np.ndarray) -> np.ndarray:
    """:func:`covered` of every two of ``boxes``: entry ``[a, b]`` is the share of box ``a``'s
    area that box ``b`` covers."""
    inter, area = _intersections(boxes)
    return np.divide(inter, area[:, None], out=np.zeros_like(inter), where=area[:, None] > 0)


def _intersections(boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The n×n intersection areas of ``boxes`` and their n areas."""
    boxes = np.asarray(boxes, dtype=float).reshape(-1, 4)
    x1, y1, x2, y2 = (boxes[:, c] for c in range(4))
    iw = np.clip(np.minimum(x2[:, None], x2) - np.maximum(x1[:, None], x1), 0, None)
    ih = np.clip(np.minimum(y2[:, None], y2) - np.maximum(y1[:, None], y1), 0, None)
    return iw * ih, (x2 - x1) * (y2 - y1)


def suppress_overlaps(boxes: list[RawBox], limit: float = S.same_tile_iou) -> list[RawBox]:
    """Two peaks on one tile (rare, e.g. a long glare): keep the stronger."""
    kept: list[RawBox] = []
    for b in sorted(boxes, key=lambda r: -r.score):
        if all(iou(b.box, k.box) < limit for k in kept):
            kept.append(b)
    return kept


class TileDetector:
    """The ONNX detector; ``detect(image)`` → RawBox list in the image's pixels.

    It looks at ``side`` and, for a close-up (few tiles found, or a tile taller than a fifth
    of the picture), again at a half-size copy: that pass finds tiles too large for the
    full-size pass; its hits are added only where the full-size pass found nothing.
    """

    def __init__(
        self,
        session: object,
        side: int = S.detect_side,
        coarse_side: int | None = S.detect_side // 2,
    ) -> None:
        self.session = session
        self.side = side
        self.coarse_side = coarse_side
        self.input_name = session.get_inputs()[0].name  # type: ignore[attr-defined]

    def raw(self, image: np.ndarray, side: int | None = None) -> tuple[np.ndarray, float]:
        x, scale = prepare(image, side or self.side)
        (out,) = self.session.run(None, {self.input_name: x})  # type: ignore[attr-defined]
        return np.asarray(out, np.float32), scale

    def detect(
        self, image: np.ndarray, threshold: float = S.heat_threshold, weak: float | None = None
    ) -> list[RawBox]:
        """Hits with heat ≥ ``threshold``; with ``weak`` (< threshold) also the full-size
        pass's weaker peaks (heat ≥ ``weak``) that overlap no hit by IoU ≥ ``weak_iou``: the
        caller keeps them only when the classifier is sure (vision/pipeline.py, ``WEAK_SURE``).
        The hits above ``threshold`` are the same with or without ``weak``."""
        out, scale = self.raw(image)
        low = decode(out, scale, min(threshold, weak if weak is not None else threshold))
        found = [b for b in low if b.score >= threshold]
        big = max((f.box[3] - f.box[1] for f in found), default=0.0) * scale > self.side / 5
        if self.coarse_side and (len(found) < S.coarse_below or big):
            coarse = decode(*self.raw(image, self.coarse_side), threshold)
            found += [
                c for c in coarse if all(iou(c.box, f.box) < S.cross_scale_iou for f in found)
            ]
        weak_hits = [
            b
            for b in low
            if b.score < threshold and all(iou(b.box, f.box) < S.weak_iou for f in found)
        ]
        return found + weak_hits

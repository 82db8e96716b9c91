"""Name each found tile: colour crops, turned upright, one batched onnxruntime call.

The classifier sees a 48×64 (w×h) colour crop — colour is kept all the way so a red five
(``0p``/``0s``) and the aka-5-man (``0m``) can be told from ordinary fives. It was trained to
give the same answer for a tile and the tile turned 180°, so a sideways box only needs a quarter
turn, either way. Besides the 37 face kinds it knows ``back`` (face-down), ``flower``
(HK flower/season tiles, never a riichi tile) and ``none`` (not a tile: a false detection).
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

CROP_W, CROP_H = 48, 64
# Order is the network's output order: 1m…9m 1p…9p 1s…9s 1z…7z, red fives, back, flower, none.
CLASSES: tuple[str, ...] = (
    tuple(f"{n}{s}" for s in "mps" for n in range(1, 10))
    + tuple(f"{n}z" for n in range(1, 8))
    + ("0m", "0p", "0s", "back", "flower", "none")
)
NOT_TILES = ("flower", "none")
MARGIN = 0.04  # crops take this share of the box size around it


def crop_tile(
    image: np.ndarray, box: Sequence[float], sideways: bool, scale: float = 1.0
) -> np.ndarray:
    """The box (in photo pixels × ``scale``) cut out, turned upright, resized to 48×64 BGR."""
    x1, y1, x2, y2 = (float(v) * scale for v in box)
    mw, mh = (x2 - x1) * MARGIN, (y2 - y1) * MARGIN
    ix1, iy1 = int(np.floor(x1 - mw)), int(np.floor(y1 - mh))
    ix2, iy2 = int(np.ceil(x2 + mw)), int(np.ceil(y2 + mh))
    ih, iw = image.shape[:2]
    ix2, iy2 = max(ix2, ix1 + 2), max(iy2, iy1 + 2)
    roi = image[max(iy1, 0) : min(iy2, ih), max(ix1, 0) : min(ix2, iw)]
    pads = (max(-iy1, 0), max(iy2 - ih, 0), max(-ix1, 0), max(ix2 - iw, 0))
    if roi.size == 0:
        return np.zeros((CROP_H, CROP_W, 3), np.uint8)
    if any(pads):
        roi = cv2.copyMakeBorder(roi, *pads, cv2.BORDER_REPLICATE)
    if sideways:
        roi = cv2.rotate(roi, cv2.ROTATE_90_CLOCKWISE)
    return cv2.resize(roi, (CROP_W, CROP_H), interpolation=cv2.INTER_AREA)


def to_input(crops: Sequence[np.ndarray]) -> np.ndarray:
    """BGR uint8 crops → N×3×64×48 float32 RGB in 0…1 (the network's input)."""
    arr = np.stack(crops).astype(np.float32) * (1.0 / 255.0)
    return np.ascontiguousarray(arr[..., ::-1].transpose(0, 3, 1, 2))


def softmax(logits: np.ndarray) -> np.ndarray:
    z = logits - logits.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


class TileClassifier:
    """The ONNX classifier; ``classify(crops)`` → list of (label, probability).

    With ``turn`` (test-time augmentation) each crop is also read turned 180° — the network
    was trained to read a tile and the tile upside down alike — and the two readings'
    probabilities are averaged (one batched call, twice the crops).
    """

    def __init__(self, session: object, turn: bool = False) -> None:
        self.session = session
        self.turn = turn
        self.input_name = session.get_inputs()[0].name  # type: ignore[attr-defined]

    def probabilities(self, crops: Sequence[np.ndarray]) -> np.ndarray:
        if not crops:
            return np.zeros((0, len(CLASSES)), np.float32)
        batch = list(crops) + ([c[::-1, ::-1] for c in crops] if self.turn else [])
        (logits,) = self.session.run(None, {self.input_name: to_input(batch)})  # type: ignore[attr-defined]
        probs = softmax(np.asarray(logits, np.float32))
        if self.turn:
            n = len(crops)
            probs = 0.5 * (probs[:n] + probs[n:])
        return probs

    def classify(self, crops: Sequence[np.ndarray]) -> list[tuple[str, float]]:
        probs = self.probabilities(crops)
        idx = probs.argmax(axis=1)
        return [(CLASSES[i], float(probs[n, i])) for n, i in enumerate(idx)]

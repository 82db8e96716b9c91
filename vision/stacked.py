"""Is a called tile carrying a kakan's added tile? (加槓, §23): a small crop classifier.

A kakan's added tile may lie right on top of the called (sideways) tile. The detector then sees
one tile, and the layout reads the kakan as a pon. From any but a steep camera the pair shows
what a single tile does not: the side of the tile below, a second band of the tile's thickness
under the top tile's own side. ``models/stack_classifier.onnx`` (trained by
``datasets/train_stack_crops.py`` on rendered scenes, model card ``models/stack_classifier.md``)
reads a crop cut around a called tile's box with ``MARGIN`` of its size on every side — enough
to hold that second band and the sides of the tiles beside it, whose single thickness is the
measure to compare with — and gives the probability that another tile lies under it.

The pipeline asks only about the called tiles of the pons it read; a likely one is proposed as
a kakan (``vision.probe.kakan_edits``), which the decoder takes only when the layout then reads
that pon as its kakan and nothing else changed, with a warning to check it.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from sanma_lens.vision.patches import as_input

STACK_MODEL = "stack_classifier.onnx"
SIZE = 80  # the crop's side, pixels
# share of the box's width / height cut on each side around it: the crop holds the neighbours'
# sides too, a single tile's thickness to compare the called tile's with
MARGIN = 0.6


def cut_stack(image: np.ndarray, box: Sequence[float], scale: float = 1.0) -> np.ndarray:
    """The box (photo pixels × ``scale``) with ``MARGIN`` around it, resized to SIZE × SIZE
    BGR (edges beyond the image repeat its border). The crop is not turned: which side of the
    tile is its near side (where the second band shows) is part of what the network reads."""
    x1, y1, x2, y2 = (float(v) * scale for v in box)
    mw, mh = (x2 - x1) * MARGIN, (y2 - y1) * MARGIN
    x1, y1, x2, y2 = x1 - mw, y1 - mh, x2 + mw, y2 + mh
    sx, sy = SIZE / max(x2 - x1, 1.0), SIZE / max(y2 - y1, 1.0)
    warp = np.array([[sx, 0.0, -x1 * sx], [0.0, sy, -y1 * sy]], np.float32)
    return cv2.warpAffine(
        image, warp, (SIZE, SIZE), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )


class StackClassifier:
    """The stacked-tile network in an onnxruntime session; one batched call per photo."""

    def __init__(self, session: object) -> None:
        self.session = session
        self._input = session.get_inputs()[0].name  # type: ignore[attr-defined]

    def probabilities(
        self, image: np.ndarray, boxes: Sequence[Sequence[float]], scale: float = 1.0
    ) -> list[float]:
        """How likely each box's tile has another tile under it (0–1)."""
        if not boxes:
            return []
        x = as_input([cut_stack(image, b, scale) for b in boxes])
        (p,) = self.session.run(None, {self._input: x})  # type: ignore[attr-defined]
        return [float(v) for v in np.asarray(p).reshape(-1)]

"""A detector slip absorbed before reading: one tile read twice is kept once."""

from __future__ import annotations

import numpy as np

from vision.types import TileDetection


def _dedupe(tiles: list[TileDetection]) -> tuple[list[int], list[str]]:
    """Two upright detections on one spot are one tile read twice: keep the surer reading.

    Sideways pairs are left alone: a kakan's added tile may lie right on the called one.
    """
    boxes = np.array([t.box for t in tiles], dtype=float)
    area = np.maximum((boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1]), 1e-6)
    order = sorted(range(len(tiles)), key=lambda k: -tiles[k].confidence)
    kept: list[int] = []
    warnings: list[str] = []
    for k in order:
        clash = None
        for j in kept:
            if tiles[j].angle == 90 and tiles[k].angle == 90:
                continue
            iw = min(boxes[j, 2], boxes[k, 2]) - max(boxes[j, 0], boxes[k, 0])
            ih = min(boxes[j, 3], boxes[k, 3]) - max(boxes[j, 1], boxes[k, 1])
            inter = max(iw, 0.0) * max(ih, 0.0)
            if inter > 0.6 * (area[j] + area[k] - inter):  # IoU: one spot, not one behind
                clash = j
                break
        if clash is None:
            kept.append(k)
        elif tiles[clash].tile != tiles[k].tile:
            warnings.append(
                f"two readings on one tile: {tiles[clash].tile} "
                f"({tiles[clash].confidence:.2f}, kept) and {tiles[k].tile} "
                f"({tiles[k].confidence:.2f}): check it"
            )
    return sorted(kept), warnings

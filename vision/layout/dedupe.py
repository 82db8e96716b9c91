"""A detector slip absorbed before reading: one tile read twice is kept once."""

from __future__ import annotations

from vision.detect import iou
from vision.types import TileDetection


def _dedupe(tiles: list[TileDetection]) -> tuple[list[int], list[str]]:
    """Two upright detections on one spot are one tile read twice: keep the surer reading.

    Sideways pairs are left alone: a kakan's added tile may lie right on the called one.
    """
    order = sorted(range(len(tiles)), key=lambda k: -tiles[k].confidence)
    kept: list[int] = []
    warnings: list[str] = []
    for k in order:
        clash = None
        for j in kept:
            if tiles[j].angle == 90 and tiles[k].angle == 90:
                continue
            if iou(tiles[j].box, tiles[k].box) > 0.6:  # one spot, not one behind
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

"""A detector slip absorbed around reading: a whole photo turned by 90° is read turned
upright, and the reading that finds more of a hand is kept."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from sanma_lens.vision.types import TileDetection

if TYPE_CHECKING:
    from sanma_lens.vision.layout import Layout


def turn_tile(t: TileDetection, w: float, h: float, clockwise: int) -> TileDetection:
    """The detection in the photo turned by 90° (clockwise or not); sideways ↔ upright."""
    x1, y1, x2, y2 = t.box
    box = (h - y2, x1, h - y1, x2) if clockwise else (y1, w - x2, y2, w - x1)
    return replace(t, box=box, angle=0 if t.angle == 90 else 90)


def _plausibility(layout: Layout) -> tuple[int, int, int]:
    """How much of a hand a reading found: a 13/14-tile hand first, then more tiles placed."""
    hand = layout.hand
    units = sum(ch.isdigit() for ch in str(hand["hand"]))
    units += (hand["win"] is not None) + 3 * len(hand["melds"])  # type: ignore[arg-type]
    return (int(units in (13, 14)), units, -len(layout.warnings))

"""A photo taken from another side of the hand, absorbed around reading: a photo turned by
90° (most tiles sideways) is read turned upright both ways, and any photo is read upside down
too (taken from across the table, the hand's right end on the photo's left), and the reading
that finds more of a hand is kept."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from sanma_lens.vision.types import PLAYER_GROUPS, TileDetection

if TYPE_CHECKING:
    from sanma_lens.vision.layout import Layout


def turn_tile(t: TileDetection, w: float, h: float, clockwise: int) -> TileDetection:
    """The detection in the photo turned by 90° (clockwise or not); sideways ↔ upright."""
    x1, y1, x2, y2 = t.box
    box = (h - y2, x1, h - y1, x2) if clockwise else (y1, w - x2, y2, w - x1)
    return replace(t, box=box, angle=0 if t.angle == 90 else 90)


def turn_half(t: TileDetection, w: float, h: float) -> TileDetection:
    """The detection in the photo turned by 180°: upright stays upright."""
    x1, y1, x2, y2 = t.box
    return replace(t, box=(w - x2, h - y2, w - x1, h - y1))


def more_of_a_hand(turned: Layout, layout: Layout, upside_down: bool = False) -> bool:
    """The reading of the photo turned finds more of a hand than ``layout``: a 13/14-tile
    hand first, then more tiles placed in it, then fewer warnings. Upside down it must be as
    complete, take more of the photo's tiles into the hand and set at least two more aside,
    called tiles or kita: they lie right of the row, so read from the wrong side they lie
    left of it and are left out. Most photos are taken from the player's seat, so less is no
    sign: a tile gained as the winning tile (a stray tile beyond the row's far end reads as
    one), one lone north far from the row, the same tiles counted otherwise (a row's
    triplets next to its melds read as more melds)."""
    if not upside_down:
        return _plausibility(turned) > _plausibility(layout)
    return (
        _plausibility(turned)[0] >= _plausibility(layout)[0]
        and _placed(turned) > _placed(layout)
        and _set_aside(turned) >= _set_aside(layout) + 2
    )


def _placed(layout: Layout) -> int:
    """How many of the photo's tiles a reading took into the player's hand."""
    return sum(t.group in PLAYER_GROUPS for t in layout.tiles)


def _set_aside(layout: Layout) -> int:
    """The tiles a reading set aside as only a hand's own tiles lie: its melds' called
    (sideways) and face-down tiles, and its kita. A set of upright tiles alike is no such
    sign: the row's far end, small in a steep photo, can be read as one."""
    called = sum(t.group == "meld" and (t.angle == 90 or t.face_down) for t in layout.tiles)
    return called + int(layout.hand["kita"])  # type: ignore[call-overload]


def _plausibility(layout: Layout) -> tuple[int, int, int]:
    """How much of a hand a reading found: a 13/14-tile hand first, then more tiles placed."""
    hand = layout.hand
    units = sum(ch.isdigit() for ch in str(hand["hand"]))
    units += (hand["win"] is not None) + 3 * len(hand["melds"])  # type: ignore[arg-type]
    return (int(units in (13, 14)), units, -len(layout.warnings))

"""Split probe: one detector box over two tiles, cut in two and read again.

The detector sometimes reports one box where two tiles lie: two touching tiles of the row or
of a meld (the box longer along the row than a tile), or a kakan's added tile lying on its
called one (§23; the box taller across the row than one sideways tile). The layout then counts
one tile where there are two: the hand comes out short of its count (§1), or the kakan reads as
a pon. A box clearly bigger than the player's tiles around it (``SPLIT_SIZE``) is cut in two
along the row and across it; both halves are read by the classifier and the photo is laid out
again with the halves in the box's place. A cut is kept only when both halves read as sure
riichi tiles (``SPLIT_SURE``) and the layout comes out better: the hand nearer its count (§1)
with both halves in its concealed part and no new meld, or a pon turned into the kakan
of its kind with the rest unchanged (§23, and only for a box deep enough across the row for two,
``KAKAN_ACROSS``, with all four of the kakan's tiles boxes); never a kind held five times (§1).
Each cut kept is named in a warning (issue #4: a changed reading always carries one). Before
the cuts, two boxes on the halves of one called tile are joined (the inverse look,
``vision.join.join_halves``).

Geometry and acceptance only here; the pipeline (``vision/pipeline.py``) cuts and classifies
the crops.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from sanma_lens.vision.join import join_halves
from sanma_lens.vision.layout import Layout, reconstruct
from sanma_lens.vision.layout.notation import is_face, kind
from sanma_lens.vision.probe import Box, Reading, fifth_of_a_kind, meld_kind, pon_to_kakan, short_by
from sanma_lens.vision.types import TileDetection
from sanma_lens.vision.warning_catalogue import PhotoWarning

PLAYER = ("hand", "win", "meld", "kita")  # the player's tiles (dora indicators are not)

SPLIT_SIZE = 1.1  # a box this much bigger (√area) than the player's tiles near it is cut
# ... and only one reaching this × their short side across the row may turn a pon into a kakan:
# a sideways tile lies a tile's width across the row, two stacked ones clearly more (dev renders
# 650000+, 950000+: stacked pairs 1.46–1.56; single called tiles up to about 1.2)
KAKAN_ACROSS = 1.35
NEAR = 2.5  # the box lies within this × the tiles' size (√area) of a player's tile
NEIGHBOURS = 3  # its size is compared with this many of the nearest player's tiles
SPLIT_SURE = 0.5  # both halves read as a riichi tile at least this likely
# Each half covers this share of the box along the cut: a kakan's added tile overlaps the
# called one in the photo (boxes hold the tiles' bodies), touching tiles of a row a little.
SHARE_ACROSS = 0.65
SHARE_ALONG = 0.55
MIN_HALF = 0.75  # a half at least this × the tiles' short side across the cut (else no tile)
MAX_CUTS = 3  # at most this many boxes are cut in one photo, the biggest first


@dataclass(frozen=True)
class Cut:
    """One box cut in two: the tile's index, the halves (photo pixels), the halves' angle."""

    index: int
    halves: tuple[Box, Box]
    angle: int  # 0: halves upright (side by side along the row); 90: sideways (stacked)
    size: float  # the box's √area over its neighbours'
    across: float  # its extent across the row over their short side
    how: str  # "along" or "across" the row


def _root_area(box: Box) -> float:
    return math.sqrt(max(box[2] - box[0], 1e-6) * max(box[3] - box[1], 1e-6))


def _row_axis(tiles: Sequence[TileDetection]) -> tuple[int, int]:
    """The image axis the concealed row runs along (0: x, 1: y) and its tiles' reported
    angle (0, or 90 in a photo turned by 90°)."""
    row = [t for t in tiles if t.group == "hand"]
    if len(row) < 2:
        return 0, 0
    pts = np.array([t.center for t in row])
    spread = pts.max(axis=0) - pts.min(axis=0)
    angle = 90 if 2 * sum(t.angle == 90 for t in row) > len(row) else 0
    return (0 if spread[0] >= spread[1] else 1), angle


def _neighbour_size(tiles: Sequence[TileDetection], k: int) -> tuple[float, float] | None:
    """The median √area and short side of the ``NEIGHBOURS`` player's tiles nearest tile
    ``k`` (within ``NEAR`` × their size), or None when none lies that near."""
    c = np.array(tiles[k].center)
    near = sorted(
        (float(np.linalg.norm(np.array(t.center) - c)), j)
        for j, t in enumerate(tiles)
        if j != k and t.group in PLAYER
    )[:NEIGHBOURS]
    if not near:
        return None
    size = float(np.median([_root_area(tiles[j].box) for _, j in near]))
    if near[0][0] > NEAR * size:
        return None
    short = float(np.median([min(tiles[j].box[2] - tiles[j].box[0],
                                 tiles[j].box[3] - tiles[j].box[1]) for _, j in near]))
    return size, short


def _halves(box: Box, axis: int, share: float) -> tuple[Box, Box]:
    """``box`` cut along image axis ``axis`` into two parts each ``share`` of it long."""
    lo, hi = box[axis], box[axis + 2]
    part = (hi - lo) * share
    first, second = list(box), list(box)
    first[axis + 2] = lo + part
    second[axis] = hi - part
    return (first[0], first[1], first[2], first[3]), (second[0], second[1], second[2], second[3])


def cut_boxes(tiles: Sequence[TileDetection]) -> list[Cut]:
    """Boxes of a layout (``group`` set) that may hold two tiles, each cut both ways.

    A box is cut when it is ``SPLIT_SIZE`` × bigger (√area) than the player's tiles nearest
    it and lies near them; along the row into two tiles of the row's turn, and across it into
    two sideways tiles, each way only where both halves stay at least ``MIN_HALF`` × the
    tiles' short side across the cut. Biggest boxes first, at most ``MAX_CUTS`` of them.
    """
    axis, row_angle = _row_axis(tiles)
    found: list[tuple[float, int, float]] = []
    for k, t in enumerate(tiles):
        if t.group == "dora" or t.face_down:
            continue
        near = _neighbour_size(tiles, k)
        if near is None:
            continue
        ratio = _root_area(t.box) / near[0]
        if ratio >= SPLIT_SIZE:
            found.append((ratio, k, near[1]))
    out: list[Cut] = []
    for ratio, k, short in sorted(found, reverse=True)[:MAX_CUTS]:
        box = tiles[k].box
        for how, cut_axis, share, angle in (
            ("across", 1 - axis, SHARE_ACROSS, 90 - row_angle),
            ("along", axis, SHARE_ALONG, row_angle),
        ):
            halves = _halves(box, cut_axis, share)
            if halves[0][cut_axis + 2] - halves[0][cut_axis] >= MIN_HALF * short:
                across = (box[3 - axis] - box[1 - axis]) / short
                out.append(Cut(k, halves, angle, ratio, across, how))
    return out


def improves(first: Layout, again: Layout, halves: Sequence[TileDetection], cut: Cut) -> bool:
    """Whether the layout with the halves beats the first one: no kind five times (§1), and
    either both halves in the concealed part, no meld that was not there before and the hand
    nearer its count (§1; a new meld would lower the count needed, not fill it; a meld made
    of a misread row may go), or one pon turned into
    its kakan with nothing else changed (§23; only for a box cut across the row and
    ``KAKAN_ACROSS`` deep: two tiles one on the other)."""
    if fifth_of_a_kind(again.hand):
        return False
    groups = [t.group for t in again.tiles if t.box in {h.box for h in halves}]
    melds_now, melds_was = Counter(again.melds), Counter(first.melds)
    if (
        all(g in ("hand", "win") for g in groups)
        and melds_now <= melds_was
        and short_by(again.hand) < short_by(first.hand)
    ):
        return True
    change = pon_to_kakan(first.hand, again.hand)
    return (
        cut.how == "across"
        and cut.across >= KAKAN_ACROSS
        and all(g == "meld" for g in groups)
        and change is not None
        and _all_seen(again, change[1])
    )


def _all_seen(layout: Layout, kakan: str) -> bool:
    """The kakan's four tiles are all boxes of the layout's melds: a cut that only made a
    pair one beyond the other, leaving the kakan's fourth tile unseen, proves nothing (two
    touching upright tiles seen as one box, cut across, look like a called and added tile)."""
    k = meld_kind(kakan)
    return sum(t.group == "meld" and is_face(t.tile) and kind(t.tile) == k
               for t in layout.tiles) >= 4


def split_probe(
    tiles: list[TileDetection],
    layout: Layout,
    size: tuple[int, int],
    read: Callable[[list[tuple[Box, bool]]], list[Reading]],
) -> tuple[list[TileDetection], Layout]:
    """The boxes :func:`cut_boxes` finds in ``layout`` (read from the detections ``tiles``,
    in their order) are cut; ``read`` classifies the halves (box, sideways). The first cut
    whose halves both read surely and whose layout is :func:`improves` replaces its box by the
    two halves: returns the detections and the layout (led by a warning naming the cut), or
    ``tiles`` and ``layout`` unchanged."""
    tiles, layout = join_halves(tiles, layout, size, read)
    cuts = cut_boxes(layout.tiles)
    if not cuts:
        return tiles, layout
    readings = read([(h, c.angle == 90) for c in cuts for h in c.halves])
    for i, cut in enumerate(cuts):
        pair = readings[2 * i : 2 * i + 2]
        if any(p < SPLIT_SURE or not is_face(tile) for tile, p, _ in pair):
            continue
        halves = [
            TileDetection(tile, box, cut.angle, round(p, 4), "other", alts)
            for (tile, p, alts), box in zip(pair, cut.halves, strict=True)
        ]
        dets = [*tiles[: cut.index], *halves, *tiles[cut.index + 1 :]]
        again = reconstruct(dets, image_size=size)
        if improves(layout, again, halves, cut):
            was = layout.tiles[cut.index]
            note = PhotoWarning(
                "box_split_stacked" if cut.how == "across" else "box_split_side_by_side",
                tile=was.tile, first=pair[0][0], first_confidence=round(pair[0][1], 4),
                second=pair[1][0], second_confidence=round(pair[1][1], 4))
            return dets, Layout(again.tiles, again.hand, [note, *again.warnings])
    return tiles, layout

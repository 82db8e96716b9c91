"""Split look (vision/decoder.py): one detector box over two tiles, cut in two and read again.

The detector sometimes reports one box where two tiles lie: two touching tiles of the row or
of a meld (the box longer along the row than a tile), or a kakan's added tile lying on its
called one (§23; the box taller across the row than one sideways tile). The layout then counts
one tile where there are two: the hand comes out short of its count (§1), or the kakan reads as
a pon. A box clearly bigger than the player's tiles around it (``split_size``) is cut in two
along the row and across it, and both halves are read by the classifier; when both read as
sure riichi tiles (``split_sure``) the halves in the box's place are proposed to fill the hand
(both in its concealed part, no new meld), and a box cut across the row deep enough for two
(``kakan_across``) as a pon's kakan with all four of its tiles boxes (:func:`split_edits`).
The inverse look, two boxes on the halves of one called tile joined, is ``vision.join``'s.

Geometry and proposals only here; the decoder chooses, the pipeline cuts and reads the crops.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from sanma_lens.vision.decoder import Edit, Goal, Hypothesis, saying
from sanma_lens.vision.layout.notation import is_face
from sanma_lens.vision.settings import SETTINGS as S
from sanma_lens.vision.types import PLAYER_GROUPS, Box, Reader, TileDetection
from sanma_lens.vision.warning_catalogue import PhotoWarning


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
    """The median √area and short side of the ``split_neighbours`` player's tiles nearest tile
    ``k`` (within ``split_near`` × their size), or None when none lies that near."""
    c = np.array(tiles[k].center)
    near = sorted(
        (float(np.linalg.norm(np.array(t.center) - c)), j)
        for j, t in enumerate(tiles)
        if j != k and t.group in PLAYER_GROUPS
    )[: S.split_neighbours]
    if not near:
        return None
    size = float(np.median([_root_area(tiles[j].box) for _, j in near]))
    if near[0][0] > S.split_near * size:
        return None
    short = float(
        np.median(
            [
                min(tiles[j].box[2] - tiles[j].box[0], tiles[j].box[3] - tiles[j].box[1])
                for _, j in near
            ]
        )
    )
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

    A box is cut when it is ``split_size`` × bigger (√area) than the player's tiles nearest
    it and lies near them; along the row into two tiles of the row's turn, and across it into
    two sideways tiles, each way only where both halves stay at least ``split_min_half`` × the
    tiles' short side across the cut. Biggest boxes first, at most ``split_max_cuts`` of them.
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
        if ratio >= S.split_size:
            found.append((ratio, k, near[1]))
    out: list[Cut] = []
    for ratio, k, short in sorted(found, reverse=True)[: S.split_max_cuts]:
        box = tiles[k].box
        for how, cut_axis, share, angle in (
            ("across", 1 - axis, S.split_share_across, 90 - row_angle),
            ("along", axis, S.split_share_along, row_angle),
        ):
            halves = _halves(box, cut_axis, share)
            if halves[0][cut_axis + 2] - halves[0][cut_axis] >= S.split_min_half * short:
                across = (box[3 - axis] - box[1 - axis]) / short
                out.append(Cut(k, halves, angle, ratio, across, how))
    return out


def split_edits(now: Hypothesis, read: Reader) -> list[Edit]:
    """The boxes :func:`cut_boxes` finds in the reading's layout are cut; ``read`` classifies
    the halves (box, sideways). Each cut whose halves both read surely is proposed with the
    two halves in the box's place, to fill the hand: both halves in its concealed part, no
    meld that was not there before (a new meld would lower the count needed, not fill it) and
    the hand nearer its count (§1). A box cut across the row and ``kakan_across`` deep (two
    tiles one on the other) is also proposed as a pon's kakan, its four tiles all seen (§23).
    """
    cuts = cut_boxes(now.layout.tiles)
    if not cuts:
        return []
    readings = read([(h, c.angle == 90) for c in cuts for h in c.halves])
    edits: list[Edit] = []
    for i, cut in enumerate(cuts):
        pair = readings[2 * i : 2 * i + 2]
        if any(p < S.split_sure or not is_face(tile) for tile, p, _ in pair):
            continue
        halves = tuple(
            TileDetection(tile, box, cut.angle, round(p, 4), "other", alts)
            for (tile, p, alts), box in zip(pair, cut.halves, strict=True)
        )
        tiles = (*now.tiles[: cut.index], *halves, *now.tiles[cut.index + 1 :])
        note = saying(
            PhotoWarning(
                "box_split_stacked" if cut.how == "across" else "box_split_side_by_side",
                tile=now.layout.tiles[cut.index].tile,
                first=pair[0][0],
                first_confidence=round(pair[0][1], 4),
                second=pair[1][0],
                second_confidence=round(pair[1][1], 4),
            )
        )
        evidence = pair[0][1] * pair[1][1]
        edits.append(
            Edit(
                "split",
                Goal.FILL,
                tiles,
                halves,
                note,
                evidence,
                lands=frozenset({"hand", "win"}),
                new_melds=False,
            )
        )
        if cut.how == "across" and cut.across >= S.kakan_across:
            edits.append(
                Edit(
                    "split",
                    Goal.KAKAN,
                    tiles,
                    halves,
                    note,
                    evidence,
                    lands=frozenset({"meld"}),
                    all_seen=True,
                )
            )
    return edits

"""Join probe: one tile found as two part-boxes, read again whole.

The detector sometimes heats at two parts of one big face instead of the whole: the two groups
of circles of a 4p or 6p (each read 2p), the two characters of a close-up manzu, the top and
bottom of a tall standing tile. The photo then holds two small reports where one tile lies
(one false tile and one misnamed, or two false). Two reported tiles each clearly smaller than
the photo's typical tile (``part_size`` × the median area), touching or overlapping a little
(IoU ≤ ``join_iou``, apart by at most ``join_gap`` × the typical tile's side), whose joint box
is about one tile (``min_whole``–``whole_size`` × the median area) and holds no third report,
are read again as one box. The joint reading replaces both when it is a riichi tile read with
p ≥ ``join_sure`` and surer than either part, of the suit both parts read (a part of a tile
shows that tile's symbols), not the reading of both parts, and one part at least was read
unsure (below ``part_unsure``: a part shows an incomplete face).

Two whole tiles side by side make a joint box of about two tiles and are left alone; where
tile sizes vary (a slanted row, a heap) two whole tiles can still pass for parts, and the
network reads their joint crop as one of them. Hence the last three conditions: tiles of two
suits are never parts of one (renders: a 6s and a 7z of a heap), two sure readings are two
tiles (renders: a 6s and a 7s, a 3m and a 6m), and a pair (§1) must never become one tile
(hk valid: two 4p and two 6m of a slanted row, each pair's joint crop read as its kind).

Geometry and acceptance only here; the pipeline (``vision/pipeline.py``) cuts and classifies
the crops.

After a layout, a called tile seen as two halves (a sideways 4p as two upright 2p: the rules
above keep two sure, alike parts apart) is a second look of the decoder (vision/decoder.py,
:func:`halves_edits`): two parts right of the row whose joint box is shaped like a sideways
tile are read turned, and proposed joined as the called tile of a set of its kind.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import numpy as np

from sanma_lens.vision.decoder import Edit, Goal, Hypothesis, saying
from sanma_lens.vision.detect import aspect, covered, iou
from sanma_lens.vision.layout.notation import as_sanma, kind
from sanma_lens.vision.settings import SETTINGS as S
from sanma_lens.vision.types import Box, Reader, TileDetection
from sanma_lens.vision.warning_catalogue import PhotoWarning

NOT_JOINED = ("flower", "none")


def _area(box: Box) -> float:
    return max(0.0, box[2] - box[0]) * max(0.0, box[3] - box[1])


def joint_box(a: Box, b: Box) -> Box:
    """The smallest box holding both."""
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


def _gap(a: Box, b: Box) -> float:
    """How far apart two boxes lie (0 when they touch or overlap)."""
    return max(0.0, max(a[0], b[0]) - min(a[2], b[2]), max(a[1], b[1]) - min(a[3], b[3]))


def _suit(tile: str) -> str:
    """m, p, s or z for a tile id (a red five is its suit's), the id itself otherwise (back)."""
    return tile[-1] if len(tile) == 2 else tile


def part_pairs(
    tiles: Sequence[TileDetection], whole_size: float = S.whole_size
) -> list[tuple[int, int, Box]]:
    """Pairs of reports that may be two parts of one tile, with their joint box (its area at
    most ``whole_size`` × the median tile's)."""
    if len(tiles) < 2:
        return []
    median = float(np.median([_area(t.box) for t in tiles]))
    side = math.sqrt(median)
    out = []
    for i, j in itertools.combinations(range(len(tiles)), 2):
        a, b = tiles[i].box, tiles[j].box
        if max(_area(a), _area(b)) > S.part_size * median or iou(a, b) > S.join_iou:
            continue
        if _gap(a, b) > S.join_gap * side:
            continue
        whole = joint_box(a, b)
        if not S.min_whole * median <= _area(whole) <= whole_size * median:
            continue
        if any(covered(t.box, whole) > 0.5 for k, t in enumerate(tiles) if k not in (i, j)):
            continue
        out.append((i, j, whole))
    return out


def join_parts(
    tiles: Sequence[TileDetection], read: Reader
) -> tuple[list[TileDetection], list[TileDetection]]:
    """``tiles`` with each pair of parts that reads surely as one tile replaced by that tile
    (the surest joint reading first; a report joins at most once). ``read`` classifies photo
    boxes (sideways: turned upright). Returns the tiles and the joined ones."""
    pairs = part_pairs(tiles)
    if not pairs:
        return list(tiles), []
    readings = read(
        [(whole, tiles[i].angle == 90 and tiles[j].angle == 90) for i, j, whole in pairs]
    )
    used: set[int] = set()
    joined: list[TileDetection] = []
    order = sorted(range(len(pairs)), key=lambda n: -readings[n][1])
    for n in order:
        i, j, whole = pairs[n]
        tile, p, alternatives = readings[n]
        if i in used or j in used or tile in NOT_JOINED or p < S.join_sure:
            continue
        if p <= max(tiles[i].confidence, tiles[j].confidence):
            continue
        if tiles[i].tile == tiles[j].tile == tile:  # may be a pair: two tiles of one kind
            continue
        if not _suit(tiles[i].tile) == _suit(tiles[j].tile) == _suit(tile):
            continue
        if min(tiles[i].confidence, tiles[j].confidence) >= S.part_unsure:
            continue
        used |= {i, j}
        angle = 90 if tiles[i].angle == 90 and tiles[j].angle == 90 else 0
        joined.append(TileDetection(tile, whole, angle, round(p, 4), "other", alternatives))
    kept = [t for k, t in enumerate(tiles) if k not in used]
    return kept + joined, joined


HALVES_GROUPS = ("meld", "other")  # where a called tile's halves may have been placed


def halves_pairs(tiles: Sequence[TileDetection]) -> list[tuple[int, int, Box]]:
    """Pairs of part-boxes (:func:`part_pairs`) right of a layout's row, neither in the
    concealed row nor the winning tile, whose joint box is shaped like a sideways tile."""
    row = [t for t in tiles if t.group == "hand"]
    if not row:
        return []
    upright = float(np.median([aspect(t.box) for t in row]))
    return [
        (i, j, whole)
        for i, j, whole in part_pairs(tiles, S.halves_whole)
        if tiles[i].group in HALVES_GROUPS
        and tiles[j].group in HALVES_GROUPS
        and aspect(whole) >= S.halves_shape * upright
    ]


def halves_edits(now: Hypothesis, read: Reader) -> list[Edit]:
    """A called tile seen as two halves, after a first layout: each pair of
    :func:`halves_pairs` is read turned sideways, and each read surely (``halves_sure``) is
    proposed with the joint tile in the parts' place, as the called tile of a new set of its
    own kind: the hand nearer its count (§1), or as near with a pon turned into its kakan
    (§23) or fewer things to check."""
    pairs = halves_pairs(now.layout.tiles)
    if not pairs:
        return []
    readings = read([(whole, True) for _, _, whole in pairs])
    edits = []
    for (i, j, whole), (tile, p, alternatives) in zip(pairs, readings, strict=True):
        if tile in NOT_JOINED or tile == "back" or p < S.halves_sure:
            continue
        joint = TileDetection(tile, whole, 90, round(p, 4), "other", alternatives)
        tiles = (*(t for k, t in enumerate(now.tiles) if k not in (i, j)), joint)
        note = PhotoWarning(
            "halves_joined",
            first=now.tiles[i].tile,
            second=now.tiles[j].tile,
            tile=tile,
            confidence=round(p, 4),
        )
        edits.append(
            Edit(
                "halves",
                Goal.CALL,
                tiles,
                (joint,),
                saying(note),
                p,
                lands=frozenset({"meld"}),
                set_kind=kind(as_sanma(tile)),
            )
        )
    return edits

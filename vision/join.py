"""Join probe: one tile found as two part-boxes, read again whole.

The detector sometimes heats at two parts of one big face instead of the whole: the two groups
of circles of a 4p or 6p (each read 2p), the two characters of a close-up manzu, the top and
bottom of a tall standing tile. The photo then holds two small reports where one tile lies
(one false tile and one misnamed, or two false). Two reported tiles each clearly smaller than
the photo's typical tile (``PART_SIZE`` × the median area), touching or overlapping a little
(IoU ≤ ``JOIN_IOU``, apart by at most ``JOIN_GAP`` × the typical tile's side), whose joint box
is about one tile (``MIN_WHOLE``–``WHOLE_SIZE`` × the median area) and holds no third report,
are read again as one box. The joint reading replaces both when it is a riichi tile read with
p ≥ ``JOIN_SURE`` and surer than either part, of the suit both parts read (a part of a tile
shows that tile's symbols), not the reading of both parts, and one part at least was read
unsure (below ``PART_UNSURE``: a part shows an incomplete face).

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
from sanma_lens.vision.probe import Box, Reader
from sanma_lens.vision.types import TileDetection
from sanma_lens.vision.warning_catalogue import PhotoWarning

PART_SIZE = 0.9  # each part's area at most this × the photo's median tile area
WHOLE_SIZE = 1.4  # the joint box's area at most this × the median ...
MIN_WHOLE = 0.5  # ... and at least this ×
JOIN_IOU = 0.3  # the parts overlap at most this much (more: one tile seen twice, doubles rule)
JOIN_GAP = 0.15  # the parts lie at most this × the median tile's side apart
JOIN_SURE = 0.9  # the joint box read as a riichi tile at least this likely
PART_UNSURE = 0.8  # one part at least reported with a confidence below this
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
    tiles: Sequence[TileDetection], whole_size: float = WHOLE_SIZE
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
        if max(_area(a), _area(b)) > PART_SIZE * median or iou(a, b) > JOIN_IOU:
            continue
        if _gap(a, b) > JOIN_GAP * side:
            continue
        whole = joint_box(a, b)
        if not MIN_WHOLE * median <= _area(whole) <= whole_size * median:
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
    readings = read([(whole, tiles[i].angle == 90 and tiles[j].angle == 90)
                     for i, j, whole in pairs])
    used: set[int] = set()
    joined: list[TileDetection] = []
    order = sorted(range(len(pairs)), key=lambda n: -readings[n][1])
    for n in order:
        i, j, whole = pairs[n]
        tile, p, alternatives = readings[n]
        if i in used or j in used or tile in NOT_JOINED or p < JOIN_SURE:
            continue
        if p <= max(tiles[i].confidence, tiles[j].confidence):
            continue
        if tiles[i].tile == tiles[j].tile == tile:  # may be a pair: two tiles of one kind
            continue
        if not _suit(tiles[i].tile) == _suit(tiles[j].tile) == _suit(tile):
            continue
        if min(tiles[i].confidence, tiles[j].confidence) >= PART_UNSURE:
            continue
        used |= {i, j}
        angle = 90 if tiles[i].angle == 90 and tiles[j].angle == 90 else 0
        joined.append(TileDetection(tile, whole, angle, round(p, 4), "other", alternatives))
    kept = [t for k, t in enumerate(tiles) if k not in used]
    return kept + joined, joined


# A called tile seen as two halves (a sideways 4p as two 2p, each half an upright-shaped box):
# after a first layout, two part-boxes right of the row whose joint box is shaped like a
# sideways tile (its width over height at least HALVES_SHAPE × the row's upright tiles') are
# read again as one tile turned sideways (dev renders 650136, 950050: two 2p 0.94–0.98 of a
# sideways 4p read 4p 0.97 turned; read upright the joint crop is unsure). On a slanted row the
# image-axis boxes are rounder: a sideways tile's box is less wide for its height than on a
# level row, and the halves' joint box is bigger than the tile's own (render 600011, a row 25°
# off the image's axis: 1.25 × the row's aspect, 1.42 × the median tile's area), hence 1.2
# (was 1.4) and HALVES_WHOLE; the layout's test that the joint tile makes a better hand stays.
HALVES_SHAPE = 1.2
HALVES_WHOLE = 1.6  # the joint box's area at most this × the median tile's (part_pairs: 1.4)
HALVES_SURE = 0.9  # the joint crop read turned as a riichi tile at least this likely
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
        for i, j, whole in part_pairs(tiles, HALVES_WHOLE)
        if tiles[i].group in HALVES_GROUPS and tiles[j].group in HALVES_GROUPS
        and aspect(whole) >= HALVES_SHAPE * upright
    ]


def halves_edits(now: Hypothesis, read: Reader) -> list[Edit]:
    """A called tile seen as two halves, after a first layout: each pair of
    :func:`halves_pairs` is read turned sideways, and each read surely (``HALVES_SURE``) is
    proposed with the joint tile in the parts' place, as the called tile of a new set of its
    own kind: the hand nearer its count (§1), or as near with a pon turned into its kakan
    (§23) or fewer things to check."""
    pairs = halves_pairs(now.layout.tiles)
    if not pairs:
        return []
    readings = read([(whole, True) for _, _, whole in pairs])
    edits = []
    for (i, j, whole), (tile, p, alternatives) in zip(pairs, readings, strict=True):
        if tile in NOT_JOINED or tile == "back" or p < HALVES_SURE:
            continue
        joint = TileDetection(tile, whole, 90, round(p, 4), "other", alternatives)
        tiles = (*(t for k, t in enumerate(now.tiles) if k not in (i, j)), joint)
        note = PhotoWarning("halves_joined", first=now.tiles[i].tile, second=now.tiles[j].tile,
                            tile=tile, confidence=round(p, 4))
        edits.append(Edit("halves", Goal.CALL, tiles, (joint,), saying(note), p,
                          lands=frozenset({"meld"}), set_kind=kind(as_sanma(tile))))
    return edits

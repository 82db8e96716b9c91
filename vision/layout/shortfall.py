"""Stage 2, when the hand is three tiles short (docs/rules.md §1: 13 tiles plus the winning tile,
three per meld): a called set right of the row that the detector or the classifier damaged.

* :func:`short_pon` — a called (sideways) tile and one tile of its kind: a pon whose third
  tile was not found.
* :func:`short_ankan` — a back and two faces alike: a concealed kan whose other face-down
  end was not found.
* :func:`apart_pair` — two alike set apart, nothing else making up the count: a pon whose
  called tile was not found (the weakest evidence, taken last).
* :func:`loose_pon` — three tiles in a row on the melds' line, two of one kind and the third
  a tile that may be that kind (a listed reading) or lies sideways: a pon whose odd tile was
  misread (the rule-aware reading then re-reads it, naming it).
"""

from __future__ import annotations

import math
from collections import Counter

from sanma_lens.vision.detect import aspect
from sanma_lens.vision.layout.grouping import Placed, end_splits
from sanma_lens.vision.layout.notation import kind, north_like, readable
from sanma_lens.vision.layout.rulefix import kind_probs, may_share_kind, readings
from sanma_lens.vision.settings import SETTINGS as S
from sanma_lens.vision.types import TileDetection


def short_pon(group: list[Placed], tiles: list[TileDetection], theta: float = 0.0) -> bool:
    """Two face-up tiles of one kind, one of them sideways (a called tile, §23) with a box
    clearly wider for its height than the other's (``sideways_shape``): not an upright tile
    reported sideways. Box shapes are image-axis shapes, told apart only while the row runs
    within ``unturned_tilt`` of the image's x axis (``theta``, radians); on a steeper row a
    turned tile's box is no wider than an upright one's, and the detector's turn decides."""
    dets = sorted((tiles[p.index] for p in group), key=lambda d: d.angle)
    if len(dets) != 2 or [d.angle for d in dets] != [0, 90] or not all(map(readable, dets)):
        return False
    level = abs(theta) < S.unturned_tilt
    wide = not level or aspect(dets[1].box) >= S.sideways_shape * aspect(dets[0].box)
    return wide and kind(dets[0].tile) == kind(dets[1].tile)


def short_ankan(group: list[Placed], tiles: list[TileDetection]) -> bool:
    """Three upright tiles: a back at one end and two faces of one kind (by their readings)
    beside it, a concealed kan laid back, face, face, back (§23) whose other end was not
    found."""
    if len(group) != 3 or any(tiles[p.index].angle != 0 for p in group):
        return False
    for end, rest in end_splits(group):
        faces = [tiles[p.index] for p in rest]
        if tiles[end.index].face_down and may_share_kind(faces):
            return True
    return False


def apart_pair(group: list[Placed], tiles: list[TileDetection]) -> bool:
    """Two upright face-up tiles of one kind, not norths (two norths apart are kita)."""
    dets = [tiles[p.index] for p in group]
    return (
        len(dets) == 2
        and all(readable(d) and d.angle == 0 for d in dets)
        and kind(dets[0].tile) == kind(dets[1].tile)
        and not any(north_like(d, S.kita_alt) for d in dets)
    )


def loose_pon(
    groups: list[tuple[float, list[Placed]]], tiles: list[TileDetection], taken: set[int]
) -> tuple[list[int], str] | None:
    """Three tiles side by side on the melds' line (not ``taken``), face up, all of one kind
    ``K`` (their turns misreported), or two and the third read as ``K`` among its readings or
    lying sideways (reported so, or with a box shaped like a turned tile): their indices (left
    to right) and ``K`` — of several such, the likeliest pon of its kind by the tiles' readings
    (the product of their probabilities of ``K``); None when there is none."""
    placed = sorted(
        (p for _, group in groups for p in group if p.index not in taken), key=lambda p: p.t
    )
    found: list[tuple[float, list[int], str]] = []
    for i in range(len(placed) - 2):
        trio = placed[i : i + 3]
        dets = [tiles[p.index] for p in trio]
        if not all(readable(d) for d in dets):
            continue
        pairs = zip(trio, trio[1:], strict=False)
        if any((b.t - b.half) - (a.t + a.half) > S.group_gap * a.a for a, b in pairs):
            continue
        main, n = Counter(kind(d.tile) for d in dets).most_common(1)[0]
        if n < 2:
            continue
        # three alike are a pon whose turns the detector misreported (two sideways, none); of
        # two alike, the odd one lies sideways (reported so, or laid out so: a box shaped like
        # a turned tile) or may be read as their kind
        if n == 3 or _may_join(dets, trio, main):
            like = sum(math.log(max(kind_probs(d).get(main, 0.0), S.vote_floor)) for d in dets)
            found.append((like, [p.index for p in trio], main))
    if not found:
        return None
    _, indices, main = max(found, key=lambda f: f[0])
    return indices, main


def _may_join(dets: list[TileDetection], trio: list[Placed], main: str) -> bool:
    """The one tile of three not read as ``main`` may be a pon's tile of that kind: it lies
    sideways (reported so, or a box shaped like a turned tile), or ``main`` is among its
    readings."""
    odd_at = next(i for i, d in enumerate(dets) if kind(d.tile) != main)
    odd, placed_odd = dets[odd_at], trio[odd_at]
    turned = odd.angle == 90 or placed_odd.half > 0.6 * placed_odd.a
    return turned or any(kind(t) == main for t in readings(odd))

"""Detector slips absorbed before reading: one tile read twice is kept once, and a box over
the halves of two tiles side by side is none."""

from __future__ import annotations

import math

import numpy as np

from sanma_lens.vision.detect import iou_matrix
from sanma_lens.vision.layout.geometry import true_dims
from sanma_lens.vision.settings import SETTINGS as S
from sanma_lens.vision.types import TileDetection
from sanma_lens.vision.warning_catalogue import PhotoWarning


def _dedupe(tiles: list[TileDetection]) -> tuple[list[int], list[str]]:
    """Two upright detections on one spot are one tile read twice: keep the surer reading.

    Sideways pairs are left alone: a kakan's added tile may lie right on the called one.
    """
    order = sorted(range(len(tiles)), key=lambda k: -tiles[k].confidence)
    overlap = iou_matrix(np.array([t.box for t in tiles], dtype=float).reshape(-1, 4))
    sideways = np.array([t.angle == 90 for t in tiles], dtype=bool)
    kept: list[int] = []
    warnings: list[str] = []
    for k in order:
        # one spot (not one behind), unless both lie sideways; the first kept such is the clash
        clash = next(
            (j for j in kept if overlap[j, k] > 0.6 and not (sideways[j] and sideways[k])), None
        )
        if clash is None:
            kept.append(k)
        elif tiles[clash].tile != tiles[k].tile:
            warnings.append(
                PhotoWarning(
                    "two_readings",
                    tile=tiles[clash].tile,
                    confidence=round(tiles[clash].confidence, 4),
                    other=tiles[k].tile,
                    other_confidence=round(tiles[k].confidence, 4),
                )
            )
    kept, straddle_warnings = _drop_straddling(tiles, sorted(kept))
    return kept, warnings + straddle_warnings


def _drop_straddling(tiles: list[TileDetection], kept: list[int]) -> tuple[list[int], list[str]]:
    """A box lying over the halves of two upright tiles side by side (touching, so no tile
    fits between them), read unsure (below ``low_confidence``: it shows half of each) and
    less surely than either, is no tile: the detector saw the join of the two as one.
    Dropped, with a warning.

    The two tiles lie within a tile or so of the box, so only its ``straddle_neighbours``
    nearest faces are paired: the work grows with the square of the detections, not faster.
    """
    upright = [k for k in kept if tiles[k].angle == 0]
    faces = [k for k in upright if not tiles[k].face_down]  # (a wall's backs overlap: left be)
    if len(faces) < 2:
        return kept, []
    centres = np.array([tiles[k].center for k in faces], dtype=float)
    apart = np.hypot(*(centres[:, None, :] - centres[None, :, :]).transpose(2, 0, 1))
    np.fill_diagonal(apart, np.inf)
    # each face's nearest other faces: the row's pitch beside a pair leaves out the pair and
    # the box between them, so three are enough
    nearest = np.argsort(apart, axis=1)[:, :3]
    pitch_of = _Pitch(faces, apart, nearest)
    dropped: set[int] = set()
    warnings: list[str] = []
    for k in (k for k in upright if tiles[k].confidence < S.low_confidence):
        to_k = np.hypot(*(centres - np.array(tiles[k].center)).T)
        near = sorted(int(n) for n in np.argsort(to_k)[: S.straddle_neighbours])
        pair = _straddled_pair(tiles, faces, near, k, pitch_of)
        if pair is None:
            continue
        i, j = pair
        dropped.add(k)
        warnings.append(
            PhotoWarning(
                "straddling_box",
                tile=tiles[k].tile,
                confidence=round(tiles[k].confidence, 4),
                left=tiles[i].tile,
                right=tiles[j].tile,
            )
        )
    return [k for k in kept if k not in dropped], warnings


class _Pitch:
    """The distance from either of two faces to the nearest other face, the box between them
    left out: the row's pitch where the two stand."""

    def __init__(self, faces: list[int], apart: np.ndarray, nearest: np.ndarray) -> None:
        self.faces = faces
        self.apart = apart
        self.nearest = nearest

    def __call__(self, a: int, b: int, k: int) -> float:
        """``a``, ``b``: positions in ``faces``; ``k``: the box's tile index."""
        out = math.inf
        for p in (a, b):
            for n in self.nearest[p]:
                if n not in (a, b) and self.faces[n] != k:
                    out = min(out, float(self.apart[p, n]))
                    break
        return out


def _straddled_pair(
    tiles: list[TileDetection], faces: list[int], near: list[int], k: int, pitch_of: _Pitch
) -> tuple[int, int] | None:
    """Two tiles ``i``, ``j`` among the faces at positions ``near`` that make a touching pair
    with box ``k`` midway between them (``k`` less sure than both): the two a pitch apart, as
    far as the nearest other tile lies from them; None when there are none."""
    sure = [p for p in near if faces[p] != k and tiles[k].confidence < tiles[faces[p]].confidence]
    ck = tiles[k].center
    for a in sure:
        i = faces[a]
        ci = tiles[i].center
        for b in sure:
            j = faces[b]
            cj = tiles[j].center
            if j == i or cj[0] <= ci[0]:
                continue  # each pair once, left to right
            dist = math.dist(ci, cj)
            theta = math.atan2(cj[1] - ci[1], cj[0] - ci[0])
            width = (_true_width(tiles[i], theta) + _true_width(tiles[j], theta)) / 2
            mid = ((ci[0] + cj[0]) / 2, (ci[1] + cj[1]) / 2)
            sizes = [_size(tiles[n]) / _size(tiles[k]) for n in (i, j)]
            if not (
                dist < S.straddle_side_by_side * width
                and math.dist(ck, mid) < S.straddle_midway * dist
                and all(1 / S.straddle_size_alike < r < S.straddle_size_alike for r in sizes)
            ):
                continue
            pitch = pitch_of(a, b, k)
            if S.straddle_pitches[0] * pitch < dist < S.straddle_pitches[1] * pitch:
                return i, j
    return None


def _true_width(t: TileDetection, theta: float) -> float:
    """The short side of an upright tile in a row running at ``theta``."""
    x1, y1, x2, y2 = t.box
    w, h = abs(x2 - x1), abs(y2 - y1)
    return max(true_dims(w, h, theta, False)[0], S.min_short * min(w, h))


def _size(t: TileDetection) -> float:
    x1, y1, x2, y2 = t.box
    return math.sqrt(max(abs(x2 - x1) * abs(y2 - y1), 1e-6))

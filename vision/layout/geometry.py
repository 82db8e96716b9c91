"""Geometry of detections: centres and sizes, a tile's true sides under tilt, the row end's
frame (direction, pitch, tile size), line fits and box overlap."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from sanma_lens.vision.settings import SETTINGS as S
from sanma_lens.vision.types import TileDetection


@dataclass(frozen=True)
class Geo:
    """Centres and box sizes of all detections as arrays."""

    centres: np.ndarray  # (n, 2)
    widths: np.ndarray  # (n,)
    heights: np.ndarray  # (n,)
    cut: np.ndarray  # (n,) bool: read unsure and cut by the photo's edge (:func:`edge_cut`)

    @staticmethod
    def of(tiles: list[TileDetection], cut: np.ndarray | None = None) -> Geo:
        boxes = np.array([t.box for t in tiles], dtype=float).reshape(-1, 4)
        centres = np.stack([(boxes[:, 0] + boxes[:, 2]) / 2, (boxes[:, 1] + boxes[:, 3]) / 2], 1)
        widths = np.abs(boxes[:, 2] - boxes[:, 0])
        heights = np.abs(boxes[:, 3] - boxes[:, 1])
        flags = np.zeros(len(tiles), dtype=bool) if cut is None else np.asarray(cut, dtype=bool)
        return Geo(centres, np.maximum(widths, 1e-6), np.maximum(heights, 1e-6), flags)

    def scale(self, i: int) -> float:
        return float(math.sqrt(self.widths[i] * self.heights[i]))

    @cached_property
    def sizes(self) -> np.ndarray:
        """Every box's √(width × height)."""
        return np.sqrt(self.widths * self.heights)

    @cached_property
    def alike(self) -> np.ndarray:
        """The n×n pairs of boxes alike in size, as a row's neighbours are (``alike[i, j]``:
        ``j``'s size over ``i``'s within ``size_ratio`` either way)."""
        ratio = self.sizes[None, :] / self.sizes[:, None]
        return (ratio < S.size_ratio) & (ratio > 1 / S.size_ratio)

    @cached_property
    def sides(self) -> list[tuple[float, float]]:
        """Every box's width and height as plain floats (quicker to reach one by one)."""
        return list(zip(self.widths.tolist(), self.heights.tolist(), strict=True))

    @cached_property
    def apart(self) -> np.ndarray:
        """The n×n distances between the centres (``apart[i, j]``: from ``i`` to ``j``)."""
        r = self.centres[None, :, :] - self.centres[:, None, :]
        return np.hypot(r[..., 0], r[..., 1])


def edge_cut(tiles: list[TileDetection], image_size: tuple[int, int]) -> np.ndarray:
    """Per tile: its box runs past the photo's edge by more than ``edge_cut`` of its own size
    (the detector boxes the whole tile; the photo shows part of it) and it is read unsure
    (below ``low_confidence``): a tile half out of the photo, whose reading says little (dev
    renders: a flower read 5z 0.19 touching a pon of norths, another player's 1z read beside
    a kita, a discard read as a kita beyond the melds)."""
    w, h = image_size
    out = np.zeros(len(tiles), dtype=bool)
    for k, t in enumerate(tiles):
        x1, y1, x2, y2 = t.box
        bw, bh = abs(x2 - x1), abs(y2 - y1)
        past = max(-x1, x2 - w) > S.edge_cut * bw or max(-y1, y2 - h) > S.edge_cut * bh
        out[k] = past and t.confidence < S.low_confidence
    return out


def _unit(v: np.ndarray) -> np.ndarray:
    # √(v·v) is np.linalg.norm's own arithmetic for a 1-D float array (the same dot product,
    # so the same rounding), without its checks: the row search calls this most.
    n = math.sqrt(float(v.dot(v)))
    return v / n if n > 0 else np.array([1.0, 0.0])


def true_dims(w: float, h: float, theta: float, sideways: bool) -> tuple[float, float]:
    """Short and long side of a tile whose axis-aligned box is ``w``×``h``, turned by ``theta``.

    An upright tile ``a``×``b`` turned by θ fills a box ``w = a·c + b·s``, ``h = a·s + b·c``;
    solving the 2×2 system undoes the inflation that tilt gives axis-aligned boxes.
    """
    c, s = abs(math.cos(theta)), abs(math.sin(theta))
    if sideways:
        w, h = h, w
    den = c * c - s * s
    if den < 0.5:  # beyond ~30° the system is ill-conditioned: fall back to the box
        return 0.75 * min(w, h), max(w, h)
    a = (w * c - h * s) / den
    b = (h * c - w * s) / den
    a = max(a, 0.4 * min(w, h))
    b = max(b, a)
    return a, b


@dataclass(frozen=True)
class Frame:
    """The row's end frame: origin at the last row tile, ``u`` along the row, ``v`` across."""

    origin: np.ndarray
    u: np.ndarray
    v: np.ndarray
    a: float  # local tile width (short side) at the row's end
    b: float  # local tile height (long side)
    theta: float  # angle of ``u`` to the image x axis

    def coords(self, p: np.ndarray) -> tuple[float, float]:
        r = p - self.origin
        return float(r @ self.u), float(r @ self.v)


def end_frame(
    row: list[int], tiles: list[TileDetection], geo: Geo, along: np.ndarray | None = None
) -> Frame:
    """The frame at the row's last tile. ``along``: the row's direction where the row cannot
    give it (a concealed part of one tile, ``tanki.py``); else from its last links."""
    pts = geo.centres[row]
    if along is not None and len(row) < 2:
        u = _unit(along)
        pitch = 0.0
    elif len(row) >= 2:
        tail = pts[-min(len(row), 4) :]
        u = _unit(tail[-1] - tail[0])
        links = np.hypot(*np.diff(pts[-min(len(row), 4) :], axis=0).T)
        pitch = float(np.median(links))
    else:
        u = np.array([1.0, 0.0])
        pitch = 0.0
    theta = math.atan2(u[1], u[0])
    last = row[-1]
    a, b = true_dims(float(geo.widths[last]), float(geo.heights[last]), theta, False)
    if pitch > 0:
        b = b * pitch / a if a > 0 else b
        a = pitch
    b = max(b, a * 1.05)
    v = np.array([-u[1], u[0]])
    return Frame(pts[-1], u, v, a, b, theta)


def _line_at(ts: list[float], ns: list[float], t: float) -> float:
    """The across position of the line through the recent tile centres, at ``t``."""
    if len(ts) < 2 or max(ts) - min(ts) < 1e-6:
        return float(np.mean(ns)) if ns else 0.0
    slope, icpt = np.polyfit(ts, ns, 1)
    return float(slope * t + icpt)

"""Loose tiles at any angle: a handful scattered on a table, a tray, the floor or a keyboard.

No hand is shown: every tile is labelled (group ``other``), face-down ones as ``back`` with the
tile underneath in ``hidden``. Tiles lie in a few clumps, some touching, none overlapping.
"""

from __future__ import annotations

import cv2
import numpy as np

from datasets.synth.geometry import Body, Dims, corners, flat_axes
from datasets.synth.hands import Wall


def footprint(b: Body, d: Dims) -> np.ndarray:
    """The body's outline on the table (its lowest four corners' hull, float32 mm)."""
    p = corners(b, d)
    low = p[p[:, 2] <= p[:, 2].min() + 1e-6][:, :2].astype(np.float32)
    return cv2.convexHull(low).reshape(-1, 2)


def meets(a: np.ndarray, b: np.ndarray, margin: float = 0.3) -> bool:
    """Two outlines overlap (or come closer than about ``margin`` mm)."""
    ca = a.mean(axis=0)
    grown = ca + (a - ca) * (1 + margin / max(float(np.linalg.norm(a - ca, axis=1).min()), 1))
    area, _ = cv2.intersectConvexConvex(grown.astype(np.float32), b.astype(np.float32))
    return area > 0.0


def scatter_layout(
    rng: np.random.Generator, d: Dims, n: int | None = None, face_down_p: float = 0.2
) -> list[Body]:
    """``n`` (default 6–30) tiles of one set (sanma: four of a kind at most, red fives often)
    lying at uniformly random angles about the world origin, in one to three clumps; a share
    ``face_down_p`` face down."""
    n = int(rng.integers(6, 31)) if n is None else n
    wall = Wall(bool(rng.random() < 0.3))
    half = np.sqrt(n) * rng.uniform(0.4, 0.9) * d.h
    centres = rng.uniform(-half, half, (int(rng.integers(1, 4)), 2))
    spread = rng.uniform(0.35, 0.8) * d.h * np.sqrt(n / len(centres))
    bodies: list[Body] = []
    outlines: list[np.ndarray] = []
    for _ in range(n):
        tile = wall.take_random(rng)
        down = bool(rng.random() < face_down_p)
        for _ in range(40):
            ang = float(rng.uniform(0, 360))
            xy = centres[int(rng.integers(len(centres)))] + rng.normal(0, spread, 2)
            b = Body(
                tile,
                "other",
                np.array([xy[0], xy[1], d.t / 2]),
                flat_axes(ang, down),
                int(round(ang / 90)) % 4 * 90,
                face_down=down,
            )
            fp = footprint(b, d)
            if not any(meets(fp, o) for o in outlines):
                bodies.append(b)
                outlines.append(fp)
                break
    return bodies

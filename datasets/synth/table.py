"""Procedural table surfaces (felt, wood, cloth, plain) and lighting fields for the renderer."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

TEX = 512  # texture side in pixels


@dataclass(frozen=True)
class Texture:
    image: np.ndarray  # BGR uint8, TEX × TEX
    world_from_tex: np.ndarray  # 3×3: texture pixel → table-plane mm


def _smooth_noise(rng: np.random.Generator, cells: int, size: int = TEX) -> np.ndarray:
    small = rng.standard_normal((cells, cells)).astype(np.float32)
    return cv2.resize(small, (size, size), interpolation=cv2.INTER_CUBIC)


_FELTS = [
    (60, 140, 40),
    (50, 120, 30),
    (80, 150, 60),
    (140, 120, 30),
    (150, 140, 40),
    (130, 90, 30),
    (100, 100, 100),
    (70, 80, 160),
    (60, 60, 60),
    (90, 60, 40),
]
_WOODS = [(60, 110, 160), (40, 80, 130), (90, 140, 190), (30, 55, 90), (120, 160, 200)]
_PLAIN = [
    (200, 200, 200),
    (170, 175, 180),
    (225, 225, 220),
    (120, 120, 125),
    (60, 60, 60),
    (200, 215, 225),
]


N_SURFACES = 160  # distinct procedural surfaces; each is made once per process and reused


def table_texture(rng: np.random.Generator) -> Texture:
    """A random table surface covering a square of the table plane around the tiles.

    One of :data:`N_SURFACES` surfaces (built from its own seed, cached), with this scene's
    colour gain, scale and offset, so the result depends only on ``rng``.
    """
    key = int(rng.integers(N_SURFACES))
    mm_per_px = rng.uniform(0.6, 1.6)
    gain = rng.uniform(0.88, 1.12, 3)
    image = cv2.transform(_surface(key, mm_per_px_hint(key)), np.diag(gain).astype(np.float32))
    half = TEX * mm_per_px / 2
    ox, oy = rng.uniform(-half, half), rng.uniform(-half, half)
    world = np.array([[mm_per_px, 0, -half + ox], [0, mm_per_px, -half + oy], [0, 0, 1.0]])
    return Texture(image, world)


def mm_per_px_hint(key: int) -> float:
    """The scale a cached surface's pattern was designed for (its weave/grain size)."""
    return 0.6 + (key * 0.618034 % 1.0)


@lru_cache(maxsize=N_SURFACES)
def _surface(key: int, mm_per_px: float) -> np.ndarray:
    rng = np.random.default_rng([7919, key])
    kind = rng.choice(["felt", "wood", "cloth", "plain"], p=[0.5, 0.2, 0.15, 0.15])
    yy, xx = np.mgrid[0:TEX, 0:TEX].astype(np.float32)
    if kind == "felt":
        base = np.array(_FELTS[int(rng.integers(len(_FELTS)))], np.float32)
        base = base * rng.uniform(0.8, 1.2, 3).astype(np.float32)
        lum = (
            1
            + 0.03 * _smooth_noise(rng, 6)
            + 0.035 * rng.standard_normal((TEX, TEX)).astype(np.float32)
        )
        img = base * lum[..., None]
    elif kind == "wood":
        base = np.array(_WOODS[int(rng.integers(len(_WOODS)))], np.float32)
        period = rng.uniform(3.0, 12.0) / mm_per_px
        freq = 2 * np.pi / period
        # grain runs along x: phase varies fast across it (y) and slowly along it (x)
        streaks = cv2.resize(
            rng.standard_normal((96, 4)).astype(np.float32),
            (TEX, TEX),
            interpolation=cv2.INTER_CUBIC,
        )
        phase = yy * freq + rng.uniform(0.3, 1.2) * np.pi * _smooth_noise(rng, 2) + 0.8 * streaks
        grain = 0.7 * np.sin(phase) + 0.3 * np.sin(2.7 * phase + 1.3)
        lum = (
            1
            + 0.09 * grain
            + 0.05 * streaks
            + 0.04 * _smooth_noise(rng, 6)
            + 0.015 * rng.standard_normal((TEX, TEX)).astype(np.float32)
        )
        img = base * lum[..., None]
        if rng.random() < 0.5:
            img = img.transpose(1, 0, 2)
    elif kind == "cloth":
        a = np.array(_FELTS[int(rng.integers(len(_FELTS)))], np.float32)
        b = np.array(_PLAIN[int(rng.integers(len(_PLAIN)))], np.float32)
        p = rng.uniform(6, 40) / mm_per_px
        sx = (np.sin(xx * np.pi / p) > rng.uniform(-0.5, 0.5)).astype(np.float32)
        sy = (np.sin(yy * np.pi / p) > rng.uniform(-0.5, 0.5)).astype(np.float32)
        stripes = cv2.GaussianBlur((sx + sy) / 2, (0, 0), 1.0)[..., None]
        mix = rng.uniform(0.1, 0.35)
        weave = 1 + 0.06 * np.sin(xx * 2.1) * np.sin(yy * 2.1)
        img = (a * (1 - mix * stripes) + b * mix * stripes) * weave[..., None]
    else:
        base = np.array(_PLAIN[int(rng.integers(len(_PLAIN)))], np.float32)
        lum = (
            1
            + 0.02 * _smooth_noise(rng, 8)
            + 0.015 * rng.standard_normal((TEX, TEX)).astype(np.float32)
        )
        img = base * lum[..., None]
    return np.clip(img, 0, 255).astype(np.uint8)


def light_field(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    """A smooth multiplicative light map (gradient + blotches), mean about 1."""
    gx, gy = rng.uniform(-0.35, 0.35, 2)
    small = rng.standard_normal((4, 4)).astype(np.float32) * rng.uniform(0.0, 0.12)
    ys, xs = np.mgrid[0:4, 0:4].astype(np.float32) / 3 - 0.5
    small += gx * xs + gy * ys + rng.uniform(0.8, 1.15)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def table_edge(
    img: np.ndarray,
    rng: np.random.Generator,
    plane_h: np.ndarray,
    extent: tuple[float, float, float, float],
    tilt_deg: float,
    tile_h: float,
) -> np.ndarray:
    """Paint a table rim (wood strip) and the room beyond it past one side of the layout.

    ``img`` is uint8 BGR; ``plane_h`` maps the table plane (mm) to the image; ``extent`` is
    the tiles' x0, y0, x1, y1 in the layout frame, which is turned by ``tilt_deg`` in the world.
    """
    h, w = img.shape[:2]
    s = 4
    us, vs = np.meshgrid(
        (np.arange(w // s + 1, dtype=np.float32) + 0.5) * s,
        (np.arange(h // s + 1, dtype=np.float32) + 0.5) * s,
    )
    hi = np.linalg.inv(plane_h).astype(np.float32)
    xw = hi[0, 0] * us + hi[0, 1] * vs + hi[0, 2]
    yw = hi[1, 0] * us + hi[1, 1] * vs + hi[1, 2]
    ww = hi[2, 0] * us + hi[2, 1] * vs + hi[2, 2]
    valid = ww > 1e-9
    ww = np.where(valid, ww, 1.0)
    xw, yw = xw / ww, yw / ww
    a = np.radians(-tilt_deg)
    xl = np.cos(a) * xw - np.sin(a) * yw
    yl = np.sin(a) * xw + np.cos(a) * yw
    side = int(rng.integers(4))
    gap = rng.uniform(0.3, 3.0) * tile_h
    x0, y0, x1, y1 = extent
    dist, along = [
        (y0 - gap - yl, xl),
        (yl - (y1 + gap), xl),
        (x0 - gap - xl, yl),
        (xl - (x1 + gap), yl),
    ][side]
    rim_w = rng.uniform(0, 70)
    beyond = (dist > rim_w) | ~valid
    rim = (dist > 0) & ~beyond
    wood = np.array(_WOODS[int(rng.integers(len(_WOODS)))], np.float32)
    grain = 1 + 0.08 * np.sin(along * rng.uniform(0.3, 1.5) + 3 * np.sin(along * 0.01))
    bevel = np.clip(dist / 6.0, 0.6, 1.0)  # darker where the rim meets the cloth
    rim_img = wood * (grain * bevel)[..., None] * rng.uniform(0.7, 1.2)
    room = np.array([rng.uniform(20, 140)] * 3, np.float32) * rng.uniform(0.7, 1.3, 3).astype(
        np.float32
    )
    yy = vs / h
    room_img = room * (0.6 + 0.6 * yy)[..., None] + 8 * _smooth_noise(rng, 5, 1)[0, 0]
    layer = np.clip(np.where(rim[..., None], rim_img, room_img), 0, 255).astype(np.uint8)
    alpha = (rim | beyond).astype(np.float32)
    layer = cv2.resize(layer, (w, h), interpolation=cv2.INTER_LINEAR)
    alpha = cv2.resize(alpha, (w, h), interpolation=cv2.INTER_LINEAR)
    return cv2.blendLinear(img, layer, 1.0 - alpha, alpha)

"""Scene geometry: tile boxes on the table plane (mm) and the phone camera that sees them.

World frame: x to the player's right, y away from the player, z up; the player's row has its
near edge on y = 0. A tile is a box (face width × face height × thickness) with its face on the
local +z side; the camera is a pinhole looking down at the layout at a pitch of 25–90°.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Dims:
    """Tile size in mm: face width, face height, thickness; ``split`` of the thickness is the
    face-coloured layer (the rest is the back colour)."""

    w: float
    h: float
    t: float
    split: float  # share of the thickness in the face colour


@dataclass(frozen=True)
class Prop:
    """A non-tile object drawn as a box, or as a disc (never labelled as a tile).

    ``kind`` names it (``stick``, ``led``, ``chip``, ...; :mod:`datasets.synth.clutter`).
    A ``disc`` (a chip, a coin) is a cylinder of diameter ``dims.w`` and height ``dims.t`` whose
    top shows ``top`` inside its circle (``mask`` cuts holes, e.g. a 5-yen coin's); a box may
    carry ``sides``, textures of its four side faces (a die's pips).
    """

    dims: Dims
    top: np.ndarray  # BGR texture of the top face
    side: np.ndarray  # BGR colour of the sides
    kind: str = "box"
    disc: bool = False
    mask: np.ndarray | None = None  # uint8 0/255 alpha of ``top`` (None: the rounded tile mask)
    sides: tuple[np.ndarray, ...] = ()


@dataclass
class Body:
    """One placed box: a tile (``tile`` id, ``group`` of the recognize JSON) or a prop."""

    tile: str
    group: str
    center: np.ndarray  # world mm (x right, y away from the player, z up)
    axes: np.ndarray  # 3×3 columns: face right, face up, face normal (world)
    rot: int
    face_down: bool = False
    standing: bool = False
    occluded: bool = False
    important: bool = True
    prop: Prop | None = None  # a non-tile object (rack, point stick, phone, paper)
    meld: int | None = None  # index into hand["melds"] for meld tiles


def flat_axes(rot_deg: float, face_down: bool = False) -> np.ndarray:
    """Axes of a tile lying on the table, its face turned ``rot_deg`` anticlockwise."""
    a = np.radians(rot_deg)
    right = np.array([np.cos(a), np.sin(a), 0.0])
    up = np.array([-np.sin(a), np.cos(a), 0.0])
    normal = np.array([0.0, 0.0, -1.0 if face_down else 1.0])
    return np.stack([right, up, normal], axis=1)


def standing_axes(yaw_deg: float) -> np.ndarray:
    """Axes of a tile standing on its short edge, face towards the player (yaw 0)."""
    a = np.radians(yaw_deg)
    right = np.array([np.cos(a), np.sin(a), 0.0])
    normal = np.array([np.sin(a), -np.cos(a), 0.0])  # faces the player (-y)
    return np.stack([right, np.array([0.0, 0.0, 1.0]), normal], axis=1)


SIGNS = np.array([[sx, sy, sz] for sz in (1, -1) for sy in (1, -1) for sx in (-1, 1)], float)
# corner index = (sz<0)*4 + (sy<0)*2 + (sx>0)
TOP = (0, 1, 3, 2)  # +z face: TL, TR, BR, BL of the symbol
BOTTOM = (5, 4, 6, 7)  # -z face seen from outside


def corners(b: Body, d: Dims) -> np.ndarray:
    """The 8 corners (world mm) of a body, in :data:`SIGNS` order."""
    if b.prop is not None:
        d = b.prop.dims
    half = np.array([d.w / 2, d.h / 2, d.t / 2])
    return b.center + (SIGNS * half) @ b.axes.T


def aabb(b: Body, d: Dims) -> tuple[float, float, float, float]:
    """Footprint box on the table: x0, y0, x1, y1 (mm)."""
    p = corners(b, d)
    return p[:, 0].min(), p[:, 1].min(), p[:, 0].max(), p[:, 1].max()


def overlap(a: Body, b: Body, d: Dims, margin: float = 1.0) -> bool:
    """Footprints (table-plane boxes) of two bodies overlap (stacked tiles excepted)."""
    if abs(a.center[2] - b.center[2]) > 0.5 * d.t and a.prop is None and b.prop is None:
        return False
    ax0, ay0, ax1, ay1 = aabb(a, d)
    bx0, by0, bx1, by1 = aabb(b, d)
    return ax0 < bx1 + margin and bx0 < ax1 + margin and ay0 < by1 + margin and by0 < ay1 + margin


def drop_overlapping(bodies: list[Body], d: Dims) -> list[Body]:
    """Keep the hand; drop any distractor or prop whose footprint meets one already kept."""
    kept = [b for b in bodies if b.important]
    boxes = [aabb(b, d) for b in kept]
    for b in bodies:
        if b.important:
            continue
        x0, y0, x1, y1 = aabb(b, d)
        hit = False
        for k, (kx0, ky0, kx1, ky1) in zip(kept, boxes, strict=True):
            if x0 < kx1 - 0.05 and kx0 < x1 - 0.05 and y0 < ky1 - 0.05 and ky0 < y1 - 0.05:
                stacked = (
                    abs(b.center[2] - k.center[2]) > 0.5 * d.t and b.prop is None and k.prop is None
                )
                if not stacked:
                    hit = True
                    break
        if not hit:
            kept.append(b)
            boxes.append((x0, y0, x1, y1))
    return kept


def rotate_world(bodies: list[Body], ang_deg: float) -> None:
    """Turn the whole layout about the world origin (a tilted row in the photo)."""
    a = np.radians(ang_deg)
    rz = np.array([[np.cos(a), -np.sin(a), 0], [np.sin(a), np.cos(a), 0], [0, 0, 1.0]])
    for b in bodies:
        b.center = rz @ b.center
        b.axes = rz @ b.axes


@dataclass(frozen=True)
class Camera:
    """Pinhole camera: intrinsics ``k``, world→camera rotation ``r``, centre ``c`` (mm)."""

    k: np.ndarray
    r: np.ndarray  # world → camera rotation (rows: x right, y down, z forward)
    c: np.ndarray  # camera centre (world)

    def project(self, pts: np.ndarray) -> np.ndarray:
        pc = (pts - self.c) @ self.r.T
        z = np.maximum(pc[:, 2:3], 1e-3)
        uv = pc[:, :2] / z
        return uv * [self.k[0, 0], self.k[1, 1]] + [self.k[0, 2], self.k[1, 2]]

    def plane_homography(self) -> np.ndarray:
        """Table plane z=0 (world x, y in mm) → image."""
        t = -self.r @ self.c
        return self.k @ np.stack([self.r[:, 0], self.r[:, 1], t], axis=1)


def look_at(
    pitch_deg: float,
    dist: float,
    target: np.ndarray,
    f: float,
    cx: float,
    cy: float,
    roll_deg: float = 0.0,
) -> Camera:
    """A camera ``dist`` mm from ``target``, on the player's side, looking down at ``pitch``,
    turned by ``roll_deg`` about its optical axis (a phone not held level)."""
    p = np.radians(pitch_deg)
    c = target + dist * np.array([0.0, -np.cos(p), np.sin(p)])
    fwd = (target - c) / np.linalg.norm(target - c)
    right = np.array([1.0, 0.0, 0.0])
    right = right - fwd * (right @ fwd)
    right /= np.linalg.norm(right)
    down = np.cross(fwd, right)
    r = np.radians(roll_deg)
    right, down = np.cos(r) * right + np.sin(r) * down, -np.sin(r) * right + np.cos(r) * down
    k = np.array([[f, 0, cx], [0, f, cy], [0, 0, 1.0]])
    return Camera(k, np.stack([right, down, fwd]), c)


def visible_share(uv: np.ndarray, size: tuple[int, int]) -> float:
    """Share of the projected box inside the image."""
    (x0, y0), (x1, y1) = uv.min(axis=0), uv.max(axis=0)
    w, h = size
    area = max((x1 - x0) * (y1 - y0), 1e-6)
    iw = max(0.0, min(x1, w) - max(x0, 0))
    ih = max(0.0, min(y1, h) - max(y0, 0))
    return float(iw * ih / area)


def fit_camera(
    rng: np.random.Generator, bodies: list[Body], d: Dims, size: tuple[int, int], pitch: float
) -> Camera:
    """Frame the important bodies: 72–94% of the frame, near its centre, 2% margins."""
    w, h = size
    f = (w / 2) / np.tan(np.radians(rng.uniform(55, 75)) / 2)
    roll = float(rng.normal(0, 3))
    pts = np.concatenate([corners(b, d) for b in bodies if b.important])
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    target = np.array([(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, 0.0])
    fill = rng.uniform(0.72, 0.94)
    dist = 600.0
    for _ in range(4):
        cam = look_at(pitch, dist, target, f, w / 2, h / 2, roll)
        uv = cam.project(pts)
        span = max((uv[:, 0].max() - uv[:, 0].min()) / w, (uv[:, 1].max() - uv[:, 1].min()) / h)
        dist *= span / fill
    mx, my = 0.02 * w, 0.02 * h
    while True:  # back off until the hand fits inside the margins
        cam = look_at(pitch, dist, target, f, w / 2, h / 2, roll)
        uv = cam.project(pts)
        (u0, v0), (u1, v1) = uv.min(axis=0), uv.max(axis=0)
        if u1 - u0 <= w - 2 * mx and v1 - v0 <= h - 2 * my:
            break
        dist *= 1.05
    # photographers centre the hand: the layout's centre lands near the image centre
    cx = w / 2 + float(
        np.clip(w / 2 - (u0 + u1) / 2 + rng.normal(0, 0.1 * w), mx - u0, w - mx - u1)
    )
    cy = h / 2 + float(
        np.clip(h / 2 - (v0 + v1) / 2 + rng.normal(0, 0.1 * h), my - v0, h - my - v1)
    )
    return look_at(pitch, dist, target, f, cx, cy, roll)


def zoom(
    rng: np.random.Generator, cam: Camera, bodies: list[Body], size: tuple[int, int]
) -> Camera:
    """Zoom in on a random tile of the layout (a close-up photo)."""
    w, h = size
    z = rng.uniform(1.4, 2.5)
    anchor = bodies[int(rng.integers(len(bodies)))]
    ua, va = cam.project(anchor.center[None, :])[0]
    tx, ty = rng.uniform(0.25, 0.75) * w, rng.uniform(0.25, 0.75) * h
    k = cam.k.copy()
    k[0, 0] *= z
    k[1, 1] *= z
    k[0, 2] = tx - z * (ua - cam.k[0, 2])
    k[1, 2] = ty - z * (va - cam.k[1, 2])
    return Camera(k, cam.r, cam.c)

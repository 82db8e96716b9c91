"""Render a photo-like scene of a sanma hand on a table, with exact ground truth.

Tiles are 3D boxes (face layer in the face colour, back layer in the set's back colour) laid
on the table plane and seen by a perspective phone camera looking down at 30–90°. The layout
follows the table conventions (shared/RULES.md "Calls on kita" §23–24, hand JSON of CONTRACT):
concealed row, the winning tile a little apart at its end, called melds to the right (the
sideways tile's position says whom it was called from), ankan with its two ends face-down,
kita set aside singly near the melds, dora indicators apart, and distractor tiles (group
"other"): discards, other players' tiles, four-player manzu, flowers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import cv2
import numpy as np

from datasets.synth.faces import (
    BACK_COLOURS,
    FACE_H,
    FACE_W,
    FOUR_PLAYER_ONLY,
    FaceBank,
    back_face,
    load_bank,
)
from datasets.synth.hands import KINDS, HandSpec, random_hand_spec
from datasets.synth.table import light_field, table_edge, table_texture

__all__ = ["HandSpec", "Scene", "TileLabel", "random_hand_spec", "render_scene"]


@dataclass(frozen=True)
class TileLabel:
    """Ground truth of one tile in the image.

    ``tile``: MPSZ id, ``"back"`` when face-down (``hidden`` then holds the tile underneath).
    ``box``: xyxy pixels of the whole visible tile (face and sides). ``quad``: the 4 image
    corners of the face (or of the back, when face-down) in reading order TL, TR, BR, BL of the
    symbol, so warping ``quad`` to a rectangle gives an upright face. ``angle``: 0 or 90
    (sideways). ``rot``: the face's in-plane turn 0/90/180/270 as the player sees it.
    ``occluded``: the face is covered (a kakan tile under the added one).
    """

    tile: str
    box: tuple[float, float, float, float]
    quad: tuple[tuple[float, float], ...]
    angle: int
    face_down: bool
    group: str
    rot: int = 0
    hidden: str | None = None
    occluded: bool = False
    standing: bool = False
    truncated: bool = False  # cut by the image border (only group "other"); box is clipped
    visible: float = 1.0  # share of the tile's full box inside the image
    face_visible: float = 1.0  # share of the face (quad) in view and not hidden by nearer tiles
    meld: int | None = None  # for group "meld": index of its meld in hand["melds"]

    @property
    def red(self) -> bool:
        return self.tile in ("0m", "0p", "0s")

    def to_json(self) -> dict[str, object]:
        return {
            "tile": self.tile,
            "red": self.red,
            "box": [round(v, 1) for v in self.box],
            "quad": [[round(x, 1), round(y, 1)] for x, y in self.quad],
            "angle": self.angle,
            "rot": self.rot,
            "face_down": self.face_down,
            "group": self.group,
            "hidden": self.hidden,
            "occluded": self.occluded,
            "standing": self.standing,
            "truncated": self.truncated,
            "visible": self.visible,
            "face_visible": self.face_visible,
            "meld": self.meld,
        }


@dataclass
class Scene:
    """A rendered photo (BGR uint8), its tile labels and the ground-truth hand dict."""

    image: np.ndarray
    tiles: list[TileLabel]
    hand: dict[str, object]
    meta: dict[str, object] = field(default_factory=dict)

    def to_json(self) -> dict[str, object]:
        h, w = self.image.shape[:2]
        return {"width": w, "height": h, "tiles": [t.to_json() for t in self.tiles],
                "hand": self.hand, "meta": self.meta}


# ---------------------------------------------------------------------------- geometry


@dataclass
class _Body:
    tile: str
    group: str
    center: np.ndarray  # world mm (x right, y away from the player, z up)
    axes: np.ndarray  # 3×3 columns: face right, face up, face normal (world)
    rot: int
    face_down: bool = False
    standing: bool = False
    occluded: bool = False
    important: bool = True
    prop: _Prop | None = None  # a non-tile object (rack, point stick, phone, paper)
    meld: int | None = None  # index into hand["melds"] for meld tiles


@dataclass(frozen=True)
class _Dims:
    w: float
    h: float
    t: float
    split: float  # share of the thickness in the face colour


@dataclass(frozen=True)
class _Prop:
    dims: _Dims
    top: np.ndarray  # BGR texture of the top face
    side: np.ndarray  # BGR colour of the sides


def _flat_axes(rot_deg: float, face_down: bool = False) -> np.ndarray:
    a = np.radians(rot_deg)
    right = np.array([np.cos(a), np.sin(a), 0.0])
    up = np.array([-np.sin(a), np.cos(a), 0.0])
    normal = np.array([0.0, 0.0, -1.0 if face_down else 1.0])
    return np.stack([right, up, normal], axis=1)


def _standing_axes(yaw_deg: float) -> np.ndarray:
    a = np.radians(yaw_deg)
    right = np.array([np.cos(a), np.sin(a), 0.0])
    normal = np.array([np.sin(a), -np.cos(a), 0.0])  # faces the player (-y)
    return np.stack([right, np.array([0.0, 0.0, 1.0]), normal], axis=1)


_SIGNS = np.array([[sx, sy, sz] for sz in (1, -1) for sy in (1, -1) for sx in (-1, 1)], float)
# corner index = (sz<0)*4 + (sy<0)*2 + (sx>0)
_TOP = (0, 1, 3, 2)  # +z face: TL, TR, BR, BL of the symbol
_BOTTOM = (5, 4, 6, 7)  # -z face seen from outside


def _corners(b: _Body, d: _Dims) -> np.ndarray:
    if b.prop is not None:
        d = b.prop.dims
    half = np.array([d.w / 2, d.h / 2, d.t / 2])
    return b.center + (_SIGNS * half) @ b.axes.T


@dataclass(frozen=True)
class _Camera:
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


def _camera(pitch_deg: float, dist: float, target: np.ndarray, f: float, cx: float,
            cy: float) -> _Camera:
    p = np.radians(pitch_deg)
    c = target + dist * np.array([0.0, -np.cos(p), np.sin(p)])
    fwd = (target - c) / np.linalg.norm(target - c)
    right = np.array([1.0, 0.0, 0.0])
    right = right - fwd * (right @ fwd)
    right /= np.linalg.norm(right)
    down = np.cross(fwd, right)
    k = np.array([[f, 0, cx], [0, f, cy], [0, 0, 1.0]])
    return _Camera(k, np.stack([right, down, fwd]), c)


# ---------------------------------------------------------------------------- layout


def _place_row(tiles: list[str], x0: float, d: _Dims, rng: np.random.Generator, group: str,
               gap: tuple[float, float], standing: bool = False) -> tuple[list[_Body], float]:
    bodies, x = [], x0
    for t in tiles:
        jit_y = rng.normal(0, 0.35)
        ang = rng.normal(0, 0.8)
        down = t == "back"
        if standing and not down:
            c = np.array([x + d.w / 2, d.t / 2 + jit_y, d.h / 2])
            bodies.append(_Body(t, group, c, _standing_axes(ang), 0, standing=True))
        else:
            c = np.array([x + d.w / 2, d.h / 2 + jit_y, d.t / 2])
            bodies.append(_Body(t, group, c, _flat_axes(ang, down), 0, face_down=down))
        x += d.w + rng.uniform(*gap)
    return bodies, x


def _layout(spec: HandSpec, d: _Dims, rng: np.random.Generator) -> list[_Body]:
    """Bodies of the player's hand, melds, kita and dora (world mm, near edge at y=0)."""
    standing = bool(rng.random() < 0.12) and not spec.melds
    touch = (0.1, 0.9)
    bodies, x = _place_row(list(spec.concealed), 0.0, d, rng, "hand", touch, standing)
    if spec.win:
        x -= touch[1] * rng.random()
        if not spec.plain:
            x += rng.uniform(0.25, 0.9) * d.w
        wb, x = _place_row([spec.win], x, d, rng, "win", touch, standing)
        bodies += wb
    row_depth = d.t if standing else d.h
    x += rng.uniform(0.6, 2.2) * d.w if spec.melds else 0.0
    meld_x0 = x
    for mi, m in enumerate(spec.melds):
        first = len(bodies)
        for i, t in enumerate(m.tiles[:3] if m.kind == "kakan" else m.tiles):
            if i == m.called:
                rot = 90 if rng.random() < 0.85 else 270
                c = np.array([x + d.h / 2, d.w / 2 + rng.normal(0, 0.3), d.t / 2])
                bodies.append(_Body(t, "meld", c, _flat_axes(rot + rng.normal(0, 1)), rot))
                if m.kind == "kakan":
                    add = m.tiles[3]
                    if m.stacked:
                        bodies[-1].occluded = True
                        c2 = c + [rng.normal(0, 0.6), rng.normal(0, 0.6), d.t]
                    else:
                        c2 = c + [rng.normal(0, 0.4), d.w + rng.uniform(0.1, 1.0), 0]
                    bodies.append(_Body(add, "meld", c2, _flat_axes(rot + rng.normal(0, 1.2)),
                                        rot))
                x += d.h + rng.uniform(*touch)
            else:
                down = m.kind == "ankan" and i in (0, 3)
                c = np.array([x + d.w / 2, d.h / 2 + rng.normal(0, 0.3), d.t / 2])
                bodies.append(_Body(t, "meld", c, _flat_axes(rng.normal(0, 0.8), down), 0,
                                    face_down=down))
                x += d.w + rng.uniform(*touch)
        for b in bodies[first:]:
            b.meld = mi
        x += rng.uniform(0.3, 1.4) * d.w
    if spec.kita:
        sideways = rng.random() < 0.15
        if spec.melds and rng.random() < 0.5:  # above the melds
            top = max(_aabb(b, d)[3] for b in bodies)
            kx, ky = meld_x0 + rng.uniform(-0.5, 1.5) * d.w, top + rng.uniform(0.4, 1.5) * d.w
        else:  # to the right
            kx, ky = x + rng.uniform(0.3, 1.5) * d.w, rng.uniform(-0.1, 0.4) * d.w
        for t in spec.kita:
            rot = 90 if sideways else 0
            span = d.h if sideways else d.w
            depth = d.w if sideways else d.h
            c = np.array([kx + span / 2, ky + depth / 2, d.t / 2])
            bodies.append(_Body(t, "kita", c, _flat_axes(rot + rng.normal(0, 5)), rot))
            kx += span + rng.uniform(0.25, 1.0) * d.w
    if spec.dora:
        dx = rng.uniform(-2.0, 4.0) * d.w
        dy = row_depth + rng.uniform(0.5, 2.0) * d.h
        walls = bool(rng.random() < 0.5)
        tiles = (["back"] * int(rng.integers(1, 4)) if walls else []) + list(spec.dora)
        tiles += ["back"] * int(rng.integers(1, 4)) if walls else []
        for t in tiles:
            c = np.array([dx + d.w / 2, dy + d.h / 2, d.t / 2])
            if t == "back":
                bodies.append(_Body("back", "other", c, _flat_axes(rng.normal(0, 1), True), 0,
                                    face_down=True))
            else:
                bodies.append(_Body(t, "dora", c, _flat_axes(rng.normal(0, 1)), 0))
            dx += d.w + rng.uniform(0.1, 0.8)
        dora = [b for b in bodies if b.group in ("dora", "other")]
        rest = [b for b in bodies if b.group not in ("dora", "other")]
        while any(_overlap(a, b, d, 2.0) for a in dora for b in rest):
            for b in dora:  # move the dead wall further away until it is clear
                b.center = b.center + [0.0, d.h * 0.5, 0.0]
    return bodies


def _aabb(b: _Body, d: _Dims) -> tuple[float, float, float, float]:
    p = _corners(b, d)
    return p[:, 0].min(), p[:, 1].min(), p[:, 0].max(), p[:, 1].max()


def _overlap(a: _Body, b: _Body, d: _Dims, margin: float = 1.0) -> bool:
    """Footprints (table-plane boxes) of two bodies overlap (stacked tiles excepted)."""
    if abs(a.center[2] - b.center[2]) > 0.5 * d.t and a.prop is None and b.prop is None:
        return False
    ax0, ay0, ax1, ay1 = _aabb(a, d)
    bx0, by0, bx1, by1 = _aabb(b, d)
    return ax0 < bx1 + margin and bx0 < ax1 + margin and ay0 < by1 + margin \
        and by0 < ay1 + margin


def _distractor_tile(rng: np.random.Generator, four_player: bool) -> str:
    r = rng.random()
    if r < 0.05:
        return "flower"
    if four_player and r < 0.3:
        return FOUR_PLAYER_ONLY[int(rng.integers(len(FOUR_PLAYER_ONLY)))]
    if r < 0.1:
        return ["0p", "0s"][int(rng.integers(2))]
    return KINDS[int(rng.integers(len(KINDS)))]


def _distractors(rng: np.random.Generator, d: _Dims, extent: tuple[float, float, float, float],
                 ) -> list[_Body]:
    """Discards in front and at the sides, other players' standing rows (group "other")."""
    x0, y0, x1, y1 = extent
    four = bool(rng.random() < 0.15)
    out: list[_Body] = []
    far = rng.choice(["discards", "grid", "wall"], p=[0.55, 0.25, 0.2])
    if far == "grid":  # a dense block of face-up tiles (a tray, a sorted set, a photo setup)
        rows, cols = int(rng.integers(2, 6)), int(rng.integers(3, 11))
        rot = 180 if rng.random() < 0.25 else 0
        gx = (x0 + x1) / 2 - cols * (d.w + 0.5) / 2 + rng.normal(0, d.w)
        gy = y1 + rng.uniform(0.4, 1.5) * d.h
        for r in range(rows):
            for k in range(cols):
                c = np.array([gx + k * (d.w + rng.uniform(0.2, 1.0)) + d.w / 2,
                              gy + r * (d.h + rng.uniform(0.2, 1.0)) + d.h / 2, d.t / 2])
                out.append(_Body(_distractor_tile(rng, four), "other", c,
                                 _flat_axes(rot + rng.normal(0, 1.0)), rot, important=False))
    elif far == "wall":  # a wall: face-down tiles stacked two high
        n = int(rng.integers(6, 18))
        wx = (x0 + x1) / 2 - n * (d.w + 0.3) / 2 + rng.normal(0, d.w)
        wy = y1 + rng.uniform(0.5, 2.0) * d.h
        for k in range(n):
            for layer in range(2 if rng.random() < 0.9 else 1):
                c = np.array([wx + k * (d.w + 0.3) + d.w / 2, wy + d.h / 2 + rng.normal(0, 0.4),
                              d.t / 2 + layer * d.t])
                out.append(_Body("back", "other", c, _flat_axes(rng.normal(0, 0.8), True), 0,
                                 face_down=True, important=False))
            if layer == 1:
                out[-2].occluded = True
    if far == "discards" and rng.random() < 0.8:  # own discards: rows of six in front
        rows = int(rng.integers(1, 4))
        n = int(rng.integers(3, 7 * rows))
        px = (x0 + x1) / 2 - 3 * d.w + rng.normal(0, d.w)
        py = y1 + rng.uniform(0.8, 2.5) * d.h
        for i in range(n):
            r, k = divmod(i, 6)
            c = np.array([px + k * (d.w + 0.5) + d.w / 2, py + r * (d.h + 0.8) + d.h / 2,
                          d.t / 2])
            out.append(_Body(_distractor_tile(rng, four), "other", c,
                             _flat_axes(rng.normal(0, 1.5)), 0, important=False))
    for side in (-1, 1):  # other players' discards, turned towards them
        if rng.random() < 0.45:
            rot = 270 if side < 0 else 90
            bx = x0 - rng.uniform(1.5, 4) * d.h if side < 0 else x1 + rng.uniform(1.5, 4) * d.h
            by = y1 + rng.uniform(-1, 2) * d.h
            for i in range(int(rng.integers(2, 12))):
                r, k = divmod(i, 6)
                c = np.array([bx - side * r * (d.h + 0.8), by + k * (d.w + 0.5), d.t / 2])
                out.append(_Body(_distractor_tile(rng, four), "other", c,
                                 _flat_axes(rot + rng.normal(0, 1.5)), rot, important=False))
    if rng.random() < 0.25:  # a row of standing tiles seen from behind (backs)
        by = y1 + rng.uniform(4, 7) * d.h
        bx = (x0 + x1) / 2 - 6 * d.w
        for i in range(int(rng.integers(6, 14))):
            c = np.array([bx + i * (d.w + 0.3) + d.w / 2, by, d.h / 2])
            ax = _standing_axes(180 + rng.normal(0, 1))
            out.append(_Body("back", "other", c, ax, 0, face_down=True, standing=True,
                             important=False))
    if rng.random() < 0.12:  # flowers set aside (Hong Kong play): look like kita, are not
        fx = x1 + rng.uniform(0.5, 2.0) * d.w
        for _ in range(int(rng.integers(1, 3))):
            c = np.array([fx + d.w / 2, y0 + rng.uniform(0, 1.5) * d.h + d.h / 2, d.t / 2])
            out.append(_Body("flower", "other", c, _flat_axes(rng.normal(0, 4)), 0,
                             important=False))
            fx += d.w + rng.uniform(0.2, 1.0) * d.w
    if rng.random() < 0.3:  # a tile upside down near the row, e.g. a discard being taken
        c = np.array([rng.uniform(x0, x1), y1 + rng.uniform(0.5, 1.2) * d.h, d.t / 2])
        out.append(_Body(_distractor_tile(rng, four), "other", c,
                         _flat_axes(180 + rng.normal(0, 8)), 180, important=False))
    return out


def _prop_texture(rng: np.random.Generator, kind: str, colour: np.ndarray) -> np.ndarray:
    h, w = (128, 16) if kind == "stick" else (96, 64)
    img = np.empty((h, w, 3), np.float32)
    img[:] = colour
    img *= (1 + 0.08 * np.linspace(-1, 1, h, dtype=np.float32))[:, None, None]
    if kind == "stick":  # point stick: dots in the middle
        n = int(rng.choice([1, 2, 5, 8]))
        dot = (40, 40, 200) if n in (1, 5) else (30, 30, 30)
        for k in range(n):
            cy = int(h / 2 + (k - (n - 1) / 2) * 9)
            cv2.circle(img, (w // 2, cy), 3, dot, -1, cv2.LINE_AA)
    elif kind == "phone":
        cv2.rectangle(img, (4, 6), (w - 5, h - 7), (20, 20, 25), -1)
        cv2.circle(img, (w // 3, h // 4), 18, (60, 60, 70), -1, cv2.LINE_AA)
    elif kind == "paper":
        for y in range(12, h - 8, int(rng.integers(6, 12))):
            x1 = int(rng.integers(w // 3, w - 6))
            cv2.line(img, (6, y), (x1, y), tuple(float(c) * 0.55 for c in colour), 1)
    return np.clip(img, 0, 255).astype(np.uint8)


def _props(rng: np.random.Generator, d: _Dims, extent: tuple[float, float, float, float],
           rack: bool = True) -> list[_Body]:
    """Racks, point sticks, a phone, papers: non-tile clutter (never labelled).

    A rack in front of the row only with a steep camera (``rack``), so it never hides faces.
    """
    x0, y0, x1, y1 = extent
    out: list[_Body] = []

    def add(kind: str, dims: _Dims, centre: np.ndarray, ang: float, colour: np.ndarray,
            side: np.ndarray) -> None:
        prop = _Prop(dims, _prop_texture(rng, kind, colour), side)
        out.append(_Body("prop", "prop", centre, _flat_axes(ang), 0, important=False,
                         prop=prop))

    if rng.random() < 0.35 and rack:  # a rack in front of the player
        length = rng.uniform(1.0, 1.3) * (x1 - x0)
        dims = _Dims(length, rng.uniform(30, 50), rng.uniform(12, 22), 0.5)
        col = np.array([rng.uniform(10, 120)] * 3) * rng.uniform(0.8, 1.2, 3)
        c = np.array([(x0 + x1) / 2 + rng.normal(0, 20), y0 - rng.uniform(5, 40) - dims.h / 2,
                      dims.t / 2])
        add("rack", dims, c, rng.normal(0, 1.5), col, col * 0.8)
    n_sticks = int(rng.integers(1, 7)) if rng.random() < 0.35 else 0
    others = ["phone"] if rng.random() < 0.15 else []
    others += ["paper"] * int(rng.random() < 0.2)
    for kind in ["stick"] * n_sticks + others:
        for _ in range(12):
            cx = rng.uniform(x0 - 250, x1 + 250)
            cy = rng.uniform(y0 - 150, y1 + 250)
            if not (x0 - 60 < cx < x1 + 60 and y0 - 60 < cy < y1 + 60):
                break
        else:
            continue
        ang = rng.uniform(0, 180)
        if kind == "stick":
            dims = _Dims(rng.uniform(8, 10), rng.uniform(95, 110), 3.0, 0.5)
            col = np.array([235, 240, 240]) * rng.uniform(0.85, 1.0)
        elif kind == "phone":
            dims = _Dims(72, 150, 8.0, 0.5)
            col = np.array([rng.uniform(20, 200)] * 3)
        else:
            dims = _Dims(rng.uniform(80, 210), rng.uniform(100, 290), 0.4, 0.5)
            col = np.array([rng.uniform(200, 250)] * 3) * rng.uniform(0.9, 1.0, 3)
        add(kind, dims, np.array([cx, cy, dims.t / 2]), ang, col, col * 0.85)
    return out


# ---------------------------------------------------------------------------- drawing


def _poly(img: np.ndarray, pts: np.ndarray, colour: np.ndarray) -> None:
    cv2.fillConvexPoly(img, np.round(pts * 16).astype(np.int32),
                       tuple(float(c) for c in np.clip(colour, 0, 255)), cv2.LINE_AA, 4)


@lru_cache(maxsize=1)
def _rounded_mask() -> np.ndarray:
    """A face-sized mask with rounded corners (radius ~9% of the width), uint8 0/255."""
    m = np.zeros((FACE_H * 2, FACE_W * 2), np.uint8)
    r = int(FACE_W * 2 * 0.09)
    w, h = FACE_W * 2, FACE_H * 2
    cv2.rectangle(m, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(m, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(m, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return cv2.resize(m, (FACE_W, FACE_H), interpolation=cv2.INTER_AREA)


def _warp_face(img: np.ndarray, face: np.ndarray, quad: np.ndarray, shade: float,
               gloss: tuple[float, float, float, float] | None = None) -> None:
    """Paste ``face`` onto the image quad; ``gloss`` = (amp, dir x, dir y, offset) streak."""
    h, w = img.shape[:2]
    x0, y0 = np.floor(quad.min(axis=0)).astype(int)
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 1
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1 - x0 < 2 or y1 - y0 < 2:
        return
    fh, fw = face.shape[:2]
    side = max(np.linalg.norm(quad[0] - quad[3]), np.linalg.norm(quad[1] - quad[2]))
    if side < 0.6 * fh:  # pre-shrink: warpPerspective does not filter when minifying
        s = max(side * 1.4 / fh, 0.1)
        face = cv2.resize(face, (max(int(fw * s), 4), max(int(fh * s), 4)),
                          interpolation=cv2.INTER_AREA)
        fh, fw = face.shape[:2]
    src = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)
    dst = (quad - [x0, y0]).astype(np.float32)
    m = cv2.getPerspectiveTransform(src, dst)
    warped = cv2.warpPerspective(face, m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_REPLICATE)
    rounded = _rounded_mask()  # the face's rounded corners
    rh, rw = rounded.shape
    m_mask = cv2.getPerspectiveTransform(
        np.array([[0, 0], [rw, 0], [rw, rh], [0, rh]], np.float32), dst)
    mask = cv2.warpPerspective(rounded, m_mask, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    a = mask.astype(np.float32)[..., None] * (1.0 / 255.0)
    roi = img[y0:y1, x0:x1].astype(np.float32)
    src_f = warped.astype(np.float32) * shade
    if gloss is not None:  # a specular streak across the glossy face
        amp, gx, gy, off = gloss
        yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
        dist = np.abs(xx * gx + yy * gy - off)
        src_f += (amp * np.clip(1.0 - dist / (0.35 * side + 1), 0, 1))[..., None]
    roi += (src_f - roi) * a
    np.clip(roi, 0, 255, out=roi)
    img[y0:y1, x0:x1] = roi


@dataclass
class _Style:
    source: str | None
    back: np.ndarray
    back_img: np.ndarray
    ivory: np.ndarray
    light: np.ndarray  # unit vector towards the light
    ambient: float
    gloss: tuple[float, float, float] | None = None  # amp, direction (unit) in the image


def _draw_body(img: np.ndarray, b: _Body, d: _Dims, cam: _Camera, face: np.ndarray,
               st: _Style, lit: float) -> None:
    back_img, ivory, backc = st.back_img, st.ivory, st.back
    if b.prop is not None:
        d = b.prop.dims
        face = back_img = b.prop.top
        ivory = backc = b.prop.side
    pts3 = _corners(b, d)
    pts = cam.project(pts3)
    half = np.array([d.w / 2, d.h / 2, d.t / 2])
    for axis in range(3):
        for sign in (-1.0, 1.0):
            n = b.axes[:, axis] * sign
            fc = b.center + n * half[axis]
            if n @ (cam.c - fc) <= 0:
                continue
            shade = lit * (st.ambient + (1 - st.ambient) * max(0.0, float(n @ st.light)) * 1.1)
            if axis == 2:
                idx = _TOP if sign > 0 else _BOTTOM
                tex = face if sign > 0 else back_img
                gl = None
                if st.gloss is not None and sign > 0 and b.prop is None:
                    amp, gx, gy = st.gloss
                    c = pts[list(idx)].mean(axis=0)
                    off = c[0] * gx + c[1] * gy + float(np.sin(c[0] * 0.37 + c[1] * 0.11)) \
                        * np.linalg.norm(pts[idx[0]] - pts[idx[3]]) * 0.5
                    gl = (amp, gx, gy, off)
                _warp_face(img, tex, pts[list(idx)], shade, gl)
                # bevel: a thin light rim on the top face edges
                q = pts[list(idx)]
                cv2.polylines(img, [np.round(q * 16).astype(np.int32)], True,
                              tuple(float(v) for v in np.clip(ivory * shade * 1.08
                                                              if sign > 0 else backc * shade
                                                              * 1.2, 0, 255)),
                              1, cv2.LINE_AA, 4)
                continue
            # side face: corners with the chosen sign on `axis`, ordered around the quad
            sel = [i for i in range(8) if _SIGNS[i, axis] == sign]
            top = [i for i in sel if _SIGNS[i, 2] > 0]
            bot = [i for i in sel if _SIGNS[i, 2] < 0]
            top_pts, bot_pts = pts[top], pts[bot]
            # split between the face layer and the back layer
            s = 1.0 - 2.0 * d.split
            t = (1 - s) / 2  # fraction from top to the split line
            mid = top_pts + (bot_pts - top_pts) * t
            front_layer = np.array([top_pts[0], top_pts[1], mid[1], mid[0]])
            back_layer = np.array([mid[0], mid[1], bot_pts[1], bot_pts[0]])
            _poly(img, front_layer, ivory * shade * 0.97)
            _poly(img, back_layer, backc * shade)


def _visible(uv: np.ndarray, size: tuple[int, int]) -> float:
    """Share of the projected box inside the image."""
    (x0, y0), (x1, y1) = uv.min(axis=0), uv.max(axis=0)
    w, h = size
    area = max((x1 - x0) * (y1 - y0), 1e-6)
    iw = max(0.0, min(x1, w) - max(x0, 0))
    ih = max(0.0, min(y1, h) - max(y0, 0))
    return float(iw * ih / area)


def _face_visibility(bodies: list[_Body], order: np.ndarray, d: _Dims, cam: _Camera,
                     size: tuple[int, int]) -> list[float]:
    """Share of each body's face (top quad) not hidden by nearer bodies, at 1/2 resolution."""
    s = 2
    w, h = size
    ids = np.full((h // s + 1, w // s + 1), -1, np.int32)
    hulls, quads = {}, {}
    for i in order:  # far to near: nearer bodies overwrite
        b = bodies[i]
        uv = cam.project(_corners(b, d)) / s
        hull = cv2.convexHull(uv.astype(np.float32)).reshape(-1, 2)
        hulls[i] = hull
        quads[i] = uv[list(_BOTTOM if b.face_down else _TOP)]
        cv2.fillConvexPoly(ids, np.round(hull).astype(np.int32), int(i))
    out = []
    for i, b in enumerate(bodies):
        if b.prop is not None:
            out.append(0.0)
            continue
        q = quads[i]
        x0, y0 = np.floor(np.maximum(q.min(axis=0), 0)).astype(int)
        x1, y1 = np.ceil(q.max(axis=0)).astype(int) + 1
        x1, y1 = min(x1, ids.shape[1]), min(y1, ids.shape[0])
        full = 0.5 * abs(float(np.cross(np.append(q[2] - q[0], 0), np.append(q[3] - q[1], 0))[2]))
        if x1 <= x0 or y1 <= y0 or full < 1e-6:
            out.append(0.0)
            continue
        m = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillConvexPoly(m, np.round(q - [x0, y0]).astype(np.int32), 1)
        mine = int(((ids[y0:y1, x0:x1] == i) & (m > 0)).sum())
        out.append(float(min(1.0, mine / max(full, float(m.sum()), 1.0))))
    return out


def _label(b: _Body, d: _Dims, cam: _Camera, size: tuple[int, int],
           face_visible: float = 1.0) -> TileLabel:
    pts = cam.project(_corners(b, d))
    quad = pts[list(_BOTTOM if b.face_down else _TOP)]
    vis = _visible(pts, size)
    w, h = size
    x0, y0 = np.clip(pts.min(axis=0), 0, [w, h])
    x1, y1 = np.clip(pts.max(axis=0), 0, [w, h])
    angle = 90 if b.rot % 180 == 90 else 0
    return TileLabel(
        tile="back" if b.face_down else b.tile,
        box=(float(x0), float(y0), float(x1), float(y1)),
        truncated=vis < 0.999, visible=round(vis, 3), face_visible=round(face_visible, 3),
        quad=tuple((float(x), float(y)) for x, y in quad),
        angle=angle, face_down=b.face_down, group=b.group, rot=b.rot,
        hidden=b.tile if b.face_down and b.tile != "back" else None,
        occluded=b.occluded, standing=b.standing, meld=b.meld,
    )


def _fit_camera(rng: np.random.Generator, bodies: list[_Body], d: _Dims, size: tuple[int, int],
                pitch: float) -> _Camera:
    w, h = size
    f = (w / 2) / np.tan(np.radians(rng.uniform(55, 75)) / 2)
    pts = np.concatenate([_corners(b, d) for b in bodies if b.important])
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    target = np.array([(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, 0.0])
    fill = rng.uniform(0.72, 0.94)
    dist = 600.0
    for _ in range(4):
        cam = _camera(pitch, dist, target, f, w / 2, h / 2)
        uv = cam.project(pts)
        span = max((uv[:, 0].max() - uv[:, 0].min()) / w, (uv[:, 1].max() - uv[:, 1].min()) / h)
        dist *= span / fill
    mx, my = 0.02 * w, 0.02 * h
    while True:  # back off until the hand fits inside the margins
        cam = _camera(pitch, dist, target, f, w / 2, h / 2)
        uv = cam.project(pts)
        (u0, v0), (u1, v1) = uv.min(axis=0), uv.max(axis=0)
        if u1 - u0 <= w - 2 * mx and v1 - v0 <= h - 2 * my:
            break
        dist *= 1.05
    # photographers centre the hand: the layout's centre lands near the image centre
    cx = w / 2 + float(np.clip(w / 2 - (u0 + u1) / 2 + rng.normal(0, 0.1 * w),
                               mx - u0, w - mx - u1))
    cy = h / 2 + float(np.clip(h / 2 - (v0 + v1) / 2 + rng.normal(0, 0.1 * h),
                               my - v0, h - my - v1))
    return _camera(pitch, dist, target, f, cx, cy)


def _zoom(rng: np.random.Generator, cam: _Camera, bodies: list[_Body],
          size: tuple[int, int]) -> _Camera:
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
    return _Camera(k, cam.r, cam.c)


def _drop_overlapping(bodies: list[_Body], d: _Dims) -> list[_Body]:
    """Keep the hand; drop any distractor or prop whose footprint meets one already kept."""
    kept = [b for b in bodies if b.important]
    boxes = [_aabb(b, d) for b in kept]
    for b in bodies:
        if b.important:
            continue
        x0, y0, x1, y1 = _aabb(b, d)
        hit = False
        for k, (kx0, ky0, kx1, ky1) in zip(kept, boxes, strict=True):
            if x0 < kx1 - 0.05 and kx0 < x1 - 0.05 and y0 < ky1 - 0.05 and ky0 < y1 - 0.05:
                stacked = abs(b.center[2] - k.center[2]) > 0.5 * d.t and b.prop is None \
                    and k.prop is None
                if not stacked:
                    hit = True
                    break
        if not hit:
            kept.append(b)
            boxes.append((x0, y0, x1, y1))
    return kept


def _rotate_world(bodies: list[_Body], ang_deg: float) -> None:
    a = np.radians(ang_deg)
    rz = np.array([[np.cos(a), -np.sin(a), 0], [np.sin(a), np.cos(a), 0], [0, 0, 1.0]])
    for b in bodies:
        b.center = rz @ b.center
        b.axes = rz @ b.axes


def _style(rng: np.random.Generator, bank: FaceBank) -> _Style:
    src = rng.choice(["fluffy", "fluffy-black", "camerash", "hk", "jp", "mixed"],
                     p=[0.3, 0.04, 0.2, 0.18, 0.1, 0.18])
    source = None if src == "mixed" else str(src)
    names = list(BACK_COLOURS)
    back = np.array(BACK_COLOURS[names[int(rng.integers(len(names)))]], float)
    back = np.clip(back * rng.uniform(0.85, 1.15, 3), 0, 255)
    sample = bank.pick(rng, "5z", source, jitter=False)
    ivory = np.median(sample[FACE_H // 4: -FACE_H // 4, FACE_W // 4: -FACE_W // 4]
                      .reshape(-1, 3), axis=0).astype(float)
    az, el = rng.uniform(0, 2 * np.pi), np.radians(rng.uniform(35, 80))
    light = np.array([np.cos(az) * np.cos(el), np.sin(az) * np.cos(el), np.sin(el)])
    gloss = None
    if rng.random() < 0.4:
        ga = rng.uniform(0, np.pi)
        gloss = (float(rng.uniform(15, 70)), float(np.cos(ga)), float(np.sin(ga)))
    return _Style(source, back, back_face(tuple(int(v) for v in back), rng), ivory, light,
                  float(rng.uniform(0.45, 0.7)), gloss)


def _shadows(size: tuple[int, int], bodies: list[_Body], d: _Dims, cam: _Camera, st: _Style,
             rng: np.random.Generator) -> np.ndarray:
    """Multiplicative shadow map at 1/4 resolution (tiles cast soft shadows on the table)."""
    w, h = size
    s = _LOW
    mask = np.zeros((h // s + 1, w // s + 1), np.uint8)
    lz = max(st.light[2], 0.25)
    for b in bodies:
        p = _corners(b, d)
        sh = p - st.light[None, :] * (p[:, 2:3] / lz)
        uv = cam.project(sh) / s
        hull = cv2.convexHull(uv.astype(np.float32))
        cv2.fillConvexPoly(mask, np.round(hull * 16).astype(np.int32), 255, cv2.LINE_AA, 4)
    sigma = rng.uniform(1.0, 4.0)
    m = cv2.GaussianBlur(mask, (0, 0), sigma)
    k = rng.uniform(0.25, 0.6)
    return 1.0 - k * (m.astype(np.float32) / 255.0)


_LOW = 4  # light and shadow maps are computed at 1/_LOW resolution


@lru_cache(maxsize=4)
def _noise_bank(w: int, h: int) -> np.ndarray:
    """Fixed Gaussian sensor noise (uint8, mean 128, sd 32), larger than the image."""
    g = np.random.default_rng(12345).normal(128, 32, (h + 64, w + 64, 3))
    return np.clip(g, 0, 255).astype(np.uint8)


def _post(img: np.ndarray, rng: np.random.Generator, pitch: float = 90.0) -> np.ndarray:
    """Colour, glare, depth of field, blur or motion blur, sensor noise and JPEG compression."""
    h, w = img.shape[:2]
    out = img
    if pitch < 55 and rng.random() < 0.6:  # shallow depth of field: the far table is soft
        far = cv2.GaussianBlur(out, (0, 0), rng.uniform(1.5, 4.0))
        ramp = np.clip(1.0 - np.arange(h, dtype=np.float32) / (rng.uniform(0.3, 0.6) * h), 0, 1)
        alpha = np.repeat(ramp[:, None], w, axis=1)
        out = cv2.blendLinear(far, out, alpha, 1.0 - alpha)
    if rng.random() < 0.75:  # white balance (warm/cool light) and saturation of the phone
        t = rng.uniform(-1, 1)
        gains = np.array([1 - 0.12 * t, 1 + rng.uniform(-0.03, 0.03), 1 + 0.1 * t])
        sat = rng.uniform(0.8, 1.3)
        luma = np.array([0.114, 0.587, 0.299])
        m = (sat * np.eye(3) + (1 - sat) * np.tile(luma, (3, 1))) * gains[:, None]
        out = cv2.transform(out, m.astype(np.float32))
    if rng.random() < 0.35:  # glare: a soft bright spot
        gx, gy = rng.uniform(0, w), rng.uniform(0, h)
        r = rng.uniform(0.08, 0.3) * w
        small = np.zeros((h // 8, w // 8), np.float32)
        cv2.circle(small, (int(gx / 8), int(gy / 8)), max(int(r / 8), 1), 1.0, -1)
        small = cv2.GaussianBlur(small, (0, 0), r / 16) * rng.uniform(30, 110)
        glare = cv2.resize(np.clip(small, 0, 255).astype(np.uint8), (w, h))
        out = cv2.add(out, cv2.cvtColor(glare, cv2.COLOR_GRAY2BGR))
    r = rng.random()
    if r < 0.5:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.5, 1.6))
    elif r < 0.62:  # slight motion blur
        k = int(rng.integers(3, 9))
        ker = np.zeros((k, k), np.float32)
        ang = rng.uniform(0, 180)
        c = (k - 1) / 2
        dx, dy = np.cos(np.radians(ang)) * c, np.sin(np.radians(ang)) * c
        cv2.line(ker, (int(round(c - dx)), int(round(c - dy))),
                 (int(round(c + dx)), int(round(c + dy))), 1.0, 1)
        out = cv2.filter2D(out, -1, ker / ker.sum())
    bank = _noise_bank(w, h)
    ox, oy = int(rng.integers(64)), int(rng.integers(64))
    amp = float(rng.uniform(0.03, 0.2))  # sd 1..6 grey levels
    out = cv2.addWeighted(out, 1.0, bank[oy:oy + h, ox:ox + w], amp, -128 * amp)
    q = int(rng.integers(45, 96))
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, q])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else out


def render_scene(rng: np.random.Generator, *, spec: HandSpec | None = None,
                 size: tuple[int, int] = (1280, 960), bank: FaceBank | None = None,
                 distractors: bool | None = None, closeup: bool = False) -> Scene:
    """Render one scene. Deterministic for a given ``rng`` state, ``spec``, ``size`` and bank.

    ``closeup``: zoom in 1.4–2.5× on a part of the layout, so tiles are big and hand tiles may
    be cut by the border or out of view (``meta["closeup"]``; the hand dict stays the whole
    hand, so use such scenes for detection/classification, not for hand reconstruction).
    """
    bank = bank if bank is not None else load_bank()
    spec = spec if spec is not None else random_hand_spec(rng)
    w, h = size
    tw = rng.uniform(24, 28)
    d = _Dims(tw, tw * rng.uniform(1.3, 1.4), tw * rng.uniform(0.62, 0.8), rng.uniform(0.5, 0.7))
    st = _style(rng, bank)
    bodies = _layout(spec, d, rng)
    pts = np.concatenate([_corners(b, d) for b in bodies])
    extent = (pts[:, 0].min(), pts[:, 1].min(), pts[:, 0].max(), pts[:, 1].max())
    want_other = rng.random() < 0.65 if distractors is None else distractors
    if want_other:
        bodies += _distractors(rng, d, extent)
    tilt = rng.normal(0, 10) if rng.random() < 0.85 else rng.uniform(-40, 40)
    allp = np.concatenate([_corners(b, d) for b in bodies])
    full_extent = (allp[:, 0].min(), allp[:, 1].min(), allp[:, 0].max(), allp[:, 1].max())
    if any(b.standing and b.important for b in bodies):  # standing row: a low, oblique camera
        pitch = float(rng.uniform(25, 50))
    else:
        pitch = float(np.clip(90 - abs(rng.normal(0, 25)), 30, 90))
    if rng.random() < 0.5:
        bodies += _props(rng, d, full_extent, rack=pitch >= 55)
    bodies = _drop_overlapping(bodies, d)
    _rotate_world(bodies, tilt)
    cam = _fit_camera(rng, bodies, d, size, pitch)
    if closeup:
        cam = _zoom(rng, cam, [b for b in bodies if b.important], size)
    # distractors and clutter may be cut by the frame (labelled "truncated"), never behind it
    kept = []
    for b in bodies:
        pts3 = _corners(b, d)
        uv = cam.project(pts3)
        front = (((pts3 - cam.c) @ cam.r[2]) > 50).all() and (np.abs(uv) < 4 * max(w, h)).all()
        if (b.important and not closeup) or (front and _visible(uv, size) > (
                0.0 if b.prop else 0.08)):
            kept.append(b)
    bodies = kept
    tex = table_texture(rng)
    hmat = cam.plane_homography() @ tex.world_from_tex
    img = cv2.warpPerspective(tex.image, hmat, (w, h), flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_REFLECT)
    light = light_field(rng, w // _LOW + 1, h // _LOW + 1)
    field = cv2.resize(light * _shadows(size, bodies, d, cam, st, rng), (w, h),
                       interpolation=cv2.INTER_LINEAR)
    img = cv2.multiply(img, cv2.merge([field, field, field]), dtype=cv2.CV_8U)
    if rng.random() < 0.45:
        img = table_edge(img, rng, cam.plane_homography(), full_extent, tilt, d.h)
    depth = [float(np.linalg.norm(b.center - cam.c)) for b in bodies]  # painter: far first
    order = np.argsort(depth)[::-1]
    for i in order:
        b = bodies[i]
        if b.prop is not None:
            face = b.prop.top
        else:
            face = st.back_img if b.face_down else bank.pick(rng, b.tile, st.source)
        u, v = cam.project(b.center[None, :])[0] / _LOW
        lit = float(light[int(np.clip(v, 0, light.shape[0] - 1)),
                          int(np.clip(u, 0, light.shape[1] - 1))])
        _draw_body(img, b, d, cam, face, st, lit)
    image = _post(img, rng, pitch)
    seen = _face_visibility(bodies, order, d, cam, size)
    labels = [_label(b, d, cam, size, seen[i]) for i, b in enumerate(bodies) if b.prop is None]
    meta = {"pitch": round(pitch, 1), "tilt": round(float(tilt), 1), "source": st.source or "mixed",
            "plain": spec.plain, "win_apart": bool(spec.win and not spec.plain),
            "tile_mm": [round(d.w, 1), round(d.h, 1), round(d.t, 1)], "closeup": closeup}
    return Scene(image, labels, spec.to_hand(), meta)

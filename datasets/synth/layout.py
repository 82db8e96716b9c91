"""Where tiles lie: the player's hand, melds, kita and dora (§23–24 table conventions), the
other players' tiles and clutter. All positions in table-plane mm (see geometry.py).
"""

from __future__ import annotations

import cv2
import numpy as np

from datasets.synth.faces import FOUR_PLAYER_ONLY
from datasets.synth.geometry import (
    Body,
    Dims,
    Prop,
    aabb,
    flat_axes,
    overlap,
    standing_axes,
)
from datasets.synth.hands import KINDS, HandSpec


def _place_row(
    tiles: list[str],
    x0: float,
    d: Dims,
    rng: np.random.Generator,
    group: str,
    gap: tuple[float, float],
    standing: bool = False,
    mess: float = 1.0,
) -> tuple[list[Body], float]:
    """Tiles side by side from ``x0``, touching; ``mess`` scales their jitter (a tidy or a
    careless player). A turned tile gets the room it needs, so neighbours never intersect."""
    bodies, x = [], x0
    for t in tiles:
        jit_y = rng.normal(0, 0.35 * mess)
        ang = rng.normal(0, 0.8 * mess)
        slack = (d.t if standing else d.h) / 2 * abs(np.sin(np.radians(ang)))
        x += slack
        down = t == "back"
        if standing and not down:
            c = np.array([x + d.w / 2, d.t / 2 + jit_y, d.h / 2])
            bodies.append(Body(t, group, c, standing_axes(ang), 0, standing=True))
        else:
            c = np.array([x + d.w / 2, d.h / 2 + jit_y, d.t / 2])
            bodies.append(Body(t, group, c, flat_axes(ang, down), 0, face_down=down))
        x += d.w + slack + rng.uniform(*gap)
    return bodies, x


def _sin(ang_deg: float) -> float:
    return abs(float(np.sin(np.radians(ang_deg))))


def hand_layout(
    spec: HandSpec, d: Dims, rng: np.random.Generator, askew: float = 1.0
) -> list[Body]:
    """Bodies of the player's hand, melds, kita and dora (world mm, near edge at y=0);
    ``askew`` scales how far the row's tiles turn from straight (a hand laid carelessly)."""
    standing = bool(rng.random() < 0.12) and not spec.melds
    touch = (0.1, 0.9)
    mess = float(rng.uniform(0.5, 2.5)) * askew
    bodies, x = _place_row(list(spec.concealed), 0.0, d, rng, "hand", touch, standing, mess)
    if spec.win:
        if not spec.plain:
            x += rng.uniform(0.25, 0.9) * d.w
        wb, x = _place_row([spec.win], x, d, rng, "win", touch, standing, mess)
        bodies += wb
    row_depth = d.t if standing else d.h
    x += rng.uniform(0.6, 2.2) * d.w if spec.melds else 0.0
    meld_x0 = x
    for mi, m in enumerate(spec.melds):
        first = len(bodies)
        for i, t in enumerate(m.tiles[:3] if m.kind == "kakan" else m.tiles):
            if i == m.called:
                rot = 90 if rng.random() < 0.85 else 270
                ang, ang2 = rng.normal(0, 1), rng.normal(0, 0.6)
                slack = d.w / 2 * max(_sin(ang), _sin(ang2)) + d.h / 2 * _sin(ang2)
                x += slack
                c = np.array([x + d.h / 2, d.w / 2 + rng.normal(0, 0.3), d.t / 2])
                bodies.append(Body(t, "meld", c, flat_axes(rot + ang), rot))
                if m.kind == "kakan":
                    if m.stacked:
                        bodies[-1].occluded = True
                        c2 = c + [rng.normal(0, 0.4), rng.normal(0, 0.4), d.t]
                    else:  # beside it, further from the player
                        dy = d.w + d.h / 2 * (_sin(ang) + _sin(ang2)) + rng.uniform(0.3, 1.2)
                        c2 = c + [0.0, dy, 0]
                    bodies.append(Body(m.tiles[3], "meld", c2, flat_axes(rot + ang2), rot))
                x += d.h + slack + rng.uniform(*touch)
            else:
                down = m.kind == "ankan" and i in (0, 3)
                ang = rng.normal(0, 0.8)
                x += d.h / 2 * _sin(ang)
                c = np.array([x + d.w / 2, d.h / 2 + rng.normal(0, 0.3), d.t / 2])
                bodies.append(Body(t, "meld", c, flat_axes(ang, down), 0, face_down=down))
                x += d.w + d.h / 2 * _sin(ang) + rng.uniform(*touch)
        for b in bodies[first:]:
            b.meld = mi
        x += rng.uniform(0.3, 1.4) * d.w
    if spec.kita:
        sideways = rng.random() < 0.15
        if spec.melds and rng.random() < 0.5:  # above the melds
            top = max(aabb(b, d)[3] for b in bodies)
            kx, ky = meld_x0 + rng.uniform(-0.5, 1.5) * d.w, top + rng.uniform(0.4, 1.5) * d.w
        else:  # to the right
            kx, ky = x + rng.uniform(0.3, 1.5) * d.w, rng.uniform(-0.1, 0.4) * d.w
        for t in spec.kita:
            rot = 90 if sideways else 0
            span = d.h if sideways else d.w
            depth = d.w if sideways else d.h
            c = np.array([kx + span / 2, ky + depth / 2, d.t / 2])
            bodies.append(Body(t, "kita", c, flat_axes(rot + rng.normal(0, 5)), rot))
            kx += span + rng.uniform(0.25, 1.0) * d.w
    if spec.dora:
        dx = rng.uniform(-2.0, 4.0) * d.w
        dy = row_depth + rng.uniform(0.5, 2.0) * d.h
        walls = bool(rng.random() < 0.5)
        tiles = (["back"] * int(rng.integers(1, 4)) if walls else []) + list(spec.dora)
        tiles += ["back"] * int(rng.integers(1, 4)) if walls else []
        for t in tiles:
            ang = rng.normal(0, 1)
            dx += d.h / 2 * _sin(ang)
            c = np.array([dx + d.w / 2, dy + d.h / 2, d.t / 2])
            if t == "back":
                bodies.append(Body("back", "other", c, flat_axes(ang, True), 0, face_down=True))
            else:
                bodies.append(Body(t, "dora", c, flat_axes(ang), 0))
            dx += d.w + d.h / 2 * _sin(ang) + rng.uniform(0.1, 0.8)
        dora = [b for b in bodies if b.group in ("dora", "other")]
        rest = [b for b in bodies if b.group not in ("dora", "other")]
        while any(overlap(a, b, d, 2.0) for a in dora for b in rest):
            for b in dora:  # move the dead wall further away until it is clear
                b.center = b.center + [0.0, d.h * 0.5, 0.0]
    return bodies


def _distractor_tile(rng: np.random.Generator, four_player: bool) -> str:
    r = rng.random()
    if r < 0.05:
        return "flower"
    if four_player and r < 0.3:
        return FOUR_PLAYER_ONLY[int(rng.integers(len(FOUR_PLAYER_ONLY)))]
    if r < 0.1:
        return ["0p", "0s"][int(rng.integers(2))]
    return KINDS[int(rng.integers(len(KINDS)))]


def distractors(
    rng: np.random.Generator,
    d: Dims,
    extent: tuple[float, float, float, float],
) -> list[Body]:
    """Discards in front and at the sides, other players' standing rows (group "other")."""
    x0, y0, x1, y1 = extent
    four = bool(rng.random() < 0.15)
    out: list[Body] = []
    far = rng.choice(["discards", "grid", "wall"], p=[0.55, 0.25, 0.2])
    if far == "grid":  # a dense block of face-up tiles (a tray, a sorted set, a photo setup)
        rows, cols = int(rng.integers(2, 6)), int(rng.integers(3, 11))
        rot = 180 if rng.random() < 0.25 else 0
        gap_x, gap_y = rng.uniform(0.6, 1.5, 2)  # one spacing for the block: no collisions
        gx = (x0 + x1) / 2 - cols * (d.w + gap_x) / 2 + rng.normal(0, d.w)
        gy = y1 + rng.uniform(0.4, 1.5) * d.h
        for r in range(rows):
            for k in range(cols):
                c = np.array(
                    [
                        gx + k * (d.w + gap_x) + d.w / 2 + rng.normal(0, 0.1),
                        gy + r * (d.h + gap_y) + d.h / 2 + rng.normal(0, 0.1),
                        d.t / 2,
                    ]
                )
                out.append(
                    Body(
                        _distractor_tile(rng, four),
                        "other",
                        c,
                        flat_axes(rot + rng.normal(0, 0.4)),
                        rot,
                        important=False,
                    )
                )
    elif far == "wall":  # a wall: face-down tiles stacked two high
        n = int(rng.integers(6, 18))
        wx = (x0 + x1) / 2 - n * (d.w + 0.6) / 2 + rng.normal(0, d.w)
        wy = y1 + rng.uniform(0.5, 2.0) * d.h
        for k in range(n):
            for layer in range(2 if rng.random() < 0.9 else 1):
                c = np.array(
                    [
                        wx + k * (d.w + 0.6) + d.w / 2,
                        wy + d.h / 2 + rng.normal(0, 0.4),
                        d.t / 2 + layer * d.t,
                    ]
                )
                out.append(
                    Body(
                        "back",
                        "other",
                        c,
                        flat_axes(rng.normal(0, 0.3), True),
                        0,
                        face_down=True,
                        important=False,
                    )
                )
            if layer == 1:
                out[-2].occluded = True
    if far == "discards" and rng.random() < 0.8:  # own discards: rows of six in front
        rows = int(rng.integers(1, 4))
        n = int(rng.integers(3, 7 * rows))
        px = (x0 + x1) / 2 - 3 * d.w + rng.normal(0, d.w)
        py = y1 + rng.uniform(0.8, 2.5) * d.h
        gap_x, gap_y = rng.uniform(0.8, 2.0), rng.uniform(1.0, 2.5)
        for i in range(n):
            r, k = divmod(i, 6)
            c = np.array(
                [px + k * (d.w + gap_x) + d.w / 2, py + r * (d.h + gap_y) + d.h / 2, d.t / 2]
            )
            out.append(
                Body(
                    _distractor_tile(rng, four),
                    "other",
                    c,
                    flat_axes(rng.normal(0, 0.5)),
                    0,
                    important=False,
                )
            )
    for side in (-1, 1):  # other players' discards, turned towards them
        if rng.random() < 0.45:
            rot = 270 if side < 0 else 90
            bx = x0 - rng.uniform(1.5, 4) * d.h if side < 0 else x1 + rng.uniform(1.5, 4) * d.h
            by = y1 + rng.uniform(-1, 2) * d.h
            for i in range(int(rng.integers(2, 12))):
                r, k = divmod(i, 6)
                c = np.array([bx - side * r * (d.h + 1.5), by + k * (d.w + 1.2), d.t / 2])
                out.append(
                    Body(
                        _distractor_tile(rng, four),
                        "other",
                        c,
                        flat_axes(rot + rng.normal(0, 0.5)),
                        rot,
                        important=False,
                    )
                )
    if rng.random() < 0.25:  # a row of standing tiles seen from behind (backs)
        by = y1 + rng.uniform(4, 7) * d.h
        bx = (x0 + x1) / 2 - 6 * d.w
        for i in range(int(rng.integers(6, 14))):
            c = np.array([bx + i * (d.w + 0.3) + d.w / 2, by, d.h / 2])
            ax = standing_axes(180 + rng.normal(0, 1))
            out.append(
                Body("back", "other", c, ax, 0, face_down=True, standing=True, important=False)
            )
    if rng.random() < 0.12:  # flowers set aside (Hong Kong play): look like kita, are not
        fx = x1 + rng.uniform(0.5, 2.0) * d.w
        for _ in range(int(rng.integers(1, 3))):
            c = np.array([fx + d.w / 2, y0 + rng.uniform(0, 1.5) * d.h + d.h / 2, d.t / 2])
            out.append(Body("flower", "other", c, flat_axes(rng.normal(0, 4)), 0, important=False))
            fx += d.w + rng.uniform(0.2, 1.0) * d.w
    if rng.random() < 0.3:  # a tile upside down near the row, e.g. a discard being taken
        c = np.array([rng.uniform(x0, x1), y1 + rng.uniform(0.5, 1.2) * d.h, d.t / 2])
        out.append(
            Body(
                _distractor_tile(rng, four),
                "other",
                c,
                flat_axes(180 + rng.normal(0, 8)),
                180,
                important=False,
            )
        )
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


def props(
    rng: np.random.Generator, d: Dims, extent: tuple[float, float, float, float], rack: bool = True
) -> list[Body]:
    """Racks, point sticks, a phone, papers: non-tile clutter (never labelled).

    A rack in front of the row only with a steep camera (``rack``), so it never hides faces.
    """
    x0, y0, x1, y1 = extent
    out: list[Body] = []

    def add(
        kind: str, dims: Dims, centre: np.ndarray, ang: float, colour: np.ndarray, side: np.ndarray
    ) -> None:
        prop = Prop(dims, _prop_texture(rng, kind, colour), side, kind=kind)
        out.append(Body("prop", "prop", centre, flat_axes(ang), 0, important=False, prop=prop))

    if rng.random() < 0.35 and rack:  # a rack in front of the player
        length = rng.uniform(1.0, 1.3) * (x1 - x0)
        dims = Dims(length, rng.uniform(30, 50), rng.uniform(12, 22), 0.5)
        col = np.array([rng.uniform(10, 120)] * 3) * rng.uniform(0.8, 1.2, 3)
        c = np.array(
            [(x0 + x1) / 2 + rng.normal(0, 20), y0 - rng.uniform(5, 40) - dims.h / 2, dims.t / 2]
        )
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
            dims = Dims(rng.uniform(8, 10), rng.uniform(95, 110), 3.0, 0.5)
            col = np.array([235, 240, 240]) * rng.uniform(0.85, 1.0)
        elif kind == "phone":
            dims = Dims(72, 150, 8.0, 0.5)
            col = np.array([rng.uniform(20, 200)] * 3)
        else:
            dims = Dims(rng.uniform(80, 210), rng.uniform(100, 290), 0.4, 0.5)
            col = np.array([rng.uniform(200, 250)] * 3) * rng.uniform(0.9, 1.0, 3)
        add(kind, dims, np.array([cx, cy, dims.t / 2]), ang, col, col * 0.85)
    return out

"""Drawing: tile boxes (faces warped onto their quads, two-layer sides), shadows, the camera's
colour, blur, noise and JPEG, and the face-visibility buffer used for the labels.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from datasets.synth.faces import BACK_COLOURS, FACE_H, FACE_W, FaceBank, back_face
from datasets.synth.geometry import BOTTOM, SIGNS, TOP, Body, Camera, Dims, corners

LOW = 4  # light and shadow maps are computed at 1/LOW resolution
# a face seen at a cosine under EDGE_ON[0] from its normal shows nothing; over EDGE_ON[1], all
EDGE_ON = (0.1, 0.3)


def _poly(img: np.ndarray, pts: np.ndarray, colour: np.ndarray) -> None:
    cv2.fillConvexPoly(
        img,
        np.round(pts * 16).astype(np.int32),
        tuple(float(c) for c in np.clip(colour, 0, 255)),
        cv2.LINE_AA,
        4,
    )


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


def _warp_face(
    img: np.ndarray,
    face: np.ndarray,
    quad: np.ndarray,
    shade: float,
    gloss: tuple[float, float, float, float] | None = None,
    alpha: np.ndarray | None = None,
) -> None:
    """Paste ``face`` onto the image quad; ``gloss`` = (amp, dir x, dir y, offset) streak;
    ``alpha``: the face's own uint8 mask (default: a tile face's rounded corners)."""
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
        face = cv2.resize(
            face, (max(int(fw * s), 4), max(int(fh * s), 4)), interpolation=cv2.INTER_AREA
        )
        fh, fw = face.shape[:2]
    src = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)
    dst = (quad - [x0, y0]).astype(np.float32)
    m = cv2.getPerspectiveTransform(src, dst)
    warped = cv2.warpPerspective(
        face, m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    rounded = _rounded_mask() if alpha is None else alpha  # the face's outline
    rh, rw = rounded.shape
    m_mask = cv2.getPerspectiveTransform(
        np.array([[0, 0], [rw, 0], [rw, rh], [0, rh]], np.float32), dst
    )
    mask = cv2.warpPerspective(
        rounded,
        m_mask,
        (x1 - x0, y1 - y0),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=0,
    )
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
class Style:
    """One tile set and light for the scene: face source, back colour, light direction."""

    source: str | None
    back: np.ndarray
    back_img: np.ndarray
    ivory: np.ndarray
    light: np.ndarray  # unit vector towards the light
    ambient: float
    gloss: tuple[float, float, float] | None = None  # amp, direction (unit) in the image


def pick_style(rng: np.random.Generator, bank: FaceBank) -> Style:
    """Draw the scene's tile set (face source, back and body colours) and lighting."""
    src = rng.choice(
        ["fluffy", "fluffy-black", "camerash", "hk", "jp", "mixed"],
        p=[0.3, 0.04, 0.2, 0.18, 0.1, 0.18],
    )
    source = None if src == "mixed" else str(src)
    names = list(BACK_COLOURS)
    back = np.array(BACK_COLOURS[names[int(rng.integers(len(names)))]], float)
    back = np.clip(back * rng.uniform(0.85, 1.15, 3), 0, 255)
    sample = bank.pick(rng, "5z", source, jitter=False)
    ivory = np.median(
        sample[FACE_H // 4 : -FACE_H // 4, FACE_W // 4 : -FACE_W // 4].reshape(-1, 3), axis=0
    ).astype(float)
    az, el = rng.uniform(0, 2 * np.pi), np.radians(rng.uniform(35, 80))
    light = np.array([np.cos(az) * np.cos(el), np.sin(az) * np.cos(el), np.sin(el)])
    gloss = None
    if rng.random() < 0.4:
        ga = rng.uniform(0, np.pi)
        gloss = (float(rng.uniform(15, 70)), float(np.cos(ga)), float(np.sin(ga)))
    return Style(
        source,
        back,
        back_face(tuple(int(v) for v in back), rng),
        ivory,
        light,
        float(rng.uniform(0.45, 0.7)),
        gloss,
    )


def draw_body(
    img: np.ndarray, b: Body, d: Dims, cam: Camera, face: np.ndarray, st: Style, lit: float
) -> None:
    """Draw a box's visible faces: the face (or back) image and two-layer sides, shaded."""
    back_img, ivory, backc = st.back_img, st.ivory, st.back
    alpha = None
    if b.prop is not None:
        if b.prop.disc:
            draw_disc(img, b, cam, st, lit)
            return
        d = b.prop.dims
        face = back_img = b.prop.top
        ivory = backc = b.prop.side
        alpha = b.prop.mask
    pts3 = corners(b, d)
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
                idx = TOP if sign > 0 else BOTTOM
                tex = face if sign > 0 else back_img
                gl = None
                if st.gloss is not None and sign > 0 and b.prop is None:
                    amp, gx, gy = st.gloss
                    c = pts[list(idx)].mean(axis=0)
                    off = (
                        c[0] * gx
                        + c[1] * gy
                        + float(np.sin(c[0] * 0.37 + c[1] * 0.11))
                        * np.linalg.norm(pts[idx[0]] - pts[idx[3]])
                        * 0.5
                    )
                    gl = (amp, gx, gy, off)
                _warp_face(img, tex, pts[list(idx)], shade, gl, alpha)
                # bevel: a thin light rim on the top face edges
                q = pts[list(idx)]
                cv2.polylines(
                    img,
                    [np.round(q * 16).astype(np.int32)],
                    True,
                    tuple(
                        float(v)
                        for v in np.clip(
                            ivory * shade * 1.08 if sign > 0 else backc * shade * 1.2, 0, 255
                        )
                    ),
                    1,
                    cv2.LINE_AA,
                    4,
                )
                continue
            # side face: corners with the chosen sign on `axis`, ordered around the quad
            sel = [i for i in range(8) if SIGNS[i, axis] == sign]
            top = [i for i in sel if SIGNS[i, 2] > 0]
            bot = [i for i in sel if SIGNS[i, 2] < 0]
            top_pts, bot_pts = pts[top], pts[bot]
            if b.prop is not None and b.prop.sides:  # a textured side (a die's pips)
                tex = b.prop.sides[(2 * axis + (sign > 0)) % len(b.prop.sides)]
                quad = np.array([top_pts[0], top_pts[1], bot_pts[1], bot_pts[0]])
                _warp_face(img, tex, quad, shade, None, b.prop.mask)
                continue
            # split between the face layer and the back layer
            s = 1.0 - 2.0 * d.split
            t = (1 - s) / 2  # fraction from top to the split line
            mid = top_pts + (bot_pts - top_pts) * t
            front_layer = np.array([top_pts[0], top_pts[1], mid[1], mid[0]])
            back_layer = np.array([mid[0], mid[1], bot_pts[1], bot_pts[0]])
            _poly(img, front_layer, ivory * shade * 0.97)
            _poly(img, back_layer, backc * shade)


def _circle(b: Body, r: float, z: float, n: int = 32) -> np.ndarray:
    """World points of a circle of radius ``r`` at height ``z`` (along the body's normal)
    about the body's centre."""
    a = np.linspace(0, 2 * np.pi, n, endpoint=False)
    local = np.stack([r * np.cos(a), r * np.sin(a), np.full(n, z)], axis=1)
    return b.center + local @ b.axes.T


def draw_disc(img: np.ndarray, b: Body, cam: Camera, st: Style, lit: float) -> None:
    """A cylinder lying on its base (a chip, a coin): its rim as the hull of its two circles in
    the side colour, then its top face warped into the top circle."""
    prop = b.prop
    assert prop is not None
    r, t = prop.dims.w / 2, prop.dims.t
    top3, bot3 = _circle(b, r, t / 2), _circle(b, r, -t / 2)
    hull = cv2.convexHull(cam.project(np.concatenate([top3, bot3])).astype(np.float32))
    n = b.axes[:, 2]
    facing = n @ (cam.c - (b.center + n * t / 2)) > 0
    th, tw = prop.top.shape[:2]
    disc = _disc_mask(tw, th)
    mask = disc if prop.mask is None else prop.mask
    square = cam.project(b.center + (SIGNS[list(TOP)] * [r, r, t / 2]) @ b.axes.T)
    holes = cv2.subtract(disc, mask) if facing and prop.mask is not None else None
    before = img.copy() if holes is not None and holes.any() else None
    side = st.ambient * lit * 0.95
    _poly(img, hull.reshape(-1, 2), prop.side * side)
    if not facing:
        return
    shade = lit * (st.ambient + (1 - st.ambient) * max(0.0, float(n @ st.light)) * 1.1)
    _warp_face(img, prop.top, square, shade, None, mask)
    if before is not None and holes is not None:  # the table seen through a hole
        m = cv2.getPerspectiveTransform(
            np.array([[0, 0], [tw, 0], [tw, th], [0, th]], np.float32), square.astype(np.float32)
        )
        seen = cv2.warpPerspective(holes, m, (img.shape[1], img.shape[0])) > 128
        img[seen] = before[seen]


@lru_cache(maxsize=8)
def _disc_mask(w: int, h: int) -> np.ndarray:
    m = np.zeros((h, w), np.uint8)
    cv2.ellipse(m, (w // 2, h // 2), (w // 2 - 1, h // 2 - 1), 0, 0, 360, 255, -1, cv2.LINE_AA)
    return m


def shadows(
    size: tuple[int, int],
    bodies: list[Body],
    d: Dims,
    cam: Camera,
    st: Style,
    rng: np.random.Generator,
) -> np.ndarray:
    """Multiplicative shadow map at 1/4 resolution (tiles cast soft shadows on the table)."""
    w, h = size
    s = LOW
    mask = np.zeros((h // s + 1, w // s + 1), np.uint8)
    lz = max(st.light[2], 0.25)
    for b in bodies:
        p = corners(b, d)
        sh = p - st.light[None, :] * (p[:, 2:3] / lz)
        uv = cam.project(sh) / s
        hull = cv2.convexHull(uv.astype(np.float32))
        cv2.fillConvexPoly(mask, np.round(hull * 16).astype(np.int32), 255, cv2.LINE_AA, 4)
    sigma = rng.uniform(1.0, 4.0)
    m = cv2.GaussianBlur(mask, (0, 0), sigma)
    k = rng.uniform(0.25, 0.6)
    return 1.0 - k * (m.astype(np.float32) / 255.0)


@lru_cache(maxsize=4)
def _noise_bank(w: int, h: int) -> np.ndarray:
    """Fixed Gaussian sensor noise (uint8, mean 128, sd 32), larger than the image."""
    g = np.random.default_rng(12345).normal(128, 32, (h + 64, w + 64, 3))
    return np.clip(g, 0, 255).astype(np.uint8)


def post_process(img: np.ndarray, rng: np.random.Generator, pitch: float = 90.0) -> np.ndarray:
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
        cv2.line(
            ker,
            (int(round(c - dx)), int(round(c - dy))),
            (int(round(c + dx)), int(round(c + dy))),
            1.0,
            1,
        )
        out = cv2.filter2D(out, -1, ker / ker.sum())
    bank = _noise_bank(w, h)
    ox, oy = int(rng.integers(64)), int(rng.integers(64))
    amp = float(rng.uniform(0.03, 0.2))  # sd 1..6 grey levels
    out = cv2.addWeighted(out, 1.0, bank[oy : oy + h, ox : ox + w], amp, -128 * amp)
    q = int(rng.integers(45, 96))
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, q])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else out


def facing(b: Body, d: Dims, cam: Camera) -> float:
    """How squarely the camera sees the body's labelled face (the symbol, or a face-down
    tile's back): 0 for a face turned away or seen edge on (the camera within
    ``EDGE_ON[0]`` of the face's plane, as a cosine), 1 from ``EDGE_ON[1]`` on. A standing
    tile seen steeply from above shows its top edge, not its face, however little hides it."""
    normal = b.axes[:, 2] * (-1.0 if b.face_down else 1.0)
    centre = b.center + normal * d.t / 2
    ray = cam.c - centre
    cos = float(normal @ ray) / max(float(np.linalg.norm(ray)), 1e-9)
    lo, hi = EDGE_ON
    return float(np.clip((cos - lo) / (hi - lo), 0.0, 1.0))


def face_visibility(
    bodies: list[Body], order: np.ndarray, d: Dims, cam: Camera, size: tuple[int, int]
) -> list[float]:
    """Share of each body's face (top quad) not hidden by nearer bodies, at 1/2 resolution,
    times how squarely it is seen (:func:`facing`)."""
    s = 2
    w, h = size
    ids = np.full((h // s + 1, w // s + 1), -1, np.int32)
    hulls, quads = {}, {}
    for i in order:  # far to near: nearer bodies overwrite
        b = bodies[i]
        uv = cam.project(corners(b, d)) / s
        hull = cv2.convexHull(uv.astype(np.float32)).reshape(-1, 2)
        hulls[i] = hull
        quads[i] = uv[list(BOTTOM if b.face_down else TOP)]
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
        out.append(float(min(1.0, mine / max(full, float(m.sum()), 1.0))) * facing(b, d, cam))
    return out

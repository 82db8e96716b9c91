"""Classifier crops: each visible tile face of a rendered scene rectified to upright 48×64.

A crop keeps a little of the surroundings (neighbouring tiles, table) at its edges, with
perspective jitter, blur and lighting changes, so a classifier trained on it sees what the
detector's boxes will hand it.
"""

from __future__ import annotations

import cv2
import numpy as np

from datasets.synth.extras import NONE, Extras
from datasets.synth.faces import CLASSES, FOUR_PLAYER_ONLY, FaceBank
from datasets.synth.hands import HandSpec
from datasets.synth.scene import Scene, render_scene

CROP_W, CROP_H = 48, 64


def balanced_row(rng: np.random.Generator, n: int | None = None) -> list[str]:
    """A row of tiles drawn uniformly over every class (incl. back, flower, 2m–8m)."""
    n = int(rng.integers(8, 17)) if n is None else n
    # 2m–8m twice as likely (four-player sets), the rare red fives three times
    pool = list(CLASSES) + list(FOUR_PLAYER_ONLY) + ["0m", "0p", "0s"] * 2
    return [pool[int(rng.integers(len(pool)))] for _ in range(n)]


def crop_scene(
    rng: np.random.Generator,
    bank: FaceBank | None,
    size: tuple[int, int] = (960, 720),
    extras: Extras = NONE,
) -> Scene:
    """Half the time a real hand scene, half a row of balanced random classes (with
    ``extras``: the hand scene's options; a loose scatter or a whole table in place of the
    row when those are asked for)."""
    closeup = bool(rng.random() < 0.3)
    if rng.random() < 0.5:
        return render_scene(rng, size=size, bank=bank, closeup=closeup, extras=extras)
    if extras.scatter or extras.table:
        return render_scene(rng, size=size, bank=bank, closeup=closeup, extras=extras)
    spec = HandSpec(tuple(balanced_row(rng)), plain=True)
    return render_scene(rng, spec=spec, size=size, bank=bank, closeup=closeup, extras=extras)


def rectify(
    image: np.ndarray, quad: np.ndarray, rng: np.random.Generator | None = None, margin: float = 0.0
) -> np.ndarray:
    """Warp a face quad (TL, TR, BR, BL) to an upright CROP_W × CROP_H crop."""
    q = np.asarray(quad, np.float32)
    c = q.mean(axis=0)
    q = c + (q - c) * (1 + margin)
    if rng is not None:
        side = np.linalg.norm(q[0] - q[3])
        q = q + rng.normal(0, 0.03 * side, q.shape).astype(np.float32)
    dst = np.array([[0, 0], [CROP_W, 0], [CROP_W, CROP_H], [0, CROP_H]], np.float32)
    m = cv2.getPerspectiveTransform(q.astype(np.float32), dst)
    return cv2.warpPerspective(
        image, m, (CROP_W, CROP_H), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE
    )


def augment(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Lighting, blur and noise on one crop (hues kept: a red five stays red)."""
    f = crop.astype(np.float32) * rng.uniform(0.75, 1.2) + rng.uniform(-20, 20)
    f = f * rng.uniform(0.92, 1.08, 3).astype(np.float32)
    if rng.random() < 0.3:
        f = cv2.GaussianBlur(f, (0, 0), rng.uniform(0.4, 1.0))
    f += rng.normal(0, rng.uniform(0, 5), f.shape).astype(np.float32)
    return np.clip(f, 0, 255).astype(np.uint8)


def crops_from_scene(scene: Scene, rng: np.random.Generator) -> list[tuple[str, np.ndarray]]:
    """(class, crop) for every tile whose face (or back) is visible."""
    out = []
    for t in scene.tiles:
        if t.occluded or t.truncated or t.face_visible < 0.6:
            continue
        margin = float(rng.uniform(0.0, 0.14))
        crop = rectify(scene.image, np.array(t.quad), rng, margin)
        out.append((t.tile, augment(crop, rng)))
    return out


def _inside(box: tuple[float, ...], other: tuple[float, ...]) -> float:
    """Share of ``box``'s area that ``other`` covers."""
    iw = max(0.0, min(box[2], other[2]) - max(box[0], other[0]))
    ih = max(0.0, min(box[3], other[3]) - max(box[1], other[1]))
    return iw * ih / max((box[2] - box[0]) * (box[3] - box[1]), 1e-6)


def none_boxes(
    scene: Scene, rng: np.random.Generator, per_thing: int = 2
) -> list[tuple[float, float, float, float]]:
    """Tile-sized windows (xyxy pixels) on the things in view that are not tiles (a point
    display's digits, a key, a chip, a coin, a die): where a detector box on a distractor
    falls. A window's size is a tile face's in this scene; one that a tile's box covers by
    more than a quarter, or whose middle is outside the image, is left out."""
    faces = [t for t in scene.tiles if not t.occluded and not t.truncated]
    if not faces:
        return []
    side = float(np.median([np.linalg.norm(np.subtract(t.quad[0], t.quad[3])) for t in faces]))
    h, w = scene.image.shape[:2]
    out = []
    for thing in scene.things:
        q = np.array(thing.quad, np.float32)
        for _ in range(per_thing):
            u, v = rng.uniform(0.1, 0.9, 2)
            c = (1 - v) * ((1 - u) * q[0] + u * q[1]) + v * ((1 - u) * q[3] + u * q[2])
            bh = side * rng.uniform(0.8, 1.3)
            bw = bh * rng.uniform(0.65, 0.85)
            if rng.random() < 0.3:
                bw, bh = bh, bw
            box = (
                float(c[0] - bw / 2),
                float(c[1] - bh / 2),
                float(c[0] + bw / 2),
                float(c[1] + bh / 2),
            )
            if not (0 <= c[0] < w and 0 <= c[1] < h):
                continue
            if any(_inside(box, t.box) > 0.25 for t in scene.tiles):
                continue
            out.append(box)
    return out


def none_crops(
    scene: Scene, rng: np.random.Generator, per_thing: int = 2
) -> list[tuple[str, np.ndarray]]:
    """("none", crop) for the windows of :func:`none_boxes`: what a detector box on a
    distractor hands the classifier."""
    out = []
    for x0, y0, x1, y1 in none_boxes(scene, rng, per_thing):
        quad = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)
        out.append(("none", augment(rectify(scene.image, quad, rng), rng)))
    return out

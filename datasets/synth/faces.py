"""Face bank: several face images per tile class, for the scene and crop renderers.

Classes (MPSZ, docs/rules.md "Tiles" §1, §A1): ``1m``–``9m`` (2m–8m only as four-player
distractors), ``1p``–``9p``, ``1s``–``9s``, ``1z``–``7z``, the red fives ``0m`` (aka-5-man),
``0p``, ``0s``, ``back`` (a face-down tile) and ``flower`` (a Hong Kong flower/season tile, not a
riichi tile).

Sources are read from the shared datasets folder (never copied into the repository):
- ``art/fluffystuff`` (CC0): symbols composited onto ``Front.png``; ``*5-Dora`` are the red fives.
- ``crops/camerash`` (MIT, © 2019 Esmond Wong): Hong Kong crops, ``bonus-*`` = flower.
- ``real/hk-hands/train`` (CC BY 4.0): tiles cut out of the TRAIN photos only. Label ``1p`` is
  skipped there (the dataset's 1p labels are known to be noisy).
- ``real/jp-upright`` (CC BY 4.0): tiles of the images that :func:`jp_upright_is_heldout` keeps
  for training (sorted index % 5 != 0).

A red five is made predominantly red; a non-red five keeps at most a red centre pip. Extra red
five styles come from recolouring the ink of the non-red fives of every style (:func:`redden`).

Every photo face is named by its source and ``style`` (:func:`face_id`): the camerash file name,
or ``<image file>#<box>`` for hk/jp, where box is the index of the box among the label file's
lines. The sources' labels are not all right: faces seen BY EYE to show another tile, or not one
clean tile face, are listed in ``datasets/manifests/face_bank_exclusions.json`` and dropped or
relabelled when the bank is built (:func:`load_exclusions`; the audit is
``datasets/synth/audit_faces.py``).
"""

from __future__ import annotations

import contextlib
import csv
import hashlib
import json
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

FACE_W, FACE_H = 120, 160

SUITED = [f"{n}{s}" for s in "mps" for n in range(1, 10)]
HONORS = [f"{n}z" for n in range(1, 8)]
RED = ["0m", "0p", "0s"]
CLASSES: tuple[str, ...] = tuple(SUITED + HONORS + RED + ["back", "flower"])
CLASS_INDEX = {c: i for i, c in enumerate(CLASSES)}
FOUR_PLAYER_ONLY = tuple(f"{n}m" for n in range(2, 9))

# Back colours (BGR) of real sets: blue, green, yellow, orange, black, plus a red and a teal.
BACK_COLOURS: dict[str, tuple[int, int, int]] = {
    "blue": (165, 95, 35),
    "lightblue": (205, 150, 70),
    "green": (70, 140, 35),
    "darkgreen": (50, 95, 25),
    "yellow": (45, 195, 230),
    "orange": (35, 125, 235),
    "black": (38, 36, 34),
    "red": (45, 45, 190),
    "teal": (140, 135, 30),
}

_FLUFFY_NAMES = {
    **{f"{n}m": f"Man{n}" for n in range(1, 10)},
    **{f"{n}p": f"Pin{n}" for n in range(1, 10)},
    **{f"{n}s": f"Sou{n}" for n in range(1, 10)},
    "1z": "Ton",
    "2z": "Nan",
    "3z": "Shaa",
    "4z": "Pei",
    "5z": "Haku",
    "6z": "Hatsu",
    "7z": "Chun",
    "0m": "Man5-Dora",
    "0p": "Pin5-Dora",
    "0s": "Sou5-Dora",
}

_CAMERASH_HONORS = {
    "east": "1z",
    "south": "2z",
    "west": "3z",
    "north": "4z",
    "white": "5z",
    "green": "6z",
    "red": "7z",
}


EXCLUSIONS_PATH = Path(__file__).resolve().parents[1] / "manifests" / "face_bank_exclusions.json"


def default_shared() -> Path:
    """``../shared/datasets`` relative to the repository root."""
    return Path(__file__).resolve().parents[2].parent / "shared" / "datasets"


def jp_upright_is_heldout(name: str, names: list[str] | None = None) -> bool:
    """True when a ``real/jp-upright`` image is held out for evaluation (never trained on).

    Rule: sort the image file names; an image whose index in that order is divisible by 5 is
    held out. ``names`` is the full list of image names (defaults to the shared folder's).
    """
    if names is None:
        names = _jp_upright_names()
    ordered = sorted(Path(n).name for n in names)
    return ordered.index(Path(name).name) % 5 == 0


@lru_cache(maxsize=2)
def _jp_upright_names(shared: str | None = None) -> list[str]:
    root = Path(shared) if shared else default_shared()
    return sorted(p.name for p in (root / "real/jp-upright/images").glob("*.jpg"))


@dataclass(frozen=True)
class Face:
    """One face image (BGR uint8, FACE_H × FACE_W) of a class, with its style source."""

    cls: str
    image: np.ndarray = field(repr=False)
    source: str  # fluffy | fluffy-black | camerash | hk | jp | synthetic
    style: str = ""


def face_id(image: str, box: int | None = None) -> str:
    """A photo face's name in the bank (its ``style``): the file, plus ``#box`` for a box of a
    labelled photo (the box's line index in the label file)."""
    return image if box is None else f"{image}#{box}"


@dataclass(frozen=True)
class Exclusion:
    """A bank face whose source label is wrong (``tile`` = the tile seen: relabel) or that is
    no clean single tile face (``tile`` None: drop). Decided by eye, never by a model."""

    source: str  # camerash | hk | jp
    image: str  # file name in the source's image folder
    box: int | None  # line index in the label file (hk, jp); None for a camerash crop
    label: str  # the source's label (checked when applied: the manifest must match the data)
    tile: str | None

    @property
    def key(self) -> tuple[str, str]:
        return self.source, face_id(self.image, self.box)


def load_exclusions(path: Path | None = None) -> tuple[Exclusion, ...]:
    """The manifest's entries (``action`` ``drop`` or ``relabel`` with ``tile``)."""
    data = json.loads((path or EXCLUSIONS_PATH).read_text())
    out = []
    for e in data["faces"]:
        if e["action"] not in ("drop", "relabel"):
            raise ValueError(f"unknown action in {e}")
        tile = e.get("tile") if e["action"] == "relabel" else None
        if e["action"] == "relabel" and tile not in CLASSES:
            raise ValueError(f"relabel needs a class in {e}")
        out.append(Exclusion(e["source"], e["image"], e.get("box"), e["label"], tile))
    return tuple(out)


def apply_exclusions(faces: Iterable[Face], exclusions: Iterable[Exclusion]) -> list[Face]:
    """``faces`` less the dropped ones, relabelled ones under their seen tile."""
    by_key = {e.key: e for e in exclusions}
    out = []
    for f in faces:
        e = by_key.get((f.source, f.style))
        if e is None:
            out.append(f)
            continue
        if e.label != f.cls:
            raise ValueError(f"exclusion {e} names label {e.label}, the source says {f.cls}")
        if e.tile is not None:
            out.append(Face(e.tile, f.image, f.source, f.style))
    return out


@dataclass
class FaceBank:
    """Faces by class; ``pick`` draws one, preferring a scene's source, and jitters it."""

    faces: dict[str, list[Face]]

    def sources(self) -> list[str]:
        return sorted({f.source for fs in self.faces.values() for f in fs})

    def count(self) -> dict[str, int]:
        return {c: len(self.faces.get(c, [])) for c in CLASSES}

    def pick(
        self, rng: np.random.Generator, cls: str, source: str | None = None, jitter: bool = True
    ) -> np.ndarray:
        """A face of ``cls`` (from ``source`` when the bank has one), colour-jittered."""
        pool = self.faces[cls]
        if source is not None:
            same = [f for f in pool if f.source == source]
            if same:
                pool = same
        face = pool[int(rng.integers(len(pool)))].image
        return jitter_face(rng, face) if jitter else face


# ---------------------------------------------------------------------------- image helpers


def _fit(img: np.ndarray, w: int = FACE_W, h: int = FACE_H) -> np.ndarray:
    interp = cv2.INTER_AREA if img.shape[1] > w else cv2.INTER_LINEAR
    return cv2.resize(img, (w, h), interpolation=interp)


def _face_background(face: np.ndarray) -> np.ndarray:
    """The face's ground colour: the median of its brighter half (BGR float)."""
    px = face.reshape(-1, 3).astype(np.float32)
    lum = px.mean(axis=1)
    return np.median(px[lum >= np.median(lum)], axis=0)


def ink_alpha(face: np.ndarray) -> np.ndarray:
    """0..1 map of the printed symbol (pixels far from the face's ground colour)."""
    bg = _face_background(face)
    d = np.linalg.norm(face.astype(np.float32) - bg, axis=2)
    return np.clip((d - 35.0) / 60.0, 0.0, 1.0)


@lru_cache(maxsize=1)
def _interior_mask() -> np.ndarray:
    """1 inside the face, fading to 0 over the outer ~8% (tile edges, table in photo crops)."""
    yy, xx = np.mgrid[0:FACE_H, 0:FACE_W].astype(np.float32)
    ex = np.minimum(xx, FACE_W - 1 - xx) / FACE_W
    e = np.minimum(ex, np.minimum(yy, FACE_H - 1 - yy) / FACE_H)
    return np.clip((e - 0.05) / 0.05, 0.0, 1.0)


def redden(face: np.ndarray, rng: np.random.Generator | None = None) -> np.ndarray:
    """Recolour every pip/stroke red (a red five of the same style, §A1)."""
    a = ink_alpha(face) * _interior_mask()
    a = cv2.GaussianBlur(a, (0, 0), 0.6)[..., None]
    f = face.astype(np.float32)
    dark = f.mean(axis=2, keepdims=True) / 255.0
    base = np.array([40.0, 35.0, 200.0], np.float32)
    if rng is not None:
        base = base + rng.uniform(-15, 15, 3).astype(np.float32)
        base[2] = np.clip(base[2] + rng.uniform(-20, 30), 150, 245)
    red = base * (0.75 + 0.45 * dark)
    out = f * (1 - a) + red * a
    return np.clip(out, 0, 255).astype(np.uint8)


def recolour_reds(face: np.ndarray, colour: tuple[int, int, int]) -> np.ndarray:
    """Turn the red parts of a face into ``colour`` (e.g. a 5p without a red centre pip)."""
    hsv = cv2.cvtColor(face, cv2.COLOR_BGR2HSV)
    h, s, v = hsv[..., 0].astype(np.int16), hsv[..., 1], hsv[..., 2]
    m = (((h < 10) | (h > 170)) & (s > 90) & (v > 60)).astype(np.float32)
    m = cv2.GaussianBlur(m, (0, 0), 0.6)[..., None]
    shade = face.astype(np.float32).max(axis=2, keepdims=True) / 255.0
    col = np.array(colour, np.float32) * (0.6 + 0.5 * shade)
    return np.clip(face * (1 - m) + col * m, 0, 255).astype(np.uint8)


def red_fraction(face: np.ndarray) -> float:
    """Share of the ink that is red (used by tests: red fives > 0.5, others < 0.5)."""
    a = ink_alpha(face)
    hsv = cv2.cvtColor(face, cv2.COLOR_BGR2HSV)
    red = ((hsv[..., 0] < 10) | (hsv[..., 0] > 168)) & (hsv[..., 1] > 80)
    total = float(a.sum())
    return float((a * red).sum()) / total if total > 0 else 0.0


def jitter_face(rng: np.random.Generator, face: np.ndarray) -> np.ndarray:
    """Small colour jitter that keeps hues (a blue pip never turns red): tint, gain, gamma."""
    tint = np.array([rng.uniform(0.86, 1.0), rng.uniform(0.93, 1.0), 1.0])
    gain, off, g = rng.uniform(0.85, 1.1), rng.uniform(-12, 12), rng.uniform(0.85, 1.2)
    x = np.arange(256, dtype=np.float64)
    lut = np.stack(
        [255.0 * (np.clip(x * t * gain + off, 0, 255) / 255.0) ** g for t in tint], axis=1
    )
    out = cv2.LUT(face, lut.astype(np.uint8).reshape(256, 1, 3))
    if rng.random() < 0.12:  # another set's inks: blue <-> green (red stays red)
        out = np.ascontiguousarray(out[..., [1, 0, 2]])
    return out


def back_face(colour: tuple[int, int, int], rng: np.random.Generator) -> np.ndarray:
    """A face-down tile's back: the set's back colour with a soft gloss and bevel."""
    yy, xx = np.mgrid[0:FACE_H, 0:FACE_W].astype(np.float32)
    cx, cy = rng.uniform(0.2, 0.8) * FACE_W, rng.uniform(0.1, 0.5) * FACE_H
    gloss = np.exp(-(((xx - cx) / (FACE_W * 0.5)) ** 2 + ((yy - cy) / (FACE_H * 0.4)) ** 2))
    edge = np.minimum.reduce([xx, yy, FACE_W - 1 - xx, FACE_H - 1 - yy]) / 6.0
    bevel = 0.8 + 0.2 * np.clip(edge, 0, 1)
    col = np.array(colour, np.float32) * rng.uniform(0.85, 1.15, 3).astype(np.float32)
    img = col[None, None, :] * bevel[..., None] * (0.9 + 0.1 * rng.random())
    img = img + gloss[..., None] * rng.uniform(10, 45)
    img = img + rng.normal(0, 3, img.shape).astype(np.float32)
    return np.clip(img, 0, 255).astype(np.uint8)


# ---------------------------------------------------------------------------- sources


def _read_rgba(path: Path) -> np.ndarray:
    img = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if img is None:
        raise FileNotFoundError(path)
    return img


def _composite(front: np.ndarray, symbol: np.ndarray | None, scale: float, dy: float) -> np.ndarray:
    """Symbol (RGBA 600×800) scaled by ``scale`` and centred on ``front`` (BGR face)."""
    out = front.astype(np.float32).copy()
    if symbol is None:
        return out.astype(np.uint8)
    sw, sh = int(FACE_W * scale), int(FACE_H * scale)
    sym = cv2.resize(symbol, (sw, sh), interpolation=cv2.INTER_AREA).astype(np.float32)
    x0 = (FACE_W - sw) // 2
    y0 = int((FACE_H - sh) / 2 + dy * FACE_H)
    a = sym[..., 3:] / 255.0
    roi = out[y0 : y0 + sh, x0 : x0 + sw]
    roi[:] = roi * (1 - a) + sym[..., :3] * a
    return np.clip(out, 0, 255).astype(np.uint8)


def _fluffy_faces(root: Path) -> list[Face]:
    faces: list[Face] = []
    for style, src in (("Regular", "fluffy"), ("Black", "fluffy-black")):
        d = root / "art/fluffystuff/Export" / style
        if not d.is_dir():
            continue
        front_rgba = _read_rgba(d / "Front.png")
        front = front_rgba[..., :3].astype(np.float32)
        fa = front_rgba[..., 3:].astype(np.float32) / 255.0
        # Transparent rounded corners → the face's own ground colour.
        ground = np.median(front[fa[..., 0] > 0.9], axis=0)
        front = front * fa + ground * (1 - fa)
        front = _fit(front.astype(np.uint8))
        for cls, name in _FLUFFY_NAMES.items():
            sym = _read_rgba(d / f"{name}.png")
            if sym[..., 3].max() == 0:
                sym = None  # Haku is empty: Front alone is the white dragon.
            for k, (scale, dy) in enumerate(((0.84, -0.02), (0.76, -0.01), (0.9, 0.0))):
                faces.append(Face(cls, _composite(front, sym, scale, dy), src, f"{style}{k}"))
        # Real sets vary: 5p/5s with no red centre, 5p/5s with a red centre (non-red fives).
        for f in [f for f in faces if f.source == src and f.cls in ("5p", "5s")]:
            other = (120, 60, 30) if f.cls == "5p" else (60, 120, 30)
            faces.append(Face(f.cls, recolour_reds(f.image, other), src, f.style + "-nored"))
    return faces


def _camerash_faces(root: Path, exclusions: Iterable[Exclusion] = ()) -> list[Face]:
    d = root / "crops/camerash"
    csv_path = d / "tiles-data/data.csv"
    if not csv_path.is_file():
        return []
    faces: list[Face] = []
    with csv_path.open() as fh:
        for row in csv.DictReader(fh):
            cls = _camerash_class(row["label-name"])
            img = cv2.imread(str(d / "tiles-resized" / row["image-name"]))
            if cls is None or img is None:
                continue
            h, w = img.shape[:2]
            m = int(0.03 * w)
            faces.append(Face(cls, _fit(img[m : h - m, m : w - m]), "camerash", row["image-name"]))
    return apply_exclusions(faces, exclusions)


def _camerash_class(name: str) -> str | None:
    kind, _, val = name.partition("-")
    if kind == "bonus":
        return "flower"
    if kind == "honors":
        return _CAMERASH_HONORS.get(val)
    suit = {"characters": "m", "dots": "p", "bamboo": "s"}.get(kind)
    return f"{val}{suit}" if suit and val.isdigit() else None


def _yolo_boxes(label: Path, w: int, h: int) -> list[tuple[int, np.ndarray, int]]:
    """(class id, 4×2 corner points, line index) per box line; polygons give their min-area
    rectangle."""
    out: list[tuple[int, np.ndarray, int]] = []
    for n, line in enumerate(label.read_text().splitlines()):
        v = line.split()
        if len(v) < 5:
            continue
        cid, nums = int(v[0]), np.array([float(x) for x in v[1:]], np.float32)
        if len(nums) == 4:
            cx, cy, bw, bh = nums * [w, h, w, h]
            pts = np.array(
                [
                    [cx - bw / 2, cy - bh / 2],
                    [cx + bw / 2, cy - bh / 2],
                    [cx + bw / 2, cy + bh / 2],
                    [cx - bw / 2, cy + bh / 2],
                ],
                np.float32,
            )
        else:
            poly = nums.reshape(-1, 2) * [w, h]
            pts = cv2.boxPoints(cv2.minAreaRect(poly.astype(np.float32))).astype(np.float32)
        out.append((cid, pts, n))
    return out


def _upright_corners(pts: np.ndarray) -> np.ndarray | None:
    """Order a tile rectangle TL, TR, BR, BL if it stands upright (taller than wide, < 20°)."""
    c = pts.mean(axis=0)
    ang = np.arctan2(pts[:, 1] - c[1], pts[:, 0] - c[0])
    p = pts[np.argsort(ang)]  # clockwise in image coordinates starting near -180°
    # rotate so that p[0] is top-left (smallest x + y)
    k = int(np.argmin(p.sum(axis=1)))
    p = np.roll(p, -k, axis=0)
    top = p[1] - p[0]
    left = p[3] - p[0]
    w, h = np.linalg.norm(top), np.linalg.norm(left)
    if w < 12 or h < 16 or not 1.1 < h / w < 1.9:
        return None
    if abs(np.degrees(np.arctan2(top[1], top[0]))) > 20:
        return None
    return p


def _mostly_upright(boxes: list[tuple[int, np.ndarray, int]]) -> bool:
    """Most tiles of the photo are taller than wide (not a 90°/45°-turned export variant)."""
    if not boxes:
        return False
    aspects = []
    for _, pts, _ in boxes:
        w = np.linalg.norm(pts[1] - pts[0])
        h = np.linalg.norm(pts[3] - pts[0])
        aspects.append(max(h, w) / max(min(h, w), 1e-6) if h >= w else 0.0)
    return float(np.median(aspects)) > 1.15


def _plain_ground(crop: np.ndarray) -> bool:
    """The face ground is ivory/white, not a hue-shifted export (magenta, cyan tiles)."""
    bg = _face_background(crop).clip(0, 255).astype(np.uint8).reshape(1, 1, 3)
    return int(cv2.cvtColor(bg, cv2.COLOR_BGR2HSV)[0, 0, 1]) < 70


def _bright_corners(crop: np.ndarray) -> bool:
    """Axis-aligned crops of rotated tiles show table at the corners: keep tile-coloured ones."""
    h, w = crop.shape[:2]
    k = max(2, min(h, w) // 7)
    corners = [crop[:k, :k], crop[:k, -k:], crop[-k:, :k], crop[-k:, -k:]]
    centre = _face_background(crop)
    return all(np.linalg.norm(c.reshape(-1, 3).mean(axis=0) - centre) < 60 for c in corners)


def _rectify(img: np.ndarray, pts: np.ndarray, trim: float) -> np.ndarray:
    c = pts.mean(axis=0)
    p = c + (pts - c) * (1 - trim)
    dst = np.array([[0, 0], [FACE_W, 0], [FACE_W, FACE_H], [0, FACE_H]], np.float32)
    m = cv2.getPerspectiveTransform(p.astype(np.float32), dst)
    return cv2.warpPerspective(
        img, m, (FACE_W, FACE_H), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )


def _photo_faces(
    root: Path, per_class: int, rng: np.random.Generator, exclusions: Iterable[Exclusion] = ()
) -> list[Face]:
    """hk and jp faces; the exclusions apply after hk's per-class draw, so a dropped face
    leaves its class one face short (no unaudited face takes its place)."""
    faces: list[Face] = []
    # hk-hands TRAIN split only.
    hk = root / "real/hk-hands"
    if (hk / "classes.json").is_file():
        classes = json.loads((hk / "classes.json").read_text())["classes"]
        found: dict[str, list[Face]] = {}
        labels = sorted((hk / "train/labels").glob("*.txt"))
        for lab in labels:
            img = cv2.imread(str(hk / "train/images" / (lab.stem + ".jpg")))
            if img is None:
                continue
            h, w = img.shape[:2]
            boxes = _yolo_boxes(lab, w, h)
            if not _mostly_upright(boxes):
                continue  # an exported variant turned by 90° or ±45°: symbols lie sideways
            for cid, pts, line in boxes:
                cls = classes.get(str(cid))
                cls = "flower" if cls is None else cls
                if cls == "1p" or len(found.get(cls, [])) >= per_class * 3:
                    continue  # 1p labels are noisy in this dataset
                p = _upright_corners(pts)
                if p is None:
                    continue
                crop = _rectify(img, p, 0.04)
                if not _bright_corners(crop) or not _plain_ground(crop):
                    continue
                found.setdefault(cls, []).append(
                    Face(cls, crop, "hk", face_id(lab.stem + ".jpg", line))
                )
        for fs in found.values():
            idx = rng.permutation(len(fs))[:per_class]
            faces.extend(fs[i] for i in sorted(idx))
    # jp-upright: the training part only (see jp_upright_is_heldout).
    jp = root / "real/jp-upright"
    if (jp / "classes.json").is_file():
        classes = json.loads((jp / "classes.json").read_text())["classes"]
        names = _jp_upright_names(str(root))
        for name in names:
            if jp_upright_is_heldout(name, names):
                continue
            img = cv2.imread(str(jp / "images" / name))
            lab = jp / "labels" / (Path(name).stem + ".txt")
            if img is None or not lab.is_file():
                continue
            h, w = img.shape[:2]
            for cid, pts, line in _yolo_boxes(lab, w, h):
                cls = classes.get(str(cid))
                if cls is None:
                    continue
                x0, y0 = pts.min(axis=0)
                x1, y1 = pts.max(axis=0)
                # Standing tiles: the box holds the top edge (back colour); keep the face below.
                y0 = y0 + 0.12 * (y1 - y0)
                p = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)
                faces.append(Face(cls, _rectify(img, p, 0.05), "jp", face_id(name, line)))
    return apply_exclusions(faces, exclusions)


def _red_variants(faces: list[Face], rng: np.random.Generator) -> list[Face]:
    """Red fives of every style: recolour the ink of that style's non-red 5m/5p/5s."""
    out = []
    for f in faces:
        if f.cls in ("5m", "5p", "5s") and not f.style.endswith("-nored"):
            out.append(Face("0" + f.cls[1], redden(f.image, rng), f.source, f.style + "-red"))
    return out


def red_centre(face: np.ndarray) -> np.ndarray:
    """A non-red 5p/5s whose centre pip/stick is red (common in real sets; not a red five)."""
    yy, xx = np.mgrid[0:FACE_H, 0:FACE_W].astype(np.float32)
    r = ((xx - FACE_W / 2) / (0.16 * FACE_W)) ** 2 + ((yy - FACE_H / 2) / (0.14 * FACE_H)) ** 2
    centre = np.clip(1.5 - r, 0.0, 1.0)
    a = (ink_alpha(face) * centre)[..., None]
    f = face.astype(np.float32)
    red = np.array([40.0, 35.0, 195.0], np.float32) * (
        0.75 + 0.45 * f.mean(axis=2, keepdims=True) / 255
    )
    return np.clip(f * (1 - a) + red * a, 0, 255).astype(np.uint8)


def _red_centre_variants(faces: list[Face]) -> list[Face]:
    return [
        Face(f.cls, red_centre(f.image), f.source, f.style + "-redcentre")
        for f in faces
        if f.cls in ("5p", "5s") and f.source in ("camerash", "hk", "jp")
    ]


def _back_faces(rng: np.random.Generator) -> list[Face]:
    return [
        Face("back", back_face(c, rng), "synthetic", name)
        for name, c in BACK_COLOURS.items()
        for _ in range(3)
    ]


def build_bank(
    shared: Path | str | None = None,
    *,
    per_class: int = 40,
    seed: int = 0,
    exclusions: Iterable[Exclusion] | None = None,
) -> FaceBank:
    """Read every source under ``shared`` (the datasets folder) into a :class:`FaceBank`,
    less the faces seen to be wrong (``exclusions``, default: the manifest; ``()`` = none,
    for the audit)."""
    root = Path(shared) if shared is not None else default_shared()
    if not (root / "art/fluffystuff").is_dir():
        raise FileNotFoundError(f"no tile art under {root} (expected art/fluffystuff)")
    excl = tuple(load_exclusions() if exclusions is None else exclusions)
    rng = np.random.default_rng(seed)
    faces = (
        _fluffy_faces(root) + _camerash_faces(root, excl) + _photo_faces(root, per_class, rng, excl)
    )
    faces += _red_variants(faces, rng) + _red_centre_variants(faces) + _back_faces(rng)
    by_cls: dict[str, list[Face]] = {c: [] for c in CLASSES}
    for f in faces:
        by_cls[f.cls].append(f)
    missing = [c for c, fs in by_cls.items() if not fs]
    if missing:
        raise ValueError(f"face bank has no faces for {missing}")
    return FaceBank(by_cls)


def placeholder_bank(seed: int = 0) -> FaceBank:
    """Drawn stand-in faces (the class name in ink) for smoke tests and speed runs where the
    shared datasets are absent. Never train on these."""
    rng = np.random.default_rng(seed)
    by_cls: dict[str, list[Face]] = {c: [] for c in CLASSES}
    inks = {"m": (40, 40, 40), "p": (140, 60, 30), "s": (40, 120, 30), "z": (120, 40, 30)}
    for c in CLASSES:
        for k in range(3):
            if c == "back":
                img = back_face(list(BACK_COLOURS.values())[k], rng)
            else:
                img = np.full((FACE_H, FACE_W, 3), (215, 232, 240), np.uint8)
                ink = (40, 35, 200) if c[0] == "0" else inks.get(c[-1], (60, 60, 60))
                text = c if c != "flower" else "fl"
                cv2.putText(
                    img,
                    text,
                    (8 + 4 * k, FACE_H // 2 + 18),
                    cv2.FONT_HERSHEY_SIMPLEX,
                    1.6,
                    ink,
                    5,
                    cv2.LINE_AA,
                )
            by_cls[c].append(Face(c, img, "placeholder", f"p{k}"))
    return FaceBank(by_cls)


BANK_VERSION = 6  # bump when the bank's construction changes (invalidates caches); 6: exclusions


def _cache_path(root: Path) -> Path:
    base = Path(os.environ.get("SANMA_SYNTH_CACHE", Path.home() / ".cache" / "sanma-lens"))
    key = hashlib.sha1(f"{root.resolve()}|{BANK_VERSION}".encode()).hexdigest()[:12]
    return base / f"facebank-{key}.npz"


def _save(bank: FaceBank, path: Path) -> None:
    faces = [f for fs in bank.faces.values() for f in fs]
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.stem + f".{os.getpid()}.tmp.npz")
    np.savez(
        tmp,
        images=np.stack([f.image for f in faces]),
        meta=np.array([[f.cls, f.source, f.style] for f in faces]),
    )
    os.replace(tmp, path)


def _load(path: Path) -> FaceBank:
    with np.load(path) as z:
        images, meta = z["images"], z["meta"]
    by_cls: dict[str, list[Face]] = {c: [] for c in CLASSES}
    for img, (cls, src, style) in zip(images, meta, strict=True):
        by_cls[str(cls)].append(Face(str(cls), img, str(src), str(style)))
    return FaceBank(by_cls)


@lru_cache(maxsize=2)
def load_bank(shared: str | None = None, cache: bool = True) -> FaceBank:
    """:func:`build_bank`, cached in memory (per process) and on disk.

    The disk cache lives in ``$SANMA_SYNTH_CACHE`` (default ``~/.cache/sanma-lens``), keyed by
    the datasets path and :data:`BANK_VERSION`; it holds derived face images, never the
    datasets themselves, and is outside the repository.
    """
    root = Path(shared) if shared is not None else default_shared()
    path = _cache_path(root)
    if cache and path.is_file():
        try:
            return _load(path)
        except (OSError, ValueError, KeyError):
            pass
    bank = build_bank(root)
    if cache:
        with contextlib.suppress(OSError):
            _save(bank, path)
    return bank

"""Training data for the tile models: real photos, single-tile crops and tile artwork.

Readers for the data sets described in ``../shared/datasets/README.md`` (read in place, never
copied into the repository) and the crop/augmentation helpers shared by ``datasets/train.py``
and ``benchmarks/recognition.py``.

Boxes are ``(x1, y1, x2, y2)`` in pixels; labels are MPSZ ids, ``"flower"`` (HK flower/season
tile), ``"back"`` (face-down) or ``"partial"`` (jp-upright's cut-off edge tiles: a tile for the
detector, no class for the classifier).
"""

from __future__ import annotations

import csv
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from datasets.synth.faces import Exclusion, load_exclusions
from sanma_lens.vision.classify import CLASSES, CROP_H, CROP_W, cut_tile

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("SANMA_DATA", REPO.parent / "shared" / "datasets"))
MANIFESTS = REPO / "datasets" / "manifests"


@dataclass
class Photo:
    """One labelled photo: path, boxes (N×4 pixels), labels, sideways flags (None = unknown)
    and stacked flags (a tile on another or under one; empty or None = unknown)."""

    path: str
    boxes: np.ndarray
    labels: list[str]
    sideways: list[bool | None] = field(default_factory=list)
    image: np.ndarray | None = None  # decoded BGR, filled by load()
    stacked: list[bool | None] = field(default_factory=list)

    def load(self) -> np.ndarray:
        if self.image is None:
            img = cv2.imread(self.path, cv2.IMREAD_COLOR)
            if img is None:
                raise OSError(f"cannot read {self.path}")
            self.image = img
        return self.image


def read_yolo(label_path: Path, width: int, height: int) -> list[tuple[int, np.ndarray, int]]:
    """YOLO txt lines → (class id, pixel box, line index in the file); polygons become their
    bounding boxes. The line index names a box in the manifests (face_bank_exclusions.json)."""
    out: list[tuple[int, np.ndarray, int]] = []
    if not label_path.exists():
        return out
    for n, line in enumerate(label_path.read_text().splitlines()):
        parts = line.split()
        if len(parts) < 5:
            continue
        cls = int(parts[0])
        v = np.array([float(p) for p in parts[1:]], dtype=np.float64)
        if len(v) == 4:
            cx, cy, w, h = v
            box = np.array([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2])
        else:
            xs, ys = v[0::2], v[1::2]
            box = np.array([xs.min(), ys.min(), xs.max(), ys.max()])
        box = np.clip(box, 0.0, 1.0) * [width, height, width, height]
        if box[2] - box[0] >= 2 and box[3] - box[1] >= 2:
            out.append((cls, box.astype(np.float32), n))
    return out


def _class_map(root: Path, null_as: str) -> dict[int, str]:
    raw = json.loads((root / "classes.json").read_text())["classes"]
    return {int(k): (v if v is not None else null_as) for k, v in raw.items()}


def _photos(
    root: Path,
    names: list[str],
    null_as: str,
    face_fixes: dict[str, dict[int | None, Exclusion]] | None = None,
) -> list[Photo]:
    cmap = _class_map(root.parent if root.name in ("train", "valid") else root, null_as)
    fixes = face_fixes or {}
    photos = []
    for name in names:
        img_path = root / "images" / name
        w, h = 640, 640  # both Roboflow exports are stretched to 640×640
        rows = read_yolo(root / "labels" / (Path(name).stem + ".txt"), w, h)
        if not rows:
            continue
        boxes = np.stack([b for _, b, _ in rows])
        fix = fixes.get(name, {})
        labels = [_fixed(cmap[c], fix.get(line)) for c, _, line in rows]
        photos.append(Photo(str(img_path), boxes, labels, [None] * len(labels)))
    return photos


def face_bank_fixes(source: str) -> dict[str, dict[int | None, Exclusion]]:
    """The face bank's audit (datasets/manifests/face_bank_exclusions.json, every face seen by
    eye; :func:`datasets.synth.faces.load_exclusions`) for the training photos of ``source``
    (``hk``, ``jp`` or ``camerash``): image → {label-file line (None for a camerash crop):
    entry}. Applied by :func:`_fixed`."""
    path = MANIFESTS / "face_bank_exclusions.json"
    if not path.exists():
        return {}
    out: dict[str, dict[int | None, Exclusion]] = {}
    for e in load_exclusions(path):
        if e.source == source:
            out.setdefault(e.image, {})[e.box] = e
    return out


def _fixed(label: str, fix: Exclusion | None) -> str:
    """A training label after the face bank's audit: a relabelled face takes the tile seen; a
    dropped one becomes ``partial``, still a tile for the detector but no class for the
    classifier (its crop was seen to show another tile or no clean face)."""
    if fix is None:
        return label
    if fix.label != label:  # the manifest was written against these labels
        raise ValueError(f"face bank entry {fix} names label {fix.label}, the data says {label}")
    return fix.tile or "partial"


def _append(photo: Photo, more: list[tuple[str, np.ndarray]]) -> None:
    """Audited boxes the labels leave out (:func:`load_additions`) added to ``photo``."""
    if more:
        photo.boxes = np.concatenate([photo.boxes, np.stack([b for _, b in more])])
        photo.labels = photo.labels + [t for t, _ in more]
        photo.sideways = photo.sideways + [None] * len(more)


def load_corrections() -> dict[str, dict[int, str | None]]:
    """Label fixes for hk-hands valid (datasets/manifests/hk_valid_corrections.json): the
    tile a box shows, or None for a second label on a tile already labelled (dropped)."""
    path = MANIFESTS / "hk_valid_corrections.json"
    if not path.exists():
        return {}
    data = json.loads(path.read_text())
    out: dict[str, dict[int, str | None]] = {}
    for row in data["corrections"]:
        out.setdefault(row["image"], {})[int(row["box"])] = row["tile"]
    return out


# Besides the riichi tile kinds, what an added box may be: "unlabelled" is a real tile outside
# the labelled set (a report on it is neither right nor wrong, like a cut-off "partial" tile).
ADDABLE = ("back", "partial", "unlabelled")


def load_additions(
    manifest: str = "hk_valid_corrections.json",
) -> dict[str, list[tuple[str, np.ndarray]]]:
    """Tiles a real set leaves unlabelled, found by an audit of the benchmark's extra reports
    (the ``added`` list of hk valid's manifest, or of ``jp_upright_corrections.json`` for
    jp-upright): image → [(label, 640×640 box)]. A label is a riichi tile seen by eye,
    ``back`` (a face-down tile: the set has no class for one), ``partial`` (a tile cut off by
    the photo's edge) or ``unlabelled`` (a real tile outside the hand the set labels: a
    discard, the wall, a heap); reports on the last two are neither right nor wrong."""
    path = MANIFESTS / manifest
    if not path.exists():
        return {}
    out: dict[str, list[tuple[str, np.ndarray]]] = {}
    for row in json.loads(path.read_text()).get("added", []):
        tile = str(row["tile"])
        if tile not in CLASSES and tile not in ADDABLE or tile in ("flower", "none"):
            raise ValueError(f"added box in {row['image']}: {tile!r} is no tile label")
        box = np.array(row["xyxy_640"], np.float32)
        if box.shape != (4,) or not (box[2] > box[0] and box[3] > box[1]):
            raise ValueError(f"added box in {row['image']}: bad xyxy_640 {row['xyxy_640']}")
        out.setdefault(row["image"], []).append((tile, box))
    return out


def hk_photos(split: str, corrected: bool = True, added: bool = False) -> list[Photo]:
    """hk-hands train (augmented, for training) or valid (evaluation only).

    For ``valid``: ``corrected`` applies the manifest's relabels and dropped duplicates;
    ``added`` (with ``corrected``) also appends the audited unlabelled tiles (load_additions).
    """
    root = SHARED / "real" / "hk-hands" / split
    names = sorted(os.listdir(root / "images"))
    # The face bank's fixes are for training photos only: valid's labels have their own audit.
    photos = _photos(root, names, "flower", face_bank_fixes("hk") if split == "train" else None)
    if corrected and split == "valid":
        fixes = load_corrections()
        extra = load_additions() if added else {}
        for p in photos:
            fix = fixes.get(Path(p.path).name, {})
            for idx, tile in fix.items():
                if idx < len(p.labels) and tile is not None:
                    p.labels[idx] = tile
            keep = [i for i in range(len(p.labels)) if not (i in fix and fix[i] is None)]
            if len(keep) < len(p.labels):
                p.boxes = p.boxes[keep]
                p.labels = [p.labels[i] for i in keep]
                p.sideways = [p.sideways[i] for i in keep]
            _append(p, extra.get(Path(p.path).name, []))
    return photos


def jp_upright_is_heldout(name: str, names: list[str]) -> bool:
    """The team's split rule for jp-upright: sorted index % 5 == 0 is held out."""
    try:
        from datasets.synth.faces import jp_upright_is_heldout as rule
    except ImportError:
        return sorted(names).index(name) % 5 == 0
    return bool(rule(name, names))


JP_MANIFEST = "jp_upright_corrections.json"


def jp_photos(heldout: bool, added: bool = False) -> list[Photo]:
    """jp-upright: standing Japanese tiles, all upright; heldout selects the evaluation part;
    ``added`` appends the audited tiles its labels leave out (load_additions(JP_MANIFEST))."""
    root = SHARED / "real" / "jp-upright"
    names = sorted(os.listdir(root / "images"))
    chosen = [n for n in names if jp_upright_is_heldout(n, names) == heldout]
    photos = _photos(root, chosen, "partial", None if heldout else face_bank_fixes("jp"))
    extra = load_additions(JP_MANIFEST) if added else {}
    for p in photos:
        _append(p, extra.get(Path(p.path).name, []))
        p.sideways = [False] * len(p.labels)  # every jp-upright tile stands upright
    return photos


def correction_photos(root: Path | str, complete_only: bool = False) -> list[Photo]:
    """Photos players kept with their corrected tiles, as ``sanma export-corrections`` writes
    them (api/corrections.py): YOLO labels and ``classes.json`` as in the shared sets, and from
    ``corrections.json`` each photo's size, its tiles' sideways flags and how many tiles the
    player added without a box. ``complete_only``: only photos whose every tile has its box (a
    detector would learn a tile without one as table)."""
    root = Path(root)
    manifest = json.loads((root / "corrections.json").read_text())
    cmap = _class_map(root, "partial")
    photos = []
    for entry in manifest["photos"]:
        if complete_only and entry["unboxed"]:
            continue
        name = Path(entry["image"]).name
        rows = read_yolo(
            root / "labels" / (Path(name).stem + ".txt"), int(entry["width"]), int(entry["height"])
        )
        if not rows:
            continue
        boxed = [t for t in entry["tiles"] if t["box"] is not None]
        sideways: list[bool | None] = (
            [t["angle"] == 90 for t in boxed] if len(boxed) == len(rows) else [None] * len(rows)
        )
        photos.append(
            Photo(
                str(root / "images" / name),
                np.stack([b for _, b, _ in rows]),
                [cmap[c] for c, _, _ in rows],
                sideways,
            )
        )
    return photos


_CAMERASH = {
    "east": "1z",
    "south": "2z",
    "west": "3z",
    "north": "4z",
    "white": "5z",
    "green": "6z",
    "red": "7z",
}


def camerash_crops() -> list[tuple[np.ndarray, str]]:
    """camerash single-tile crops (MIT, © 2019 Esmond Wong) → (BGR image, label)."""
    root = SHARED / "crops" / "camerash"
    fixes = {name: fix[None] for name, fix in face_bank_fixes("camerash").items()}
    out = []
    with open(root / "tiles-data" / "data.csv", newline="") as f:
        for row in csv.DictReader(f):
            kind, _, val = row["label-name"].partition("-")
            if kind == "bonus":
                label = "flower"
            elif kind == "honors":
                label = _CAMERASH[val]
            else:
                label = val + {"characters": "m", "dots": "p", "bamboo": "s"}[kind]
            label = _fixed(label, fixes.get(row["image-name"]))
            if label == "partial":  # seen to be no clean tile face: no class to learn
                continue
            img = cv2.imread(str(root / "tiles-resized" / row["image-name"]), cv2.IMREAD_COLOR)
            if img is not None:
                out.append((img, label))
    return out


_ART = {
    "Ton": "1z",
    "Nan": "2z",
    "Shaa": "3z",
    "Pei": "4z",
    "Haku": "5z",
    "Hatsu": "6z",
    "Chun": "7z",
    "Man5-Dora": "0m",
    "Pin5-Dora": "0p",
    "Sou5-Dora": "0s",
    "Back": "back",
}
for _i in range(1, 10):
    for _n, _s in (("Man", "m"), ("Pin", "p"), ("Sou", "s")):
        _ART[f"{_n}{_i}"] = f"{_i}{_s}"


def fluffy_faces(style: str = "Regular") -> dict[str, np.ndarray]:
    """FluffyStuff artwork (CC0) composited onto the blank face → label → BGRA 600×800."""
    root = SHARED / "art" / "fluffystuff" / "Export" / style
    front = cv2.imread(str(root / "Front.png"), cv2.IMREAD_UNCHANGED).astype(np.float32)
    out = {}
    for name, label in _ART.items():
        sym = cv2.imread(str(root / f"{name}.png"), cv2.IMREAD_UNCHANGED)
        if sym is None:
            continue
        if label == "back":
            out[label] = sym
            continue
        s = sym.astype(np.float32)
        a = s[..., 3:4] / 255.0
        face = front.copy()
        face[..., :3] = face[..., :3] * (1 - a) + s[..., :3] * a
        out[label] = face.clip(0, 255).astype(np.uint8)
    return out


def render_art_crop(face: np.ndarray, rng: np.random.Generator, label: str) -> np.ndarray:
    """One 48×64 classifier crop from artwork: tile body, tilt, light, background, blur, noise."""
    h, w = face.shape[:2]
    body = np.array(rng.uniform([150, 170, 180], [235, 245, 255]), dtype=np.float32)
    if label == "back":
        face = face.copy()
        hue = rng.integers(0, 180)
        hsv = cv2.cvtColor(face[..., :3], cv2.COLOR_BGR2HSV)
        hsv[..., 0] = (hsv[..., 0].astype(int) + hue) % 180
        face[..., :3] = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)
    a = face[..., 3:4].astype(np.float32) / 255.0
    tile = face[..., :3].astype(np.float32) * a + body * (1 - a)
    # a strip of tile body under the face (the thickness seen from an oblique camera)
    th = int(rng.uniform(0.0, 0.25) * h)
    canvas = np.zeros((h + th, w, 3), np.float32)
    canvas[:h] = tile
    canvas[h:] = body * rng.uniform(0.6, 0.95)
    if rng.random() < 0.5 and th:
        canvas = canvas[::-1].copy() if label != "back" else canvas
    ch, cw = canvas.shape[:2]
    bg = rng.uniform(0, 255, 3).astype(np.float32)
    out_w, out_h = CROP_W * 4, CROP_H * 4
    m = rng.uniform(0.0, 0.12)
    dst_w, dst_h = out_w * (1 - 2 * m), out_h * (1 - 2 * m)
    src = np.float32([[0, 0], [cw, 0], [cw, ch], [0, ch]])
    j = rng.normal(0, 0.04, (4, 2)) * [dst_w, dst_h]
    dst = np.float32([[0, 0], [dst_w, 0], [dst_w, dst_h], [0, dst_h]]) + j
    dst += [out_w * m, out_h * m]
    mat = cv2.getPerspectiveTransform(src, dst.astype(np.float32))
    img = cv2.warpPerspective(
        canvas, mat, (out_w, out_h), borderMode=cv2.BORDER_CONSTANT, borderValue=bg.tolist()
    )
    img = cv2.resize(img, (CROP_W, CROP_H), interpolation=cv2.INTER_AREA)
    return photometric(img.clip(0, 255).astype(np.uint8), rng)


def photometric(img: np.ndarray, rng: np.random.Generator, strength: float = 1.0) -> np.ndarray:
    """Light, white balance, blur, noise and JPEG — no hue rotation (red must stay red)."""
    f = img.astype(np.float32)
    f = f * rng.uniform(1 - 0.45 * strength, 1 + 0.3 * strength)
    f = f * rng.uniform(1 - 0.12 * strength, 1 + 0.12 * strength, 3)  # white balance
    f = (f - f.mean()) * rng.uniform(0.7, 1.25) + f.mean()
    if rng.random() < 0.3:  # glare blob
        hh, ww = f.shape[:2]
        yy, xx = np.mgrid[0:hh, 0:ww]
        cy, cx, r = rng.uniform(0, hh), rng.uniform(0, ww), rng.uniform(0.1, 0.4) * max(hh, ww)
        f += (np.exp(-((yy - cy) ** 2 + (xx - cx) ** 2) / (2 * r * r)) * rng.uniform(20, 90))[
            ..., None
        ]
    if rng.random() < 0.35:
        k = rng.uniform(0.3, 1.1) * max(f.shape[:2]) / 64
        f = cv2.GaussianBlur(f, (0, 0), k)
    noise = np.empty(f.shape, np.float32)
    cv2.randn(noise, 0.0, float(rng.uniform(0, 6)))
    out = (f + noise).clip(0, 255).astype(np.uint8)
    if rng.random() < 0.4:
        q = int(rng.integers(35, 90))
        ok, enc = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, q])
        if ok:
            out = cv2.imdecode(enc, cv2.IMREAD_COLOR)
    return out


def jitter_box(box: np.ndarray, rng: np.random.Generator, amount: float = 0.07) -> np.ndarray:
    """Shift/scale a box by a few per cent (detector boxes are never exact)."""
    x1, y1, x2, y2 = box
    w, h = x2 - x1, y2 - y1
    d = rng.normal(0, amount, 4) * [w, h, w, h]
    return np.array([x1 + d[0], y1 + d[1], x2 + d[2], y2 + d[3]], np.float32)


# Random in-plane rotation of classifier crops (``datasets.train --rotate P,DEG``): with
# probability ROTATE_P the photo is turned about the tile's centre by up to ±ROTATE_DEG and the
# axis-aligned box of the turned tile is cut, as a detector box of a tile lying askew would be.
# 0 = off (the GPU run and the first CPU fine-tune).
ROTATE_P = 0.0
ROTATE_DEG = 0.0


def rotated_crop(img: np.ndarray, box: np.ndarray, deg: float, sideways: bool) -> np.ndarray:
    """Crop of ``box`` after turning the photo by ``deg`` degrees about the box centre: the
    cut is the axis-aligned box of the turned tile (larger than the tile for |deg| > 0)."""
    x1, y1, x2, y2 = (float(v) for v in box)
    cx, cy, w, h = (x1 + x2) / 2, (y1 + y2) / 2, x2 - x1, y2 - y1
    c, s = abs(np.cos(np.radians(deg))), abs(np.sin(np.radians(deg)))
    nw, nh = w * c + h * s, w * s + h * c
    r = int(np.ceil(max(nw, nh) * 0.75)) + 2  # patch half-size: the turned box fits inside
    ih, iw = img.shape[:2]
    ix, iy = int(round(cx)), int(round(cy))
    pads = (max(r - iy, 0), max(iy + r - ih, 0), max(r - ix, 0), max(ix + r - iw, 0))
    patch = img[max(iy - r, 0) : min(iy + r, ih), max(ix - r, 0) : min(ix + r, iw)]
    if patch.size == 0:
        return cut_tile(img, tuple(box), sideways)
    if any(pads):
        patch = cv2.copyMakeBorder(patch, *pads, cv2.BORDER_REPLICATE)
    pc = (cx - ix + r, cy - iy + r)
    m = cv2.getRotationMatrix2D(pc, deg, 1.0)
    patch = cv2.warpAffine(
        patch, m, (2 * r, 2 * r), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    nbox = (pc[0] - nw / 2, pc[1] - nh / 2, pc[0] + nw / 2, pc[1] + nh / 2)
    return cut_tile(patch, nbox, sideways)


def photo_crop(photo: Photo, idx: int, rng: np.random.Generator | None) -> np.ndarray:
    """Classifier crop of box idx; wide boxes turned upright, random 180°/90° turns, random
    in-plane rotation when ROTATE_P > 0."""
    img = photo.load()
    box = photo.boxes[idx]
    if rng is not None:
        box = jitter_box(box, rng)
    w, h = box[2] - box[0], box[3] - box[1]
    sideways = photo.sideways[idx] if photo.sideways[idx] is not None else w > 1.15 * h
    if rng is not None and ROTATE_P > 0 and rng.random() < ROTATE_P:
        deg = float(rng.uniform(-ROTATE_DEG, ROTATE_DEG))
        crop = rotated_crop(img, box, deg, bool(sideways))
    else:
        crop = cut_tile(img, tuple(box), bool(sideways))
    if rng is not None:
        if photo.sideways[idx] is None and rng.random() < 0.2:
            crop = cv2.resize(np.rot90(crop).copy(), (CROP_W, CROP_H))
        if rng.random() < 0.5:
            crop = crop[::-1, ::-1].copy()
        crop = photometric(crop, rng, 0.6)
    return crop


def class_index(label: str) -> int:
    return CLASSES.index(label)

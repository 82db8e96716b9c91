"""Crops for the tile check (vision/tile_check.py): tiles and things that are not tiles.

Each crop is cut as the pipeline cuts it (:func:`vision.tile_check.cut_square`), label 1 for a
tile (face up or face down, cut by the photo's edge or not) and 0 for no tile:

- ``real``: the labelled tiles of the real *training* photos (hk-hands ``train``, jp-upright's
  training part; never hk ``valid/`` nor jp's held-out part), their boxes jittered as the
  detector's are (cut-off edge tiles included: they are tiles, and setting them aside was what
  cost the classifier fine-tune of 2026-11-28 its hk photos);
- ``texture`` (0): windows of tile size on those photos away from every labelled tile (each
  window covered by tile boxes at most ``AWAY``): felt, mats, hands, table edges;
- ``render``: the tiles of rendered scenes (any angle, coloured backs, sideways; small and
  blurred ones come from the training augmentation) and, labelled 0, the renderer's windows on
  its distractors (LED point displays, sticks, chips, coins, dice, phones, keyboards);
- ``hard`` (0): what the pipeline itself reports on rendered scenes with distractors (find and
  sift, before the face check) where no tile lies: its false reports, cut from its own boxes;
- ``found``: the pipeline's reports on rendered scenes and real training photos that match a
  labelled tile, cut from its own boxes.

A ``--check-every`` share of the real photos and the last ``--check-renders`` rendered scenes
are kept apart (``part`` "check"): the training never sees them, the threshold is chosen on
them and on the training crops together (datasets/train_tile_check.py).

    python -m datasets.tile_check_crops --out .dev/tilecheck/crops.npz \\
        --render-cache .dev/render_cache --scatter 200
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from datasets import train_data as td
from sanma_lens.engine.errors import InputError
from sanma_lens.vision.detect import iou
from sanma_lens.vision.tile_check import MARGIN, cut_square

AWAY = 0.1  # a texture window is covered by tile boxes at most this share of its area
HARD_IOU = 0.1  # a pipeline report overlapping every tile box less than this is on no tile
FOUND_IOU = 0.5  # ... one overlapping a tile box this much is that tile
PLAIN_SEED, EXTRAS_SEED = 1_007_000, 1_007_300  # the training renders (datasets/train.py cache)
EXTRAS = "clutter,backs,slant"
SCATTER_SEED = 1_008_000  # loose tiles on a tray, the floor, a keyboard (training seeds too)


def jitter(box: np.ndarray, rng: np.random.Generator, amount: float = 0.08) -> np.ndarray:
    """A box moved as the detector's boxes differ from labels: each edge by a normal share of
    the box's size."""
    w, h = box[2] - box[0], box[3] - box[1]
    return box + rng.normal(0.0, amount, 4) * np.array([w, h, w, h])


def covered(box: tuple[float, ...], boxes: np.ndarray) -> float:
    """Share of ``box``'s area covered by the union-free sum of ``boxes`` (an upper bound)."""
    if not len(boxes):
        return 0.0
    iw = np.clip(np.minimum(box[2], boxes[:, 2]) - np.maximum(box[0], boxes[:, 0]), 0, None)
    ih = np.clip(np.minimum(box[3], boxes[:, 3]) - np.maximum(box[1], boxes[:, 1]), 0, None)
    return float((iw * ih).sum() / max((box[2] - box[0]) * (box[3] - box[1]), 1e-6))


def texture_boxes(
    photo: td.Photo, rng: np.random.Generator, n: int
) -> list[tuple[float, float, float, float]]:
    """Up to ``n`` tile-sized windows on ``photo`` away from every labelled tile."""
    img = photo.load()
    h, w = img.shape[:2]
    b = photo.boxes
    sides = np.sqrt((b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1]))
    med = float(np.median(sides)) if len(sides) else min(h, w) / 10
    out: list[tuple[float, float, float, float]] = []
    for _ in range(20 * n):
        if len(out) >= n:
            break
        bw = med * rng.uniform(0.6, 1.3)
        bh = bw * rng.uniform(0.7, 1.7)
        if rng.random() < 0.3:
            bw, bh = bh, bw
        x1, y1 = rng.uniform(-0.2 * bw, w - 0.8 * bw), rng.uniform(-0.2 * bh, h - 0.8 * bh)
        box = (x1, y1, x1 + bw, y1 + bh)
        # the square the check cuts around it, not only the window, shows no tile
        r = max(bw, bh) * (0.5 + MARGIN)
        cx, cy = x1 + bw / 2, y1 + bh / 2
        if covered((cx - r, cy - r, cx + r, cy + r), photo.boxes) <= AWAY:
            out.append(box)
    return out


class Crops:
    """The crops as they are gathered: image, label, source and part."""

    def __init__(self) -> None:
        self.x: list[np.ndarray] = []
        self.y: list[int] = []
        self.src: list[str] = []
        self.part: list[str] = []

    def add(self, img: np.ndarray, box, label: int, src: str, part: str) -> None:
        self.x.append(cut_square(img, tuple(float(v) for v in box)))
        self.y.append(label)
        self.src.append(src)
        self.part.append(part)

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(
            path,
            x=np.stack(self.x),
            y=np.array(self.y, np.float32),
            src=np.array(self.src),
            part=np.array(self.part),
        )


def real_part(i: int, every: int) -> str:
    return "check" if every and i % every == every // 2 else "train"


def add_real(
    c: Crops,
    photos: list[td.Photo],
    every: int,
    per_tile: int,
    textures: int,
    rng: np.random.Generator,
    log,
) -> None:
    """Each labelled tile ``per_tile`` times (jittered; a check photo's once, as labelled) and
    ``textures`` windows of non-tile texture per photo."""
    start = time.time()
    for i, p in enumerate(photos):
        part = real_part(i, every)
        img = p.load()
        for j in range(len(p.labels)):
            if part == "check":
                c.add(img, p.boxes[j], 1, "real", part)
                continue
            for _ in range(per_tile):
                c.add(img, jitter(p.boxes[j], rng), 1, "real", part)
        for box in texture_boxes(p, rng, textures):
            c.add(img, box, 0, "texture", part)
        p.image = None  # the photos are big: keep only their crops
        if (i + 1) % 200 == 0:
            log(
                f"real photos {i + 1}/{len(photos)}: {len(c.y)} crops ({time.time() - start:.0f} s)"
            )


def add_renders(
    c: Crops, scenes: list[td.Photo], check_from: int, per_tile: int, rng: np.random.Generator
) -> None:
    """The rendered tiles (``per_tile`` jittered crops each) and the distractor windows
    (``none``) of the scenes; scenes from index ``check_from`` on are check scenes."""
    for i, p in enumerate(scenes):
        part = "check" if i >= check_from else "train"
        img = p.load()
        for j, lab in enumerate(p.labels):
            if lab == "partial":  # a tile under another: neither a tile's view nor no tile
                continue
            label = 0 if lab == "none" else 1
            for _ in range(1 if label == 0 or part == "check" else per_tile):
                box = p.boxes[j] if part == "check" else jitter(p.boxes[j], rng)
                c.add(img, box, label, "render", part)


def add_pipeline(
    c: Crops, rec, photos: list[td.Photo], parts: list[str], rendered: bool, log
) -> None:
    """The pipeline's reports (find, sift) on ``photos``: those on a labelled tile as tiles
    (``found``), and on rendered scenes those on no tile at all as no tile (``hard``); a real
    photo's reports off its labels are left out (some real tiles are not labelled)."""
    start = time.time()
    for i, (p, part) in enumerate(zip(photos, parts, strict=True)):
        img = p.load()
        try:
            found = rec.sift(rec.find(img))
        except InputError:  # too many tile-like shapes (a keyboard): the product reads none
            continue
        tiles = [k for k, lab in enumerate(p.labels) if lab != "none"]
        boxes = p.boxes[tiles] if tiles else np.zeros((0, 4), np.float32)
        for t in found.tiles:
            best = max((iou(t.box, tuple(b)) for b in boxes), default=0.0)
            if best >= FOUND_IOU:
                c.add(img, t.box, 1, "found", part)
            elif rendered and best < HARD_IOU and covered(t.box, boxes) <= AWAY:
                c.add(img, t.box, 0, "hard", part)
        if not rendered:
            p.image = None
        if (i + 1) % 100 == 0:
            log(f"pipeline {i + 1}/{len(photos)}: {len(c.y)} crops ({time.time() - start:.0f} s)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True, help="the crops' .npz")
    ap.add_argument("--render-cache", default=None, help="rendered scenes kept by datasets.train")
    ap.add_argument("--plain", type=int, default=300, help="plain scenes, seeds 1007000+")
    ap.add_argument("--extras", type=int, default=500, help=f"scenes with {EXTRAS}, seeds 1007300+")
    ap.add_argument(
        "--scatter",
        type=int,
        default=0,
        help="scenes of loose tiles at any angle, seeds 1008000+ (their tiles, "
        "and the pipeline's reports on them)",
    )
    ap.add_argument("--skip-real", action="store_true", help="no real photos")
    ap.add_argument("--check-every", type=int, default=10, help="every N-th real photo kept apart")
    ap.add_argument(
        "--check-renders",
        type=int,
        default=50,
        help="the last N scenes of each render kind kept apart",
    )
    ap.add_argument("--per-tile", type=int, default=2, help="jittered crops of a training tile")
    ap.add_argument("--textures", type=int, default=6, help="texture windows per real photo")
    ap.add_argument(
        "--real-pipeline",
        choices=["none", "check", "all"],
        default="check",
        help="the pipeline's reports on these real photos too (about 1 s each)",
    )
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args(argv)
    # the renderer's cache lives with the training code, which needs torch (the train extra):
    # imported here so that the crop functions above work without it
    from datasets.train import render_scenes

    rng = np.random.default_rng(29)
    log = lambda m: print(m, flush=True)  # noqa: E731
    c = Crops()
    photos = [] if args.skip_real else td.hk_photos("train") + td.jp_photos(heldout=False)
    log(f"real training photos: {len(photos)}")
    add_real(c, photos, args.check_every, args.per_tile, args.textures, rng, log)
    plain = render_scenes(args.plain, PLAIN_SEED, 1, cache=args.render_cache)
    extras = render_scenes(args.extras, EXTRAS_SEED, 1, extras=EXTRAS, cache=args.render_cache)
    loose = render_scenes(args.scatter, SCATTER_SEED, 1, extras="scatter", cache=args.render_cache)
    for scenes in (plain, extras, loose):
        add_renders(c, scenes, len(scenes) - args.check_renders, args.per_tile, rng)
    log(
        f"renders: {len(plain)} plain, {len(extras)} with {EXTRAS}, {len(loose)} scattered: "
        f"{len(c.y)} crops"
    )
    from sanma_lens.vision.pipeline import Recognizer

    rec = Recognizer(threads=args.threads)
    for scenes in (extras, loose):
        parts = [
            "check" if i >= len(scenes) - args.check_renders else "train"
            for i in range(len(scenes))
        ]
        add_pipeline(c, rec, scenes, parts, True, log)
    if args.real_pipeline != "none":
        parts = [real_part(i, args.check_every) for i in range(len(photos))]
        chosen = [i for i, pt in enumerate(parts) if args.real_pipeline == "all" or pt == "check"]
        add_pipeline(c, rec, [photos[i] for i in chosen], [parts[i] for i in chosen], False, log)
    c.save(Path(args.out))
    y, src, part = np.array(c.y), np.array(c.src), np.array(c.part)
    for s in sorted(set(c.src)):
        for pt in ("train", "check"):
            m = (src == s) & (part == pt)
            log(f"{s:8s} {pt:5s}: {int(m.sum())} crops, {int(y[m].sum())} tiles")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Train the tile detector and classifier and export them to ONNX (models/*.onnx).

One command, CPU or GPU, bounded by a time budget, with a progress bar::

    .venv/bin/python -m datasets.train --device cpu --minutes 170 --out models

Fine-tune of the shipped classifier (its .pt was not kept: ``--init-onnx`` imports the ONNX
weights, see ``datasets/train_init.py``; ``--init`` takes a saved ``.pt``)::

    OMP_NUM_THREADS=1 nice -n 19 .venv/bin/python -m datasets.train --only cls \
        --init-onnx models/tile_classifier.onnx --focus --lr 3e-4 --minutes 60 ...

Fine-tune of the shipped detector (same import; ``--det-size`` crops of that side, smaller than
the default 512 for CPU speed; ``--det-mix HK,JP,REND`` shares of the sampled photos)::

    OMP_NUM_THREADS=1 nice -n 5 .venv/bin/python -m datasets.train --only det \
        --init-onnx models/tile_detector.onnx --lr 3e-4 --det-batch 8 --det-size 384 ...

``--render-cache DIR`` keeps each rendered scene (PNG and its labels) and reads it back in
later runs with the same seeds, so a second fine-tune starts in seconds rather than after
rendering again; a change to ``datasets/synth`` renders afresh (``cache_folder``).

``--focus-real KIND:W,...`` sets the real kinds' focus weights (default ``FOCUS_REAL``);
``--rotate P,DEG`` turns a share P of the classifier crops by up to ±DEG degrees
(``train_data.rotated_crop``). Both are off by default, so earlier commands reproduce; the runs
and their numbers are in the model cards (models/*.md) and models/HISTORY.md.

Data (read from ../shared/datasets, or $SANMA_DATA): hk-hands train (real photos, CC BY 4.0),
jp-upright's training part (real, CC BY 4.0), camerash crops (MIT), FluffyStuff art (CC0), and
scenes rendered by ``datasets.synth`` (red fives, aka-5-man, sideways, face-down, melds) when
``--renders N`` > 0. hk-hands valid and jp-upright's held-out part are never read here.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

import cv2
import numpy as np
import torch
from torch import nn
from torch.nn import functional as F  # noqa: N812
from torch.utils.data import DataLoader, Dataset
from tqdm import tqdm

from datasets import train_data as td
from datasets.train_init import (
    check_against_onnx,
    classifier_from_onnx,
    detector_from_onnx,
    freeze_batchnorm,
)
from datasets.train_nets import ClsNet, DetNet
from sanma_lens.vision.classify import CLASSES, CROP_H, CROP_W, cut_tile, to_input
from sanma_lens.vision.detect import SIZE_UNIT, STRIDE, iou, prepare

DET_SIZE = 512


# ---------------------------------------------------------------- rendered scenes
def _render_one(seed: int, hands: str = "random", extras: str = "") -> td.Photo | None:
    """One scene from datasets.synth as a Photo (labels, sideways and stacked flags known);
    ``extras``: what real tables add (datasets/synth/extras.py names, comma-separated). With
    extras, tile-sized windows on the things that are not tiles come labelled ``none``: crops
    the classifier learns as not a tile, boxes the detector never sees (``DetData``)."""
    from datasets.synth.crops import none_boxes
    from datasets.synth.extras import parse_extras
    from datasets.synth.scene import render_scene

    scene = render_scene(np.random.default_rng(seed), hands=hands, extras=parse_extras(extras))
    image = scene.image
    boxes, labels, side = [], [], []
    for t in scene.tiles:
        boxes.append(t.box)
        labels.append("partial" if t.occluded else ("back" if t.face_down else t.tile))
        side.append(t.angle == 90)
    if not boxes:
        return None
    stacked = stacked_flags(scene.tiles)
    if extras:
        for box in none_boxes(scene, np.random.default_rng([seed, 2])):
            boxes.append(box)
            labels.append("none")
            side.append(False)
            stacked.append(None)
    h, w = image.shape[:2]
    s = min(1.0, 1024 / max(h, w))  # keep memory small; tiles stay larger than the crops
    if s < 1:
        image = cv2.resize(image, (round(w * s), round(h * s)), interpolation=cv2.INTER_AREA)
    p = td.Photo(f"render:{seed}", np.array(boxes, np.float32) * s, labels, side, image, stacked)
    return p


def _render_seed(seed: int, hands: str = "random", extras: str = "") -> tuple[int, td.Photo | None]:
    """(seed, :func:`_render_one`'s scene): the pool hands scenes back in any order."""
    return seed, _render_one(seed, hands, extras)


def stacked_flags(tiles: list) -> list[bool | None]:
    """Per scene tile: True for a kakan's called tile under its added one and for that added
    tile (one meld, both sideways, overlapping), False for any other tile, None (unknown, not
    trained on) for a wall's two layers, stacked but no meld's."""
    flags: list[bool | None] = [False] * len(tiles)
    for i, under in enumerate(tiles):
        if not under.occluded:
            continue
        flags[i] = True if under.meld is not None else None
        for j, top in enumerate(tiles):
            if (
                j != i
                and not top.occluded
                and top.meld == under.meld
                and top.angle == under.angle
                and iou(top.box, under.box) > 0.2
            ):
                flags[j] = flags[i]
    return flags


def render_scenes(
    n: int,
    seed: int,
    workers: int,
    hands: str = "random",
    extras: str = "",
    cache: Path | str | None = None,
) -> list[td.Photo]:
    """``n`` scenes of seeds ``seed``… (``hands``: datasets.synth.scene.HANDS; ``extras``:
    datasets/synth/extras.py names) as Photos. ``cache``: a folder where each scene is kept
    once rendered (:func:`cache_folder`) and read back by later runs instead of rendered
    again (rendering is most of a CPU fine-tune's set-up)."""
    if n <= 0:
        return []
    from multiprocessing import get_context

    from datasets.synth.faces import load_bank

    folder = cache_folder(cache, hands, extras) if cache is not None else None
    out: list[td.Photo] = []
    todo = []
    for s in range(seed, seed + n):
        kept = read_cached(folder, s) if folder is not None else None
        if kept is None:
            todo.append(s)
        elif kept.labels:
            out.append(kept)
    if not todo:
        return out
    load_bank()  # build once, before forking: the workers share it
    with get_context("fork").Pool(workers) as pool:
        it = pool.imap_unordered(
            partial(_render_seed, hands=hands, extras=extras), todo, chunksize=4
        )
        for s, p in tqdm(it, total=len(todo), desc="render scenes", file=sys.stdout, mininterval=5):
            if folder is not None:
                write_cached(folder, s, p)
            if p is not None:
                out.append(p)
    return out


def render_blocks(
    seed: int, plain: int, kakan: int, extras: list[str]
) -> list[tuple[int, int, str, str]]:
    """The training renders as (count, first seed, hands, extras) blocks, seeds one after the
    other from 1,000,000 + ``seed``: ``plain`` ordinary scenes, ``kakan`` scenes whose hands
    have kakans (rare in ordinary hands, and their two sideways tiles side by side look like
    one upright tile, so the detector needs many), then each ``N:NAMES`` of ``extras``
    (datasets/synth/extras.py names). ValueError on a block that is not ``N:NAMES``."""
    from datasets.synth.extras import parse_extras

    blocks = [(plain, "random", ""), (kakan, "kakan", "")]
    for block in extras:
        count, _, names = block.partition(":")
        if not count.isdigit() or not names:
            raise ValueError(
                f"--renders-extras wants N:NAMES (e.g. 300:clutter,backs), not {block!r}"
            )
        parse_extras(names)
        blocks.append((int(count), "random", names))
    out, next_seed = [], 1_000_000 + seed
    for count, hands, names in blocks:
        out.append((count, next_seed, hands, names))
        next_seed += count
    return out


def cache_folder(cache: Path | str, hands: str, extras: str) -> Path:
    """The folder of ``cache`` holding one kind of scene: named by the hands, the extras and a
    digest of the renderer's source (datasets/synth/*.py), so that a changed renderer never
    reuses scenes drawn by an older one."""
    import hashlib

    digest = hashlib.sha256()
    for src in sorted((Path(__file__).parent / "synth").glob("*.py")):
        digest.update(src.name.encode() + b"\0" + src.read_bytes())
    kind = ",".join(sorted(e.strip() for e in extras.split(",") if e.strip())) or "plain"
    return Path(cache) / f"{hands}-{kind}-{digest.hexdigest()[:12]}"


def write_cached(folder: Path, seed: int, photo: td.Photo | None) -> None:
    """Keep one rendered scene: the image as lossless PNG, its labels as JSON (a seed that
    gave no scene is kept as an empty label list)."""
    folder.mkdir(parents=True, exist_ok=True)
    meta: dict = {"labels": []}
    if photo is not None:
        cv2.imwrite(str(folder / f"{seed}.png"), photo.load(), [cv2.IMWRITE_PNG_COMPRESSION, 1])
        meta = {
            "boxes": photo.boxes.tolist(),
            "labels": photo.labels,
            "sideways": photo.sideways,
            "stacked": photo.stacked,
        }
    tmp = folder / f"{seed}.json.tmp"
    tmp.write_text(json.dumps(meta))
    tmp.replace(folder / f"{seed}.json")  # the labels last: a half-written scene is not kept


def read_cached(folder: Path, seed: int) -> td.Photo | None:
    """A kept scene as its Photo (image loaded), one with no labels for a seed that gave no
    scene, or None when the seed is not kept."""
    meta_path = folder / f"{seed}.json"
    if not meta_path.is_file():
        return None
    meta = json.loads(meta_path.read_text())
    if not meta["labels"]:
        return td.Photo(f"render:{seed}", np.zeros((0, 4), np.float32), [])
    image = cv2.imread(str(folder / f"{seed}.png"), cv2.IMREAD_COLOR)
    if image is None:
        return None
    return td.Photo(
        f"render:{seed}",
        np.array(meta["boxes"], np.float32).reshape(-1, 4),
        meta["labels"],
        meta["sideways"],
        image,
        meta["stacked"],
    )


# ---------------------------------------------------------------- detector data
def _rot90_boxes(boxes: np.ndarray, w: int, h: int, k: int) -> np.ndarray:
    """Boxes after np.rot90(img, k) (counter-clockwise quarter turns)."""
    b = boxes.copy()
    for _ in range(k % 4):
        x1, y1, x2, y2 = b[:, 0].copy(), b[:, 1].copy(), b[:, 2].copy(), b[:, 3].copy()
        b = np.stack([y1, w - x2, y2, w - x1], axis=1)
        w, h = h, w
    return b


def _gaussian(heat: np.ndarray, cx: float, cy: float, sx: float, sy: float) -> None:
    h, w = heat.shape
    rx, ry = int(3 * sx) + 1, int(3 * sy) + 1
    x0, x1 = max(0, int(cx) - rx), min(w, int(cx) + rx + 1)
    y0, y1 = max(0, int(cy) - ry), min(h, int(cy) + ry + 1)
    if x0 >= x1 or y0 >= y1:
        return
    xs = np.arange(x0, x1, dtype=np.float32)[None, :]
    ys = np.arange(y0, y1, dtype=np.float32)[:, None]
    g = np.exp(-((xs - int(cx)) ** 2) / (2 * sx * sx) - ((ys - int(cy)) ** 2) / (2 * sy * sy))
    np.maximum(heat[y0:y1, x0:x1], g, out=heat[y0:y1, x0:x1])


class DetData(Dataset):
    """Random crops of photos at random scale/turn, with CenterNet targets."""

    def __init__(
        self,
        photos: list[td.Photo],
        weights: np.ndarray,
        length: int,
        size: int = DET_SIZE,
        focus: float = 0.0,
    ) -> None:
        """``focus``: the share of crops centred (± a quarter window) on a tile known to lie
        sideways — the called tiles, where the stacked map has its cases (train_stack.py)."""
        self.photos, self.weights, self.length = photos, weights / weights.sum(), length
        self.size = size
        self.focus = focus

    def __len__(self) -> int:
        return self.length

    def __getitem__(self, i: int) -> tuple[torch.Tensor, ...]:
        rng = np.random.default_rng((os.getpid() * 7919 + i * 104729 + time.time_ns()) % 2**32)
        p = self.photos[rng.choice(len(self.photos), p=self.weights)]
        img = p.load()
        tiles = [j for j, lab in enumerate(p.labels) if lab != "none"]  # none: no tile there
        boxes = p.boxes[tiles].copy()
        sideways = [p.sideways[j] for j in tiles]
        side = np.array([-1 if s is None else int(s) for s in sideways], np.int64)
        stack = (
            np.array([-1 if p.stacked[j] is None else int(p.stacked[j]) for j in tiles], np.int64)
            if p.stacked
            else np.full(len(side), -1, np.int64)
        )
        h, w = img.shape[:2]
        k = int(rng.integers(0, 4)) if rng.random() < 0.5 else 0
        if k:
            img = np.ascontiguousarray(np.rot90(img, k))
            boxes = _rot90_boxes(boxes, w, h, k)
            if k % 2:
                side = np.where(side >= 0, 1 - side, side)
            h, w = img.shape[:2]
        if rng.random() < 0.5:
            img = img[:, ::-1]
            boxes = np.stack([w - boxes[:, 2], boxes[:, 1], w - boxes[:, 0], boxes[:, 3]], 1)
        size = np.median(np.maximum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]))
        target = math.exp(rng.uniform(math.log(20), math.log(140)))
        s = float(np.clip(target / max(size, 1.0), 0.15, 3.0))
        # random crop window of size/s source pixels
        size = self.size
        win = size / s
        called = [j for j, sd in enumerate(sideways) if sd] if self.focus else []
        if called and rng.random() < self.focus:
            b = boxes[called[int(rng.integers(len(called)))]]
            x0 = (b[0] + b[2]) / 2 - win * rng.uniform(0.25, 0.75)
            y0 = (b[1] + b[3]) / 2 - win * rng.uniform(0.25, 0.75)
        else:
            x0 = rng.uniform(min(0, w - win), max(0, w - win))
            y0 = rng.uniform(min(0, h - win), max(0, h - win))
        mat = np.float32([[s, 0, -x0 * s], [0, s, -y0 * s]])
        bg = rng.uniform(0, 255, 3).tolist()
        out = cv2.warpAffine(
            img,
            mat,
            (size, size),
            flags=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_CONSTANT,
            borderValue=bg,
        )
        out = td.photometric(out, rng, 0.8)
        b = (boxes - [x0, y0, x0, y0]) * s
        return (
            torch.from_numpy(out[..., ::-1].transpose(2, 0, 1).copy()),
            *self.targets(b, side, stack),
        )

    def targets(
        self, boxes: np.ndarray, side: np.ndarray, stack: np.ndarray | None = None
    ) -> tuple[torch.Tensor, ...]:
        """CenterNet targets at stride 4: heat, its weight, offsets and log sizes with their
        mask, sideways and its mask, stacked (``stack``: 1/0 per box, −1 unknown) and its mask."""
        if stack is None:
            stack = np.full(len(side), -1, np.int64)
        n = self.size // STRIDE
        heat = np.zeros((n, n), np.float32)
        weight = np.ones((n, n), np.float32)
        reg = np.zeros((4, n, n), np.float32)
        regm = np.zeros((n, n), np.float32)
        sidet = np.zeros((n, n), np.float32)
        sidem = np.zeros((n, n), np.float32)
        stackt = np.zeros((n, n), np.float32)
        stackm = np.zeros((n, n), np.float32)
        for (x1, y1, x2, y2), sd, st in zip(boxes, side, stack, strict=True):
            bw, bh = x2 - x1, y2 - y1
            cx1, cy1 = np.clip([x1, y1], 0, self.size)
            cx2, cy2 = np.clip([x2, y2], 0, self.size)
            vis = max(0, cx2 - cx1) * max(0, cy2 - cy1) / max(bw * bh, 1e-6)
            if vis <= 0:
                continue
            cx, cy = (x1 + x2) / 2 / STRIDE, (y1 + y2) / 2 / STRIDE
            inside = 0 <= cx < n and 0 <= cy < n
            if vis < 0.6 or not inside or bw < 6 or bh < 6:
                gx1, gy1 = int(cx1 // STRIDE), int(cy1 // STRIDE)
                gx2, gy2 = int(math.ceil(cx2 / STRIDE)), int(math.ceil(cy2 / STRIDE))
                weight[gy1:gy2, gx1:gx2] = 0.0  # ignore: cut off or too small
                continue
            _gaussian(heat, cx, cy, max(bw / STRIDE / 6, 0.6), max(bh / STRIDE / 6, 0.6))
            ix, iy = int(cx), int(cy)
            for dy in (-1, 0, 1):
                for dx in (-1, 0, 1):
                    jx, jy = ix + dx, iy + dy
                    if 0 <= jx < n and 0 <= jy < n:
                        wgt = 1.0 if dx == dy == 0 else 0.5
                        if wgt < regm[jy, jx]:
                            continue
                        reg[:, jy, jx] = (
                            cx - jx,
                            cy - jy,
                            math.log(bw / SIZE_UNIT),
                            math.log(bh / SIZE_UNIT),
                        )
                        regm[jy, jx] = wgt
                        if sd >= 0:
                            sidet[jy, jx], sidem[jy, jx] = float(sd), wgt
                        # a stacked tile's cells win over a neighbour's where they overlap
                        if st >= 0 and wgt >= stackm[jy, jx] and (st or not stackt[jy, jx]):
                            stackt[jy, jx], stackm[jy, jx] = float(st), wgt
        return tuple(
            torch.from_numpy(a) for a in (heat, weight, reg, regm, sidet, sidem, stackt, stackm)
        )


def det_weights(n_hk: int, n_jp: int, n_rend: int, mix: str | None) -> np.ndarray:
    """Sampling weight of each detector photo (hk, then jp, then rendered).

    ``mix`` = ``"HK,JP,REND"`` shares of the samples, each group's photos alike (a group with no
    photos gives its share to none); ``None``: real and rendered half each (real photos alike).
    """
    n = n_hk + n_jp + n_rend
    if mix is None:
        wts = np.ones(n)
        if n_rend:
            wts[: n_hk + n_jp] /= n_hk + n_jp
            wts[n_hk + n_jp :] /= n_rend
        return wts
    shares = [float(v) for v in mix.split(",")]
    if len(shares) != 3 or min(shares) < 0 or sum(shares) <= 0:
        raise ValueError(f"--det-mix wants three shares HK,JP,REND, got {mix!r}")
    wts = np.zeros(n)
    start = 0
    for count, share in zip((n_hk, n_jp, n_rend), shares, strict=True):
        if count:
            wts[start : start + count] = share / count
        start += count
    if wts.sum() <= 0:
        raise ValueError(f"--det-mix {mix!r} leaves no photo to sample")
    return wts


def det_loss(out: torch.Tensor, heat, weight, reg, regm, sidet, sidem, *_stack) -> torch.Tensor:
    """CenterNet focal loss on the heat + L1 on offsets/log-size + BCE on sideways (the
    stacked targets, when given, are :func:`stack_loss`'s)."""
    out = out.float()
    p = torch.sigmoid(out[:, 0]).clamp(1e-4, 1 - 1e-4)
    pos = heat.eq(1).float()
    neg = (1 - pos) * weight
    pos_loss = -(torch.log(p) * (1 - p) ** 2 * pos).sum()
    neg_loss = -(torch.log(1 - p) * p**2 * (1 - heat) ** 4 * neg).sum()
    npos = pos.sum().clamp(min=1)
    hl = (pos_loss + neg_loss) / npos
    rl = (F.l1_loss(out[:, 1:5], reg, reduction="none").sum(1) * regm).sum() / regm.sum().clamp(
        min=1
    )
    sl = (F.binary_cross_entropy_with_logits(out[:, 5], sidet, reduction="none") * sidem).sum()
    sl = sl / sidem.sum().clamp(min=1)
    return hl + rl + 0.5 * sl


def stack_loss(
    out: torch.Tensor, heat, weight, reg, regm, sidet, sidem, stackt, stackm
) -> torch.Tensor:
    """BCE of the seventh (stacked) map at the tiles' centre cells (datasets/train_stack.py:
    the other maps are frozen). Unweighted: a called tile the map cannot tell should come out
    below one half, since a pon read as a kakan is as wrong as the reverse."""
    sl = F.binary_cross_entropy_with_logits(out[:, 6].float(), stackt, reduction="none")
    return (sl * stackm).sum() / stackm.sum().clamp(min=1)


# ---------------------------------------------------------------- classifier data
# The fine-tune's focus (``--focus``): the confusions on real photos
# (models/tile_classifier.md: HK 7m→9m, 4p→2p, 3z→2z, red-ink 5m/5s read as 0m/0s)
# and, on renders, the player's tiles that the layout depends on: red fives and the plain fives
# they must be told from, backs, sideways.
FOCUS_REAL = {
    "7m": 2.0,
    "9m": 2.0,
    "4p": 2.0,
    "2p": 2.0,
    "3z": 2.0,
    "2z": 2.0,
    "5m": 2.0,
    "5s": 2.0,
}
FOCUS_REND = {"0m": 3.0, "0p": 3.0, "0s": 3.0, "5m": 2.0, "5p": 2.0, "5s": 2.0, "back": 2.0}
MISREAD_WEIGHT = 4.0  # a real training crop the starting model misreads is drawn this much more


class ClsData(Dataset):
    """A mix of real crops, art renders, camerash crops, rendered-scene crops and not-tiles.

    ``mix`` = shares of (real, rendered-scene, art, camerash) crops; the rest are ``none``.
    ``real_w`` / ``rend_w`` weight the individual real / rendered crops (None = uniform).
    """

    def __init__(
        self,
        photos: list[td.Photo],
        renders: list[td.Photo],
        camerash,
        faces,
        black_faces,
        length: int,
        mix: tuple[float, ...] = (0.40, 0.25, 0.20, 0.08),
        real_w: np.ndarray | None = None,
        rend_w: np.ndarray | None = None,
    ) -> None:
        self.length = length
        self.real = real_crops(photos)
        self.rend = rend_crops(renders)
        self.photos, self.camerash = photos, camerash
        self.faces, self.black = faces, black_faces
        self.face_labels = sorted(faces)
        if not self.rend:  # no renders: their share goes to the real crops
            mix = (mix[0] + mix[1], 0.0, *mix[2:])
        self.edges = np.cumsum(mix)
        self.real_p = None if real_w is None else real_w / real_w.sum()
        self.rend_p = None if rend_w is None else rend_w / rend_w.sum()

    def __len__(self) -> int:
        return self.length

    def _none_crop(self, rng: np.random.Generator) -> np.ndarray:
        for _ in range(20):
            p = self.photos[rng.integers(len(self.photos))]
            img = p.load()
            h, w = img.shape[:2]
            med = float(np.median(p.boxes[:, 2] - p.boxes[:, 0]))
            bw = med * rng.uniform(0.5, 1.6)
            bh = bw * rng.uniform(0.8, 1.8)
            x1, y1 = rng.uniform(-bw * 0.3, w - bw * 0.7), rng.uniform(-bh * 0.3, h - bh * 0.7)
            box = (x1, y1, x1 + bw, y1 + bh)
            from sanma_lens.vision.detect import iou

            if all(iou(box, tuple(b)) < 0.12 for b in p.boxes):
                return td.photometric(cut_tile(img, box, False), rng, 0.6)
        # fall back: a half-tile shifted crop is not a tile either
        p, j = self.real[rng.integers(len(self.real))]
        b = p.boxes[j].copy()
        dx = (b[2] - b[0]) * rng.choice([-0.55, 0.55])
        return cut_tile(p.load(), (b[0] + dx, b[1], b[2] + dx, b[3]), False)

    def __getitem__(self, i: int) -> tuple[torch.Tensor, int]:
        rng = np.random.default_rng((os.getpid() * 7919 + i * 104729 + time.time_ns()) % 2**32)
        r = rng.random()
        if r < self.edges[0]:
            p, j = self.real[rng.choice(len(self.real), p=self.real_p)]
            crop, label = td.photo_crop(p, j, rng), p.labels[j]
        elif r < self.edges[1]:
            p, j = self.rend[rng.choice(len(self.rend), p=self.rend_p)]
            crop, label = td.photo_crop(p, j, rng), p.labels[j]
        elif r < self.edges[2]:
            label = self.face_labels[rng.integers(len(self.face_labels))]
            src = self.black if (rng.random() < 0.15 and label in self.black) else self.faces
            crop = td.render_art_crop(src[label], rng, label)
            if rng.random() < 0.5:
                crop = crop[::-1, ::-1].copy()
        elif r < self.edges[3]:
            img, label = self.camerash[rng.integers(len(self.camerash))]
            crop = cv2.resize(img, (CROP_W, CROP_H), interpolation=cv2.INTER_AREA)
            crop = td.photometric(crop, rng, 0.8)
            if rng.random() < 0.5:
                crop = crop[::-1, ::-1].copy()
        else:
            crop, label = self._none_crop(rng), "none"
        x = torch.from_numpy(crop[..., ::-1].transpose(2, 0, 1).copy())
        return x, CLASSES.index(label)


def real_crops(photos: list[td.Photo]) -> list[tuple[td.Photo, int]]:
    """(photo, box index) of every real crop with a class (cut-off edge tiles have none)."""
    return [(p, j) for p in photos for j, lab in enumerate(p.labels) if lab != "partial"]


def rend_crops(renders: list[td.Photo]) -> list[tuple[td.Photo, int]]:
    """(scene, box index) of every rendered crop whose label is a classifier class."""
    return [(p, j) for p in renders for j, lab in enumerate(p.labels) if lab in CLASSES]


def parse_focus(spec: str | None) -> dict[str, float]:
    """``--focus-real`` "4p:3,2p:2" → {"4p": 3.0, "2p": 2.0}; None → FOCUS_REAL."""
    if not spec:
        return dict(FOCUS_REAL)
    out = {}
    for item in spec.split(","):
        kind, _, w = item.partition(":")
        if kind.strip() not in CLASSES or not w:
            raise ValueError(f"--focus-real: bad item {item!r} (want KIND:WEIGHT)")
        out[kind.strip()] = float(w)
    return out


def focus_weights(
    model: nn.Module,
    photos: list[td.Photo],
    renders: list[td.Photo],
    log,
    focus_real: dict[str, float] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Sampling weights for ``--focus``: real crops the starting model misreads (read once,
    un-augmented) ×MISREAD_WEIGHT, the ``focus_real`` kinds (default FOCUS_REAL) and the
    FOCUS_REND render crops more, sideways render crops ×2."""
    focus_real = FOCUS_REAL if focus_real is None else focus_real
    real = real_crops(photos)
    wrong = np.zeros(len(real), bool)
    model.eval()
    with torch.no_grad():
        for a in tqdm(
            range(0, len(real), 256), desc="score real crops", file=sys.stdout, mininterval=10
        ):
            chunk = real[a : a + 256]
            x = torch.from_numpy(to_input([td.photo_crop(p, j, None) for p, j in chunk]))
            device = next(model.parameters()).device  # the model may already sit on a GPU
            pred = model(x.to(device)).argmax(1).cpu().numpy()
            wrong[a : a + 256] = [
                CLASSES[k] != p.labels[j] for k, (p, j) in zip(pred, chunk, strict=True)
            ]
    real_w = np.array([focus_real.get(p.labels[j], 1.0) for p, j in real])
    real_w[wrong] *= MISREAD_WEIGHT
    log(
        f"focus: {int(wrong.sum())} of {len(real)} real training crops misread by the start "
        f"model (weight ×{MISREAD_WEIGHT:g})"
    )
    rend = rend_crops(renders)
    rend_w = np.array(
        [FOCUS_REND.get(p.labels[j], 1.0) * (2.0 if p.sideways[j] else 1.0) for p, j in rend]
    )
    return real_w, rend_w


# ---------------------------------------------------------------- loops
def _worker_init(_: int) -> None:
    cv2.setNumThreads(1)  # one thread per loader process, or 16 workers × 16 threads thrash
    torch.set_num_threads(1)


def cosine_lr(opt, base: float, frac: float) -> None:
    warm = min(1.0, frac / 0.03)
    lr = base * warm * (0.02 + 0.98 * 0.5 * (1 + math.cos(math.pi * min(frac, 1.0))))
    for g in opt.param_groups:
        g["lr"] = lr


def train_loop(
    name,
    model,
    loader,
    loss_fn,
    seconds: float,
    device,
    lr: float,
    log,
    freeze_bn: bool = False,
    ckpt: Path | None = None,
) -> None:
    """AdamW with warm-up and cosine decay for ``seconds``; ``ckpt`` gets the weights every
    10 minutes; ``freeze_bn`` keeps BatchNorm statistics fixed (fine-tunes)."""
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
    model.train()
    if freeze_bn:
        freeze_batchnorm(model)
    saved = time.time()
    start = time.time()
    step = 0
    bar = tqdm(total=int(seconds), desc=f"train {name}", unit="s", file=sys.stdout, mininterval=10)
    amp = device.type == "cuda"
    done = False
    while not done:
        for batch in loader:
            frac = (time.time() - start) / seconds
            if frac >= 1:
                done = True
                break
            cosine_lr(opt, lr, frac)
            batch = [b.to(device, non_blocking=True) for b in batch]
            x = batch[0].float() / 255.0
            with torch.autocast(device.type, dtype=torch.bfloat16, enabled=amp):
                out = model(x)
            loss = loss_fn(out.float(), *batch[1:])
            opt.zero_grad(set_to_none=True)
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 5.0)
            opt.step()
            step += 1
            bar.n = min(int(time.time() - start), int(seconds))
            bar.set_postfix(step=step, loss=f"{loss.item():.3f}", refresh=False)
            bar.update(0)
            if step % 200 == 0:
                log(f"{name} step {step} t={time.time() - start:.0f}s loss={loss.item():.4f}")
            if ckpt is not None and time.time() - saved > 600:
                torch.save(model.state_dict(), ckpt)
                saved = time.time()
                log(f"{name} step {step}: checkpoint {ckpt}")
    bar.close()
    log(f"{name} finished: {step} steps in {time.time() - start:.0f}s")


def run_log(out: Path) -> Callable[[str], None]:
    """A logger for a training run in folder ``out`` (created): each line, time-stamped, goes
    to stdout and to ``out/train_log.txt`` (appended, flushed: a run may be stopped at any
    time)."""
    out.mkdir(parents=True, exist_ok=True)
    logf = open(out / "train_log.txt", "a")  # noqa: SIM115 (open for the whole run)

    def log(msg: str) -> None:
        line = f"[{time.strftime('%H:%M:%S')}] {msg}"
        print(line, flush=True)
        logf.write(line + "\n")
        logf.flush()

    return log


def export(model: nn.Module, example: torch.Tensor, path: Path, dynamic: dict) -> None:
    model.eval().cpu()
    torch.onnx.export(
        model,
        example,
        str(path),
        input_names=["input"],
        output_names=["output"],
        dynamic_axes=dynamic,
        opset_version=17,
        dynamo=False,
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    ap.add_argument("--minutes", type=float, default=170.0, help="total training time budget")
    ap.add_argument("--det-share", type=float, default=0.6, help="share of time for the detector")
    ap.add_argument("--renders", type=int, default=0, help="scenes to render with datasets.synth")
    ap.add_argument(
        "--renders-kakan",
        type=int,
        default=0,
        help="more scenes whose hands have 1-3 melds, kakans common (HANDS['kakan'])",
    )
    ap.add_argument("--workers", type=int, default=min(16, os.cpu_count() or 1))
    ap.add_argument("--det-batch", type=int, default=32)
    ap.add_argument("--cls-batch", type=int, default=256)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default="models")
    ap.add_argument("--only", choices=["det", "cls"], default=None)
    ap.add_argument("--threads", type=int, default=0, help="torch CPU threads (0: all cores)")
    ap.add_argument(
        "--lr",
        type=float,
        default=None,
        help="peak learning rate (default 2e-3 detector, 3e-3 classifier)",
    )
    ap.add_argument("--init", default=None, help="start the classifier from this .pt")
    ap.add_argument(
        "--init-onnx",
        default=None,
        help="with --only det|cls: start that model from this exported ONNX "
        "(datasets/train_init.py)",
    )
    ap.add_argument(
        "--det-size",
        type=int,
        default=DET_SIZE,
        help="detector training crop side in pixels (a multiple of 32)",
    )
    ap.add_argument(
        "--det-mix",
        default=None,
        help="detector shares of hk, jp and rendered photos as HK,JP,REND "
        "(default: real and rendered half each, every photo alike)",
    )
    ap.add_argument(
        "--focus",
        action="store_true",
        help="classifier: draw misread real crops and FOCUS_* kinds more often",
    )
    ap.add_argument(
        "--focus-real",
        default=None,
        help="with --focus: real kinds' weights as KIND:W,... (default FOCUS_REAL)",
    )
    ap.add_argument(
        "--rotate",
        default="0,0",
        help="classifier crops: P,DEG = turn a crop by up to ±DEG degrees with "
        "probability P (train_data.ROTATE_P/ROTATE_DEG; default off)",
    )
    ap.add_argument(
        "--renders-extras",
        action="append",
        default=[],
        metavar="N:NAMES",
        help="also N scenes with what real tables add, e.g. 300:clutter,backs "
        "(datasets/synth/extras.py); repeatable, each block's seeds after "
        "the ones before it",
    )
    ap.add_argument(
        "--render-cache",
        default=None,
        metavar="DIR",
        help="keep rendered scenes in DIR and reuse them in later runs with the "
        "same seeds (a changed renderer renders afresh)",
    )
    ap.add_argument(
        "--corrections",
        action="append",
        default=[],
        metavar="DIR",
        help="a folder written by `sanma export-corrections` (players' corrected "
        "photos), trained on beside jp-upright; repeatable",
    )
    ap.add_argument(
        "--cls-mix",
        default="0.40,0.25,0.20,0.08",
        help="classifier shares of real, rendered-scene, art, camerash crops (the rest: none)",
    )
    args = ap.parse_args(argv)
    try:
        blocks = render_blocks(args.seed, args.renders, args.renders_kakan, args.renders_extras)
    except ValueError as exc:  # a bad block, or an unknown extras name
        ap.error(str(exc))
    finetune = bool(args.init or args.init_onnx)
    rot_p, rot_deg = (float(v) for v in args.rotate.split(","))
    td.ROTATE_P, td.ROTATE_DEG = rot_p, rot_deg
    if args.init and args.only != "cls":
        ap.error("--init starts a classifier fine-tune: add --only cls")
    if args.init_onnx and args.only is None:
        ap.error("--init-onnx starts a fine-tune of one model: add --only det or --only cls")
    if args.det_size % 32:
        ap.error("--det-size must be a multiple of 32")

    out = Path(args.out)
    log = run_log(out)
    cv2.setNumThreads(1)  # no OpenCV thread pool in the parent: forked workers would hang on it
    torch.manual_seed(args.seed)
    device = torch.device(args.device)
    if device.type == "cpu":
        torch.set_num_threads(args.threads or max(1, os.cpu_count() or 1))
    log(f"args {vars(args)}")
    hk, jp = td.hk_photos("train"), td.jp_photos(heldout=False)
    # players' corrected photos count with the Japanese real set; the detector gets only those
    # whose every tile has its box (a tile added by hand has none)
    kept = [p for d in args.corrections for p in td.correction_photos(d)]
    kept_det = [p for d in args.corrections for p in td.correction_photos(d, complete_only=True)]
    photos = hk + jp + kept
    for p in tqdm(photos + kept_det, desc="load photos", file=sys.stdout, mininterval=5):
        p.load()
    cache = args.render_cache
    renders: list[td.Photo] = []
    for count, seed, hands, extras in blocks:
        renders += render_scenes(
            count, seed, max(1, args.workers), hands=hands, extras=extras, cache=cache
        )
    n_real = len(photos)
    log(
        f"real photos {n_real} (hk train + jp-upright train + {len(kept)} kept corrected, "
        f"{len(kept_det)} of them fully boxed), rendered scenes {len(renders)}"
    )
    all_photos = hk + jp + kept_det + renders
    wts = det_weights(len(hk), len(jp) + len(kept_det), len(renders), args.det_mix)
    total = args.minutes * 60
    kw = dict(
        num_workers=args.workers,
        pin_memory=device.type == "cuda",
        persistent_workers=args.workers > 0,
        drop_last=True,
    )
    if args.workers > 0:
        kw["prefetch_factor"] = 4
        kw["worker_init_fn"] = _worker_init
    stats = {"real_photos": n_real, "rendered_scenes": len(renders), "args": vars(args)}

    if args.only in (None, "det"):
        if args.init_onnx:
            det = detector_from_onnx(args.init_onnx)
            probe = photos[:: max(1, n_real // 4)][:4]
            diff = max(check_against_onnx(det, args.init_onnx, prepare(p.load())[0]) for p in probe)
            log(
                f"imported {args.init_onnx}: max |output − onnxruntime| = {diff:.2e} on "
                f"{len(probe)} photos"
            )
            if diff > 1e-3:
                raise SystemExit("the imported detector does not reproduce the ONNX outputs")
        else:
            det = DetNet()
        det = det.to(device)
        data = DetData(all_photos, wts, 10**7, args.det_size)
        loader = DataLoader(data, batch_size=args.det_batch, **kw)
        secs = total * (args.det_share if args.only is None else 1.0)
        train_loop(
            "detector",
            det,
            loader,
            det_loss,
            secs,
            device,
            args.lr or 2e-3,
            log,
            freeze_bn=finetune,
            ckpt=out / "tile_detector.pt",
        )
        torch.save(det.state_dict(), out / "tile_detector.pt")  # for fine-tuning later
        export(
            det,
            torch.zeros(1, 3, 512, 512),
            out / "tile_detector.onnx",
            {"input": {2: "h", 3: "w"}, "output": {2: "h4", 3: "w4"}},
        )
        log(f"wrote {out / 'tile_detector.onnx'}")
        del loader

    if args.only in (None, "cls"):
        faces, black = td.fluffy_faces("Regular"), td.fluffy_faces("Black")
        cam = td.camerash_crops()
        if args.init_onnx:
            cls = classifier_from_onnx(args.init_onnx, len(CLASSES))
            probe = to_input([td.photo_crop(p, j, None) for p, j in real_crops(photos)[:256]])
            diff = check_against_onnx(cls, args.init_onnx, probe)
            log(f"imported {args.init_onnx}: max |logit − onnxruntime| = {diff:.2e} on 256 crops")
            if diff > 1e-4:
                raise SystemExit("the imported classifier does not reproduce the ONNX logits")
        else:
            cls = ClsNet(len(CLASSES))
            if args.init:
                cls.load_state_dict(torch.load(args.init, map_location="cpu"))
                log(f"started from {args.init}")
        cls = cls.to(device)
        real_w = rend_w = None
        if args.focus:
            real_w, rend_w = focus_weights(cls, photos, renders, log, parse_focus(args.focus_real))
        mix = tuple(float(v) for v in args.cls_mix.split(","))
        data = ClsData(photos, renders, cam, faces, black, 10**8, mix, real_w, rend_w)
        loader = DataLoader(data, batch_size=args.cls_batch, **kw)

        def ce(out, y):
            return F.cross_entropy(out, y, label_smoothing=0.05)

        secs = total * ((1 - args.det_share) if args.only is None else 1.0)
        train_loop(
            "classifier",
            cls,
            loader,
            ce,
            secs,
            device,
            args.lr or 3e-3,
            log,
            freeze_bn=finetune,
            ckpt=out / "tile_classifier.pt",
        )
        torch.save(cls.state_dict(), out / "tile_classifier.pt")
        export(
            cls,
            torch.zeros(1, 3, CROP_H, CROP_W),
            out / "tile_classifier.onnx",
            {"input": {0: "n"}, "output": {0: "n"}},
        )
        log(f"wrote {out / 'tile_classifier.onnx'}")
    (out / "train_stats.json").write_text(json.dumps(stats, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

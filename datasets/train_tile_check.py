"""Train the tile check (vision/tile_check.py): a tiny tile-or-not network, on a CPU.

Reads the crops of :mod:`datasets.tile_check_crops` (``--crops``), trains on their ``train``
part in balanced batches (half tiles, half not; among the non-tiles the pipeline's own false
reports, ``hard``, drawn ``--hard-weight`` times as often), with the augmentations a phone
photo brings: any in-plane angle, quarter turns and mirror images, small and blurred tiles
(shrunk to 7–20 px and back), light, colour cast and noise. At the end it prints, on the
``check`` part (never trained on) and on the training part, per source, the share of tiles and
of non-tiles below each threshold, and the lowest tile probability of any real training-photo
tile: ``tile_check_below`` is chosen under it, so that no real training-photo tile is set
aside. Exports ``OUT/tile_check.onnx`` (input N×3×32×32, output N×1 tile probability)::

    OMP_NUM_THREADS=2 nice -n 19 .venv/bin/python -m datasets.train_tile_check \\
        --crops .dev/tilecheck/crops.npz --minutes 15 --threads 2 --out .dev/tilecheck/run1
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np
import torch
from torch import nn

from datasets.train import run_log
from datasets.train_binary import Draw, export_binary, predict, train_balanced
from datasets.train_nets import cbr
from sanma_lens.vision.tile_check import SIZE, as_input

THRESHOLDS = (0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5)
REAL_TILES = ("real", "found")  # the sources that are real photos' tiles


class TileCheckNet(nn.Module):
    """Four 3×3 conv + batch norm + ReLU blocks (16, 32, 48, 64 channels), the first three each
    followed by a 2×2 max-pool (32 → 4 px), global average, one logit; exported with a
    sigmoid."""

    def __init__(self) -> None:
        super().__init__()
        self.features = nn.Sequential(
            cbr(3, 16),
            nn.MaxPool2d(2),
            cbr(16, 32),
            nn.MaxPool2d(2),
            cbr(32, 48),
            nn.MaxPool2d(2),
            cbr(48, 64),
        )
        self.head = nn.Linear(64, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.features(x).mean(dim=(2, 3)))


def augment(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One crop as another photo might show it: turned (any angle half the time, quarter
    turns, mirrored), shrunk and blurred, lit and tinted otherwise, with noise. Hues move
    little: a back's colour is a back's."""
    x = crop
    if rng.random() < 0.5:
        m = cv2.getRotationMatrix2D((SIZE / 2, SIZE / 2), float(rng.uniform(0, 360)), 1.0)
        x = cv2.warpAffine(
            x, m, (SIZE, SIZE), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT
        )
    x = np.rot90(x, int(rng.integers(4)))
    if rng.random() < 0.5:
        x = x[:, ::-1]
    if rng.random() < 0.3:  # a small, far tile
        s = int(rng.integers(7, 21))
        x = cv2.resize(
            cv2.resize(np.ascontiguousarray(x), (s, s), interpolation=cv2.INTER_AREA),
            (SIZE, SIZE),
            interpolation=cv2.INTER_LINEAR,
        )
    f = x.astype(np.float32)
    if rng.random() < 0.25:
        f = cv2.GaussianBlur(f, (0, 0), float(rng.uniform(0.5, 1.5)))
    mean = f.mean()
    f = (f - mean) * rng.uniform(0.7, 1.3) + mean * rng.uniform(0.6, 1.3)
    f = f * rng.uniform(0.9, 1.1, 3).astype(np.float32)
    f = f + rng.normal(0, rng.uniform(0, 6), f.shape).astype(np.float32)
    return np.clip(f, 0, 255).astype(np.uint8)


def sampling(
    y: np.ndarray, src: np.ndarray, hard_weight: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Indices and draw probabilities of the tiles and of the non-tiles (``hard`` ×
    ``hard_weight``; each non-tile source otherwise alike per crop)."""
    pos, neg = np.flatnonzero(y == 1), np.flatnonzero(y == 0)
    wn = np.where(src[neg] == "hard", hard_weight, 1.0)
    wp = np.ones(len(pos))
    return pos, wp / wp.sum(), neg, wn / wn.sum()


def draw_batches(
    x: np.ndarray, y: np.ndarray, src: np.ndarray, batch: int, hard_weight: float
) -> Draw:
    """Balanced batches (half tiles, :func:`sampling`'s weights), each crop augmented."""
    pos, pp, neg, pn = sampling(y, src, hard_weight)

    def draw(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        idx = np.concatenate(
            [rng.choice(pos, batch // 2, p=pp), rng.choice(neg, batch - batch // 2, p=pn)]
        )
        return as_input([augment(x[i], rng) for i in idx]), y[idx]

    return draw


def report(p: np.ndarray, y: np.ndarray, src: np.ndarray, part: np.ndarray, log) -> None:
    """Per part and source: crops, and the share below each threshold (for tiles: set aside
    wrongly; for non-tiles: set aside rightly); the lowest real training-photo tile."""
    log("share below threshold " + " ".join(f"{t:>6}" for t in THRESHOLDS))
    for pt in ("check", "train"):
        for s in sorted(set(src.tolist())):
            m = (part == pt) & (src == s)
            for lab in (1, 0):
                mm = m & (y == lab)
                if not mm.any():
                    continue
                shares = " ".join(f"{100 * float((p[mm] < t).mean()):5.2f}%" for t in THRESHOLDS)
                log(f"{pt:5s} {s:8s} {'tile' if lab else 'not ':4s} {int(mm.sum()):6d} {shares}")
    real = np.isin(src, REAL_TILES) & (y == 1)
    for pt in ("check", "train"):
        m = real & (part == pt)
        if m.any():
            low = np.sort(p[m])[:5]
            log(f"lowest real training-photo tiles ({pt}): " + ", ".join(f"{v:.4f}" for v in low))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument(
        "--crops",
        required=True,
        nargs="+",
        help="datasets.tile_check_crops's .npz files, taken together",
    )
    ap.add_argument("--minutes", type=float, default=15.0, help="training time")
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument(
        "--hard-weight",
        type=float,
        default=4.0,
        help="the pipeline's false reports drawn this many times as often",
    )
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    torch.set_num_threads(args.threads)
    torch.manual_seed(0)
    out = Path(args.out)
    log = run_log(out)
    log(f"args {vars(args)}")
    files = [np.load(f) for f in args.crops]
    x, y, src, part = (np.concatenate([d[k] for d in files]) for k in ("x", "y", "src", "part"))
    tr = part == "train"
    log(f"crops: {len(y)} ({int(tr.sum())} train, {int(y[tr].sum())} of them tiles)")
    net = TileCheckNet()
    draw = draw_batches(x[tr], y[tr], src[tr], args.batch, args.hard_weight)
    train_balanced(net, draw, 60 * args.minutes, args.lr, log)
    torch.save(net.state_dict(), out / "tile_check.pt")
    p = predict(net, x, as_input, batch=512)
    np.save(out / "p.npy", p)
    report(p, y, src, part, log)
    export_binary(net, SIZE, out / "tile_check.onnx")
    log(f"wrote {out / 'tile_check.onnx'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Train the stacked-tile crop classifier (vision/stacked.py) on rendered table scenes.

Every called (sideways) tile of a rendered meld gives a crop cut as the pipeline cuts it
(:func:`vision.stacked.cut_stack`) around its label box moved as the detector's boxes are: each
edge by ``BOX_BIAS`` plus a normal ``BOX_SD`` of the box's size (on 286 called tiles of dev
renders 950000+ and 650000+ the shipped detector's boxes sat 4–5 % inside the label's sides,
edges scattered with a standard deviation of 6–7 %; trained on label boxes moved ±8 % evenly,
the network called 2.3 % of dev pons' detected called tiles stacked at p ≥ 0.9, against 0.7 %
of held-out label boxes). The label: 1 when a kakan's added tile lies on it — the hidden
called tile under it is the one the renderer marks ``occluded`` — else 0 (a pon's or minkan's
called tile, a kakan's called tile with its added tile beside it, or the added tile itself).
Scenes are drawn from hands with many kakans (``HANDS["kakan"]``) and, one in ``--ordinary``,
from ordinary random hands, whose pons are what the network must leave alone; every stacked
tile gives ``--pos-crops`` crops.

Training is short on a CPU (a four-block network on 80×80 crops). At the end the network is
measured on crops of scenes it never saw (seeds from ``--eval-seed0``) and exported to
``OUT/stack_classifier.onnx`` (input N×3×80×80, output N×1 probabilities)::

    python -m datasets.train_stack_crops --scenes 8000 --minutes 20 --out runs/stackcrops
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import torch
from torch import nn

from datasets.synth.scene import render_scene
from datasets.train import run_log
from datasets.train_binary import Draw, export_binary, predict, train_balanced
from datasets.train_nets import cbr
from sanma_lens.vision.stacked import SIZE, as_input, cut_stack

SEED0 = 3_000_000  # training scenes (the benchmarks use 600000+, 900000+; dev 650000+, 950000+)
EVAL_SEED0 = 3_900_000
# how the detector's box of a called tile differs from its label box (x1, y1, x2, y2), in shares
# of the box's width / height: mean and standard deviation (module docstring)
BOX_BIAS = (0.044, -0.015, -0.05, -0.026)
BOX_SD = 0.07


def scene_crops(
    seed: int, hands: str, pos_crops: int, neg_crops: int = 1
) -> tuple[list[np.ndarray], list[int], list[str]]:
    """Crops (``pos_crops`` of each stacked tile, ``neg_crops`` of each other called tile),
    labels and the meld kind of each called tile of one rendered scene."""
    rng = np.random.default_rng(seed)
    scene = render_scene(rng, hands=hands)
    melds = [str(m) for m in scene.hand.get("melds") or []]  # type: ignore[union-attr]
    under = {t.meld for t in scene.tiles if t.occluded}
    crops, labels, kinds = [], [], []
    for t in scene.tiles:
        if t.group != "meld" or t.angle != 90 or t.occluded or t.meld is None:
            continue
        stacked = t.meld in under
        for _ in range(pos_crops if stacked else neg_crops):
            x1, y1, x2, y2 = t.box
            w, h = x2 - x1, y2 - y1
            d = (np.array(BOX_BIAS) + rng.normal(0.0, BOX_SD, 4)) * np.array([w, h, w, h])
            crops.append(cut_stack(scene.image, (x1 + d[0], y1 + d[1], x2 + d[2], y2 + d[3])))
            labels.append(int(stacked))
            kinds.append(melds[t.meld].split(":")[0])
    return crops, labels, kinds


def make_crops(
    n: int, seed0: int, ordinary: int, pos_crops: int, neg_crops: int, log
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Crops of ``n`` scenes from ``seed0`` (every ``ordinary``-th an ordinary random hand)."""
    crops: list[np.ndarray] = []
    labels: list[int] = []
    kinds: list[str] = []
    start = time.time()
    for i in range(n):
        hands = "random" if ordinary and i % ordinary == 0 else "kakan"
        c, lab, k = scene_crops(seed0 + i, hands, pos_crops, neg_crops)
        crops += c
        labels += lab
        kinds += k
        if (i + 1) % 500 == 0 or i + 1 == n:
            log(
                f"scenes {i + 1}/{n}: {len(crops)} crops, {sum(labels)} stacked "
                f"({time.time() - start:.0f} s)"
            )
    empty = np.zeros((0, SIZE, SIZE, 3), np.uint8)
    return (np.stack(crops) if crops else empty, np.array(labels, np.float32), np.array(kinds))


class StackNet(nn.Module):
    """Four conv blocks (16–96 channels, each halving the crop), global average, one logit;
    exported with a sigmoid."""

    def __init__(self) -> None:
        super().__init__()
        chans = (3, 16, 32, 64, 96)
        layers: list[nn.Module] = []
        for cin, cout in zip(chans, chans[1:], strict=False):
            layers += [cbr(cin, cout), cbr(cout, cout), nn.MaxPool2d(2)]
        self.features = nn.Sequential(*layers)
        self.head = nn.Linear(chans[-1], 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.features(x).mean(dim=(2, 3)))


def augment(x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Brightness, contrast and colour cast, and a left–right flip (the near side, where the
    second band shows, stays at the bottom)."""
    n = len(x)
    x = x.astype(np.float32)
    gain = rng.uniform(0.7, 1.3, (n, 1, 1, 1)) * rng.uniform(0.9, 1.1, (n, 1, 1, 3))
    mean = x.mean(axis=(1, 2, 3), keepdims=True)
    x = (x - mean) * rng.uniform(0.8, 1.2, (n, 1, 1, 1)) + mean * gain
    flip = rng.random(n) < 0.5
    x[flip] = x[flip, :, ::-1]
    return np.clip(x, 0, 255).astype(np.uint8)


def draw_batches(x: np.ndarray, y: np.ndarray, batch: int) -> Draw:
    """Balanced batches (half stacked), augmented together."""
    pos, neg = np.flatnonzero(y == 1), np.flatnonzero(y == 0)

    def draw(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        idx = np.concatenate([rng.choice(pos, batch // 2), rng.choice(neg, batch - batch // 2)])
        return as_input(list(augment(x[idx], rng))), y[idx]

    return draw


def report(p: np.ndarray, y: np.ndarray, kinds: np.ndarray, log) -> None:
    """Share of stacked tiles found, and of pons' called tiles called stacked, per threshold."""
    pons = (y == 0) & (kinds == "pon")
    log(f"eval: {int(y.sum())} stacked, {int(pons.sum())} pons' called, {len(y)} crops")
    for th in (0.5, 0.7, 0.8, 0.9, 0.95, 0.98):
        found = float((p[y == 1] >= th).mean()) if y.sum() else 0.0
        false = float((p[pons] >= th).mean()) if pons.any() else 0.0
        other = float((p[(y == 0) & ~pons] >= th).mean()) if ((y == 0) & ~pons).any() else 0.0
        log(
            f"  p >= {th:.2f}: stacked found {100 * found:.1f} %, pons called stacked "
            f"{100 * false:.2f} %, other called tiles {100 * other:.2f} %"
        )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scenes", type=int, default=8000, help="training scenes to render")
    ap.add_argument("--eval-scenes", type=int, default=1500)
    ap.add_argument(
        "--ordinary", type=int, default=4, help="every N-th scene an ordinary random hand (0: none)"
    )
    ap.add_argument("--pos-crops", type=int, default=3, help="crops per stacked tile")
    ap.add_argument("--neg-crops", type=int, default=2, help="crops per other called tile")
    ap.add_argument("--minutes", type=float, default=20.0, help="training time")
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--seed0", type=int, default=SEED0)
    ap.add_argument("--eval-seed0", type=int, default=EVAL_SEED0)
    ap.add_argument(
        "--init", default=None, help="start from this .pt (a run's stack_classifier.pt)"
    )
    ap.add_argument(
        "--crops",
        default=None,
        help="read the crops from this crops.npz (a run's) instead of rendering",
    )
    ap.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    torch.set_num_threads(args.threads)
    torch.manual_seed(0)
    out = Path(args.out)
    log = run_log(out)
    log(f"args {vars(args)}")
    cache = Path(args.crops) if args.crops else out / "crops.npz"
    if cache.is_file():
        data = np.load(cache)
        x, y, k = data["x"], data["y"], data["k"]
        ex, ey, ek = data["ex"], data["ey"], data["ek"]
        log(f"crops from {cache}")
    else:
        x, y, k = make_crops(
            args.scenes, args.seed0, args.ordinary, args.pos_crops, args.neg_crops, log
        )
        ex, ey, ek = make_crops(args.eval_scenes, args.eval_seed0, args.ordinary, 1, 1, log)
        np.savez(cache, x=x, y=y, k=k, ex=ex, ey=ey, ek=ek)
    if not y.sum() or y.all():
        log("need both stacked and single called tiles")
        return 1
    net = StackNet()
    if args.init:
        net.load_state_dict(torch.load(args.init))
        log(f"from {args.init}")
    train_balanced(net, draw_batches(x, y, args.batch), 60 * args.minutes, args.lr, log)
    report(predict(net, ex, as_input), ey, ek, log)
    torch.save(net.state_dict(), out / "stack_classifier.pt")
    export_binary(net, SIZE, out / "stack_classifier.onnx")
    log(f"wrote {out / 'stack_classifier.onnx'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Teach the shipped detector a seventh map: stacked tiles (a kakan's added tile on its called one).

A kakan's added tile often lies right on top of the called tile (§23). The two label boxes
overlap so much (IoU 0.36–0.73 on dev renders) that the detector gives one peak for the pair,
and the layout then reads the kakan as a pon. This script keeps every weight of the detector
at ``--init-onnx`` as it is (its six maps stay bit for bit what they were: hk, jp and render
numbers cannot move) and trains only a small new branch (:class:`datasets.train_nets.DetNet`
``stack``) on rendered scenes of hands with many kakans (``hands="kakan"``), whose labels know
which tiles are stacked (:func:`datasets.train.stacked_flags`). Scenes holding a stacked pair
are drawn ``--stacked-boost`` times as often, and ``--focus`` of the crops are centred on a
called tile, where the stacked map's cases are. At the end it measures the new map on rendered
scenes it never saw (seeds from ``--eval-seed0``) and writes ``tile_detector.onnx`` (seven
maps) to ``--out``::

    python -m datasets.train_stack --minutes 60 --renders 1500 --out runs/stack
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

import numpy as np
import torch
from torch.utils.data import DataLoader
from tqdm import tqdm

from datasets.train import (
    DetData,
    _worker_init,
    export,
    render_scenes,
    run_log,
    stack_loss,
    stacked_flags,
    train_loop,
)
from datasets.train_init import check_against_onnx, detector_from_onnx
from sanma_lens.vision.detect import decode, iou, prepare
from sanma_lens.vision.settings import SETTINGS

EVAL_SEED0 = 1_900_000  # held-out scenes for the end-of-run check (training: 1_000_000 + seed)


def freeze_all_but_stack(net: torch.nn.Module) -> list[str]:
    """Only the stacked branch learns; returns the names of the trained parameters."""
    names = []
    for name, p in net.named_parameters():
        p.requires_grad = name.startswith(("stack.", "stack_fine."))
        if p.requires_grad:
            names.append(name)
    return names


def evaluate(
    onnx_path: Path,
    n: int,
    seed0: int,
    threshold: float = SETTINGS.stacked_map_sure,
    hands: str = "kakan",
) -> dict[str, float]:
    """The stacked map on ``n`` rendered scenes (seeds ``seed0``…): of the detector's hits that
    match (IoU ≥ 0.5) a stacked tile, a pon's called tile, another sideways tile (a minkan's,
    a side-by-side kakan's, a kita) and an upright tile, the share called stacked (prob ≥
    ``threshold``); ``hands``: datasets.synth.scene.HANDS. A pon's called tile called stacked
    is the harmful error: the pipeline then reads that pon as a kakan."""
    import onnxruntime as ort

    from datasets.synth.scene import render_scene

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1
    sess = ort.InferenceSession(str(onnx_path), opts, providers=["CPUExecutionProvider"])
    counts = {k: [0, 0] for k in ("stacked", "pon", "sideways", "upright")}
    for seed in tqdm(
        range(seed0, seed0 + n), desc="check stacked map", file=sys.stdout, mininterval=5
    ):
        scene = render_scene(np.random.default_rng(seed), hands=hands)
        melds = [str(m) for m in scene.hand.get("melds") or []]  # type: ignore[attr-defined]
        x, scale = prepare(scene.image)
        (out,) = sess.run(None, {sess.get_inputs()[0].name: x})
        hits = decode(np.asarray(out, np.float32), scale)
        flags = stacked_flags(scene.tiles)
        for t, flag in zip(scene.tiles, flags, strict=True):
            if flag is None or t.truncated:
                continue
            best = max(hits, key=lambda h: iou(h.box, t.box), default=None)
            if best is None or iou(best.box, t.box) < 0.5:
                continue
            pon = t.meld is not None and melds[t.meld].startswith("pon:")
            key = (
                "stacked" if flag else "upright" if t.angle != 90 else "pon" if pon else "sideways"
            )
            counts[key][0] += 1
            counts[key][1] += best.stacked_prob >= threshold
    return {
        f"{k}_called_stacked": round(hit / total, 4) if total else 0.0
        for k, (total, hit) in counts.items()
    } | {f"{k}_tiles": total for k, (total, _hit) in counts.items()}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument(
        "--init-onnx",
        default="models/tile_detector.onnx",
        help="the detector to extend (six maps, or seven to train the branch on)",
    )
    ap.add_argument("--minutes", type=float, default=60.0)
    ap.add_argument("--renders", type=int, default=1500, help="scenes to render for training")
    ap.add_argument("--seed", type=int, default=20_000, help="renders use 1_000_000 + seed …")
    ap.add_argument(
        "--stacked-boost",
        type=float,
        default=4.0,
        help="draw scenes holding a stacked pair this many times as often",
    )
    ap.add_argument(
        "--focus",
        type=float,
        default=0.7,
        help="share of crops centred on a called (sideways) tile",
    )
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--size", type=int, default=384, help="training crop side (multiple of 32)")
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--eval", type=int, default=200, help="held-out scenes to check at the end")
    ap.add_argument("--eval-seed0", type=int, default=EVAL_SEED0)
    ap.add_argument("--out", default="runs/stack")
    args = ap.parse_args(argv)
    if args.size % 32:
        ap.error("--size must be a multiple of 32")
    out = Path(args.out)
    log = run_log(out)
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    log(f"args {vars(args)}")
    net = detector_from_onnx(args.init_onnx, stacked=True)
    trained = freeze_all_but_stack(net)
    log(f"training {len(trained)} tensors of the stacked branch; the rest is frozen")
    renders = render_scenes(
        args.renders, 1_000_000 + args.seed, max(1, args.workers), hands="kakan"
    )
    has_stack = np.array([any(p.stacked) for p in renders])
    log(f"rendered scenes {len(renders)}, {int(has_stack.sum())} with a stacked pair")
    weights = np.where(has_stack, args.stacked_boost, 1.0)
    data = DetData(renders, weights, 10**7, args.size, focus=args.focus)
    kw: dict = dict(num_workers=args.workers, persistent_workers=args.workers > 0, drop_last=True)
    if args.workers > 0:
        kw |= dict(prefetch_factor=4, worker_init_fn=_worker_init)
    loader = DataLoader(data, batch_size=args.batch, **kw)
    train_loop(
        "stacked",
        net,
        loader,
        stack_loss,
        args.minutes * 60,
        torch.device("cpu"),
        args.lr,
        log,
        freeze_bn=True,
        ckpt=out / "tile_detector.pt",
    )
    torch.save(net.state_dict(), out / "tile_detector.pt")
    path = out / "tile_detector.onnx"
    export(
        net,
        torch.zeros(1, 3, 512, 512),
        path,
        {"input": {2: "h", 3: "w"}, "output": {2: "h4", 3: "w4"}},
    )
    # the six old maps must be exactly the starting detector's
    base = detector_from_onnx(args.init_onnx, stacked=False)
    probe = prepare(renders[0].load())[0]
    with torch.no_grad():
        mine = net.eval()(torch.from_numpy(probe))[:, :6].numpy()
        ref = base(torch.from_numpy(probe)).numpy()
    drift = float(np.abs(mine - ref).max())
    log(
        f"wrote {path}; six old maps differ from {args.init_onnx} by at most {drift:.2e}; "
        f"ONNX vs torch {check_against_onnx(net, path, probe):.2e}"
    )
    stats = {
        "args": vars(args),
        "renders": len(renders),
        "with_stack": int(has_stack.sum()),
        "old_maps_drift": drift,
    }
    if args.eval:
        stats["heldout"] = evaluate(path, args.eval, args.eval_seed0)
        log(f"held-out scenes {args.eval_seed0}+{args.eval}: {stats['heldout']}")
    (out / "train_stats.json").write_text(json.dumps(stats, indent=1))
    return 0


if __name__ == "__main__":
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    sys.exit(main())

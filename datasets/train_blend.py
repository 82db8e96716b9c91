"""Blend a fine-tune (classifier or detector) with the model it started from; export to ONNX.

A fine-tune that teaches something new (here: what is not a tile) may lose a little of what the
starting model knew (a few Hong Kong photos read less exactly). Weights on the straight line
between the two models keep much of both (weight-space ensembling, "WiSE-FT", Wortsman et al.
2022): the blend is ``(1 − share) × start + share × tuned``, one network, the same size and
speed as either::

    .venv/bin/python -m datasets.train_blend --start models/tile_classifier.onnx \
        --tuned RUN/tile_classifier.pt --share 0.5 --out DIR/tile_classifier.onnx

The start is read from its ONNX (``datasets/train_init.py``, exact); the fine-tune's
``.pt`` has the same BatchNorm statistics (a fine-tune keeps them frozen), so every weight,
statistics included, blends alike. ``--model detector`` blends a detector fine-tune
(``tile_detector.pt``) the same way.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import torch

from datasets.train_init import classifier_from_onnx, detector_from_onnx
from datasets.train_nets import ClsNet, DetNet
from sanma_lens.vision.classify import CLASSES, CROP_H, CROP_W


def blend(
    start: dict[str, torch.Tensor], tuned: dict[str, torch.Tensor], share: float
) -> dict[str, torch.Tensor]:
    """``(1 − share) × start + share × tuned``, tensor by tensor; counters (BatchNorm's
    ``num_batches_tracked``) are the tuned model's. The two must have the same tensors."""
    if not 0.0 <= share <= 1.0:
        raise ValueError(f"share must lie in [0, 1], got {share}")
    if start.keys() != tuned.keys():
        raise ValueError("the two models do not have the same weights")
    out = {}
    for name, a in start.items():
        b = tuned[name]
        if a.shape != b.shape:
            raise ValueError(f"{name}: shapes {tuple(a.shape)} and {tuple(b.shape)} differ")
        out[name] = (
            ((1 - share) * a.float() + share * b.float()).to(a.dtype)
            if a.is_floating_point()
            else b.clone()
        )
    return out


def blended_classifier(start_onnx: Path | str, tuned_pt: Path | str, share: float) -> ClsNet:
    """The classifier whose weights blend ``start_onnx``'s and ``tuned_pt``'s."""
    start = classifier_from_onnx(start_onnx, len(CLASSES)).state_dict()
    tuned = torch.load(tuned_pt, map_location="cpu")
    net = ClsNet(len(CLASSES))
    net.load_state_dict(blend(start, tuned, share))
    return net.eval()


def blended_detector(start_onnx: Path | str, tuned_pt: Path | str, share: float) -> DetNet:
    """The detector whose weights blend ``start_onnx``'s and ``tuned_pt``'s."""
    net = detector_from_onnx(start_onnx)
    tuned = torch.load(tuned_pt, map_location="cpu")
    net.load_state_dict(blend(net.state_dict(), tuned, share))
    return net.eval()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", choices=["classifier", "detector"], default="classifier")
    ap.add_argument("--start", required=True, help="the starting model's ONNX")
    ap.add_argument(
        "--tuned", required=True, help="the fine-tune's tile_classifier.pt (tile_detector.pt)"
    )
    ap.add_argument(
        "--share", type=float, required=True, help="the fine-tune's share of each weight, 0 to 1"
    )
    ap.add_argument("--out", required=True, help="the blend's ONNX file")
    args = ap.parse_args(argv)
    from datasets.train import export  # torch's exporter, as the training runs use it

    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    if args.model == "detector":  # exported as datasets.train exports it
        export(
            blended_detector(args.start, args.tuned, args.share),
            torch.zeros(1, 3, 512, 512),
            out,
            {"input": {2: "h", 3: "w"}, "output": {2: "h4", 3: "w4"}},
        )
    else:
        export(
            blended_classifier(args.start, args.tuned, args.share),
            torch.zeros(1, 3, CROP_H, CROP_W),
            out,
            {"input": {0: "n"}, "output": {0: "n"}},
        )
    print(f"wrote {out} ({args.share:g} of {args.tuned}, {1 - args.share:g} of {args.start})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

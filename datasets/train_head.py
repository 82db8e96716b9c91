"""Retrain only the classifier's last layer (the 160→40 Gemm head) on CPU, from a shipped ONNX.

    OMP_NUM_THREADS=1 nice -n 19 .venv/bin/python -m datasets.train_head \
        --init models/tile_classifier.onnx --out .dev/rec3/head/tile_classifier.onnx \
        [--renders 300] [--views 2] [--epochs 30] [--anchor 1e-3] [--seed 0]

The convolutional trunk is kept exactly; its pooled 160-d features (the Gemm's input) are
computed once for augmented crops (``datasets.train_data.photo_crop``) of hk-hands ``train``,
jp-upright's training four fifths and rendered scenes (seeds 1_000_000+, the training range),
each crop also turned 180° (the pipeline averages both readings). The head is then fitted by
cross-entropy with an L2 pull towards the shipped head (``--anchor``), and written into a copy
of the ONNX file (only ``fc.weight`` / ``fc.bias`` change). hk-hands train boxes labelled ``1p``
that the shipped model reads as another tile with p ≥ 0.9 are left out: in hk valid every such
box was inspected and was another tile (datasets/manifests/hk_valid_corrections.json), so the
train split's ``1p`` labels carry the same noise. Only CPU, 1 thread, minutes.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from datasets import train_data as td
from sanma_lens.vision.classify import CLASSES, to_input

FEATURE_OP = "Gemm"


def head_weights(path: Path | str) -> tuple[np.ndarray, np.ndarray]:
    """The final Gemm's (weight 40×F, bias 40) of an exported classifier."""
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(path))
    gemm = [n for n in model.graph.node if n.op_type == FEATURE_OP][-1]
    inits = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    return inits[gemm.input[1]].copy(), inits[gemm.input[2]].copy()


def trunk_session(path: Path | str, threads: int = 1) -> object:
    """An onnxruntime session of the classifier whose output is the head's input features."""
    import onnx
    import onnxruntime as ort

    model = onnx.load(str(path))
    gemm = [n for n in model.graph.node if n.op_type == FEATURE_OP][-1]
    feat = gemm.input[0]
    del model.graph.output[:]
    model.graph.output.append(
        onnx.helper.make_tensor_value_info(feat, onnx.TensorProto.FLOAT, None)
    )
    model.graph.node.remove(gemm)
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    return ort.InferenceSession(model.SerializeToString(), opts, providers=["CPUExecutionProvider"])


def features(session: object, crops: list[np.ndarray], batch: int = 256) -> np.ndarray:
    """Head-input features of BGR crops (N×F float32)."""
    name = session.get_inputs()[0].name  # type: ignore[attr-defined]
    out = []
    for i in range(0, len(crops), batch):
        (f,) = session.run(None, {name: to_input(crops[i : i + batch])})  # type: ignore[attr-defined]
        out.append(np.asarray(f, np.float32))
    return np.concatenate(out) if out else np.zeros((0, 0), np.float32)


def write_head(src: Path | str, dst: Path | str, weight: np.ndarray, bias: np.ndarray) -> None:
    """Copy the ONNX classifier at ``src`` to ``dst`` with the head replaced."""
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(src))
    gemm = [n for n in model.graph.node if n.op_type == FEATURE_OP][-1]
    for init in model.graph.initializer:
        if init.name == gemm.input[1]:
            init.CopyFrom(numpy_helper.from_array(weight.astype(np.float32), init.name))
        elif init.name == gemm.input[2]:
            init.CopyFrom(numpy_helper.from_array(bias.astype(np.float32), init.name))
    Path(dst).parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(dst))


def fit_head(
    feats: np.ndarray,
    labels: np.ndarray,
    w0: np.ndarray,
    b0: np.ndarray,
    epochs: int,
    anchor: float,
    lr: float = 3e-3,
    seed: int = 0,
    weights: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Softmax regression from (w0, b0): cross-entropy + anchor·|W−w0|², Adam, minibatches."""
    import torch

    torch.manual_seed(seed)
    x = torch.from_numpy(feats)
    y = torch.from_numpy(labels.astype(np.int64))
    sw = torch.from_numpy(weights.astype(np.float32)) if weights is not None else None
    w = torch.tensor(w0, requires_grad=True)
    b = torch.tensor(b0, requires_grad=True)
    w_ref, b_ref = torch.tensor(w0), torch.tensor(b0)
    opt = torch.optim.Adam([w, b], lr=lr)
    gen = torch.Generator().manual_seed(seed)
    for ep in range(epochs):
        order = torch.randperm(len(x), generator=gen)
        total = 0.0
        for i in range(0, len(x), 512):
            idx = order[i : i + 512]
            logits = x[idx] @ w.T + b
            ce = torch.nn.functional.cross_entropy(logits, y[idx], reduction="none")
            ce = (ce * sw[idx]).sum() / sw[idx].sum() if sw is not None else ce.mean()
            loss = ce + anchor * (((w - w_ref) ** 2).sum() + ((b - b_ref) ** 2).sum())
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += float(ce.detach()) * len(idx)
        if ep % 5 == 0 or ep == epochs - 1:
            print(f"epoch {ep}: cross-entropy {total / len(x):.4f}", flush=True)
    return w.detach().numpy(), b.detach().numpy()


def _noisy_1p(probs: np.ndarray, label: str) -> bool:
    k = int(np.argmax(probs))
    return label == "1p" and CLASSES[k] != "1p" and probs[k] >= 0.9


def collect(
    init: Path, renders: int, views: int, seed: int
) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Features (crop and crop turned 180°) and class indices of the training crops."""
    from sanma_lens.vision.classify import softmax

    sess = trunk_session(init)
    w0, b0 = head_weights(init)
    rng = np.random.default_rng(seed)
    sources: list[tuple[str, list[td.Photo]]] = [
        ("hk", td.hk_photos("train")),
        ("jp", td.jp_photos(heldout=False)),
    ]
    if renders:
        from datasets.train import render_scenes

        sources.append(("render", render_scenes(renders, 1_000_000 + 50_000 + seed, 1)))
    feats, labels, origin = [], [], []
    t0 = time.time()
    for name, photos in sources:
        dropped = 0
        for n, p in enumerate(photos):
            crops, labs = [], []
            for j, lab in enumerate(p.labels):
                if lab == "partial":
                    continue
                for v in range(views):
                    c = td.photo_crop(p, j, rng if v else None)
                    crops += [c, c[::-1, ::-1].copy()]
                    labs += [lab, lab]
            if name != "render":
                p.image = None
            if not crops:
                continue
            f = features(sess, crops)
            if name == "hk":
                pr = softmax(f @ w0.T + b0)
                keep = [
                    i
                    for i in range(0, len(labs), 2)
                    if not _noisy_1p(0.5 * (pr[i] + pr[i + 1]), labs[i])
                ]
                dropped += len(labs) // 2 - len(keep)
                keep = [i + d for i in keep for d in (0, 1)]
                f, labs = f[keep], [labs[i] for i in keep]
            feats.append(f)
            labels += [td.class_index(lab) for lab in labs]
            origin += [name] * len(labs)
            if n % 200 == 0:
                print(
                    f"{name} {n}/{len(photos)} photos, {len(labels)} crops, "
                    f"{time.time() - t0:.0f} s",
                    flush=True,
                )
        if name == "hk":
            print(
                f"hk train: {dropped} crops labelled 1p read as another tile (p>=0.9) left out",
                flush=True,
            )
    return np.concatenate(feats), np.array(labels), origin


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--init", default="models/tile_classifier.onnx")
    ap.add_argument("--out", required=True)
    ap.add_argument("--renders", type=int, default=300)
    ap.add_argument("--views", type=int, default=2, help="crops per box (1 plain + augmented)")
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--anchor", type=float, default=1e-3)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--cache", default=None, help="npz of collected features (reused if present)")
    args = ap.parse_args(argv)
    init = Path(args.init)
    if args.cache and Path(args.cache).exists():
        d = np.load(args.cache)
        feats, labels, origin = d["feats"], d["labels"], list(d["origin"])
    else:
        feats, labels, origin = collect(init, args.renders, args.views, args.seed)
        if args.cache:
            np.savez(args.cache, feats=feats, labels=labels, origin=np.array(origin))
    print(f"{len(labels)} training features", flush=True)
    w0, b0 = head_weights(init)
    org = np.array(origin)
    # each source weighs the same in the loss, whatever its crop count
    weights = np.ones(len(labels), np.float32)
    for name in set(origin):
        sel = org == name
        weights[sel] = len(labels) / (len(set(origin)) * sel.sum())
    w, b = fit_head(feats, labels, w0, b0, args.epochs, args.anchor, args.lr, args.seed, weights)
    write_head(init, args.out, w, b)
    print(
        f"wrote {args.out}; head moved by |dW| {np.abs(w - w0).mean():.4f} "
        f"(|W0| {np.abs(w0).mean():.4f})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

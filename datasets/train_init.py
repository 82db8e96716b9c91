"""Start a fine-tune from a shipped ONNX classifier (its PyTorch weights were not kept).

``torch.onnx.export`` folds each BatchNorm into the convolution before it (the exported graph is
Conv(+bias) → Relu … ReduceMean → Gemm, nothing else with weights). Folding loses nothing for
inference, so the folded weights go back into :class:`datasets.train_nets.ClsNet` exactly:
each Conv2d gets the folded kernel and its BatchNorm becomes the identity plus the folded bias
(mean 0, variance 1 − eps, scale 1, shift = bias). :func:`check_against_onnx` proves the
import: the torch model's logits equal onnxruntime's on real inputs.

During the fine-tune the BatchNorms keep these statistics (``freeze_batchnorm``): the network
trained is then exactly the one exported, and small CPU batches cannot disturb the statistics.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import torch
from torch import nn

from datasets.train_nets import ClsNet


def _initializers(path: Path) -> tuple[list[str], dict[str, np.ndarray], list[tuple[str, list]]]:
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(path))
    inits = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    nodes = [(n.op_type, list(n.input)) for n in model.graph.node]
    ops = sorted({op for op, _ in nodes})
    return ops, inits, nodes


def classifier_from_onnx(path: Path | str, n_classes: int) -> ClsNet:
    """A :class:`ClsNet` holding the weights of the exported classifier at ``path``."""
    ops, inits, nodes = _initializers(Path(path))
    allowed = {"Conv", "Relu", "MaxPool", "Add", "ReduceMean", "Gemm"}
    if not set(ops) <= allowed:
        raise ValueError(f"unexpected ops in {path}: {sorted(set(ops) - allowed)}")
    convs = [inp for op, inp in nodes if op == "Conv"]
    gemms = [inp for op, inp in nodes if op == "Gemm"]
    net = ClsNet(n_classes)
    pairs = [
        (m, net.get_submodule(name.rsplit(".", 1)[0] + ".1"))
        for name, m in net.named_modules()
        if isinstance(m, nn.Conv2d)
    ]
    if len(convs) != len(pairs) or len(gemms) != 1:
        raise ValueError(f"{path}: {len(convs)} convs / {len(gemms)} gemms, expected "
                         f"{len(pairs)} / 1")
    with torch.no_grad():
        for (conv, bn), inp in zip(pairs, convs, strict=True):
            w, b = inits[inp[1]], inits[inp[2]]
            if tuple(w.shape) != tuple(conv.weight.shape):
                raise ValueError(f"shape {w.shape} ≠ {tuple(conv.weight.shape)} for {inp[1]}")
            conv.weight.copy_(torch.from_numpy(np.array(w)))
            bn.weight.fill_(1.0)
            bn.bias.copy_(torch.from_numpy(np.array(b)))
            bn.running_mean.zero_()
            bn.running_var.fill_(1.0 - bn.eps)
        w, b = inits[gemms[0][1]], inits[gemms[0][2]]
        net.fc.weight.copy_(torch.from_numpy(np.array(w)))
        net.fc.bias.copy_(torch.from_numpy(np.array(b)))
    return net.eval()


def freeze_batchnorm(model: nn.Module) -> None:
    """BatchNorms to their stored statistics (call after ``model.train()``; scale/shift learn)."""
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.eval()


def check_against_onnx(model: nn.Module, path: Path | str, x: np.ndarray) -> float:
    """Largest |torch logit − onnxruntime logit| on ``x`` (N×3×64×48 float32)."""
    import onnxruntime as ort

    sess = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    (ref,) = sess.run(None, {sess.get_inputs()[0].name: x.astype(np.float32)})
    was = model.training
    model.eval()
    with torch.no_grad():
        got = model(torch.from_numpy(x.astype(np.float32))).numpy()
    model.train(was)
    return float(np.abs(got - np.asarray(ref)).max())

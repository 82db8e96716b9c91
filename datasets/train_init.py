"""Start a fine-tune from a shipped ONNX model (their PyTorch weights were not kept).

``torch.onnx.export`` folds each BatchNorm into the convolution before it (the exported graph is
Conv(+bias) → Relu … ReduceMean → Gemm, nothing else with weights). Folding loses nothing for
inference, so the folded weights go back into :class:`datasets.train_nets.ClsNet` or
:class:`~datasets.train_nets.DetNet` exactly: each Conv2d gets the folded kernel and its
BatchNorm becomes the identity plus the folded bias (mean 0, variance 1 − eps, scale 1, shift =
bias); a convolution without a BatchNorm (the detector's FPN laterals and head) gets its own
bias. :func:`check_against_onnx` proves the import: the torch model's outputs equal
onnxruntime's on real inputs.

During the fine-tune the BatchNorms keep these statistics (``freeze_batchnorm``): the network
trained is then exactly the one exported, and small CPU batches cannot disturb the statistics.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import torch
from torch import nn

from datasets.train_nets import ClsNet, DetNet
from sanma_lens.vision.classify import CROP_H, CROP_W


def _initializers(path: Path) -> tuple[list[str], dict[str, np.ndarray], list[tuple[str, list]]]:
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(path))
    inits = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    nodes = [(n.op_type, list(n.input)) for n in model.graph.node]
    ops = sorted({op for op, _ in nodes})
    return ops, inits, nodes


def _batchnorm_after(net: nn.Module, name: str) -> nn.BatchNorm2d | None:
    """The BatchNorm right after the convolution ``name`` in its ``Sequential``, if any."""
    if "." not in name:
        return None
    parent, index = name.rsplit(".", 1)
    seq = net.get_submodule(parent)
    if not isinstance(seq, nn.Sequential) or int(index) + 1 >= len(seq):
        return None
    nxt = seq[int(index) + 1]
    return nxt if isinstance(nxt, nn.BatchNorm2d) else None


def _conv_call_order(net: nn.Module, example: torch.Tensor) -> list[str]:
    """Names of ``net``'s Conv2d modules in the order the forward pass runs them, which is the
    order of the exported graph's Conv nodes (registration order differs, e.g. the FPN)."""
    order: list[str] = []
    hooks = [
        m.register_forward_hook(lambda *_, n=name: order.append(n))
        for name, m in net.named_modules()
        if isinstance(m, nn.Conv2d)
    ]
    try:
        with torch.no_grad():
            net.eval()(example)
    finally:
        for h in hooks:
            h.remove()
    return order


def _import_folded(net: nn.Module, path: Path, example: torch.Tensor, allowed: set[str]) -> None:
    """Copy the exported weights at ``path`` into ``net`` (see the module docstring)."""
    ops, inits, nodes = _initializers(path)
    if not set(ops) <= allowed:
        raise ValueError(f"unexpected ops in {path}: {sorted(set(ops) - allowed)}")
    convs = [inp for op, inp in nodes if op == "Conv"]
    gemms = [inp for op, inp in nodes if op == "Gemm"]
    linears = [m for m in net.modules() if isinstance(m, nn.Linear)]
    names = _conv_call_order(net, example)
    if len(convs) != len(names) or len(gemms) != len(linears):
        raise ValueError(
            f"{path}: {len(convs)} convs / {len(gemms)} gemms, expected "
            f"{len(names)} / {len(linears)}"
        )

    def put(param: torch.Tensor, key: str) -> None:
        value = np.array(inits[key])
        if tuple(value.shape) != tuple(param.shape):
            raise ValueError(f"shape {value.shape} ≠ {tuple(param.shape)} for {key}")
        param.copy_(torch.from_numpy(value))

    with torch.no_grad():
        for name, inp in zip(names, convs, strict=True):
            conv = net.get_submodule(name)
            put(conv.weight, inp[1])
            bn = _batchnorm_after(net, name)
            if bn is None:  # a convolution with its own bias (no BatchNorm to fold)
                put(conv.bias, inp[2])
                continue
            bn.weight.fill_(1.0)
            put(bn.bias, inp[2])
            bn.running_mean.zero_()
            bn.running_var.fill_(1.0 - bn.eps)
        for lin, inp in zip(linears, gemms, strict=True):
            put(lin.weight, inp[1])
            put(lin.bias, inp[2])
    net.eval()


def classifier_from_onnx(path: Path | str, n_classes: int) -> ClsNet:
    """A :class:`ClsNet` holding the weights of the exported classifier at ``path``."""
    net = ClsNet(n_classes)
    allowed = {"Conv", "Relu", "MaxPool", "Add", "ReduceMean", "Gemm"}
    _import_folded(net, Path(path), torch.zeros(1, 3, CROP_H, CROP_W), allowed)
    return net


def detector_from_onnx(path: Path | str, stacked: bool | None = None) -> DetNet:
    """A :class:`DetNet` holding the weights of the exported detector at ``path``.

    ``stacked``: build the net with the stacked branch (its weights new when the file has none);
    None: as the file is (seven output maps: with the branch)."""
    has_stack = output_maps(path) == 7
    net = DetNet(stacked=has_stack)
    allowed = {"Conv", "Relu", "Add", "Constant", "Resize", "Concat"}
    _import_folded(net, Path(path), torch.zeros(1, 3, 64, 64), allowed)
    if stacked and not has_stack:
        grown = DetNet(stacked=True)
        missing = grown.load_state_dict(net.state_dict(), strict=False).missing_keys
        assert all(k.startswith(("stack.", "stack_fine.")) for k in missing), missing
        return grown.eval()
    if stacked is False and has_stack:
        net.stack = net.stack_fine = None
    return net


def output_maps(path: Path | str) -> int:
    """How many output maps the exported detector at ``path`` gives (6, or 7 with stacked)."""
    import onnx

    dims = onnx.load(str(path)).graph.output[0].type.tensor_type.shape.dim
    return int(dims[1].dim_value)


def freeze_batchnorm(model: nn.Module) -> None:
    """BatchNorms to their stored statistics (call after ``model.train()``; scale/shift learn)."""
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.eval()


def check_against_onnx(model: nn.Module, path: Path | str, x: np.ndarray) -> float:
    """Largest |torch output − onnxruntime output| on ``x`` (the model's input, float32)."""
    import onnxruntime as ort

    sess = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    (ref,) = sess.run(None, {sess.get_inputs()[0].name: x.astype(np.float32)})
    was = model.training
    model.eval()
    with torch.no_grad():
        got = model(torch.from_numpy(x.astype(np.float32))).numpy()
    model.train(was)
    return float(np.abs(got - np.asarray(ref)).max())

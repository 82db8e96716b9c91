"""The head-only retrain (datasets/train_head.py): features are the Gemm's input, a new head is
written into a copy of the model without touching the trunk, and the fit moves the head towards
the labels while the anchor holds it near the shipped one."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
pytest.importorskip("torch")
pytest.importorskip("onnxruntime")

from datasets import train_head as th  # noqa: E402
from sanma_lens.vision.classify import CLASSES, CROP_H, CROP_W, to_input  # noqa: E402

N_CLASSES = len(CLASSES)


def _tiny_classifier(path: Path, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """A stand-in exported classifier: channel means (ReduceMean) → Gemm 3 → 40 logits."""
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(seed)
    w = rng.normal(size=(N_CLASSES, 3)).astype(np.float32)
    b = rng.normal(size=N_CLASSES).astype(np.float32)
    x = helper.make_tensor_value_info("input", TensorProto.FLOAT, [None, 3, CROP_H, CROP_W])
    y = helper.make_tensor_value_info("output", TensorProto.FLOAT, [None, N_CLASSES])
    nodes = [
        helper.make_node("ReduceMean", ["input"], ["pooled"], axes=[2, 3], keepdims=0),
        helper.make_node("Gemm", ["pooled", "fc.weight", "fc.bias"], ["output"], transB=1),
    ]
    graph = helper.make_graph(
        nodes,
        "tiny",
        [x],
        [y],
        [numpy_helper.from_array(w, "fc.weight"), numpy_helper.from_array(b, "fc.bias")],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.save(model, str(path))
    return w, b


def _crops(n: int, seed: int = 1) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [rng.integers(0, 256, (CROP_H, CROP_W, 3), dtype=np.uint8) for _ in range(n)]


def test_features_are_the_heads_input_and_the_head_is_read_back(tmp_path: Path) -> None:
    path = tmp_path / "cls.onnx"
    w, b = _tiny_classifier(path)
    w_read, b_read = th.head_weights(path)
    assert np.array_equal(w_read, w) and np.array_equal(b_read, b)
    crops = _crops(5)
    feats = th.features(th.trunk_session(path), crops, batch=2)
    want = to_input(crops).mean(axis=(2, 3))
    assert feats.shape == (5, 3)
    assert feats == pytest.approx(want, abs=1e-5)


def test_written_head_changes_only_the_head(tmp_path: Path) -> None:
    import onnxruntime as ort

    src, dst = tmp_path / "a.onnx", tmp_path / "b.onnx"
    _tiny_classifier(src)
    rng = np.random.default_rng(3)
    w2 = rng.normal(size=(N_CLASSES, 3)).astype(np.float32)
    b2 = rng.normal(size=N_CLASSES).astype(np.float32)
    th.write_head(src, dst, w2, b2)
    crops = _crops(4)
    feats = th.features(th.trunk_session(dst), crops)
    (logits,) = ort.InferenceSession(str(dst)).run(None, {"input": to_input(crops)})
    assert logits == pytest.approx(feats @ w2.T + b2, abs=1e-4)
    kinds = [n.op_type for n in onnx.load(str(dst)).graph.node]
    assert kinds == ["ReduceMean", "Gemm"]


def test_fit_learns_the_labels_and_the_anchor_holds_the_head() -> None:
    rng = np.random.default_rng(0)
    centres = rng.normal(size=(4, 6)) * 3
    labels = rng.integers(0, 4, 800)
    feats = (centres[labels] + rng.normal(size=(800, 6))).astype(np.float32)
    w0 = np.zeros((N_CLASSES, 6), np.float32)
    b0 = np.zeros(N_CLASSES, np.float32)
    w, b = th.fit_head(feats, labels, w0, b0, epochs=40, anchor=0.0, lr=0.05)
    accuracy = ((feats @ w.T + b).argmax(axis=1) == labels).mean()
    assert accuracy > 0.95
    w_held, _ = th.fit_head(feats, labels, w0, b0, epochs=5, anchor=1e4, lr=0.05)
    assert np.abs(w_held).max() < 0.05 < np.abs(w).max()


def test_train_split_1p_labels_the_model_reads_surely_as_another_tile_are_noise() -> None:
    p = np.full(N_CLASSES, 0.001, np.float32)
    p[CLASSES.index("4p")] = 0.95
    assert th._noisy_1p(p, "1p")
    assert not th._noisy_1p(p, "4p")  # a label that agrees is kept
    p_unsure = p.copy()
    p_unsure[CLASSES.index("4p")] = 0.6
    assert not th._noisy_1p(p_unsure, "1p")  # the model unsure: the label stands

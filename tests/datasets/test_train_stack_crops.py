"""Training data and network of the stacked-tile crop classifier (datasets/train_stack_crops.py)."""

from __future__ import annotations

import numpy as np
import pytest

from datasets.synth.scene import render_scene
from sanma_lens.vision.stacked import SIZE


def _scene_with_both(hands: str = "kakan") -> int:
    """The first seed whose scene has a stacked kakan and a called tile with nothing on it."""
    for seed in range(3_950_000, 3_950_200):
        scene = render_scene(np.random.default_rng(seed), hands=hands)
        under = {t.meld for t in scene.tiles if t.occluded}
        called = {t.meld for t in scene.tiles if t.group == "meld" and t.angle == 90}
        if under and called - under:
            return seed
    raise AssertionError("no such scene")


def test_rule_23_the_tile_on_a_stacked_kakan_is_the_positive_the_rest_are_negatives() -> None:
    pytest.importorskip("torch")
    from datasets.train_stack_crops import scene_crops

    seed = _scene_with_both()
    scene = render_scene(np.random.default_rng(seed), hands="kakan")
    under = {t.meld for t in scene.tiles if t.occluded}
    tops = [t for t in scene.tiles if t.group == "meld" and t.angle == 90 and not t.occluded]
    stacked = sum(t.meld in under for t in tops)
    crops, labels, kinds = scene_crops(seed, "kakan", pos_crops=3)
    assert sum(labels) == 3 * stacked  # the hidden called tile under it gives no crop
    assert len(labels) - sum(labels) == len(tops) - stacked
    assert all(c.shape == (SIZE, SIZE, 3) for c in crops)
    assert {k for k, lab in zip(kinds, labels, strict=True) if lab} == {"kakan"}


def test_the_network_gives_one_probability_per_crop() -> None:
    torch = pytest.importorskip("torch")
    from datasets.train_binary import WithSigmoid
    from datasets.train_stack_crops import StackNet

    p = WithSigmoid(StackNet()).eval()(torch.zeros(5, 3, SIZE, SIZE))
    assert p.shape == (5, 1) and bool(((p > 0) & (p < 1)).all())


def test_export_binary_writes_the_networks_probability_for_any_batch(tmp_path):
    """datasets.train_binary.export_binary, as both crop networks (stack classifier, tile
    check) are exported: onnxruntime answers the sigmoid of the network's logit."""
    torch = pytest.importorskip("torch")
    ort = pytest.importorskip("onnxruntime")
    from datasets.train_binary import export_binary
    from datasets.train_stack_crops import StackNet

    net = StackNet().eval()
    export_binary(net, SIZE, tmp_path / "net.onnx")
    x = np.random.default_rng(0).random((3, 3, SIZE, SIZE), dtype=np.float32)
    sess = ort.InferenceSession(str(tmp_path / "net.onnx"), providers=["CPUExecutionProvider"])
    got = sess.run(None, {sess.get_inputs()[0].name: x})[0]
    with torch.no_grad():
        want = torch.sigmoid(net(torch.from_numpy(x))).numpy()
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)

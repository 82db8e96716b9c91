"""datasets.train_blend: a classifier whose weights lie between a fine-tune and the model it
started from, exported to ONNX."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")
ort = pytest.importorskip("onnxruntime")

from datasets import train_blend  # noqa: E402
from datasets.train import export  # noqa: E402
from datasets.train_nets import ClsNet  # noqa: E402
from sanma_lens.vision.classify import CLASSES, CROP_H, CROP_W  # noqa: E402


def _net(seed: int) -> ClsNet:
    torch.manual_seed(seed)
    net = ClsNet(len(CLASSES)).eval()
    with torch.no_grad():  # statistics away from the defaults, as a trained net's
        for m in net.modules():
            if isinstance(m, torch.nn.BatchNorm2d):
                m.running_mean.uniform_(-0.2, 0.2)
                m.running_var.uniform_(0.5, 1.5)
    return net


def _onnx_logits(path, x: np.ndarray) -> np.ndarray:
    sess = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    return sess.run(None, {sess.get_inputs()[0].name: x})[0]


def test_blend_weights_lie_on_the_line_between_the_two_models():
    a, b = _net(1).state_dict(), _net(2).state_dict()
    half = train_blend.blend(a, b, 0.25)
    for name, t in half.items():
        if t.is_floating_point():
            torch.testing.assert_close(t, 0.75 * a[name] + 0.25 * b[name])
        else:
            assert torch.equal(t, b[name])
    for name, t in train_blend.blend(a, b, 0.0).items():
        if t.is_floating_point():
            torch.testing.assert_close(t, a[name])


def test_blend_refuses_a_share_outside_zero_to_one_and_other_networks():
    a, b = _net(1).state_dict(), _net(2).state_dict()
    with pytest.raises(ValueError, match="share"):
        train_blend.blend(a, b, 1.5)
    del b[next(iter(b))]
    with pytest.raises(ValueError, match="same weights"):
        train_blend.blend(a, b, 0.5)


def test_blend_cli_exports_the_start_at_share_0_and_the_fine_tune_at_share_1(tmp_path):
    start, tuned = _net(1), _net(2)
    export(
        start,
        torch.zeros(1, 3, CROP_H, CROP_W),
        tmp_path / "start.onnx",
        {"input": {0: "n"}, "output": {0: "n"}},
    )
    torch.save(tuned.state_dict(), tmp_path / "tuned.pt")
    x = np.random.default_rng(0).random((3, 3, CROP_H, CROP_W), dtype=np.float32)
    with torch.no_grad():
        want_tuned = tuned(torch.from_numpy(x)).numpy()
    want_start = _onnx_logits(tmp_path / "start.onnx", x)
    for share, want in ((0.0, want_start), (1.0, want_tuned)):
        out = tmp_path / f"blend{share}.onnx"
        assert (
            train_blend.main(
                [
                    "--start",
                    str(tmp_path / "start.onnx"),
                    "--tuned",
                    str(tmp_path / "tuned.pt"),
                    "--share",
                    str(share),
                    "--out",
                    str(out),
                ]
            )
            == 0
        )
        np.testing.assert_allclose(_onnx_logits(out, x), want, rtol=1e-4, atol=1e-4)


def test_blend_cli_blends_a_detector_too(tmp_path):
    """--model detector: the start read back from its ONNX, the fine-tune from its .pt; share 1
    exports the fine-tune, share 0.5 lies between the two."""
    from datasets.train_nets import DetNet

    torch.manual_seed(3)
    start = DetNet().eval()
    with torch.no_grad():  # statistics and biases away from the defaults, as a trained net's
        for m in start.modules():
            if isinstance(m, torch.nn.BatchNorm2d):
                m.running_mean.uniform_(-0.2, 0.2)
                m.running_var.uniform_(0.5, 1.5)
                m.bias.uniform_(-0.1, 0.1)
    export(
        start,
        torch.zeros(1, 3, 64, 64),
        tmp_path / "start.onnx",
        {"input": {2: "h", 3: "w"}, "output": {2: "h4", 3: "w4"}},
    )
    # a fine-tune starts from the exported weights (BatchNorm folded in) and moves them
    from datasets.train_init import detector_from_onnx

    tuned = detector_from_onnx(tmp_path / "start.onnx").eval()
    with torch.no_grad():
        for p in tuned.parameters():
            p.add_(0.01 * torch.randn_like(p))
    torch.save(tuned.state_dict(), tmp_path / "tuned.pt")
    x = np.random.default_rng(0).random((1, 3, 96, 128), dtype=np.float32)
    with torch.no_grad():
        want_tuned = tuned(torch.from_numpy(x)).numpy()
    want_start = _onnx_logits(tmp_path / "start.onnx", x)
    outs = {}
    for share in (0.0, 0.5, 1.0):
        out = tmp_path / f"det{share}.onnx"
        assert (
            train_blend.main(
                [
                    "--model",
                    "detector",
                    "--start",
                    str(tmp_path / "start.onnx"),
                    "--tuned",
                    str(tmp_path / "tuned.pt"),
                    "--share",
                    str(share),
                    "--out",
                    str(out),
                ]
            )
            == 0
        )
        outs[share] = _onnx_logits(out, x)
    np.testing.assert_allclose(outs[0.0], want_start, rtol=1e-3, atol=1e-3)
    np.testing.assert_allclose(outs[1.0], want_tuned, rtol=1e-3, atol=1e-3)
    assert not np.allclose(outs[0.5], outs[0.0], atol=1e-4)
    assert not np.allclose(outs[0.5], outs[1.0], atol=1e-4)

"""The detector's stacked map: its labels, its training data and its network (datasets/)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest

from datasets.synth.hands import random_hand_spec
from sanma_lens.vision.pipeline import MODELS


@dataclass(frozen=True)
class _Label:
    box: tuple[float, float, float, float]
    occluded: bool = False
    meld: int | None = None
    angle: int = 0


def test_stacked_flags_mark_a_kakans_called_and_added_tiles_only() -> None:
    pytest.importorskip("torch")
    from datasets.train import stacked_flags

    tiles = [
        _Label((0, 0, 40, 30), occluded=True, meld=0, angle=90),  # called, under the added
        _Label((1, -8, 41, 22), meld=0, angle=90),  # the added tile on it
        _Label((42, 0, 72, 40), meld=0),  # the kakan's upright tile
        _Label((100, 0, 140, 30), meld=1, angle=90),  # a pon's called tile: no stack
        _Label((200, 0, 230, 40), occluded=True),  # a wall's lower tile
        _Label((200, -8, 230, 32)),  # ... and the one on it
        _Label((300, 0, 330, 40)),  # a hand tile
    ]
    assert stacked_flags(tiles) == [True, True, False, False, None, None, False]


def test_kakan_hands_have_melds_and_stacked_kakans() -> None:
    """The stacked map's training hands (``kakans=True``): never a plain row, always 1–3 melds,
    many of them kakans with the added tile on the called one."""
    specs = [random_hand_spec(np.random.default_rng(s), kakans=True) for s in range(60)]
    assert all(1 <= len(s.melds) <= 3 for s in specs)
    stacked = sum(m.stacked for s in specs for m in s.melds)
    assert stacked >= 15  # about 0.4 × 0.7 of ~110 melds
    assert all(m.kind == "kakan" for s in specs for m in s.melds if m.stacked)


@pytest.mark.skipif(not (MODELS / "tile_detector.onnx").is_file(), reason="no model")
def test_a_grown_stacked_branch_leaves_the_six_maps_as_they_were() -> None:
    """datasets/train_stack.py trains only the new branch: the six maps of the detector it
    starts from come out bit for bit, and only the branch's tensors learn."""
    pytest.importorskip("torch")
    pytest.importorskip("onnx")
    import torch

    from datasets.train_init import check_against_onnx, detector_from_onnx
    from datasets.train_stack import freeze_all_but_stack

    path = MODELS / "tile_detector.onnx"
    net = detector_from_onnx(path, stacked=True)
    assert net.stack is not None
    trained = freeze_all_but_stack(net)
    assert trained and all(n.startswith(("stack.", "stack_fine.")) for n in trained)
    x = np.random.default_rng(0).random((1, 3, 96, 128), dtype=np.float32)
    with torch.no_grad():
        seven = net.eval()(torch.from_numpy(x)).numpy()
    assert seven.shape[1] == 7
    six = detector_from_onnx(path, stacked=False)
    with torch.no_grad():
        assert np.array_equal(seven[:, :6], six(torch.from_numpy(x)).numpy())
    as_shipped = detector_from_onnx(path)  # six maps or seven, as the file is
    assert check_against_onnx(as_shipped, path, x) < 1e-3

"""Training-side helpers of the classifier fine-tune: the rotation augmentation's crop and the
``--focus-real`` weights (datasets/train_data.py, datasets/train.py)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("torch")

from datasets import train_data as td  # noqa: E402
from datasets.train import FOCUS_REAL, parse_focus  # noqa: E402
from sanma_lens.vision.classify import CROP_H, CROP_W, cut_tile  # noqa: E402


def _photo_with_tile() -> tuple[np.ndarray, np.ndarray]:
    """A grey photo with one white 40×60 tile whose top half holds a red bar."""
    img = np.full((200, 200, 3), 90, np.uint8)
    img[70:130, 80:120] = 255
    img[78:88, 85:115] = (0, 0, 255)
    return img, np.array([80, 70, 120, 130], np.float32)


def test_rotated_crop_at_zero_degrees_is_the_plain_crop() -> None:
    img, box = _photo_with_tile()
    got = td.rotated_crop(img, box, 0.0, False)
    want = cut_tile(img, tuple(box), False)
    assert got.shape == (CROP_H, CROP_W, 3)
    assert np.abs(got.astype(int) - want.astype(int)).mean() < 3


def test_rotated_crop_cuts_the_turned_tiles_whole_box() -> None:
    img, box = _photo_with_tile()
    got = td.rotated_crop(img, box, 30.0, False)
    # the turned tile's axis-aligned box is larger than the tile: grey table in the corners,
    # the tile (white) in the middle, the red bar still there (colour kept)
    corners = np.concatenate([got[:4, :4], got[:4, -4:], got[-4:, :4], got[-4:, -4:]])
    assert np.abs(corners.astype(int) - 90).mean() < 20
    assert got[CROP_H // 2, CROP_W // 2].min() > 200
    red = (got[..., 2] > 180) & (got[..., 0] < 80) & (got[..., 1] < 80)
    assert red.sum() > 20


def test_photo_crop_rotates_only_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    img, box = _photo_with_tile()
    photo = td.Photo("in-memory", box[None], ["1m"], [False], image=img)
    assert td.ROTATE_P == 0.0  # off unless --rotate sets it
    plain = td.photo_crop(photo, 0, None)
    assert np.array_equal(plain, cut_tile(img, tuple(box), False))

    def grey_corners(crop: np.ndarray) -> bool:
        return bool(np.abs(crop[:3, :3].astype(int) - 90).mean() < 25)

    monkeypatch.setattr(td, "ROTATE_P", 1.0)
    monkeypatch.setattr(td, "ROTATE_DEG", 40.0)
    rng = np.random.default_rng(3)
    turned = [grey_corners(td.photo_crop(photo, 0, rng)) for _ in range(20)]
    assert sum(turned) >= 5  # most draws turn the tile by more than a few degrees
    monkeypatch.setattr(td, "ROTATE_P", 0.0)
    rng = np.random.default_rng(3)
    assert sum(grey_corners(td.photo_crop(photo, 0, rng)) for _ in range(20)) < sum(turned)


def test_parse_focus_reads_kind_weights_and_defaults_to_focus_real() -> None:
    assert parse_focus(None) == FOCUS_REAL
    assert parse_focus("4p:3,flower:2") == {"4p": 3.0, "flower": 2.0}
    with pytest.raises(ValueError):
        parse_focus("4x:3")
    with pytest.raises(ValueError):
        parse_focus("4p")


def test_det_weights_default_halves_real_and_rendered() -> None:
    from datasets.train import det_weights

    w = det_weights(6, 2, 4, None)
    assert w[:8].sum() == pytest.approx(w[8:].sum())
    assert len(set(w[:8])) == 1 and len(set(w[8:])) == 1
    assert np.all(det_weights(6, 2, 0, None) == 1.0)  # no renders: every photo alike


def test_det_weights_mix_gives_each_group_its_share() -> None:
    from datasets.train import det_weights

    w = det_weights(6, 2, 4, "0.5,0.2,0.3")
    assert w[:6].sum() / w.sum() == pytest.approx(0.5)
    assert w[6:8].sum() / w.sum() == pytest.approx(0.2)
    assert w[8:].sum() / w.sum() == pytest.approx(0.3)
    w = det_weights(6, 0, 4, "0.5,0.2,0.3")  # no jp photos: its share goes to nobody
    assert w[:6].sum() / w.sum() == pytest.approx(0.5 / 0.8)
    with pytest.raises(ValueError):
        det_weights(6, 2, 4, "1,1")
    with pytest.raises(ValueError):
        det_weights(0, 2, 4, "1,0,0")


def test_det_data_crop_size_sets_input_and_target_maps() -> None:
    from datasets.train import DetData
    from sanma_lens.vision.detect import STRIDE

    img, box = _photo_with_tile()

    class _Photo:
        boxes = box[None].copy()
        labels = ["1p"]
        sideways = [False]
        stacked = [True]

        @staticmethod
        def load() -> np.ndarray:
            return img

    data = DetData([_Photo()], np.ones(1), 1, size=192)
    x, heat, weight, *_, stackt, stackm = data[0]
    assert tuple(x.shape) == (3, 192, 192)
    assert tuple(heat.shape) == (192 // STRIDE, 192 // STRIDE) == tuple(weight.shape)
    assert tuple(stackt.shape) == tuple(stackm.shape) == tuple(heat.shape)


def test_det_targets_mark_stacked_tiles_at_their_centres() -> None:
    """The stacked map's targets (datasets/train_stack.py): 1 at a stacked tile's centre, 0 at
    another tile's, and no target (mask 0) at a tile whose stacking is unknown."""
    from datasets.train import DetData
    from sanma_lens.vision.detect import STRIDE

    data = DetData([], np.ones(1), 1, size=192)
    boxes = np.array([[20, 20, 60, 80], [80, 20, 120, 80], [130, 20, 170, 80]], np.float32)
    *_, stackt, stackm = data.targets(boxes, np.zeros(3, np.int64), np.array([1, 0, -1]))
    cells = [(int((b[1] + b[3]) / 2 / STRIDE), int((b[0] + b[2]) / 2 / STRIDE)) for b in boxes]
    assert [float(stackt[c]) for c in cells] == [1.0, 0.0, 0.0]
    assert [float(stackm[c]) for c in cells] == [1.0, 1.0, 0.0]

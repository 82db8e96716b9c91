"""The classifier's looser second looks (vision/settings.py ``wide_margins``, ``wide_below``): a
tile read unsure is cut again with wider margins and, when those looks agree, the readings are
averaged; looks that disagree, sure tiles, crops the caller cut (``probabilities``) and a
classifier without wide margins leave the first reading alone."""

from __future__ import annotations

import numpy as np
import pytest

from sanma_lens.vision.classify import CLASSES, CROP_H, CROP_W, MARGIN, TileClassifier, cut_tile
from sanma_lens.vision.settings import SETTINGS


class _RedShare:
    """A stand-in session: logit 0 = 12 × the crop's mean redness (R − G); every other logit
    0. A crop with little red is read unsure, one with much red surely class 0."""

    def __init__(self) -> None:
        self.batches: list[int] = []

    def get_inputs(self) -> list:
        return [type("I", (), {"name": "input"})()]

    def run(self, _names, feed):
        x = next(iter(feed.values()))
        self.batches.append(x.shape[0])
        out = np.zeros((x.shape[0], len(CLASSES)), np.float32)
        out[:, 0] = 12 * (x[:, 0] - x[:, 1]).mean(axis=(1, 2))
        out[:, 2] = 40 * (x[:, 2] - x[:, 1]).mean(axis=(1, 2))  # blueness: class 2
        return [out]


def _photo() -> np.ndarray:
    """Grey photo; tile A (a white box) inside a red surround, tile B (all red) elsewhere."""
    img = np.full((300, 300, 3), 120, np.uint8)
    img[40:160, 40:140] = (0, 0, 255)  # red surround (BGR)
    img[70:130, 70:110] = 255  # tile A: white, only its surround is red
    img[200:260, 200:240] = (0, 0, 255)  # tile B: red through and through
    return img


BOX_A = (70.0, 70.0, 110.0, 130.0)
BOX_B = (200.0, 200.0, 240.0, 260.0)


def test_a_wider_margin_takes_in_more_of_the_surround() -> None:
    img = _photo()
    crop = cut_tile(img, BOX_A, False)
    assert type(crop) is np.ndarray and crop.shape == (CROP_H, CROP_W, 3)
    wide = cut_tile(img, BOX_A, False, margin=0.3)
    assert wide[..., 1].mean() < crop[..., 1].mean() - 20  # more red surround, less green
    assert np.array_equal(cut_tile(img, BOX_A, False, margin=MARGIN), crop)


def test_an_unsure_tile_is_read_again_looser_and_averaged() -> None:
    img = _photo()
    session = _RedShare()
    clf = TileClassifier(session, turn=True, wide=(0.2, 0.3), wide_below=0.9)
    plain = TileClassifier(_RedShare(), turn=True, wide=())
    got = clf.classify_boxes(img, [BOX_A, BOX_B], [False, False])
    base = plain.probabilities([cut_tile(img, b, False) for b in (BOX_A, BOX_B)])
    assert base[0].max() < 0.9 <= base[1].max()  # A unsure, B sure
    looks = [cut_tile(img, BOX_A, False, margin=m) for m in (0.2, 0.3)]
    wide = plain.probabilities(looks)
    assert got[0] == pytest.approx((base[0] + wide[0] + wide[1]) / 3, abs=1e-6)
    assert got[0][0] > base[0][0]  # the surround made it surer
    assert got[1] == pytest.approx(base[1], abs=1e-7)  # the sure tile is left alone
    assert session.batches == [4, 4]  # 2 crops + turns, then A's 2 looks + turns


def test_cut_crops_and_no_wide_margins_are_read_once() -> None:
    img = _photo()
    a = cut_tile(img, BOX_A, False)  # unsure, but a bare crop cannot be cut again
    session = _RedShare()
    TileClassifier(session, wide=(0.2,)).probabilities([a])
    assert session.batches == [1]
    session = _RedShare()
    TileClassifier(session, wide=()).classify_boxes(img, [BOX_A], [False])
    assert session.batches == [1]


def test_the_pipeline_uses_the_chosen_looks() -> None:
    """The recognizer the product runs reads unsure crops again with the module's looks."""
    from sanma_lens.vision.pipeline import CLASSIFIER, MODELS, Recognizer

    if not (MODELS / CLASSIFIER).is_file():
        pytest.skip("models/*.onnx not present")
    classifier = Recognizer(threads=1).classifier
    assert classifier.wide == SETTINGS.wide_margins and SETTINGS.wide_margins
    assert classifier.wide_below == SETTINGS.wide_below


def test_looks_that_disagree_leave_the_first_reading() -> None:
    """A blue ring just outside the 0.2 margin: the 0.3 look reads class 2, the 0.2 look
    class 0 (the red surround); they disagree, so the tight reading stands."""
    img = _photo()
    img[40:160, 40:140] = (255, 0, 0)  # blue ring (BGR) …
    img[58:142, 62:118] = (0, 0, 255)  # … around a red band around tile A (the 0.2 box)
    img[70:130, 70:110] = 255
    a = cut_tile(img, BOX_A, False)
    looks = [cut_tile(img, BOX_A, False, margin=m) for m in (0.2, 0.3)]
    plain = TileClassifier(_RedShare(), turn=True, wide=())
    read = plain.probabilities([a, *looks]).argmax(axis=1)
    assert read[1] == 0 and read[2] == 2  # the two looks disagree
    got = TileClassifier(_RedShare(), turn=True, wide=(0.2, 0.3)).classify_boxes(
        img, [BOX_A], [False]
    )
    assert got[0] == pytest.approx(plain.probabilities([a])[0], abs=1e-7)
